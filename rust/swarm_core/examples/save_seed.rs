//! Writes real saves for the decoder's fuzzing corpus: `framed.bin` (a whole save) and
//! `payload.bin` (its payload, which the fuzz target frames itself so mutations reach the
//! decoder past the checksum), and `parts.bin` / `framed_parts.bin`, the same save with one host
//! part of every kind (a door, its breakable, a spawner, a director, a traffic lane with a
//! window). A two-room grid with a closed door, perceiving and attacking archetypes, two
//! targets, a despawned agent and a queued noise, 30 steps in.
//!
//!     cargo run --release -p swarm_core --example save_seed -- DIR

use swarm_core::breakable::{BreakableConfig, BreakableState};
use swarm_core::flow_field::{BakeParams, BakeSamples, ModifierBox, RouteMode, SurfaceGrid, SurfaceSample};
use swarm_core::glam::Vec3;
use swarm_core::host_parts::{HostPart, PartState};
use swarm_core::save::{encode_named, HostNames, HEADER_LEN};
use swarm_core::spawn::{Director, SpawnRng};
use swarm_core::traffic::{Lane, LaneSetup, TrafficProfile};
use swarm_core::{Archetype, AttackProfile, PerceptionProfile, World, WorldSettings};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: save_seed DIR");
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 16, 12, |x, z, o| {
        if z != 6 || (7..9).contains(&x) {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    let grid = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
    let mut w = World::new(WorldSettings { max_agents: 48, worker_threads: 1, seed: 3, ..Default::default() });
    w.set_surface(Some(grid));
    let mut seer = Archetype::default();
    seer.perception = Some(PerceptionProfile::default());
    let seer = w.add_archetype(seer);
    let mut hitter = Archetype::default();
    hitter.attack = Some(AttackProfile::default());
    let hitter = w.add_archetype(hitter);
    let door =
        ModifierBox::aligned(Vec3::new(8.0, 0.5, 6.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(30.0));
    let nav = w.surface_mut().unwrap();
    nav.set_modifiers(&[door], &mut Vec::new());
    nav.set_attackable(&[true]);
    w.register_target(Vec3::new(8.0, 0.0, 10.0), 1.0);
    w.register_target(Vec3::new(2.0, 0.0, 2.0), 0.5);
    for i in 0..30 {
        w.spawn(if i % 2 == 0 { seer } else { hitter }, Vec3::new(1.0 + (i % 14) as f32, 0.0, 1.0 + (i / 14) as f32))
            .unwrap();
    }
    for s in 0..30 {
        w.step(1.0 / 60.0);
        if s == 12 {
            let id = w.id_at(5);
            w.despawn(id);
        }
    }
    w.emit_noise(Vec3::new(3.0, 0.0, 3.0), 5.0);
    let bytes = w.save();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(format!("{dir}/framed.bin"), &bytes).unwrap();
    std::fs::write(format!("{dir}/payload.bin"), &bytes[HEADER_LEN..]).unwrap();
    println!("wrote {} bytes (payload {}) to {dir}", bytes.len(), bytes.len() - HEADER_LEN);
    let with_parts = encode_named(w.state(), &HostNames { parts: parts(), ..Default::default() });
    std::fs::write(format!("{dir}/framed_parts.bin"), &with_parts).unwrap();
    std::fs::write(format!("{dir}/parts.bin"), &with_parts[HEADER_LEN..]).unwrap();
    println!("wrote {} bytes with host parts to {dir}", with_parts.len());
}

/// One host part of every kind, as a running game would save them.
fn parts() -> Vec<HostPart> {
    let setup = LaneSetup {
        length: 80.0,
        closed: false,
        reverse: false,
        vehicle_count: 6,
        window: Some((20.0, 30.0)),
        anchor_offset: Some(25.0),
        seed: 2,
        kinds: Vec::new(),
    };
    let mut lane = Lane::new(TrafficProfile::default(), &setup);
    for _ in 0..40 {
        lane.step(1.0 / 60.0);
    }
    let cfg = BreakableConfig::default();
    let mut door = BreakableState::new(&cfg);
    door.wear(&cfg, 70.0);
    let mut director = Director::default();
    director.trigger(4);
    let part = |name: &str, state| HostPart { name: name.into(), state };
    vec![
        part("Door", PartState::Modifier { open: false, enabled: true, route_cost: 30.0 }),
        part("Door/Breakable", PartState::Breakable { core: door, switched_off: false, saved_route_cost: Some(30.0) }),
        part("Spawner", PartState::Spawner { seed: 7, rng: SpawnRng::new(7) }),
        part("Director", PartState::Director { schedule: director, cursor: 0 }),
        part("../Street/Lane", PartState::Lane(Box::new(lane))),
    ]
}
