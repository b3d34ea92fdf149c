//! One scenario per steering behaviour, each showing its effect in numbers, with the
//! behaviour on against the same world with it off.

use swarm_core::glam::{Vec2, Vec3};
use swarm_core::{AgentId, Archetype, BehaviorProfile, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

fn world(n: usize) -> World {
    World::new(WorldSettings { max_agents: n, seed: 3, dormancy_enabled: false, ..Default::default() })
}

fn flat(v: Vec3) -> Vec2 {
    Vec2::new(v.x, v.z)
}

fn arch(f: impl Fn(&mut BehaviorProfile)) -> Archetype {
    let mut a = Archetype::default();
    f(&mut a.behavior);
    a
}

fn disc(w: &mut World, a: u16, n: usize, center: Vec2, radius: f32) -> Vec<AgentId> {
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..n)
        .map(|i| {
            let r = radius * ((i as f32 + 0.5) / n as f32).sqrt();
            let t = i as f32 * golden;
            w.spawn(a, Vec3::new(center.x + r * t.cos(), 0.0, center.y + r * t.sin())).unwrap()
        })
        .collect()
}

fn distances(w: &World, ids: &[AgentId], to: Vec2) -> Vec<f32> {
    ids.iter().map(|&id| flat(w.position(id).unwrap()).distance(to)).collect()
}

#[test]
fn surround_shape_forms_a_ring_sized_for_the_crowd() {
    let run = |shape: bool| {
        let mut w = world(300);
        let a = w.add_archetype(arch(|b| {
            b.use_surround_shape = shape;
            b.use_idle_motion = false;
        }));
        let ids = disc(&mut w, a, 120, Vec2::new(0.0, 40.0), 8.0);
        w.register_target(Vec3::ZERO, 1.0);
        for _ in 0..1500 {
            w.step(DT);
        }
        distances(&w, &ids, Vec2::ZERO)
    };
    let b = BehaviorProfile::default();
    let inner = swarm_core::steering::surround_shape::ring_radius(&b, 120);
    let ringed = run(true);
    let packed = run(false);
    let in_band = ringed.iter().filter(|&&d| d >= inner - 0.8 && d <= inner + b.surround_width + 1.2).count();
    let hollow = |d: &[f32]| d.iter().filter(|&&x| x < inner - 1.0).count();
    // With the shape: most agents stand in the band and the middle stays clear. Without it, the
    // crowd packs from the 1.5 m ring outward, filling the space the ring keeps clear.
    assert!(in_band as f32 >= 0.7 * ringed.len() as f32, "{in_band} of {} in the band at {inner:.2} m", ringed.len());
    assert!(hollow(&ringed) <= 3, "agents inside the ring: {}", hollow(&ringed));
    assert!(hollow(&packed) >= 10, "without the shape only {} agents inside {inner:.2} m", hollow(&packed));
}

#[test]
fn hold_nearby_swarm_keeps_a_pack_together() {
    let spread = |hold: bool| {
        let mut w = world(100);
        let a = w.add_archetype(arch(|b| {
            b.use_hold_nearby = hold;
            b.hold_strength = 1.0;
            b.hold_radius = 6.0;
            b.idle_strength = 1.0;
            b.idle_weight = 1.0;
        }));
        // No target: agents only wander (and, with hold, pull together).
        let ids = disc(&mut w, a, 60, Vec2::ZERO, 6.0);
        for _ in 0..900 {
            w.step(DT);
        }
        let pts: Vec<Vec2> = ids.iter().map(|&id| flat(w.position(id).unwrap())).collect();
        let c = pts.iter().copied().sum::<Vec2>() / pts.len() as f32;
        pts.iter().map(|p| p.distance(c)).sum::<f32>() / pts.len() as f32
    };
    let (with, without) = (spread(true), spread(false));
    assert!(with < without * 0.8, "mean distance to the pack centre: {with:.2} with hold, {without:.2} without");
}

#[test]
fn predictive_catch_up_intercepts_a_crossing_target_sooner() {
    let catch_time = |predict: bool| {
        let mut w = world(10);
        let a = w.add_archetype(arch(|b| {
            b.use_predictive = predict;
            b.predictive_weight = 2.0;
        }));
        let id = w.spawn(a, Vec3::new(0.0, 0.0, -25.0)).unwrap();
        let t = w.register_target(Vec3::new(-15.0, 0.0, 0.0), 1.0);
        for s in 0..2400 {
            // The target crosses at 2 m/s, slower than the pursuer's 3.5-4.5 m/s.
            let x = -15.0 + 2.0 * s as f32 * DT;
            w.set_target_position(t, Vec3::new(x, 0.0, 0.0));
            w.step(DT);
            if flat(w.position(id).unwrap()).distance(Vec2::new(x, 0.0)) < 3.0 {
                return s;
            }
        }
        2400
    };
    let (with, without) = (catch_time(true), catch_time(false));
    assert!(with < without, "steps to catch: {with} with prediction, {without} without");
}

#[test]
fn retreat_backs_off_between_the_start_and_stop_distances() {
    let closest_after_contact = |retreat: bool| {
        let mut w = world(10);
        let a = w.add_archetype(arch(|b| {
            b.use_retreat = retreat;
            b.retreat_start_distance = 3.0;
            b.retreat_stop_distance = 8.0;
        }));
        let id = w.spawn(a, Vec3::new(20.0, 0.0, 0.0)).unwrap();
        w.register_target(Vec3::ZERO, 1.0);
        let mut far_after = 0.0f32;
        let mut closest = f32::MAX;
        for s in 0..1800 {
            w.step(DT);
            let d = flat(w.position(id).unwrap()).length();
            if s > 600 {
                closest = closest.min(d);
                far_after = far_after.max(d);
            }
        }
        (closest, far_after)
    };
    let (closest, farthest) = closest_after_contact(true);
    let (closest_plain, _) = closest_after_contact(false);
    assert!(closest > 2.0, "a retreating agent came within {closest:.2} m");
    assert!(farthest > 6.5, "it backs off toward the stop distance: {farthest:.2} m");
    assert!(closest_plain < 2.0, "without retreat it stands on the 1.5 m ring: {closest_plain:.2}");
}

#[test]
fn close_range_pressure_lets_only_a_few_press_and_takes_turns() {
    let mut w = world(100);
    let a = w.add_archetype(arch(|b| {
        b.use_pressure = true;
        b.max_active_attackers = 3;
        b.strike_distance = 1.6;
        b.turn_taking_cycle = 3.0;
        b.press_window = 1.0;
    }));
    let ids = disc(&mut w, a, 20, Vec2::new(0.0, 15.0), 4.0);
    w.register_target(Vec3::ZERO, 1.0);
    let mut pressed = std::collections::HashSet::new();
    let mut crowded_steps = 0;
    for s in 0..1800 {
        w.step(DT);
        let pressing: Vec<&AgentId> = ids.iter().filter(|&&id| w.is_pressing(id)).collect();
        assert!(pressing.len() <= 3, "step {s}: {} pressing", pressing.len());
        pressed.extend(pressing.into_iter().copied());
        let inside = distances(&w, &ids, Vec2::ZERO).iter().filter(|&&d| d < 1.6).count();
        if s > 600 && inside > 4 {
            crowded_steps += 1;
        }
    }
    assert!(pressed.len() >= 10, "turn-taking: only {} different agents pressed", pressed.len());
    assert!(crowded_steps < 60, "more than 4 agents inside the strike distance for {crowded_steps} steps");
}

#[test]
fn orbit_style_circles_the_target() {
    let mut w = world(10);
    let a = w.add_archetype(arch(|b| {
        b.use_approach = false;
        b.use_orbit = true;
        b.orbit_radius = 6.0;
        b.orbit_direction = 1;
    }));
    let id = w.spawn(a, Vec3::new(15.0, 0.0, 0.0)).unwrap();
    w.register_target(Vec3::ZERO, 1.0);
    let mut angle = 0.0f32;
    let mut prev = Vec2::new(15.0, 0.0);
    for s in 0..1200 {
        w.step(DT);
        let p = flat(w.position(id).unwrap());
        angle += prev.angle_to(p);
        prev = p;
        if s > 400 {
            assert!((p.length() - 6.0).abs() < 1.5, "step {s}: off the orbit at {:.2} m", p.length());
        }
    }
    assert!(angle > std::f32::consts::TAU, "went round {:.2} rad", angle);
}

#[test]
fn out_of_sight_agents_follow_allies_that_see_the_target() {
    let progress = |with_seer: bool| {
        let mut w = world(10);
        let a = w.add_archetype(arch(|b| {
            b.use_out_of_sight = true;
            b.sight_distance = 20.0;
            b.follow_radius = 14.0;
            b.use_idle_motion = false;
        }));
        // A blind agent 30 m out; optionally a seeing ally 12 m ahead of it.
        let blind = w.spawn(a, Vec3::new(30.0, 0.0, 0.0)).unwrap();
        if with_seer {
            w.spawn(a, Vec3::new(18.0, 0.0, 2.0)).unwrap();
        }
        w.register_target(Vec3::ZERO, 1.0);
        for _ in 0..120 {
            w.step(DT);
        }
        30.0 - flat(w.position(blind).unwrap()).length()
    };
    let (with, without) = (progress(true), progress(false));
    assert!(with > 3.0, "a blind agent next to a seeing ally moved {with:.2} m toward the target");
    assert!(without.abs() < 1.0, "a blind agent with nobody to follow moved {without:.2} m");
}

#[test]
fn facing_weights_are_ranges_drawn_per_agent_and_leave_other_draws_alone() {
    let spawn_all = |goal: (f32, f32)| {
        let mut w = world(40);
        let mut a = Archetype::default();
        a.movement.goal_facing_weight = swarm_core::config::Range::new(goal.0, goal.1);
        let arch = w.add_archetype(a);
        for i in 0..40 {
            w.spawn(arch, Vec3::new(i as f32, 0.0, 0.0)).unwrap();
        }
        w
    };
    let plain = spawn_all((1.0, 1.0));
    let varied = spawn_all((0.5, 4.0));
    let p = &plain.agents().params;
    let v = &varied.agents().params;
    assert!(p.iter().all(|q| q.goal_facing_weight == 1.0 && q.velocity_facing_weight == 1.0));
    assert!(v.iter().all(|q| (0.5..=4.0).contains(&q.goal_facing_weight)));
    let (lo, hi) =
        v.iter().fold((f32::MAX, f32::MIN), |(l, h), q| (l.min(q.goal_facing_weight), h.max(q.goal_facing_weight)));
    assert!(hi - lo > 1.5, "each agent draws its own weight: {lo}..{hi}");
    // Every other per-agent draw (speeds, facing, seeds) is the same as with a fixed weight.
    for (a, b) in p.iter().zip(v) {
        assert_eq!((a.max_speed, a.max_turn_speed), (b.max_speed, b.max_turn_speed));
    }
    assert_eq!(plain.agents().facing, varied.agents().facing);
}
