//! A world saved through serde (its `SimState`) and loaded again steps bit-identically to the
//! original: agents, targets, a surface flow field with a door modifier, perceiving and
//! attacking archetypes, a few hundred steps in; then 200 more steps on both, on 1 and 2 threads.
//! The same holds for the framed save format (`World::save` / `World::load`).

use swarm_core::glam::Vec3;
use swarm_core::{Archetype, AttackProfile, SimState, World, WorldSettings};

mod common;
use common::{ascii, close_rooms_door, perceiving_archetype, DT, ROOMS};

fn build(threads: usize) -> World {
    let mut w = World::new(WorldSettings {
        max_agents: 800,
        worker_threads: threads,
        seed: 5,
        dormancy_enabled: false,
        ..Default::default()
    });
    w.set_surface(Some(ascii(&ROOMS)));
    let mut p = perceiving_archetype();
    // A small spacing radius: the grid's cell size then depends on the step length.
    p.behavior.spacing_radius = 0.5;
    let p = w.add_archetype(p);
    let mut k = Archetype::default();
    k.agent_radius = 0.3;
    k.attack = Some(AttackProfile::default());
    k.behavior.use_pressure = true;
    k.behavior.spacing_radius = 0.5;
    let k = w.add_archetype(k);
    close_rooms_door(&mut w);
    w.register_target(Vec3::new(15.0, 0.0, 15.0), 1.0);
    w.register_target(Vec3::new(5.0, 0.0, 3.0), 0.5);
    for i in 0..600 {
        let pos = Vec3::new(1.0 + (i % 28) as f32, 0.0, 0.5 + (i / 28) as f32 * 0.4);
        w.spawn(if i % 3 == 0 { k } else { p }, pos).unwrap();
    }
    w
}

/// Step `s` of the shared script: moving targets, noises, a despawn now and then.
fn drive(w: &mut World, s: usize) {
    w.set_target_position(1, Vec3::new(5.0 + (s as f32 * 0.03).sin() * 3.0, 0.0, 3.0));
    if s % 40 == 5 {
        w.emit_noise(Vec3::new(5.0 + s as f32 * 0.05, 0.0, 4.0), 10.0);
    }
    if s % 70 == 30 {
        let id = w.id_at(s % w.count());
        w.despawn(id);
    }
    // Not the 1/60 s a query between steps builds the grid for (see `round_trip`).
    w.step(if s.is_multiple_of(2) { DT } else { 1.0 / 30.0 });
}

fn snapshot(w: &World) -> Vec<u32> {
    let a = w.agents();
    let mut out = vec![a.len() as u32];
    for i in 0..a.len() {
        let (p, v, f) = (a.pos[i], a.vel[i], a.facing[i]);
        out.extend([p.x, p.y, p.z, v.x, v.y, v.z, f.x, f.y, a.health[i]].map(f32::to_bits));
    }
    for e in w.attack_events() {
        out.extend([e.agent, e.target, e.damage.to_bits(), e.obstacle.unwrap_or(u32::MAX)]);
    }
    out
}

fn round_trip(threads: usize) {
    let mut w = build(threads);
    for s in 0..301 {
        drive(&mut w, s);
    }
    // A query between steps builds the grid for a 1/60 s step and the next step (of 1/30 s)
    // uses it as it is: a load must step into the same grid.
    let mut near = Vec::new();
    w.agents_in_radius(Vec3::new(10.0, 0.0, 5.0), 5.0, &mut near);

    let bytes = postcard::to_stdvec(&w).expect("serialize");
    let mut loaded: World = postcard::from_bytes(&bytes).expect("deserialize");
    let state_bytes = postcard::to_stdvec(w.state()).expect("serialize state");
    assert_eq!(bytes, state_bytes, "a world serializes as its state");
    let state: SimState = postcard::from_bytes(&state_bytes).expect("deserialize state");
    let mut from_state = World::from_state(state);
    let mut cloned = w.clone();
    // The framed save format (checksummed, validated) loads the same world.
    let mut framed = World::load(&w.save()).expect("a fresh save loads");
    // The last step's attack events are an output of that step (workspace), not state: a loaded
    // world has none until it steps.
    let agents_only = |w: &World| {
        let mut s = snapshot(w);
        s.truncate(1 + 9 * w.count());
        s
    };
    assert_eq!(agents_only(&loaded), agents_only(&w));

    let mut events = 0;
    for s in 301..501 {
        for x in [&mut w, &mut loaded, &mut from_state, &mut cloned, &mut framed] {
            drive(x, s);
        }
        let want = snapshot(&w);
        events += w.attack_events().len();
        assert!(snapshot(&loaded) == want, "{threads} threads: loaded world differs at step {s}");
        assert!(snapshot(&from_state) == want, "{threads} threads: from_state world differs at step {s}");
        assert!(snapshot(&cloned) == want, "{threads} threads: cloned world differs at step {s}");
        assert!(snapshot(&framed) == want, "{threads} threads: framed save differs at step {s}");
    }
    assert!(events > 0, "the scenario should see attacks");
    assert_eq!(w.stats().ticks, loaded.stats().ticks);
    assert_eq!(w.flow_field_rebuilds(), loaded.flow_field_rebuilds());
    assert_eq!(w.surface().unwrap().pressing_count(0), loaded.surface().unwrap().pressing_count(0));
}

#[test]
fn saved_and_loaded_world_steps_bit_identically_on_one_thread() {
    round_trip(1);
}

#[test]
fn saved_and_loaded_world_steps_bit_identically_on_two_threads() {
    round_trip(2);
}

#[test]
fn a_reset_workspace_changes_nothing() {
    let mut a = build(2);
    let mut b = build(2);
    for s in 0..200 {
        drive(&mut a, s);
        drive(&mut b, s);
        assert!(snapshot(&a) == snapshot(&b), "differs at step {s}");
        if s % 37 == 0 {
            b.reset_workspace();
        }
    }
}

#[test]
fn the_grid_built_beside_the_hosts_work_changes_nothing() {
    for threads in [1, 2] {
        let mut plain = build(threads);
        let mut ahead = build(threads);
        let mut built = 0;
        for s in 0..300 {
            drive(&mut plain, s);
            drive(&mut ahead, s);
            assert!(snapshot(&ahead) == snapshot(&plain), "{threads} threads: differs at step {s}");
            // The host's work runs on this thread, whether or not the grid is built beside it.
            let before = ahead.grid_is_current();
            assert_eq!(ahead.build_grid_beside(|| s * 2), s * 2);
            // Built only after a step of a query's length (the 1/30 s steps have other cells).
            let expected = !before && s.is_multiple_of(2);
            assert_eq!(ahead.grid_is_current(), before || expected, "step {s}");
            built += usize::from(expected);
            if s % 10 == 4 {
                // A query before a 1/30 s step: the one world builds the grid for it, the other
                // takes the grid built ahead as its own, and both steps use that grid as it is.
                let (mut a, mut b) = (Vec::new(), Vec::new());
                plain.agents_in_radius(Vec3::new(10.0, 0.0, 5.0), 5.0, &mut a);
                ahead.agents_in_radius(Vec3::new(10.0, 0.0, 5.0), 5.0, &mut b);
                assert_eq!(a, b);
            }
            if s == 150 {
                // Saved with the grid built ahead: the loaded world builds it again the same way.
                ahead = World::load(&ahead.save()).expect("a fresh save loads");
            }
        }
        assert!(built > 100, "the grid was built ahead after {built} steps");
    }
}
