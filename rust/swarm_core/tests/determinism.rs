//! The same world stepped on 1 and on N threads gives bit-identical results; bad inputs never
//! put NaN into the world.

use proptest::prelude::*;
use swarm_core::glam::Vec3;
use swarm_core::{Archetype, World, WorldSettings};

fn run(threads: usize, n: usize, steps: usize) -> (Vec<Vec3>, Vec<Vec3>, Vec<swarm_core::glam::Vec2>) {
    let mut w = World::new(WorldSettings { max_agents: n, worker_threads: threads, seed: 99, ..Default::default() });
    let a = w.add_archetype(Archetype::default());
    let mut b = Archetype::default();
    b.agent_radius = 0.7;
    b.push_resistance = 4.0;
    let b = w.add_archetype(b);
    // Perceiving agents too: sight, search, noises and alerts must not depend on threads.
    let mut c = Archetype::default();
    c.perception = Some(swarm_core::PerceptionProfile {
        sight_distance: 25.0,
        sight_occlusion: swarm_core::SightOcclusion::None,
        alert_spread_radius: 5.0,
        forget_time: 1.0,
        ..Default::default()
    });
    let c = w.add_archetype(c);
    let t1 = w.register_target(Vec3::ZERO, 1.0);
    w.register_target(Vec3::new(40.0, 0.0, 10.0), 1.5);
    let side = (n as f32).sqrt().ceil() as usize;
    for i in 0..n {
        let p = Vec3::new((i % side) as f32 * 0.9 - 30.0, 0.0, (i / side) as f32 * 0.9 - 30.0);
        w.spawn(
            if i % 7 == 3 {
                c
            } else if i % 5 == 0 {
                b
            } else {
                a
            },
            p,
        )
        .unwrap();
    }
    for s in 0..steps {
        // Move a target, despawn a few: exercises retargeting and swap-remove.
        w.set_target_position(t1, Vec3::new((s as f32 * 0.05).sin() * 10.0, 0.0, 0.0));
        if s % 60 == 10 {
            w.emit_noise(Vec3::new(-20.0 + s as f32 * 0.1, 0.0, -20.0), 15.0);
        }
        if s % 50 == 25 {
            let id = w.id_at(s % w.count());
            w.despawn(id);
        }
        w.step(1.0 / 60.0);
    }
    let ag = w.agents();
    (ag.pos.clone(), ag.vel.clone(), ag.facing.clone())
}

#[test]
fn identical_results_on_one_and_many_threads() {
    // More agents than one parallel chunk, so work really is split.
    let one = run(1, 5000, 200);
    let two = run(2, 5000, 200);
    let eight = run(8, 5000, 200);
    assert!(one == two, "1 vs 2 threads differ");
    assert!(one == eight, "1 vs 8 threads differ");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn arbitrary_inputs_never_produce_nan(
        pts in prop::collection::vec((-5.0f32..5.0, -5.0f32..5.0), 1..120),
        dts in prop::collection::vec(prop_oneof![Just(f32::NAN), Just(0.0f32), Just(-1.0f32), Just(1e9f32), 1e-5f32..0.2], 1..40),
        radius in prop_oneof![Just(f32::NAN), Just(-1.0f32), 0.0f32..3.0],
        tx in prop_oneof![Just(f32::INFINITY), -10.0f32..10.0],
    ) {
        let mut w = World::new(WorldSettings { max_agents: 200, worker_threads: 2, ..Default::default() });
        let mut a = Archetype::default();
        a.agent_radius = radius;
        a.behavior.spacing_radius = radius;
        a.movement.max_speed.max = f32::NAN;
        let arch = w.add_archetype(a);
        let t = w.register_target(Vec3::ZERO, f32::NAN);
        w.set_target_position(t, Vec3::new(tx, 0.0, 0.0));
        for &(x, z) in &pts {
            // Rounded so many agents start exactly on top of each other.
            w.spawn(arch, Vec3::new(x.round(), 0.0, z.round())).unwrap();
        }
        for dt in dts {
            w.step(dt);
        }
        for p in &w.agents().pos {
            prop_assert!(p.is_finite());
        }
        for v in &w.agents().vel {
            prop_assert!(v.is_finite());
        }
        for y in &w.agents().facing {
            prop_assert!(y.is_finite());
        }
    }
}
