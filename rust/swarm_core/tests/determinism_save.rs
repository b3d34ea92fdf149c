//! One scenario with every feature the core has on (surface flow field, a door closing and
//! opening that agents strike until its breakable breaks it open and it is repaired, perception
//! with noises, attacks, moving targets, spawn/despawn churn drawn from a spawner's area and
//! generator, a director's continuous spawning, a traffic lane, a pinned agent, formation orders
//! given and cancelled): a hash of the whole simulation, the parts an engine keeps beside the
//! world included, after 10,000 steps is the same on 1, 2 and 8 threads, and the same when
//! everything is saved and loaded along the way (the world and its host parts, as
//! `SwarmManager.save_state` writes them).

use swarm_core::breakable::{BreakableConfig, BreakableEvent, BreakableState};
use swarm_core::flow_field::{ModifierBox, RouteMode};
use swarm_core::formation::FormationShape;
use swarm_core::glam::{Affine3A, Vec2, Vec3};
use swarm_core::host_parts::{HostPart, PartState};
use swarm_core::save::{decode_named, encode_named, HostNames};
use swarm_core::spawn::{Director, DirectorConfig, Mode, Shape, SpawnArea, SpawnRng};
use swarm_core::traffic::{Lane, LaneSetup, TrafficProfile};
use swarm_core::{AgentId, Archetype, AttackProfile, World, WorldSettings};

mod common;
use common::{ascii, perceiving_archetype, DT, ROOMS};

const STEPS: usize = 10_000;

fn build(threads: usize) -> World {
    let mut w = World::new(WorldSettings { max_agents: 300, worker_threads: threads, seed: 21, ..Default::default() });
    w.set_surface(Some(ascii(&ROOMS)));
    let p = w.add_archetype(perceiving_archetype());
    let mut k = Archetype::default();
    k.agent_radius = 0.3;
    k.attack = Some(AttackProfile::default());
    k.behavior.use_pressure = true;
    let k = w.add_archetype(k);
    w.register_target(Vec3::new(15.0, 0.0, 15.0), 1.0);
    w.register_target(Vec3::new(5.0, 0.0, 3.0), 0.5);
    for i in 0..200 {
        let pos = Vec3::new(1.0 + (i % 28) as f32, 0.0, 0.5 + (i / 28) as f32 * 0.5);
        w.spawn(if i % 3 == 0 { k } else { p }, pos).unwrap();
    }
    w
}

/// The world and what an engine keeps beside it: the door's breakable, a spawner's generator,
/// a director's schedule and a traffic lane.
struct Scene {
    w: World,
    door: BreakableState,
    door_broken_open: bool,
    rng: SpawnRng,
    director: Director,
    lane: Lane,
}

const DOOR: BreakableConfig = BreakableConfig {
    max_health: 150.0,
    strike_damage_scale: 1.0,
    damaged_below: 0.5,
    damaged_route_cost_scale: 0.5,
    crowd_pressure_per_agent: 0.5,
    hit_noise_radius: 10.0,
    hit_noise_interval: 1.0,
    break_noise_radius: 20.0,
    only_swarm_damage: true,
};

const DIRECTOR: DirectorConfig = DirectorConfig {
    mode: Mode::Continuous,
    initial_batch: 10,
    spawn_rate: 2.0,
    max_per_frame: 4,
    max_alive: 40,
    total_limit: 0,
    recycle_distance: 0.0,
    recycle_interval: 1.0,
    recycle_max_per_pass: 0,
};

fn area() -> SpawnArea {
    SpawnArea {
        shape: Shape::Rect { size: Vec2::new(20.0, 3.0) },
        xform: Affine3A::from_translation(Vec3::new(12.0, 0.0, 2.5)),
        ground_y: 0.0,
        off_screen: false,
        margin: 0.0,
        attempts: 1,
    }
}

fn scene(threads: usize) -> Scene {
    let setup = LaneSetup {
        length: 400.0,
        closed: true,
        reverse: false,
        vehicle_count: 0,
        window: None,
        anchor_offset: None,
        seed: 77,
        kinds: Vec::new(),
    };
    let mut director = Director::default();
    director.trigger(DIRECTOR.initial_batch);
    Scene {
        w: build(threads),
        door: BreakableState::new(&DOOR),
        door_broken_open: false,
        rng: SpawnRng::new(13),
        director,
        lane: Lane::new(TrafficProfile::default(), &setup),
    }
}

impl Scene {
    fn parts(&self) -> Vec<HostPart> {
        let part = |name: &str, state| HostPart { name: name.into(), state };
        vec![
            part(
                "Door/Breakable",
                PartState::Breakable { core: self.door, switched_off: self.door_broken_open, saved_route_cost: None },
            ),
            part("Spawner", PartState::Spawner { seed: 13, rng: self.rng }),
            part("Director", PartState::Director { schedule: self.director.clone(), cursor: 0 }),
            part("Lane", PartState::Lane(Box::new(self.lane.clone()))),
        ]
    }

    /// Saved and loaded as the engine does: the world and its host parts in one save.
    fn reloaded(self) -> Scene {
        let names = HostNames { parts: self.parts(), ..Default::default() };
        let (state, names) = decode_named(&encode_named(self.w.state(), &names)).expect("loads");
        let mut out = Scene { w: World::from_state(state), ..self };
        for p in names.parts {
            match p.state {
                PartState::Breakable { core, switched_off, .. } => {
                    out.door = core;
                    out.door_broken_open = switched_off;
                }
                PartState::Spawner { rng, .. } => out.rng = rng,
                PartState::Director { schedule, .. } => out.director = schedule,
                PartState::Lane(lane) => out.lane = *lane,
                PartState::Modifier { .. } => unreachable!(),
            }
        }
        out
    }
}

fn drive(sc: &mut Scene, s: usize) {
    let area = area();
    drive_world(sc, s);
    // The door's breakable takes the blows agents landed on it; breaking switches the box off
    // until the repair at the end of each 3,000 steps.
    let blows: Vec<f32> = sc.w.attack_events().iter().filter(|e| e.obstacle == Some(0)).map(|e| e.damage).collect();
    let mut changed = false;
    for amount in blows {
        if sc.door.wear(&DOOR, amount).is_some() && sc.door.settle(&DOOR).contains(&BreakableEvent::SwitchOff) {
            sc.door_broken_open = true;
            changed = true;
        }
    }
    if s % 3000 == 2999 && sc.door_broken_open {
        sc.door.repair(&DOOR);
        sc.door_broken_open = false;
        changed = true;
    }
    if changed {
        set_door(&mut sc.w, s, sc.door_broken_open);
    }
    // Churn: one despawn and one spawn at a point of the spawner's area.
    if s % 25 == 3 && sc.w.count() > 0 {
        let id = sc.w.id_at((s * 7) % sc.w.count());
        sc.w.despawn(id);
        let (at, _) = area.spawn_point(&mut sc.rng, None);
        let _ = sc.w.spawn((s % 2) as u16, at);
    }
    // The director: forget its dead, spawn what it wants where there is room.
    let dt = DT as f64;
    if sc.director.sweep_due(dt) {
        for id in sc.director.alive_ids() {
            if AgentId::from_i64(id).is_none_or(|a| !sc.w.is_alive(a)) {
                sc.director.forget(id);
            }
        }
    }
    let wanted = sc.director.wanted(&DIRECTOR, dt);
    let room = (sc.w.capacity() - sc.w.count()) as i64;
    let mut ids = Vec::new();
    for _ in 0..wanted.min(room) {
        let (at, _) = area.spawn_point(&mut sc.rng, None);
        if let Ok(id) = sc.w.spawn(1, at) {
            ids.push(id.to_i64());
        }
    }
    sc.director.record_spawned(&DIRECTOR, ids);
    sc.director.end_tick(&DIRECTOR);
    sc.lane.step(DT);
}

/// The door box as the schedule and the breakable leave it: closed every other 500 steps,
/// unless broken open.
fn set_door(w: &mut World, s: usize, broken_open: bool) {
    let closed = (s / 500).is_multiple_of(2) && !broken_open;
    let boxes: Vec<ModifierBox> = if closed {
        vec![ModifierBox::aligned(
            Vec3::new(26.0, 0.5, 9.5),
            Vec3::new(2.0, 2.0, 1.0),
            true,
            RouteMode::ExtraCost(60.0),
        )]
    } else {
        Vec::new()
    };
    let nav = w.surface_mut().unwrap();
    nav.set_modifiers(&boxes, &mut Vec::new());
    nav.set_attackable(&[true]);
}

/// The world's own schedule for step `s` (the door, targets, noises, the pinned agent,
/// formations), then the step.
fn drive_world(sc: &mut Scene, s: usize) {
    let w = &mut sc.w;
    let a = s as f32 * 0.01;
    w.set_target_position(0, Vec3::new(15.0 + 8.0 * a.cos(), 0.0, 15.0 + 3.0 * a.sin()));
    if s.is_multiple_of(500) {
        set_door(w, s, sc.door_broken_open);
    }
    if s % 40 == 7 {
        w.emit_noise(Vec3::new(3.0 + (s % 20) as f32, 0.0, 4.0), 8.0);
    }
    if s == 100 {
        let id = w.id_at(0);
        w.set_agent_target(id, Some(1));
    }
    if s % 1500 == 200 {
        // A formation order of 40 agents across the door, cancelled 1,000 steps later.
        let ids: Vec<_> = (0..40.min(w.count())).map(|k| w.id_at((k * 11 + s) % w.count())).collect();
        let dest = if (s / 1500).is_multiple_of(2) { Vec3::new(20.0, 0.0, 15.0) } else { Vec3::new(10.0, 0.0, 4.0) };
        let shape =
            FormationShape { points: (0..8).map(|k| Vec2::new(k as f32 - 3.5, 0.0)).collect(), ..Default::default() };
        w.move_in_formation(&ids, dest, shape, &mut Vec::new()).unwrap();
    }
    if s % 1500 == 1200 {
        let last = (1..=(s as i64)).rev().find(|&id| w.formation_progress(id).is_some());
        if let Some(id) = last {
            w.cancel_formation(id);
        }
    }
    w.step(DT);
}

/// FNV-1a over the serialized agents, targets and flow field, the tick count, and the host
/// parts.
fn state_hash(sc: &Scene) -> u64 {
    let w = &sc.w;
    let mut bytes = postcard::to_stdvec(w.agents()).unwrap();
    bytes.extend(postcard::to_stdvec(w.targets()).unwrap());
    bytes.extend(postcard::to_stdvec(w.surface().unwrap()).unwrap());
    bytes.extend(postcard::to_stdvec(w.state().formations()).unwrap());
    bytes.extend(w.stats().ticks.to_le_bytes());
    bytes.extend(postcard::to_stdvec(&sc.parts()).unwrap());
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn run(threads: usize, save_at: Option<usize>) -> u64 {
    let mut sc = scene(threads);
    let mut breaks = 0;
    for s in 0..STEPS {
        if Some(s) == save_at {
            sc = sc.reloaded();
        }
        let was_open = sc.door_broken_open;
        drive(&mut sc, s);
        breaks += usize::from(!was_open && sc.door_broken_open);
    }
    assert!(sc.w.agents().pos.iter().all(|p| p.is_finite()));
    // Every part took part: the door broke, the director and the lane ran.
    assert!(breaks > 0, "the door never broke");
    assert!(
        sc.director.spawned_total() > DIRECTOR.initial_batch,
        "the director spawned {}",
        sc.director.spawned_total()
    );
    assert!(sc.lane.recycled() > 0 || sc.lane.len() > 1);
    state_hash(&sc)
}

#[test]
fn every_feature_on_hashes_alike_on_1_2_8_threads_and_across_a_save() {
    let one = run(1, None);
    assert_eq!(run(2, None), one, "2 threads differ from 1");
    assert_eq!(run(8, None), one, "8 threads differ from 1");
    assert_eq!(run(2, Some(4_321)), one, "a save/load at step 4,321 changes the result");
}
