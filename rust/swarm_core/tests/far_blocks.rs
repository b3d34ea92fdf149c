//! Far blocks (the Importance LOD's turns): a far horde steps a block at a time, once every
//! `cheap_interval` steps (twice, four or eight times that farther out), keeps its pace (also walking in
//! through every level), stands still in between, gives the same bits on any thread count and
//! after a save, keeps pressing a closed door every step, and never crosses a wall however long a
//! turn's move.

use swarm_core::far_blocks::{self, FAR_BLOCK};
use swarm_core::flow_field::{ModifierBox, RouteMode, SurfaceGrid};
use swarm_core::glam::{Vec2, Vec3};
use swarm_core::lod::LodSettings;
use swarm_core::{Archetype, Range, World, WorldSettings};

mod common;
use common::{ascii, DT};

/// `n` agents on a sunflower disc of radius 60 m centred 250 m from the one target (so every
/// agent is beyond the mid band), dormancy off.
fn far_horde(n: usize, threads: usize, cheap_interval: u32) -> World {
    far_horde_at(n, threads, cheap_interval, 250.0, 60.0)
}

/// `far_horde` on a disc of `radius` centred `centre` metres from the target.
fn far_horde_at(n: usize, threads: usize, cheap_interval: u32, centre: f32, radius: f32) -> World {
    let mut w = World::new(WorldSettings {
        max_agents: n,
        worker_threads: threads,
        seed: 3,
        dormancy_enabled: false,
        lod: LodSettings { cheap_interval, ..Default::default() },
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for i in 0..n {
        let r = radius * ((i as f32 + 0.5) / n as f32).sqrt();
        let a = i as f32 * golden;
        w.spawn(arch, Vec3::new(centre + r * a.cos(), 0.0, r * a.sin())).unwrap();
    }
    w.register_target(Vec3::ZERO, 1.0);
    w
}

fn mean_distance(w: &World) -> f32 {
    let p = &w.agents().pos;
    p.iter().map(|q| Vec2::new(q.x, q.z).length()).sum::<f32>() / p.len() as f32
}

#[test]
fn a_far_horde_takes_turns_and_keeps_the_pace_of_one_stepped_every_step() {
    // 190 to 310 m out (turns every 16 steps), and 340 to 460 m out (every 32 steps).
    for centre in [250.0, 400.0] {
        let (mut turns, mut every_step) =
            (far_horde_at(4096, 2, 4, centre, 60.0), far_horde_at(4096, 2, 1, centre, 60.0));
        let start = mean_distance(&turns);
        let mut waited = 0;
        for _ in 0..300 {
            turns.step(DT);
            every_step.step(DT);
            waited += turns.stats().far_waiting;
            assert_eq!(every_step.stats().far_waiting + every_step.stats().far_turn, 0, "an interval of 1: none far");
        }
        // Past the first steps (a block waits only once it has taken a turn) most wait.
        let waited = waited as f32 / (300.0 * 4096.0);
        assert!(waited > 0.6, "{centre} m out: {:.0} % of agent-steps waited", waited * 100.0);
        let (a, b) = (start - mean_distance(&turns), start - mean_distance(&every_step));
        assert!(b > 5.0, "{centre} m out: the horde stepped every step advanced {b} m in 5 s");
        assert!(
            (a - b).abs() < 0.1 * b,
            "{centre} m out: the horde taking turns advanced {a} m, stepped every step {b} m"
        );
    }
}

#[test]
fn a_waiting_agent_stands_still_and_a_far_agent_moves_once_every_turn_of_its_level() {
    // Past the widened mid band (39.5 m with the margin), the turns of the default interval of 4
    // cover 8 steps from 25 level-1 turns' moves beyond it, 16 from 25 level-2 moves and 32 from
    // 25 level-3 moves, of the fastest archetype. With an archetype of 45 m/s in the world (and
    // none of its agents) those are 150, 300 and 600 m, and the hordes of 4.5 m/s walk in at a
    // tenth of that pace: one 205 to 325 m out, one 430 to 550 m out and one 740 to 860 m out.
    for (centre, radius, steps) in [(265.0, 60.0, 8u32), (490.0, 60.0, 16), (800.0, 60.0, 32)] {
        let mut w = far_horde_at(2048, 2, 4, centre, radius);
        let mut fast = Archetype::default();
        fast.movement.max_speed = Range { min: 45.0, max: 45.0 };
        w.add_archetype(fast);
        // Past the storage reorder of step 128 (the next comes at 256, after the runs): an agent
        // keeps its index throughout.
        for _ in 0..130 {
            w.step(DT);
        }
        let layout = w.layout_revision();
        // Over any `steps` steps, each far agent moves exactly once, on its block's turn.
        let n = w.count();
        for run in 0..3 {
            w.step(DT);
            let mut moves = vec![0u32; n];
            let mut far_all_run = vec![true; n];
            for _ in 0..steps {
                let before = w.agents().pos.clone();
                w.step(DT);
                let statuses = w.far_block_statuses().to_vec();
                for (i, (p, q)) in before.iter().zip(&w.agents().pos).enumerate() {
                    let status = far_blocks::of(&statuses, i);
                    if status == far_blocks::WAIT {
                        assert_eq!(p, q, "run {run}: agent {i} of a waiting block moved");
                    }
                    if far_blocks::is_turn(status) {
                        assert_eq!(far_blocks::turn_steps(status, 4), steps, "{centre} m out: agent {i}'s turn");
                    }
                    far_all_run[i] &= status != far_blocks::NEAR;
                    moves[i] += (p != q) as u32;
                }
            }
            let far: Vec<usize> = (0..n).filter(|&i| far_all_run[i]).collect();
            assert!(far.len() > n / 2, "run {run}: {} of {n} agents far all run", far.len());
            for &i in &far {
                assert_eq!(
                    moves[i], 1,
                    "{centre} m out, run {run}: far agent {i} moved {} times in {steps} steps",
                    moves[i]
                );
            }
        }
        assert!(w.far_block_statuses().len() == n.div_ceil(FAR_BLOCK));
        assert_eq!(w.layout_revision(), layout, "{centre} m out: storage was reordered during the runs");
    }
}

#[test]
fn far_blocks_give_the_same_bits_on_one_and_three_threads_and_after_a_save() {
    let bits = |w: &World| -> Vec<u32> {
        let a = w.agents();
        a.pos.iter().chain(&a.vel).flat_map(|v| v.to_array()).map(f32::to_bits).collect()
    };
    let (mut one, mut three) = (far_horde(3000, 1, 4), far_horde(3000, 3, 4));
    for _ in 0..37 {
        one.step(DT);
        three.step(DT);
    }
    assert_eq!(bits(&one), bits(&three), "1 and 3 threads after 37 steps");
    assert!(one.stats().far_waiting > 1000);
    // Saved between turns: the loaded world takes the same turns.
    let mut loaded = World::load(&three.save()).expect("load");
    for _ in 0..23 {
        one.step(DT);
        three.step(DT);
        loaded.step(DT);
    }
    assert_eq!(bits(&one), bits(&three), "1 and 3 threads after 60 steps");
    assert_eq!(bits(&three), bits(&loaded), "saved at step 37 and loaded");
}

/// A long level, 1 m cells: two rooms (z < 9 and z >= 10) joined by one 2 m door at x 100..102.
fn long_rooms() -> SurfaceGrid {
    let open = ".".repeat(120);
    let wall = format!("{}..{}", "#".repeat(100), "#".repeat(18));
    let rows: Vec<&str> = (0..20).map(|z| if z == 9 { wall.as_str() } else { open.as_str() }).collect();
    ascii(&rows)
}

/// 400 agents in the top room round x 100, the target in the bottom room at x 4: the route
/// goes through the door, about 100 m from the target.
fn long_rooms_world(dt_steps: u32) -> World {
    let mut w = World::new(WorldSettings {
        max_agents: 400,
        worker_threads: 2,
        dormancy_enabled: false,
        lod: LodSettings { cheap_interval: dt_steps, ..Default::default() },
        ..Default::default()
    });
    w.set_surface(Some(long_rooms()));
    let mut a = Archetype::default();
    a.agent_radius = 0.3;
    let arch = w.add_archetype(a);
    for i in 0..400 {
        w.spawn(arch, Vec3::new(91.0 + (i % 20) as f32, 0.0, 0.5 + (i / 20) as f32 * 0.4)).unwrap();
    }
    w.register_target(Vec3::new(4.0, 0.0, 15.0), 1.0);
    w
}

#[test]
fn a_far_crowd_at_a_closed_door_presses_it_every_step() {
    let mut w = long_rooms_world(4);
    let door =
        ModifierBox::aligned(Vec3::new(101.0, 0.5, 9.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(10.0));
    let mut stamps = Vec::new();
    w.surface_mut().unwrap().set_modifiers(&[door], &mut stamps);
    let mut waited = 0;
    for s in 0..900 {
        w.step(DT);
        waited += w.stats().far_waiting;
        let pressing = w.surface().unwrap().pressing_count(0);
        // The crowd reaches the door within a few seconds, then presses it every step: nobody
        // near the door waits out a step. (Stepped every step, 3 or 4 agents press it; with
        // turns, between 2 and 9.)
        if s >= 600 {
            assert!(pressing >= 2, "step {s}: only {pressing} agents pressed the closed door");
        }
        assert!(w.agents().pos.iter().all(|p| p.z < 9.0), "step {s}: an agent got through the closed door");
    }
    // Blocks away from the door (the crowd spreads along the wall) still take turns.
    assert!(waited > 0, "no block of the crowd ever waited");
}

#[test]
fn long_turns_on_a_flow_field_never_enter_a_wall() {
    // Steps of 0.1 s and a turn every 16 steps: a turn moves an agent up to about 6 m, six cells.
    let mut w = long_rooms_world(16);
    let mut waited = 0;
    for s in 0..600 {
        w.step(0.1);
        waited += w.stats().far_waiting;
        let g = &w.surface().unwrap().grid;
        for p in &w.agents().pos {
            assert!(
                g.locate(*p).is_some_and(|c| g.is_walkable(c)),
                "step {s}: agent off the walkable surface at {p:?}"
            );
            assert!(
                !(p.z > 9.0 && p.z < 10.0 && !(100.0..102.0).contains(&p.x)),
                "step {s}: agent inside the wall at {p:?}"
            );
        }
    }
    assert!(waited > 20_000, "far blocks waited {waited} agent-steps");
    // They went through the door toward the target.
    let through = w.agents().pos.iter().filter(|p| p.z > 10.0).count();
    assert!(through > 100, "{through} of 400 agents went through the door");
}

#[test]
fn a_move_of_many_cells_stops_at_the_wall_in_its_way() {
    // A 1 m wall at x 3..4; one agent at x 1.5 asks to move 5 m through it.
    let mut w = World::new(WorldSettings { max_agents: 1, ..Default::default() });
    w.set_surface(Some(ascii(&["...#......", "...#......", "...#......"])));
    let nav = w.surface().unwrap();
    let old = [Vec3::new(1.5, 0.0, 1.5)];
    let mut new = [Vec3::new(6.5, 0.0, 1.5)];
    let mut cells = [nav.grid.locate(old[0]).unwrap()];
    let mut pressed = [0u32];
    for enforce in [false, true] {
        nav.settle(enforce, &old, &mut new, &mut cells, &mut pressed, FAR_BLOCK, &[]);
        assert!(new[0].x < 3.0, "enforce {enforce}: moved through the wall to {:?}", new[0]);
        (new[0], cells[0]) = (Vec3::new(6.5, 0.0, 1.5), nav.grid.locate(old[0]).unwrap());
    }
}

/// Deepest overlap between any two agents within `within` metres of the origin (the target), as
/// a fraction of the sum of their radii.
fn max_overlap_fraction(w: &World, within: f32) -> f32 {
    let a = w.agents();
    let flat = |i: usize| Vec2::new(a.pos[i].x, a.pos[i].z);
    let near: Vec<usize> = (0..a.len()).filter(|&i| flat(i).length() < within).collect();
    let mut worst: f32 = 0.0;
    for (k, &i) in near.iter().enumerate() {
        for &j in &near[k + 1..] {
            let min = a.params[i].radius + a.params[j].radius;
            worst = worst.max((min - flat(i).distance(flat(j))) / min);
        }
    }
    worst
}

#[test]
fn a_horde_walking_in_through_the_turn_levels_keeps_its_pace_and_arrives_apart() {
    // 165 to 215 m out: turns every 32 steps, then 16 inside 99.5 m, 8 inside 69.5 m, 4
    // inside 54.5 m, then every step inside 39.5 m (the widened mid band and a margin).
    let (mut turns, mut every_step) = (far_horde_at(1024, 2, 4, 190.0, 25.0), far_horde_at(1024, 2, 1, 190.0, 25.0));
    let start = mean_distance(&turns);
    let mut levels_seen = [false; 4];
    for step in 0..2400 {
        turns.step(DT);
        every_step.step(DT);
        for &s in turns.far_block_statuses() {
            if let Some(level) = far_blocks::level(s) {
                levels_seen[level] = true;
            }
        }
        if step % 600 == 599 {
            let (a, b) = (start - mean_distance(&turns), start - mean_distance(&every_step));
            assert!(
                (a - b).abs() < 0.03 * b,
                "step {step}: the horde taking turns advanced {a} m, stepped every step {b} m"
            );
        }
    }
    assert_eq!(levels_seen, [true; 4], "turns of every level");
    // Those that have come inside the mid band are as far apart as those that always stepped.
    let (o_turns, o_every) = (max_overlap_fraction(&turns, 35.0), max_overlap_fraction(&every_step, 35.0));
    eprintln!(
        "overlap: turns {o_turns:.3}, every step {o_every:.3}; {} / {}",
        mean_distance(&turns),
        mean_distance(&every_step)
    );
    assert!(o_turns < 0.25, "the horde taking turns overlaps by {:.0} % of the radii", o_turns * 100.0);
}
