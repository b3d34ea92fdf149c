//! Scenario tests: whole worlds stepped for hundreds of steps, asserting outcomes.

use swarm_core::glam::{Vec2, Vec3};
use swarm_core::{AgentId, Archetype, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

fn world(max_agents: usize, threads: usize) -> World {
    World::new(WorldSettings { max_agents, worker_threads: threads, seed: 7, ..Default::default() })
}

fn ring(w: &mut World, arch: u16, n: usize, radius: f32) -> Vec<AgentId> {
    (0..n)
        .map(|i| {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            w.spawn(arch, Vec3::new(a.cos() * radius, 0.0, a.sin() * radius)).unwrap()
        })
        .collect()
}

fn flat(v: Vec3) -> Vec2 {
    Vec2::new(v.x, v.z)
}

/// Deepest overlap between any two agents, as a fraction of the sum of their radii.
fn max_overlap_fraction(w: &World) -> f32 {
    let a = w.agents();
    let mut worst: f32 = 0.0;
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            let min = a.params[i].radius + a.params[j].radius;
            let d = flat(a.pos[i]).distance(flat(a.pos[j]));
            worst = worst.max((min - d) / min);
        }
    }
    worst
}

#[test]
fn a_ring_of_agents_converges_on_the_target_and_surrounds_it_without_deep_overlap() {
    let mut w = world(1000, 0);
    let arch = w.add_archetype(Archetype::default());
    let ids = ring(&mut w, arch, 48, 30.0);
    w.register_target(Vec3::ZERO, 1.0);
    for _ in 0..900 {
        w.step(DT);
    }
    let dists: Vec<f32> = ids.iter().map(|&id| flat(w.position(id).unwrap()).length()).collect();
    let mean = dists.iter().sum::<f32>() / dists.len() as f32;
    let max = dists.iter().cloned().fold(0.0, f32::max);
    // 48 bodies of radius 0.4 need about three rings around a 1.5 m slot ring.
    assert!(mean < 4.0, "mean distance to target {mean}");
    assert!(max < 6.0, "farthest agent {max}");
    let overlap = max_overlap_fraction(&w);
    assert!(overlap < 0.25, "agents overlap by {:.0}% of their radii", overlap * 100.0);
    // Surrounded: agents occupy every quadrant around the target.
    let mut quadrants = [0; 4];
    for &id in &ids {
        let p = flat(w.position(id).unwrap());
        quadrants[(p.x > 0.0) as usize * 2 + (p.y > 0.0) as usize] += 1;
    }
    assert!(quadrants.iter().all(|&q| q >= 6), "not surrounded: {quadrants:?}");
}

#[test]
fn agents_settle_rather_than_jitter_once_they_arrived() {
    let mut w = world(100, 0);
    let arch = w.add_archetype(Archetype::default());
    let ids = ring(&mut w, arch, 8, 10.0);
    w.register_target(Vec3::ZERO, 1.0);
    for _ in 0..900 {
        w.step(DT);
    }
    // Idle motion keeps them shuffling gently, far below walking speed.
    for &id in &ids {
        let v = w.velocity(id).unwrap().length();
        assert!(v < 1.5, "agent still moving at {v} m/s");
    }
}

#[test]
fn ids_stay_bound_to_their_agents_across_despawns_and_reuse() {
    let mut w = world(200, 1);
    let arch = w.add_archetype(Archetype::default());
    let ids: Vec<AgentId> = (0..100).map(|i| w.spawn(arch, Vec3::new(i as f32 * 3.0, 0.0, 0.0)).unwrap()).collect();
    for id in ids.iter().step_by(3) {
        assert!(w.despawn(*id));
        assert!(!w.despawn(*id), "second despawn of the same id must fail");
    }
    for (i, id) in ids.iter().enumerate() {
        if i % 3 == 0 {
            assert!(!w.is_alive(*id));
            assert_eq!(w.position(*id), None);
        } else {
            assert_eq!(w.position(*id).unwrap().x, i as f32 * 3.0, "id {i} now names another agent");
        }
    }
    // Reused slots get new generations; old ids stay stale.
    let fresh: Vec<AgentId> = (0..34).map(|_| w.spawn(arch, Vec3::new(-5.0, 0.0, 0.0)).unwrap()).collect();
    for id in ids.iter().step_by(3) {
        assert!(!w.is_alive(*id));
    }
    assert!(fresh.iter().all(|f| w.is_alive(*f) && !ids.contains(f)));
    assert_eq!(w.count(), 100);
    assert_eq!(w.ids().count(), 100);
}

#[test]
fn capacity_is_enforced_and_bad_positions_are_refused() {
    let mut w = world(5, 1);
    let arch = w.add_archetype(Archetype::default());
    for _ in 0..5 {
        w.spawn(arch, Vec3::ZERO).unwrap();
    }
    assert_eq!(w.spawn(arch, Vec3::ZERO), Err(swarm_core::SpawnError::Full));
    let mut w = world(5, 1);
    let arch = w.add_archetype(Archetype::default());
    assert_eq!(w.spawn(arch, Vec3::new(f32::NAN, 0.0, 0.0)), Err(swarm_core::SpawnError::InvalidPosition));
    assert_eq!(w.spawn(arch + 1, Vec3::ZERO), Err(swarm_core::SpawnError::UnknownArchetype));
}

/// A small world for body blocking between agents that stand still, and their archetype (no idle
/// motion). Without a target or a camera they would be Cheap and coast between their LOD updates
/// (body blocking leaves coasting agents alone), so LOD is off.
fn standing_pair_world() -> (World, Archetype) {
    let lod = swarm_core::LodSettings { enabled: false, ..Default::default() };
    let w = World::new(WorldSettings { max_agents: 10, worker_threads: 1, seed: 7, lod, ..Default::default() });
    let mut a = Archetype::default();
    a.behavior.use_idle_motion = false;
    (w, a)
}

#[test]
fn heavier_agents_are_pushed_less() {
    // This is about push resistance (see `standing_pair_world`).
    let (mut w, light) = standing_pair_world();
    let mut heavy = light.clone();
    heavy.push_resistance = 9.0;
    let (l, h) = (w.add_archetype(light), w.add_archetype(heavy));
    let a = w.spawn(l, Vec3::new(-0.1, 0.0, 0.0)).unwrap();
    let b = w.spawn(h, Vec3::new(0.1, 0.0, 0.0)).unwrap();
    w.step(DT);
    let moved_light = (w.position(a).unwrap().x + 0.1).abs();
    let moved_heavy = (w.position(b).unwrap().x - 0.1).abs();
    assert!(moved_light > 4.0 * moved_heavy, "light moved {moved_light}, heavy {moved_heavy}");
}

#[test]
fn doubling_every_weight_changes_nothing() {
    let run = |scale: f32| {
        let mut w = world(100, 1);
        let mut a = Archetype::default();
        a.behavior.approach_weight *= scale;
        a.behavior.spacing_strength *= scale;
        a.behavior.idle_weight *= scale;
        let arch = w.add_archetype(a);
        ring(&mut w, arch, 30, 12.0);
        w.register_target(Vec3::ZERO, 1.0);
        for _ in 0..200 {
            w.step(DT);
        }
        w.agents().pos.clone()
    };
    assert_eq!(run(1.0), run(2.0));
}

#[test]
fn agents_pick_the_nearest_target_and_obey_a_pinned_one() {
    let mut w = world(100, 1);
    let arch = w.add_archetype(Archetype::default());
    let left = w.register_target(Vec3::new(-20.0, 0.0, 0.0), 1.0);
    let right = w.register_target(Vec3::new(20.0, 0.0, 0.0), 1.0);
    let a = w.spawn(arch, Vec3::new(-5.0, 0.0, 0.0)).unwrap();
    let b = w.spawn(arch, Vec3::new(5.0, 0.0, 0.0)).unwrap();
    let pinned = w.spawn(arch, Vec3::new(-6.0, 0.0, 3.0)).unwrap();
    assert!(w.set_agent_target(pinned, Some(right)));
    for _ in 0..600 {
        w.step(DT);
    }
    assert_eq!(w.agent_target(a), Some(left));
    assert_eq!(w.agent_target(b), Some(right));
    assert!(w.position(pinned).unwrap().x > 15.0, "pinned agent went to {:?}", w.position(pinned));
    // Removing a target releases its agents, who then pick the remaining one.
    assert!(w.unregister_target(right));
    assert_eq!(w.agent_target(pinned), None);
    for _ in 0..60 {
        w.step(DT);
    }
    assert_eq!(w.agent_target(b), Some(left));
    assert_eq!(w.agent_target(pinned), Some(left));
}

#[test]
fn priority_attracts_agents_to_a_farther_target() {
    let mut w = world(10, 1);
    let arch = w.add_archetype(Archetype::default());
    let _near = w.register_target(Vec3::new(-10.0, 0.0, 0.0), 1.0);
    let important = w.register_target(Vec3::new(15.0, 0.0, 0.0), 2.0);
    let a = w.spawn(arch, Vec3::ZERO).unwrap();
    w.step(DT);
    assert_eq!(w.agent_target(a), Some(important));
}

#[test]
fn active_target_count_caps_what_agents_chase() {
    let mut w = World::new(WorldSettings { max_agents: 10, max_active_target_count: 1, ..Default::default() });
    let arch = w.add_archetype(Archetype::default());
    let near = w.register_target(Vec3::new(5.0, 0.0, 0.0), 1.0);
    let _far = w.register_target(Vec3::new(-8.0, 0.0, 0.0), 1.0);
    // This agent is nearer the far target, but only the one nearest the centroid is active.
    let ids: Vec<AgentId> = [2.0, 3.0, -6.0].iter().map(|&x| w.spawn(arch, Vec3::new(x, 0.0, 0.0)).unwrap()).collect();
    w.step(DT);
    assert_eq!(w.stats().active_targets, 1);
    for id in ids {
        assert_eq!(w.agent_target(id), Some(near));
    }
}

#[test]
fn agents_stand_on_the_ground_plane() {
    let mut w = World::new(WorldSettings { max_agents: 10, ground_height: 2.5, ..Default::default() });
    let arch = w.add_archetype(Archetype::default());
    let a = w.spawn(arch, Vec3::new(0.0, 40.0, 0.0)).unwrap();
    assert_eq!(w.position(a).unwrap().y, 2.5);
    w.step(DT);
    assert_eq!(w.position(a).unwrap().y, 2.5);
}

#[test]
fn radius_and_box_queries_find_the_right_agents() {
    let mut w = world(100, 1);
    let arch = w.add_archetype(Archetype::default());
    let ids: Vec<AgentId> = (0..10).map(|i| w.spawn(arch, Vec3::new(i as f32 * 2.0, 0.0, 0.0)).unwrap()).collect();
    let mut out = Vec::new();
    w.agents_in_radius(Vec3::new(4.0, 0.0, 0.0), 2.5, &mut out);
    out.sort_by_key(|a| a.slot);
    assert_eq!(out, vec![ids[1], ids[2], ids[3]]);
    assert!(
        w.any_agent_inside(Vec3::new(7.5, -1.0, -1.0), Vec3::new(7.7, 1.0, 1.0)),
        "body radius reaches into the box"
    );
    assert!(!w.any_agent_inside(Vec3::new(8.5, -1.0, -1.0), Vec3::new(9.5, 1.0, 1.0)));
    assert!(!w.any_agent_inside(Vec3::new(0.0, 5.0, -1.0), Vec3::new(20.0, 6.0, 1.0)), "box above the agents");
    assert!(!w.any_agent_inside(Vec3::splat(f32::NAN), Vec3::ONE));
}

#[test]
fn importance_lod_caps_full_agents_and_throttled_agents_still_arrive() {
    use swarm_core::LodSettings;
    let mut w = World::new(WorldSettings {
        max_agents: 2000,
        lod: LodSettings { full_quality_agent_cap: 50, ..Default::default() },
        dormancy_enabled: false,
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    let ids = ring(&mut w, arch, 600, 45.0);
    w.register_target(Vec3::ZERO, 1.0);
    w.step(DT);
    let t = w.stats().tiers;
    assert_eq!(t.full + t.reduced + t.cheap, 600);
    // All start 45 m out: past the mid band (35 m), no camera: all Cheap.
    assert_eq!(t.cheap, 600, "{t:?}");
    for _ in 0..900 {
        w.step(DT);
        assert!(w.stats().tiers.full <= 50);
    }
    let t = w.stats().tiers;
    assert_eq!(t.full, 50, "the near band fills the cap: {t:?}");
    assert!(t.reduced > 0);
    // Cheap and Reduced agents hold their steering between updates, yet everyone arrives.
    let mean = ids.iter().map(|&id| flat(w.position(id).unwrap()).length()).sum::<f32>() / ids.len() as f32;
    assert!(mean < 12.0, "mean distance {mean}");
}

#[test]
fn far_off_camera_agents_go_dormant_and_wake_when_the_target_comes_near() {
    let mut w = World::new(WorldSettings {
        max_agents: 10,
        dormancy_distance: 50.0,
        dormancy_delay: 1.0,
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    let near = w.spawn(arch, Vec3::new(10.0, 0.0, 0.0)).unwrap();
    let far = w.spawn(arch, Vec3::new(400.0, 0.0, 0.0)).unwrap();
    let t = w.register_target(Vec3::ZERO, 1.0);
    for _ in 0..30 {
        w.step(DT);
    }
    assert!(!w.is_dormant(far), "not before the delay");
    for _ in 0..60 {
        if w.is_dormant(far) {
            break;
        }
        w.step(DT);
    }
    assert!(w.is_dormant(far));
    assert!(!w.is_dormant(near));
    assert_eq!(w.stats().tiers.dormant, 1);
    assert_eq!(w.tier(far), Some(swarm_core::lod::CHEAP));
    // Dormant agents stop steering at once: it brakes to a halt within half a second, and
    // stays put.
    for _ in 0..30 {
        w.step(DT);
    }
    assert_eq!(w.velocity(far), Some(Vec3::ZERO), "at rest half a second after it dozed off");
    for _ in 0..60 {
        w.step(DT);
    }
    let parked = w.position(far).unwrap();
    for _ in 0..60 {
        w.step(DT);
    }
    assert!(w.position(far).unwrap().distance(parked) < 0.05);
    // The target walks up to it: it wakes and chases.
    w.set_target_position(t, Vec3::new(360.0, 0.0, 0.0));
    w.step(DT);
    assert!(!w.is_dormant(far));
    for _ in 0..120 {
        w.step(DT);
    }
    assert!(w.position(far).unwrap().x < 395.0);
}

#[test]
fn a_sleeping_horde_wakes_exactly_where_a_target_comes_near() {
    // Thousands of agents (whole chunks of them) doze off far from the target and come to rest;
    // then the target walks into one corner of the horde. Exactly those within 90 % of the
    // dormancy distance wake, however the horde is stored, and the rest sleep on. Also with
    // Out-of-Sight Fallback (whose plain sight of resting agents their neighbours read).
    sleeping_horde(Archetype::default());
    let mut seeking = Archetype::default();
    seeking.behavior.use_out_of_sight = true;
    seeking.behavior.sight_distance = 30.0;
    sleeping_horde(seeking);
}

fn sleeping_horde(archetype: Archetype) {
    let mut w = World::new(WorldSettings {
        max_agents: 4096,
        dormancy_distance: 50.0,
        dormancy_delay: 0.5,
        worker_threads: 2,
        ..Default::default()
    });
    let arch = w.add_archetype(archetype);
    for k in 0..4096 {
        let (x, z) = ((k % 64) as f32 * 2.5, (k / 64) as f32 * 2.5);
        w.spawn(arch, Vec3::new(400.0 + x, 0.0, z)).unwrap();
    }
    let t = w.register_target(Vec3::ZERO, 1.0);
    for _ in 0..150 {
        w.step(DT);
    }
    assert_eq!(w.stats().tiers.dormant, 4096, "all doze off");
    let rested: Vec<Vec3> = w.ids().map(|id| w.position(id).unwrap()).collect();
    for _ in 0..60 {
        w.step(DT);
    }
    let still = w.ids().zip(&rested).all(|(id, p)| w.position(id) == Some(*p) && w.velocity(id) == Some(Vec3::ZERO));
    assert!(still, "dormant agents at rest stay put");
    let corner = Vec3::new(400.0, 0.0, 0.0);
    w.set_target_position(t, corner);
    w.step(DT);
    let near = |id: AgentId| flat(w.position(id).unwrap() - corner).length() < 45.0;
    let woke: Vec<AgentId> = w.ids().filter(|&id| !w.is_dormant(id)).collect();
    assert!(!woke.is_empty() && woke.len() < 4096);
    assert!(woke.iter().all(|&id| near(id)), "only agents near the target wake");
    assert_eq!(woke.len(), w.ids().filter(|&id| near(id)).count(), "every agent near the target wakes");
}

#[test]
fn dormancy_counts_every_active_target_and_an_agent_with_no_target_can_doze() {
    let settings = WorldSettings { max_agents: 10, dormancy_distance: 50.0, dormancy_delay: 0.5, ..Default::default() };
    // No target at all: far from every target, off camera, it dozes after the delay.
    let mut w = World::new(settings.clone());
    let arch = w.add_archetype(Archetype::default());
    let alone = w.spawn(arch, Vec3::new(10.0, 0.0, 0.0)).unwrap();
    for _ in 0..45 {
        w.step(DT);
    }
    assert_eq!(w.agent_target(alone), None);
    assert!(w.is_dormant(alone), "an agent with no target dozes");
    // Two active targets: the agent chases the far one (its priority makes it the better
    // choice), but the near one, not its own, keeps it awake.
    let mut w = World::new(settings);
    let arch = w.add_archetype(Archetype::default());
    let x = w.spawn(arch, Vec3::ZERO).unwrap();
    let near = w.register_target(Vec3::new(8.0, 0.0, 0.0), 1.0);
    let far = w.register_target(Vec3::new(-300.0, 0.0, 0.0), 1000.0);
    for _ in 0..5 {
        w.step(DT);
    }
    assert_eq!(w.agent_target(x), Some(far), "it chases the far, important target");
    for _ in 0..60 {
        w.step(DT);
    }
    assert!(!w.is_dormant(x), "the near active target keeps it awake");
    // The near target leaves: now far from every target, it dozes.
    w.set_target_enabled(near, false);
    for _ in 0..60 {
        w.step(DT);
    }
    assert!(w.is_dormant(x), "far from every active target, it dozes");
}

#[test]
fn a_camera_keeps_far_agents_out_of_cheap_and_awake() {
    use swarm_core::glam::Vec4;
    let mut w = World::new(WorldSettings {
        max_agents: 10,
        dormancy_delay: 0.1,
        dormancy_distance: 50.0,
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    let seen = w.spawn(arch, Vec3::new(300.0, 0.0, 0.0)).unwrap();
    let unseen = w.spawn(arch, Vec3::new(-300.0, 0.0, 0.0)).unwrap();
    w.register_target(Vec3::ZERO, 1.0);
    // A box-shaped view volume around x in 250..350.
    let planes = vec![
        Vec4::new(1.0, 0.0, 0.0, 350.0),
        Vec4::new(-1.0, 0.0, 0.0, -250.0),
        Vec4::new(0.0, 1.0, 0.0, 50.0),
        Vec4::new(0.0, -1.0, 0.0, 50.0),
        Vec4::new(0.0, 0.0, 1.0, 50.0),
        Vec4::new(0.0, 0.0, -1.0, 50.0),
    ];
    w.set_camera(Some(swarm_core::Frustum { planes, position: Vec3::new(300.0, 20.0, 0.0) }));
    for _ in 0..30 {
        w.step(DT);
    }
    assert!(!w.is_dormant(seen));
    assert!(w.is_dormant(unseen));
    // With room under the cap, the on-camera agent is even promoted to Full.
    assert_eq!(w.tier(seen), Some(swarm_core::lod::FULL));
    let mut out = Vec::new();
    w.recyclable_agents(100.0, 10, &mut out);
    assert_eq!(out, vec![unseen], "only the unseen far agent may be recycled");
}

#[test]
fn agents_with_an_attack_profile_hit_their_target_and_pressure_limits_the_attackers() {
    use swarm_core::AttackProfile;
    let mut w = world(100, 0);
    let mut a = Archetype::default();
    a.attack = Some(AttackProfile { swing_cooldown: 0.5, ..Default::default() });
    a.behavior.use_pressure = true;
    a.behavior.max_active_attackers = 2;
    let arch = w.add_archetype(a);
    ring(&mut w, arch, 12, 6.0);
    let t = w.register_target(Vec3::ZERO, 1.0);
    let mut hits = 0;
    let mut attackers = std::collections::HashSet::new();
    for _ in 0..900 {
        w.step(DT);
        for e in w.attack_events() {
            assert_eq!(e.target, t);
            assert!(e.damage > 0.0);
            assert!(w.is_alive(e.agent_id));
            attackers.insert(e.agent_id);
            hits += 1;
        }
    }
    assert!(hits >= 10, "only {hits} hits in 15 s");
    assert!(attackers.len() > 2, "turn-taking lets several agents strike over time");
}

#[test]
fn damage_hurts_then_kills_and_despawns() {
    let mut w = world(10, 1);
    let arch = w.add_archetype(Archetype::default());
    let id = w.spawn(arch, Vec3::ZERO).unwrap();
    assert_eq!(w.damage(id, 30.0), swarm_core::DamageResult::Hurt { health: 70.0 });
    assert_eq!(w.damage(id, -5.0), swarm_core::DamageResult::Refused);
    assert_eq!(w.damage(id, f32::NAN), swarm_core::DamageResult::Refused);
    assert!(matches!(w.damage(id, 80.0), swarm_core::DamageResult::Died { .. }));
    assert!(!w.is_alive(id));
    assert_eq!(w.damage(id, 1.0), swarm_core::DamageResult::Unknown);
}

#[test]
fn raycast_finds_the_nearest_agent_on_the_segment() {
    let mut w = world(10, 1);
    let arch = w.add_archetype(Archetype::default());
    let far = w.spawn(arch, Vec3::new(10.0, 0.0, 0.0)).unwrap();
    let near = w.spawn(arch, Vec3::new(5.0, 0.0, 0.1)).unwrap();
    let _aside = w.spawn(arch, Vec3::new(3.0, 0.0, 4.0)).unwrap();
    let (hit, p) = w.raycast(Vec3::new(0.0, 1.0, 0.0), Vec3::new(20.0, 1.0, 0.0)).unwrap();
    assert_eq!(hit, near);
    assert!((p.x - 4.6).abs() < 0.1, "{p:?}");
    // Over their heads: nothing.
    assert_eq!(w.raycast(Vec3::new(0.0, 3.0, 0.0), Vec3::new(20.0, 3.0, 0.0)), None);
    // From the other side, the far one is first.
    assert_eq!(w.raycast(Vec3::new(20.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)).unwrap().0, far);
    // A ray a billion metres long (its sample count would be in the billions) is cut to the
    // agents' grid: the same hit, at the same point.
    let (hit, q) = w.raycast(Vec3::new(-1e9, 1.0, 0.0), Vec3::new(1e9, 1.0, 0.0)).unwrap();
    assert_eq!(hit, near);
    assert!((q - p).length() < 0.1, "{q:?} against {p:?}");
    let (hit, _) = w.raycast(Vec3::new(0.0, 1.0, 0.0), Vec3::new(1e30, 1.0, 0.0)).unwrap();
    assert_eq!(hit, near);
    // A ray that passes beside the grid hits nothing.
    assert_eq!(w.raycast(Vec3::new(-1e9, 1.0, 500.0), Vec3::new(1e9, 1.0, 500.0)), None);
}

#[test]
fn ids_survive_the_periodic_reorder_into_grid_order() {
    let mut w = world(3000, 0);
    let arch = w.add_archetype(Archetype::default());
    let ids: Vec<AgentId> = (0..3000)
        .map(|i| w.spawn(arch, Vec3::new((i * 7919 % 3000) as f32 * 0.7 - 1000.0, 0.0, (i % 50) as f32)).unwrap())
        .collect();
    // Tag each agent by its health.
    for (k, &id) in ids.iter().enumerate() {
        w.damage(id, (k % 90) as f32 * 0.5);
    }
    let spread = |w: &World| {
        let p = &w.agents().pos;
        p.windows(2).map(|w| flat(w[0]).distance(flat(w[1]))).sum::<f32>() / (p.len() - 1) as f32
    };
    let before = spread(&w);
    for _ in 0..swarm_core::world::REORDER_INTERVAL + 5 {
        w.step(DT);
    }
    for (k, &id) in ids.iter().enumerate() {
        assert_eq!(w.health(id), Some(100.0 - (k % 90) as f32 * 0.5), "agent {k} lost its identity");
    }
    // Storage now follows the grid: consecutive agents are far closer together than in spawn order.
    let after = spread(&w);
    assert!(
        after < before / 10.0,
        "mean distance between consecutive agents: {before:.1} m before, {after:.1} m after"
    );
}

#[test]
fn a_spawn_wave_is_put_in_grid_order_on_the_next_step() {
    // Spawn order is arbitrary (here scattered on purpose); the world does not wait for the
    // periodic reorder to give the wave a cache-friendly layout.
    let mut w = world(6000, 0);
    let arch = w.add_archetype(Archetype::default());
    let scattered = |k: usize| Vec3::new((k * 7919 % 3000) as f32 * 0.7 - 1000.0, 0.0, (k % 50) as f32);
    let spread = |w: &World| {
        let p = &w.agents().pos;
        p.windows(2).map(|w| flat(w[0]).distance(flat(w[1]))).sum::<f32>() / (p.len() - 1) as f32
    };
    let mut ids: Vec<AgentId> = (0..3000).map(|k| w.spawn(arch, scattered(k)).unwrap()).collect();
    w.step(DT);
    let first = spread(&w);
    assert!(first < 20.0, "mean distance between consecutive agents after one step: {first:.1} m");
    // A second wave, well before the periodic reorder: also sorted on its next step.
    for _ in 0..10 {
        w.step(DT);
    }
    ids.extend((3000..6000).map(|k| w.spawn(arch, scattered(k) + Vec3::new(0.0, 0.0, 60.0)).unwrap()));
    let before = spread(&w);
    w.step(DT);
    let after = spread(&w);
    assert!(after < before / 10.0, "second wave: {before:.1} m before, {after:.1} m after");
    assert!(ids.iter().all(|&id| w.is_alive(id)));
}

#[test]
fn a_dense_mixed_crowd_never_launches_anyone() {
    // Small and large bodies packed onto one target: shoves move agents but give no momentum,
    // so nobody is flung out of the crowd (which also kept the grid's cells small).
    let mut w = world(1500, 0);
    let small = w.add_archetype(Archetype::default());
    let mut b = Archetype::default();
    b.agent_radius = 0.75;
    b.push_resistance = 4.0;
    let big = w.add_archetype(b);
    for i in 0..1500 {
        let a = i as f32 * 2.399;
        let r = 8.0 + (i % 20) as f32;
        w.spawn(if i % 5 == 0 { big } else { small }, Vec3::new(r * a.cos(), 0.0, r * a.sin())).unwrap();
    }
    w.register_target(Vec3::ZERO, 1.0);
    for s in 0..900 {
        w.step(DT);
        let far = w.agents().pos.iter().map(|p| flat(*p).length()).fold(0.0f32, f32::max);
        assert!(far < 30.0, "step {s}: an agent is {far:.1} m out");
        let fast = w.agents().vel.iter().zip(&w.agents().params).all(|(v, p)| v.length() <= p.max_speed + 1e-3);
        assert!(fast, "step {s}: an agent moves faster than its max speed");
    }
}

#[test]
fn agents_spawned_on_top_of_each_other_separate_without_flying_off() {
    let mut w = world(200, 0);
    let arch = w.add_archetype(Archetype::default());
    // 160 agents in a 4 x 4 m patch: many overlap deeply at spawn.
    let ids: Vec<AgentId> = (0..160)
        .map(|i| w.spawn(arch, Vec3::new((i * 37 % 40) as f32 * 0.1, 0.0, (i * 11 % 40) as f32 * 0.1)).unwrap())
        .collect();
    for _ in 0..120 {
        w.step(DT);
    }
    for id in ids {
        let d = flat(w.position(id).unwrap()).distance(Vec2::new(2.0, 2.0));
        assert!(d < 12.0, "an agent ended {d:.1} m from the patch");
    }
}

#[test]
fn a_big_surrounding_crowd_still_takes_turns_pressing() {
    // How many swings land depends on how the crowd settles, so three seeds are summed
    // (single runs land 5 to 13 hits).
    let mut hits = 0;
    for seed in [7, 1, 2] {
        let mut w = World::new(WorldSettings { max_agents: 200, worker_threads: 0, seed, ..Default::default() });
        let mut a = Archetype::default();
        a.behavior.use_surround_shape = true;
        a.behavior.use_pressure = true;
        a.behavior.max_active_attackers = 3;
        a.attack = Some(swarm_core::AttackProfile::default());
        let arch = w.add_archetype(a);
        ring(&mut w, arch, 80, 20.0);
        w.register_target(Vec3::ZERO, 1.0);
        for _ in 0..1200 {
            w.step(DT);
            hits += w.attack_events().len();
        }
    }
    assert!(hits > 15, "80 agents around one target landed {hits} hits in 3 x 20 s");
}

#[test]
fn coasting_cheap_agents_still_come_apart_and_move_like_full_ones() {
    // A pack 150 m from its target, no camera: every agent is Cheap, and its far block takes a
    // turn every 32 steps (body blocking leaves it alone in between). The pack advances about
    // as fast as with LOD off (over 2 s), and the overlaps of its dense spawn are resolved
    // within a few of its turns (4 s).
    let run = |lod: bool| {
        let lod = swarm_core::LodSettings { enabled: lod, ..Default::default() };
        let mut w =
            World::new(WorldSettings { max_agents: 200, worker_threads: 2, seed: 3, lod, ..Default::default() });
        let mut a = Archetype::default();
        a.behavior.use_idle_motion = false;
        let arch = w.add_archetype(a);
        for i in 0..120 {
            let (x, z) = ((i % 12) as f32 * 0.4, (i / 12) as f32 * 0.4);
            w.spawn(arch, Vec3::new(150.0 + x, 0.0, z)).unwrap();
        }
        w.register_target(Vec3::ZERO, 1.0);
        for _ in 0..120 {
            w.step(DT);
        }
        assert!(w.stats().tiers.cheap == 120 || !w.settings().lod.enabled);
        let mean_x = w.agents().pos.iter().map(|p| p.x).sum::<f32>() / 120.0;
        for _ in 0..120 {
            w.step(DT);
        }
        (max_overlap_fraction(&w), mean_x)
    };
    let (overlap_lod, x_lod) = run(true);
    let (overlap_full, x_full) = run(false);
    assert!(overlap_lod < 0.35, "coasting agents overlap by {:.0}% of their radii", overlap_lod * 100.0);
    assert!(overlap_full < 0.35, "full agents overlap by {:.0}% of their radii", overlap_full * 100.0);
    // The packs start centred at x = 152.2 and first spread out of each other; the coasting
    // pack keeps at least three quarters of the full pack's progress.
    let (lod_progress, full_progress) = (152.2 - x_lod, 152.2 - x_full);
    assert!(
        full_progress > 3.0 && lod_progress > 0.75 * full_progress,
        "LOD pack advanced {lod_progress} m, full pack {full_progress} m"
    );
}

#[test]
fn capped_personal_space_does_not_push_a_crowd_one_way() {
    // A dense square of agents with no target (Cheap, Personal Space capped at 2 samples) and no
    // body blocking: Personal Space alone spreads them. Which neighbours fill the cap must not
    // favour one side, or the whole crowd drifts.
    let settings =
        WorldSettings { max_agents: 500, worker_threads: 1, seed: 5, body_blocking: false, ..Default::default() };
    let mut w = World::new(settings);
    let mut a = Archetype::default();
    a.behavior.use_idle_motion = false;
    let arch = w.add_archetype(a);
    for i in 0..400 {
        w.spawn(arch, Vec3::new((i % 20) as f32 * 0.6, 0.0, (i / 20) as f32 * 0.6)).unwrap();
    }
    let centroid = |w: &World| {
        let p = &w.agents().pos;
        p.iter().fold(Vec2::ZERO, |s, q| s + Vec2::new(q.x, q.z)) / p.len() as f32
    };
    let start = centroid(&w);
    for _ in 0..300 {
        w.step(DT);
    }
    let drift = centroid(&w) - start;
    assert!(drift.length() < 0.3, "the crowd's centre drifted by {drift:?} m");
}

#[test]
fn agents_personal_space_proves_alone_skip_the_contact_solve_and_nobody_overlaps_them() {
    // A sparse lattice (1.5 m apart: nobody within the 1.2 m Personal Space radius) beside a dense
    // block (0.7 m apart) converging on one target. Agents whose Personal Space scan found nobody
    // are marked isolated and skipped by body blocking's first pass; the proof holds when no
    // isolated agent is within contact distance of anyone after the step.
    use swarm_core::agents::FLAG_ISOLATED;
    let mut w = World::new(WorldSettings {
        max_agents: 2000,
        seed: 3,
        dormancy_enabled: false,
        lod: swarm_core::LodSettings { enabled: false, ..Default::default() },
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    for i in 0..900 {
        let (x, z) = ((i % 30) as f32 * 1.5, (i / 30) as f32 * 1.5);
        w.spawn(arch, Vec3::new(x - 60.0, 0.0, z)).unwrap();
    }
    for i in 0..900 {
        let (x, z) = ((i % 30) as f32 * 0.7, (i / 30) as f32 * 0.7);
        w.spawn(arch, Vec3::new(x + 20.0, 0.0, z)).unwrap();
    }
    w.register_target(Vec3::new(0.0, 0.0, 60.0), 1.0);
    let mut seen_isolated = 0;
    for s in 0..240 {
        w.step(DT);
        let a = w.agents();
        let isolated: Vec<usize> = (0..a.len()).filter(|&i| a.flags[i] & FLAG_ISOLATED != 0).collect();
        if s == 0 {
            // First step: the lattice is alone, the block is not.
            let sparse = isolated.iter().filter(|&&i| a.pos[i].x < -10.0).count();
            let dense = isolated.len() - sparse;
            assert!(sparse >= 890 && dense == 0, "isolated on the first step: {sparse} sparse, {dense} dense");
        }
        seen_isolated += isolated.len();
        for &i in &isolated {
            for j in 0..a.len() {
                let d = flat(a.pos[i]).distance(flat(a.pos[j]));
                let touch = a.params[i].radius + a.params[j].radius;
                assert!(j == i || d >= touch - 1e-4, "step {s}: isolated agent {i} overlaps {j} ({d} < {touch})");
            }
        }
    }
    assert!(seen_isolated > 900, "{seen_isolated}");
}

#[test]
fn a_packed_crowd_pressing_on_its_target_stays_apart_through_its_listed_contacts() {
    // 600 agents spawned 0.7 m apart (bodies 0.8 m across: every neighbour overlaps) press on one
    // target, every agent Full with dormancy off, so body blocking tests the contacts each
    // agent's Personal Space scan listed, and walks the grid only where a scan could not list
    // them all. The spawn's overlaps come apart and the crowd pressing on the target stays
    // apart as deeply as walking the grid kept it.
    let mut w = World::new(WorldSettings {
        max_agents: 600,
        seed: 11,
        dormancy_enabled: false,
        lod: swarm_core::LodSettings { enabled: false, ..Default::default() },
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    for i in 0..600 {
        let (x, z) = ((i % 25) as f32 * 0.7, (i / 25) as f32 * 0.7);
        w.spawn(arch, Vec3::new(x - 8.4, 0.0, z + 6.0)).unwrap();
    }
    w.register_target(Vec3::ZERO, 1.0);
    assert!(max_overlap_fraction(&w) > 0.1);
    let mut worst: f32 = 0.0;
    for s in 0..600 {
        w.step(DT);
        if s >= 60 && s % 30 == 0 {
            worst = worst.max(max_overlap_fraction(&w));
        }
    }
    assert!(worst < 0.3, "agents overlap by {:.0}% of their radii", worst * 100.0);
    let near = w.agents().pos.iter().filter(|p| flat(**p).length() < 8.0).count();
    assert!(near > 150, "only {near} agents reached the target");
}

#[test]
fn reduced_agents_blend_their_steering_only_on_their_updates() {
    // Everyone Reduced (no near band, a huge mid band, no Full slots): an agent's steering
    // changes only on the steps its throttled update falls on, and it still walks every step.
    let mut w = World::new(WorldSettings {
        max_agents: 400,
        seed: 5,
        dormancy_enabled: false,
        lod: swarm_core::LodSettings {
            near_distance: 0.0,
            mid_distance: 1000.0,
            full_quality_agent_cap: 0,
            reduced_interval: 2,
            ..Default::default()
        },
        ..Default::default()
    });
    let arch = w.add_archetype(Archetype::default());
    ring(&mut w, arch, 400, 30.0);
    w.register_target(Vec3::ZERO, 1.0);
    // (The first step picks targets; tiers follow the distance to them from the next.)
    w.step(DT);
    w.step(DT);
    assert_eq!(w.stats().tiers.reduced, 400);
    let (mut held, mut blended) = (0, 0);
    for _ in 0..120 {
        let before: Vec<(Vec2, Vec3)> = (0..400).map(|i| (w.agents().steer[i], w.agents().pos[i])).collect();
        w.step(DT);
        let tick = w.stats().ticks as u32;
        let a = w.agents();
        for (i, &(steer, pos)) in before.iter().enumerate() {
            let due = tick.wrapping_add(a.seed[i]).is_multiple_of(2);
            if due {
                blended += (a.steer[i] != steer) as usize;
            } else {
                assert_eq!(a.steer[i], steer, "agent {i} changed its steering between updates");
                held += 1;
            }
            assert!(flat(a.pos[i]).distance(flat(pos)) > 0.0 || steer == Vec2::ZERO, "agent {i} stood still");
        }
    }
    assert!(held > 20_000 && blended > 20_000, "held {held}, blended {blended}");
}

#[test]
fn a_bigger_radius_set_on_the_archetype_pushes_standing_agents_apart() {
    // Two agents stand 1 m apart, clear of each other, long enough for the grid to keep its cells
    // (its rebuild then keeps each record's radius); growing the archetype's radius must still
    // reach body blocking at once.
    let (mut w, mut a) = standing_pair_world();
    a.behavior.use_personal_space = false;
    a.agent_radius = 0.3;
    let arch = w.add_archetype(a.clone());
    // A bigger archetype far off sets the cell size, so the change below leaves it alone.
    let mut big = a.clone();
    big.agent_radius = 1.0;
    let big = w.add_archetype(big);
    w.spawn(big, Vec3::new(40.0, 0.0, 40.0)).unwrap();
    let p = w.spawn(arch, Vec3::new(-0.5, 0.0, 0.0)).unwrap();
    let q = w.spawn(arch, Vec3::new(0.5, 0.0, 0.0)).unwrap();
    let gap = |w: &World| flat(w.position(p).unwrap()).distance(flat(w.position(q).unwrap()));
    for _ in 0..30 {
        w.step(DT);
    }
    assert!((gap(&w) - 1.0).abs() < 1e-4, "they moved while clear of each other: {}", gap(&w));
    a.agent_radius = 0.8;
    assert!(w.update_archetype(arch, a));
    for _ in 0..60 {
        w.step(DT);
    }
    assert!(gap(&w) > 1.5, "bodies of radius 0.8 still 1 m apart: {}", gap(&w));
}

#[test]
fn switching_the_ladder_on_leaves_holding_agents_facing_as_they_face() {
    // With the Importance LOD off nobody holds its steering, so no goal is stored; switched on,
    // each agent's stored goal is its facing until an update of its approach stores that one's.
    let off = swarm_core::LodSettings { enabled: false, ..Default::default() };
    let settings = WorldSettings { max_agents: 400, worker_threads: 2, seed: 5, lod: off, ..Default::default() };
    let mut w = World::new(settings.clone());
    let arch = w.add_archetype(Archetype::default());
    for i in 0..400 {
        let (x, z) = ((i % 20) as f32 * 1.5 - 15.0, (i / 20) as f32 * 1.5 - 15.0);
        w.spawn(arch, Vec3::new(x, 0.0, z)).unwrap();
    }
    w.register_target(Vec3::new(80.0, 0.0, 0.0), 1.0);
    for _ in 0..30 {
        w.step(DT);
    }
    assert!(w.agents().goal.iter().all(|g| g.get() == Vec2::ZERO), "no goal is stored with the ladder off");
    let on = WorldSettings { lod: swarm_core::LodSettings { enabled: true, ..Default::default() }, ..settings };
    assert!(w.update_settings(on));
    let a = w.agents();
    assert!((0..a.len()).all(|i| a.goal[i].get().distance(a.facing[i]) < 1e-4));
    for _ in 0..30 {
        w.step(DT);
    }
    // Each approach's update stores its goal: toward the target, 80 m east.
    let a = w.agents();
    let toward = a.goal.iter().filter(|g| g.get().x > 0.9).count();
    assert!(toward == a.len(), "{toward} of {} goals face the target", a.len());
}
