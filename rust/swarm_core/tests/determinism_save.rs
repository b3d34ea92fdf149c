//! One scenario with every feature the core has on (surface flow field, a door closing and
//! opening, perception with noises, attacks, moving targets, spawn/despawn churn, a pinned
//! agent, formation orders given and cancelled): a hash of the whole simulation after 10,000 steps is the same on 1, 2 and 8 threads,
//! and the same when the world is saved and loaded along the way.

use swarm_core::flow_field::{ModifierBox, RouteMode};
use swarm_core::formation::FormationShape;
use swarm_core::glam::{Vec2, Vec3};
use swarm_core::{Archetype, AttackProfile, World, WorldSettings};

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

fn drive(w: &mut World, s: usize) {
    let a = s as f32 * 0.01;
    w.set_target_position(0, Vec3::new(15.0 + 8.0 * a.cos(), 0.0, 15.0 + 3.0 * a.sin()));
    if s % 500 == 0 {
        let closed = (s / 500) % 2 == 0;
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
    if s % 40 == 7 {
        w.emit_noise(Vec3::new(3.0 + (s % 20) as f32, 0.0, 4.0), 8.0);
    }
    if s % 25 == 3 && w.count() > 0 {
        let id = w.id_at((s * 7) % w.count());
        w.despawn(id);
        let _ = w.spawn((s % 2) as u16, Vec3::new(2.0 + (s % 25) as f32, 0.0, 2.0));
    }
    if s == 100 {
        let id = w.id_at(0);
        w.set_agent_target(id, Some(1));
    }
    if s % 1500 == 200 {
        // A formation order of 40 agents across the door, cancelled 1,000 steps later.
        let ids: Vec<_> = (0..40.min(w.count())).map(|k| w.id_at((k * 11 + s) % w.count())).collect();
        let dest = if (s / 1500) % 2 == 0 { Vec3::new(20.0, 0.0, 15.0) } else { Vec3::new(10.0, 0.0, 4.0) };
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

/// FNV-1a over the serialized agents, targets and flow field, and the tick count.
fn state_hash(w: &World) -> u64 {
    let mut bytes = postcard::to_stdvec(w.agents()).unwrap();
    bytes.extend(postcard::to_stdvec(w.targets()).unwrap());
    bytes.extend(postcard::to_stdvec(w.surface().unwrap()).unwrap());
    bytes.extend(postcard::to_stdvec(w.state().formations()).unwrap());
    bytes.extend(w.stats().ticks.to_le_bytes());
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn run(threads: usize, save_at: Option<usize>) -> u64 {
    let mut w = build(threads);
    for s in 0..STEPS {
        if Some(s) == save_at {
            w = World::load(&w.save()).expect("loads");
        }
        drive(&mut w, s);
    }
    assert!(w.agents().pos.iter().all(|p| p.is_finite()));
    state_hash(&w)
}

#[test]
fn every_feature_on_hashes_alike_on_1_2_8_threads_and_across_a_save() {
    let one = run(1, None);
    assert_eq!(run(2, None), one, "2 threads differ from 1");
    assert_eq!(run(8, None), one, "8 threads differ from 1");
    assert_eq!(run(2, Some(4_321)), one, "a save/load at step 4,321 changes the result");
}
