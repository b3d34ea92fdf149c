//! Whole worlds on a surface flow field: hordes find the walkable route to their target, never
//! stand in a blocked cell, climb to an upper floor by the ramp, and report route lengths.

use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
use swarm_core::glam::{Vec2, Vec3};
use swarm_core::{AgentId, Archetype, World, WorldSettings};

mod common;
use common::{ascii, DT, ROOMS};

fn rooms_world(n: usize, threads: usize) -> (World, Vec<AgentId>) {
    let mut w = World::new(WorldSettings {
        max_agents: n,
        worker_threads: threads,
        dormancy_enabled: false,
        ..Default::default()
    });
    w.set_surface(Some(ascii(&ROOMS)));
    let mut a = Archetype::default();
    a.agent_radius = 0.3;
    let arch = w.add_archetype(a);
    // Agents in the top-left room, target in the bottom-left: the door is 25 m to the right.
    let ids = (0..n)
        .map(|i| w.spawn(arch, Vec3::new(2.0 + (i % 10) as f32, 0.0, 2.0 + (i / 10) as f32 * 0.8)).unwrap())
        .collect();
    w.register_target(Vec3::new(4.0, 0.0, 15.0), 1.0);
    (w, ids)
}

fn blocked(g: &SurfaceGrid, p: Vec3) -> bool {
    match g.locate(p) {
        Some(c) => !g.is_walkable(c),
        None => true,
    }
}

#[test]
fn a_horde_goes_around_the_wall_through_the_door_and_never_enters_it() {
    // 200 agents squeeze through a 2 m door: dense at the door for most of the run.
    let (mut w, ids) = rooms_world(200, 0);
    for s in 0..3600 {
        w.step(DT);
        if s % 5 == 0 {
            let g = &w.surface().unwrap().grid;
            for &id in &ids {
                let p = w.position(id).unwrap();
                assert!(!blocked(g, p), "step {s}: agent in a blocked cell at {p:?}");
                // The wall row is z in 9..10 except the door at x in 25..27.
                assert!(!(p.z > 9.0 && p.z < 10.0 && p.x < 25.0), "step {s}: agent inside the wall at {p:?}");
            }
        }
    }
    let target = Vec2::new(4.0, 15.0);
    let arrived = ids.iter().filter(|&&id| {
        let p = w.position(id).unwrap();
        Vec2::new(p.x, p.z).distance(target) < 9.0
    });
    let arrived = arrived.count();
    assert!(arrived >= 150, "{arrived} of 200 agents reached the target behind the wall");
    assert!(w.flow_field_rebuilds() >= 1);
}

#[test]
fn route_length_goes_through_the_door() {
    let (mut w, _) = rooms_world(1, 1);
    let straight = 13.0;
    let route = w.path_length(Vec3::new(4.0, 0.0, 2.0), Vec3::new(4.0, 0.0, 15.0)).unwrap();
    // Via the door at x = 25.5: about 22 m there and 22 m back.
    assert!(route > 2.5 * straight, "route {route}");
    assert!(route < 50.0, "route {route}");
    assert_eq!(w.path_length(Vec3::new(4.0, 0.0, 2.0), Vec3::new(f32::NAN, 0.0, 0.0)), None);
}

#[test]
fn flow_field_steps_are_identical_on_one_and_two_threads() {
    let run = |threads| {
        let (mut w, _) = rooms_world(200, threads);
        for _ in 0..300 {
            w.step(DT);
        }
        w.agents().pos.clone()
    };
    assert!(run(1) == run(2));
}

#[test]
fn agents_climb_a_ramp_to_the_upper_floor() {
    // Ground floor z < 10 at height 0; a ramp along x = 0..3 rising 0.3 m per metre from z = 10 to
    // 19; an upper floor z >= 20 at 3 m, reachable only by the ramp (a 3 m wall elsewhere).
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 20, 30, |x, z, o| {
        if z < 10 {
            o.push(SurfaceSample::walkable(0.0));
        } else if z < 20 {
            if x < 3 {
                o.push(SurfaceSample::walkable((z as f32 - 9.5) * 0.3));
            } else {
                o.push(SurfaceSample::blocked(0.0));
            }
        } else {
            o.push(SurfaceSample::walkable(3.0));
        }
    });
    let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
    let mut w = World::new(WorldSettings { max_agents: 10, dormancy_enabled: false, ..Default::default() });
    w.set_surface(Some(g));
    let arch = w.add_archetype(Archetype::default());
    let id = w.spawn(arch, Vec3::new(15.0, 0.0, 3.0)).unwrap();
    w.register_target(Vec3::new(15.0, 3.0, 25.0), 1.0);
    let mut max_y: f32 = 0.0;
    for _ in 0..3000 {
        w.step(DT);
        max_y = max_y.max(w.position(id).unwrap().y);
    }
    let p = w.position(id).unwrap();
    assert!(p.z > 20.0 && (p.y - 3.0).abs() < 0.05, "agent ended at {p:?}");
    assert!(max_y <= 3.05);
}

#[test]
fn a_closed_door_stops_everyone_who_presses_it_and_opening_it_lets_them_through() {
    use swarm_core::flow_field::{ModifierBox, RouteMode};
    let (mut w, ids) = rooms_world(60, 0);
    // The only door (x 25..27 in the wall row z 9..10), closed to agents, routes pay 10 m.
    let door =
        ModifierBox::aligned(Vec3::new(26.0, 0.5, 9.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(10.0));
    let mut stamps = Vec::new();
    w.surface_mut().unwrap().set_modifiers(&[door], &mut stamps);
    assert_eq!(stamps[0].cells, 2);
    let mut pressed_max = 0;
    for _ in 0..1800 {
        w.step(DT);
        pressed_max = pressed_max.max(w.surface().unwrap().pressing_count(0));
        for &id in &ids {
            assert!(w.position(id).unwrap().z < 9.0, "an agent got through the closed door");
        }
    }
    assert!(pressed_max >= 3, "agents crowd the closed door: at most {pressed_max} pressed it");
    // Open it (the game's door script sets is_open): the horde pours through.
    w.surface_mut().unwrap().set_modifiers(&[], &mut stamps);
    for _ in 0..1800 {
        w.step(DT);
    }
    let through = ids.iter().filter(|&&id| w.position(id).unwrap().z > 10.0).count();
    assert!(through >= 50, "{through} of 60 went through the opened door");
}

#[test]
fn agents_pressing_an_attackable_door_strike_it_and_push_along_their_heading() {
    use swarm_core::flow_field::{ModifierBox, RouteMode};
    let (mut w, others) = rooms_world(20, 0);
    for id in others {
        w.despawn(id);
    }
    let mut a = Archetype::default();
    a.attack = Some(swarm_core::AttackProfile::default());
    let arch = w.add_archetype(a);
    let ids: Vec<AgentId> =
        (0..20).map(|i| w.spawn(arch, Vec3::new(22.0 + (i % 5) as f32, 0.0, 4.0 + (i / 5) as f32)).unwrap()).collect();
    let door =
        ModifierBox::aligned(Vec3::new(26.0, 0.5, 9.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(10.0));
    let nav = w.surface_mut().unwrap();
    let mut stamps = Vec::new();
    nav.set_modifiers(&[door], &mut stamps);
    nav.set_attackable(&[true]);
    let mut blows = 0;
    let mut push = swarm_core::glam::Vec2::ZERO;
    for _ in 0..600 {
        w.step(DT);
        blows += w.attack_events().iter().filter(|e| e.obstacle == Some(0)).count();
        push = w.surface().unwrap().push_direction(0);
    }
    assert!(blows >= 5, "agents pressing the door struck it {blows} times");
    assert!(push.y > 0.5, "the crowd shoves the door toward the target (+z): {push:?}");
    assert!(ids.iter().all(|&id| w.position(id).unwrap().z < 9.0));
}

#[test]
fn agents_on_two_floors_do_not_push_each_other() {
    // A 20 x 20 m ground floor at 0 m with a second floor at 4 m above it: pairs of agents
    // standing at the same spot on either floor overlap on the ground plane only. Body blocking
    // leaves them be (Personal Space is off, so only blocking could move them); a pair on one
    // floor is pushed apart.
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 20, 20, |_, _, o| {
        o.push(SurfaceSample::walkable(0.0));
        o.push(SurfaceSample::walkable(4.0));
    });
    let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
    let mut w = World::new(WorldSettings { max_agents: 10, dormancy_enabled: false, ..Default::default() });
    w.set_surface(Some(g));
    let mut a = Archetype::default();
    a.behavior.use_idle_motion = false;
    a.behavior.use_personal_space = false;
    let arch = w.add_archetype(a);
    let low = w.spawn(arch, Vec3::new(5.5, 0.0, 5.5)).unwrap();
    let high = w.spawn(arch, Vec3::new(5.6, 4.0, 5.5)).unwrap();
    let (b1, b2) =
        (w.spawn(arch, Vec3::new(14.5, 0.0, 14.5)).unwrap(), w.spawn(arch, Vec3::new(14.6, 0.0, 14.5)).unwrap());
    assert!((w.position(high).unwrap().y - 4.0).abs() < 0.01 && w.position(low).unwrap().y.abs() < 0.01);
    for _ in 0..60 {
        w.step(DT);
    }
    let (pl, ph) = (w.position(low).unwrap(), w.position(high).unwrap());
    assert!(pl.y.abs() < 0.01 && (ph.y - 4.0).abs() < 0.01, "each keeps its floor: {pl:?} {ph:?}");
    let apart = |a: Vec3, b: Vec3| Vec2::new(a.x - b.x, a.z - b.z).length();
    assert!(apart(pl, ph) < 0.2, "stacked agents were pushed apart: {pl:?} {ph:?}");
    let same_floor = apart(w.position(b1).unwrap(), w.position(b2).unwrap());
    // (Both radii are 0.4 m: apart means at least 0.8 m, less rounding.)
    assert!(same_floor > 0.799, "a pair on one floor is separated: {same_floor}");
}

#[test]
fn obstacle_damage_scale_multiplies_blows_on_doors_and_zero_only_presses() {
    use swarm_core::flow_field::{ModifierBox, RouteMode};
    // Blows on the door, per agent archetype scale: (blows, damage of each, most pressing at once).
    let run = |scale: f32| {
        let (mut w, others) = rooms_world(20, 0);
        for id in others {
            w.despawn(id);
        }
        let mut a = Archetype::default();
        a.attack = Some(swarm_core::AttackProfile::default());
        a.obstacle_damage_scale = scale;
        let arch = w.add_archetype(a);
        for i in 0..20 {
            w.spawn(arch, Vec3::new(22.0 + (i % 5) as f32, 0.0, 4.0 + (i / 5) as f32)).unwrap();
        }
        let door =
            ModifierBox::aligned(Vec3::new(26.0, 0.5, 9.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(10.0));
        let nav = w.surface_mut().unwrap();
        nav.set_modifiers(&[door], &mut Vec::new());
        nav.set_attackable(&[true]);
        let (mut damages, mut pressing) = (Vec::new(), 0);
        for _ in 0..600 {
            w.step(DT);
            damages.extend(w.attack_events().iter().filter(|e| e.obstacle == Some(0)).map(|e| e.damage));
            pressing = pressing.max(w.surface().unwrap().pressing_count(0));
        }
        (damages, pressing)
    };
    let swing = swarm_core::AttackProfile::default().swing_damage;
    let (plain, _) = run(1.0);
    let (hard, _) = run(2.5);
    assert!(plain.len() >= 5 && hard.len() >= 5, "blows: {} at 1, {} at 2.5", plain.len(), hard.len());
    assert!(plain.iter().all(|&d| d == swing), "blows at scale 1: {plain:?}");
    assert!(hard.iter().all(|&d| (d - swing * 2.5).abs() < 1e-4), "blows at scale 2.5: {hard:?}");
    let (none, pressing) = run(0.0);
    assert!(none.is_empty(), "an archetype at scale 0 swung at the door {} times", none.len());
    assert!(pressing >= 3, "it still presses the door: at most {pressing} at once");
}

/// `path_length` toward a target's cell is read off the target's built field, and agrees with
/// the A* search it replaces.
#[test]
fn path_length_to_a_target_reads_its_field() {
    use swarm_core::flow_field::{path_length, PathScratch};
    let mut w = World::new(WorldSettings { max_agents: 10, ..Default::default() });
    w.set_surface(Some(ascii(&ROOMS)));
    let goal = Vec3::new(15.5, 0.0, 15.5);
    w.register_target(goal, 1.0);
    let a = w.add_archetype(Archetype::default());
    w.spawn(a, Vec3::new(2.5, 0.0, 2.5)).unwrap();
    for _ in 0..10 {
        w.step(DT);
    }
    let from = Vec3::new(3.5, 0.0, 4.5);
    let read = w.path_length(from, goal).unwrap();
    let nav = w.surface().unwrap();
    let (c, g) = (nav.cell_under(from), nav.cell_under(goal));
    let mut sc = PathScratch::new();
    let searched = path_length(&nav.grid, &nav.mods, c, g, f32::INFINITY, &mut sc).unwrap();
    assert!((read - searched).abs() < 1e-3, "field {read} vs search {searched}");
    assert!(read > 20.0, "the route goes round by the door");
}
