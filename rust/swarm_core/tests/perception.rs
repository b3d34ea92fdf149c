//! Perception: sight distance, navigation-path occlusion by a costly door (and the
//! BLOCKED-only-way-in case that reads as seen), search of the last seen spot and forgetting,
//! noises, alerts, who presses a closed door, physics-ray requests, and identical results on one
//! and many threads. Scenario tests run hundreds of steps and assert outcomes.

use swarm_core::flow_field::{ModifierBox, RouteMode};
use swarm_core::glam::{Vec2, Vec3};
use swarm_core::perception::{Awareness, CHASING, IDLE, INVESTIGATING, SEARCHING};
use swarm_core::{AgentId, Archetype, PerceptionProfile, SightOcclusion, World, WorldSettings};

mod common;
use common::{ascii, DT, ROOMS};

fn profile(occlusion: SightOcclusion) -> PerceptionProfile {
    PerceptionProfile {
        sight_distance: 30.0,
        sight_occlusion: occlusion,
        occlusion_detour_tolerance: 4.0,
        forget_time: 3.0,
        search_enabled: true,
        alert_spread_radius: 0.0,
    }
}

fn archetype(p: Option<PerceptionProfile>) -> Archetype {
    let mut a = Archetype::default();
    a.agent_radius = 0.3;
    a.perception = p;
    a
}

fn world(threads: usize, cap: usize, rooms: bool) -> World {
    let mut w = World::new(WorldSettings {
        max_agents: cap,
        worker_threads: threads,
        dormancy_enabled: false,
        ..Default::default()
    });
    if rooms {
        w.set_surface(Some(ascii(&ROOMS)));
    }
    w
}

fn door(cost: RouteMode) -> ModifierBox {
    ModifierBox::aligned(Vec3::new(26.0, 0.5, 9.5), Vec3::new(2.0, 2.0, 1.0), true, cost)
}

fn set_door(w: &mut World, d: Option<ModifierBox>) {
    let mut stamps = Vec::new();
    let boxes: Vec<ModifierBox> = d.into_iter().collect();
    w.surface_mut().unwrap().set_modifiers(&boxes, &mut stamps);
}

fn mode(w: &World, id: AgentId) -> u8 {
    w.awareness(id).unwrap().mode
}

fn aware(w: &World, id: AgentId) -> Awareness {
    w.awareness(id).unwrap()
}

fn flat(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.z)
}

fn run(w: &mut World, steps: usize) {
    for _ in 0..steps {
        w.step(DT);
    }
}

#[test]
fn sight_distance_decides_who_chases() {
    let mut w = world(1, 10, false);
    let mut p = profile(SightOcclusion::None);
    p.sight_distance = 10.0;
    let arch = w.add_archetype(archetype(Some(p)));
    let near = w.spawn(arch, Vec3::new(8.0, 0.0, 0.0)).unwrap();
    let far = w.spawn(arch, Vec3::new(-20.0, 0.0, 0.0)).unwrap();
    w.register_target(Vec3::ZERO, 1.0);
    run(&mut w, 300);
    assert_eq!(mode(&w, near), CHASING);
    assert_eq!(mode(&w, far), IDLE);
    let (dn, df) = (flat(w.position(near).unwrap()).length(), flat(w.position(far).unwrap()).length());
    assert!(dn < 3.0, "the agent that sees the target reached it: {dn}");
    assert!(df > 14.0, "the agent out of sight stayed away (idle wander only): {df}");
    let c = w.stats().perception;
    assert_eq!((c.chasing, c.idle), (1, 1));
}

#[test]
fn a_costly_closed_door_hides_the_target_and_opening_or_cheapening_it_reveals_it() {
    let mut w = world(1, 10, true);
    let arch = w.add_archetype(archetype(Some(profile(SightOcclusion::NavigationPath))));
    // 7 m from the target straight through the doorway.
    let id = w.spawn(arch, Vec3::new(26.0, 0.0, 5.0)).unwrap();
    w.register_target(Vec3::new(26.0, 0.0, 12.0), 1.0);
    set_door(&mut w, Some(door(RouteMode::ExtraCost(30.0))));
    run(&mut w, 240);
    assert_eq!(mode(&w, id), IDLE, "a closed door costing 30 m hides the target");
    assert!(w.surface().unwrap().pressing_count(0) == 0);
    assert!(!w.is_going_somewhere(id));
    // A fence-like cost below the tolerance hides nothing.
    set_door(&mut w, Some(door(RouteMode::ExtraCost(2.0))));
    run(&mut w, 60);
    assert_eq!(mode(&w, id), CHASING, "a 2 m cost is within the 4 m tolerance");
    // Back to costly, then a damaged door at half cost (15 m) still hides, a 3 m one does not.
    set_door(&mut w, Some(door(RouteMode::ExtraCost(30.0))));
    w.set_position(id, Vec3::new(26.0, 0.0, 5.0));
    run(&mut w, 60 * 5);
    assert_ne!(mode(&w, id), CHASING);
    set_door(&mut w, Some(door(RouteMode::ExtraCost(15.0))));
    run(&mut w, 60);
    assert_ne!(mode(&w, id), CHASING, "half of 30 m still hides");
    // A 7 m door hides (past 4 m + 1.5 cells of slack); damaged, at half cost (3.5 m), it does not.
    set_door(&mut w, Some(door(RouteMode::ExtraCost(7.0))));
    run(&mut w, 60);
    assert_ne!(mode(&w, id), CHASING, "a 7 m door hides");
    set_door(&mut w, Some(door(RouteMode::ExtraCost(3.5))));
    run(&mut w, 60);
    assert_eq!(mode(&w, id), CHASING, "the same door at half cost reveals the target");
    w.set_position(id, Vec3::new(26.0, 0.0, 5.0));
    set_door(&mut w, None);
    run(&mut w, 300);
    assert_eq!(mode(&w, id), CHASING, "an open door reveals the target");
    let d = flat(w.position(id).unwrap()).distance(Vec2::new(26.0, 12.0));
    assert!(d < 3.0, "and the agent reached it: {d}");
}

#[test]
fn a_wall_hides_the_target_and_a_blocked_only_way_in_reads_as_seen() {
    let mut w = world(1, 10, true);
    let arch = w.add_archetype(archetype(Some(profile(SightOcclusion::NavigationPath))));
    // 6 m from the target straight through the wall; the route via the door is about 45 m.
    let id = w.spawn(arch, Vec3::new(5.0, 0.0, 6.0)).unwrap();
    let near_door = w.spawn(arch, Vec3::new(26.0, 0.0, 6.0)).unwrap();
    w.register_target(Vec3::new(5.0, 0.0, 12.0), 1.0);
    run(&mut w, 120);
    assert_eq!(mode(&w, id), IDLE, "the wall hides the target");
    // BLOCKED on the only way in: no route can be measured, so the target reads as seen (the shut way in does not
    // make the crowd forget it).
    set_door(&mut w, Some(door(RouteMode::Blocked)));
    run(&mut w, 120);
    assert_eq!(mode(&w, id), CHASING, "no route: reads as not blocked");
    assert_eq!(mode(&w, near_door), CHASING);
}

#[test]
fn a_lost_target_is_searched_at_its_last_seen_spot_then_forgotten() {
    let mut w = world(1, 10, false);
    let arch = w.add_archetype(archetype(Some(profile(SightOcclusion::None))));
    let id = w.spawn(arch, Vec3::new(10.0, 0.0, 0.0)).unwrap();
    let t = w.register_target(Vec3::ZERO, 1.0);
    run(&mut w, 30);
    assert_eq!(mode(&w, id), CHASING);
    // The target vanishes far away: the agent searches where it last saw it.
    w.set_target_position(t, Vec3::new(0.0, 0.0, 200.0));
    run(&mut w, 2);
    let a = aware(&w, id);
    assert_eq!(a.mode, SEARCHING);
    assert!(flat(a.spot).length() < 0.01, "spot {:?}", a.spot);
    let mut reached = f32::INFINITY;
    let mut steps = 0;
    while mode(&w, id) == SEARCHING && steps < 600 {
        w.step(DT);
        steps += 1;
        reached = reached.min(flat(w.position(id).unwrap()).length());
    }
    assert!(reached < 1.5, "walked to the last seen spot: {reached} m");
    let secs = steps as f32 * DT;
    assert!((secs - 3.0).abs() < 0.1, "gave up after forget_time (3 s): {secs} s");
    assert_eq!(mode(&w, id), IDLE);
    // Without search the agent idles at once.
    let mut p = profile(SightOcclusion::None);
    p.search_enabled = false;
    let plain = w.add_archetype(archetype(Some(p)));
    let other = w.spawn(plain, Vec3::new(0.0, 0.0, 190.0)).unwrap();
    run(&mut w, 10);
    assert_eq!(mode(&w, other), CHASING);
    w.set_target_position(t, Vec3::new(0.0, 0.0, 400.0));
    run(&mut w, 2);
    assert_eq!(mode(&w, other), IDLE);
}

#[test]
fn a_noise_draws_searchers_only_and_they_give_up() {
    let mut w = world(1, 40, false);
    let searcher = w.add_archetype(archetype(Some(profile(SightOcclusion::None))));
    let mut deaf = profile(SightOcclusion::None);
    deaf.search_enabled = false;
    let deaf = w.add_archetype(archetype(Some(deaf)));
    let s: Vec<AgentId> = (0..10).map(|k| w.spawn(searcher, Vec3::new(-12.0, 0.0, k as f32 * 1.2)).unwrap()).collect();
    let d: Vec<AgentId> = (0..10).map(|k| w.spawn(deaf, Vec3::new(12.0, 0.0, k as f32 * 1.2)).unwrap()).collect();
    let far = w.spawn(searcher, Vec3::new(-40.0, 0.0, 0.0)).unwrap();
    run(&mut w, 10);
    assert!(!w.emit_noise(Vec3::new(f32::NAN, 0.0, 0.0), 5.0));
    assert!(!w.emit_noise(Vec3::ZERO, -3.0));
    assert!(w.emit_noise(Vec3::new(0.0, 0.0, 5.0), 20.0));
    run(&mut w, 1);
    assert!(s.iter().all(|&id| mode(&w, id) == INVESTIGATING));
    assert!(d.iter().all(|&id| mode(&w, id) == IDLE));
    assert_eq!(mode(&w, far), IDLE, "out of earshot");
    run(&mut w, 150);
    let mean = |ids: &[AgentId], w: &World| {
        ids.iter().map(|&id| flat(w.position(id).unwrap()).distance(Vec2::new(0.0, 5.0))).sum::<f32>()
            / ids.len() as f32
    };
    let (ms, md) = (mean(&s, &w), mean(&d, &w));
    assert!(ms < 4.0, "searchers gathered at the noise: mean {ms} m");
    assert!(md > 10.0, "agents without search stayed: mean {md} m");
    run(&mut w, 160);
    assert!(s.iter().all(|&id| mode(&w, id) == IDLE), "searchers gave up after forget_time");
}

#[test]
fn an_agent_that_sees_alerts_its_neighbours_and_wakes_dormant_ones() {
    let mut w = World::new(WorldSettings {
        max_agents: 10,
        worker_threads: 1,
        dormancy_enabled: true,
        dormancy_distance: 30.0,
        dormancy_delay: 0.5,
        ..Default::default()
    });
    let mut p = profile(SightOcclusion::None);
    p.sight_distance = 15.0;
    p.alert_spread_radius = 8.0;
    let arch = w.add_archetype(archetype(Some(p)));
    let seer = w.spawn(arch, Vec3::new(0.0, 0.0, 0.0)).unwrap();
    let friend = w.spawn(arch, Vec3::new(-6.0, 0.0, 0.0)).unwrap();
    let stranger = w.spawn(arch, Vec3::new(-20.0, 0.0, 40.0)).unwrap();
    // The target starts far from everyone: all go dormant.
    let t = w.register_target(Vec3::new(0.0, 0.0, 200.0), 1.0);
    run(&mut w, 60);
    assert!(w.is_dormant(friend) && w.is_dormant(stranger));
    // It appears next to the seer: 10 m away, 16 m from the friend (beyond its sight).
    w.set_target_position(t, Vec3::new(10.0, 0.0, 0.0));
    run(&mut w, 10);
    assert_eq!(mode(&w, seer), CHASING);
    let f = aware(&w, friend);
    assert_eq!(f.mode, SEARCHING, "alerted");
    assert!(flat(f.spot).distance(Vec2::new(10.0, 0.0)) < 0.5);
    assert!(!w.is_dormant(friend), "the alert woke it");
    assert_eq!(mode(&w, stranger), IDLE);
    assert!(w.is_dormant(stranger));
    run(&mut w, 180);
    assert_eq!(mode(&w, friend), CHASING, "it came close enough to see for itself");
}

#[test]
fn alerts_do_not_pass_a_wall_on_navigation_path() {
    let mut w = world(1, 10, true);
    let mut p = profile(SightOcclusion::NavigationPath);
    p.alert_spread_radius = 8.0;
    let arch = w.add_archetype(archetype(Some(p)));
    // The seer is in the bottom room with the target; across the wall, 4 m away, another agent.
    let seer = w.spawn(arch, Vec3::new(5.0, 0.0, 12.0)).unwrap();
    let across = w.spawn(arch, Vec3::new(5.0, 0.0, 8.0)).unwrap();
    let beside = w.spawn(arch, Vec3::new(9.0, 0.0, 12.0)).unwrap();
    w.register_target(Vec3::new(5.0, 0.0, 18.0), 1.0);
    run(&mut w, 20);
    assert_eq!(mode(&w, seer), CHASING);
    assert_eq!(mode(&w, beside), CHASING);
    assert_eq!(mode(&w, across), IDLE, "the wall hides both the target and the alert");
}

#[test]
fn only_agents_going_somewhere_press_a_closed_door() {
    let mut w = world(0, 80, true);
    let perceiving = w.add_archetype(archetype(Some(profile(SightOcclusion::NavigationPath))));
    let plain = w.add_archetype(archetype(None));
    let ids: Vec<AgentId> = (0..30)
        .map(|k| w.spawn(perceiving, Vec3::new(22.0 + (k % 6) as f32, 0.0, 3.0 + (k / 6) as f32)).unwrap())
        .collect();
    w.register_target(Vec3::new(26.0, 0.0, 12.0), 1.0);
    set_door(&mut w, Some(door(RouteMode::ExtraCost(40.0))));
    let mut pressed = 0;
    for _ in 0..600 {
        w.step(DT);
        pressed = pressed.max(w.surface().unwrap().pressing_count(0));
    }
    assert_eq!(pressed, 0, "nobody sees the target behind the costly door, nobody presses it");
    // Agents without perception always know the target and press.
    let plain_ids: Vec<AgentId> =
        (0..10).map(|k| w.spawn(plain, Vec3::new(22.0 + k as f32 * 0.8, 0.0, 7.5)).unwrap()).collect();
    let mut pressed_plain = 0;
    for _ in 0..300 {
        w.step(DT);
        pressed_plain = pressed_plain.max(w.surface().unwrap().pressing_count(0));
    }
    assert!(pressed_plain >= 2, "agents without perception press: {pressed_plain}");
    for id in plain_ids {
        w.despawn(id);
    }
    // The door opens: the crowd sees the target and goes; it closes behind the first ones.
    set_door(&mut w, None);
    run(&mut w, 90);
    let chasing = ids.iter().filter(|&&id| mode(&w, id) == CHASING).count();
    assert!(chasing >= 25, "{chasing} of 30 see the target through the open door");
    set_door(&mut w, Some(door(RouteMode::ExtraCost(40.0))));
    let mut pressed_searching = 0;
    let mut searching_max = 0;
    for _ in 0..90 {
        w.step(DT);
        pressed_searching = pressed_searching.max(w.surface().unwrap().pressing_count(0));
        searching_max = searching_max.max(w.stats().perception.searching);
    }
    assert!(searching_max >= 5, "agents still on this side search the last seen spot: {searching_max}");
    assert!(pressed_searching >= 2, "searchers press the door in their way: {pressed_searching}");
    // forget_time (3 s) later they give up and stop pressing.
    run(&mut w, 240);
    let mut late = 0;
    for _ in 0..120 {
        w.step(DT);
        late = late.max(w.surface().unwrap().pressing_count(0));
    }
    assert_eq!(late, 0, "given up: nobody presses any more");
    println!(
        "pressing: hidden {pressed}, plain {pressed_plain}, searching {pressed_searching} (searchers {searching_max}), after forgetting {late}"
    );
}

#[test]
fn a_crowd_drawn_only_by_noise_gives_up_on_an_attackable_door() {
    let mut w = world(0, 60, true);
    let mut p = profile(SightOcclusion::NavigationPath);
    p.forget_time = 6.0;
    let mut a = archetype(Some(p));
    a.attack = Some(swarm_core::AttackProfile::default());
    let arch = w.add_archetype(a);
    let ids: Vec<AgentId> =
        (0..40).map(|k| w.spawn(arch, Vec3::new(18.0 + (k % 8) as f32, 0.0, 2.0 + (k / 8) as f32)).unwrap()).collect();
    w.register_target(Vec3::new(26.0, 0.0, 14.0), 1.0);
    // The door stands open for a moment: the agents nearest it see the target, then it shuts.
    run(&mut w, 40);
    let nav = w.surface_mut().unwrap();
    let mut stamps = Vec::new();
    nav.set_modifiers(&[door(RouteMode::ExtraCost(60.0))], &mut stamps);
    nav.set_attackable(&[true]);
    // A breakable's hit noise: every blow makes one (at most every 0.5 s), heard 15 m away.
    let mut last_noise = -1.0;
    let mut blows = Vec::new();
    for s in 0..60 * 30 {
        w.step(DT);
        let hits = w.attack_events().iter().filter(|e| e.obstacle == Some(0)).count();
        blows.push(hits);
        let t = s as f32 * DT;
        if hits > 0 && t - last_noise >= 0.5 {
            w.emit_noise(Vec3::new(26.0, 0.5, 9.5), 15.0);
            last_noise = t;
        }
    }
    let gathered = ids.iter().filter(|&&id| flat(w.position(id).unwrap()).distance(Vec2::new(26.0, 9.0)) < 6.0).count();
    let late: usize = blows[blows.len() - 300..].iter().sum();
    let total: usize = blows.iter().sum();
    println!("noise crowd: {total} blows in 30 s, {late} in the last 5 s, {gathered} near the door");
    // One to three blows, depending on the order neighbours are met in: the searchers strike
    // the door, and each blow's noise then draws the rest.
    assert!(total >= 1, "searchers that saw the target struck the door: {total} blows");
    assert_eq!(late, 0, "the crowd drawn only by noise gave up");
    assert!(ids.iter().all(|&id| mode(&w, id) == IDLE));
}

#[test]
fn physics_ray_requests_are_bounded_round_robin_and_answers_decide_sight() {
    let mut w = world(1, 200, false);
    w.set_sight_ray_budget(16);
    let arch = w.add_archetype(archetype(Some(profile(SightOcclusion::PhysicsRay))));
    let ids: Vec<AgentId> =
        (0..100).map(|k| w.spawn(arch, Vec3::new((k % 10) as f32, 0.0, (k / 10) as f32)).unwrap()).collect();
    w.register_target(Vec3::new(5.0, 0.0, 20.0), 1.0);
    let mut asked = std::collections::HashSet::new();
    // The first step only picks targets.
    for _ in 0..8 {
        w.step(DT);
        let r = w.sight_ray_requests();
        assert!(r.len() <= 16);
        for q in r {
            asked.insert(q.agent);
            assert!(q.from.y > 1.0 && q.to.is_finite());
        }
        // Nothing answered yet: nobody sees.
    }
    assert_eq!(asked.len(), 100, "the round-robin reached every agent within 8 steps");
    assert_eq!(w.stats().perception.chasing, 0, "unanswered rays read as unseen");
    // Answer: even agent indices blocked, odd clear.
    for _ in 0..8 {
        let answers: Vec<bool> = w.sight_ray_requests().iter().map(|q| q.agent.slot % 2 == 0).collect();
        w.answer_sight_rays(&answers);
        w.step(DT);
    }
    let chasing = ids.iter().filter(|&&id| mode(&w, id) == CHASING).count();
    assert_eq!(chasing, 50, "exactly the agents with a clear ray see the target");
}

fn determinism_run(threads: usize) -> (Vec<Vec3>, Vec<Awareness>) {
    let mut w = world(threads, 3000, true);
    let mut p = profile(SightOcclusion::NavigationPath);
    p.alert_spread_radius = 6.0;
    let a = w.add_archetype(archetype(Some(p)));
    let mut q = profile(SightOcclusion::None);
    q.sight_distance = 12.0;
    q.alert_spread_radius = 4.0;
    let b = w.add_archetype(archetype(Some(q)));
    let c = w.add_archetype(archetype(None));
    for k in 0..2500 {
        let x = (k % 50) as f32 * 0.55 + 1.0;
        let z = (k / 50) as f32 * 0.17 + 0.5;
        let arch = [a, b, c][k % 3];
        w.spawn(arch, Vec3::new(x, 0.0, z.min(8.5))).unwrap();
    }
    let t = w.register_target(Vec3::new(26.0, 0.0, 15.0), 1.0);
    for s in 0..360 {
        if s == 60 {
            set_door(&mut w, Some(door(RouteMode::ExtraCost(30.0))));
        }
        if s == 200 {
            set_door(&mut w, None);
        }
        if s % 40 == 0 {
            w.emit_noise(Vec3::new(5.0 + s as f32 * 0.05, 0.0, 4.0), 8.0);
        }
        w.set_target_position(t, Vec3::new(26.0 + (s as f32 * 0.02).sin() * 3.0, 0.0, 15.0));
        w.step(DT);
    }
    let ag = w.agents();
    (ag.pos.clone(), ag.aware.clone())
}

#[test]
fn perception_is_identical_on_one_and_many_threads() {
    let one = determinism_run(1);
    let four = determinism_run(4);
    assert!(one.0 == four.0, "positions differ between 1 and 4 threads");
    assert!(one.1 == four.1, "perception state differs between 1 and 4 threads");
    let modes: std::collections::BTreeSet<u8> = one.1.iter().map(|a| a.mode).collect();
    assert!(modes.len() >= 2, "the run exercised several perception states: {modes:?}");
}

#[test]
fn a_wall_blocks_hearing_the_route_not_the_straight_line_decides() {
    let mut w = world(1, 10, true);
    let arch = w.add_archetype(archetype(Some(profile(SightOcclusion::None))));
    // The noise in the top room at x 5; one agent 6 m away across the wall (about 42 m by the
    // route through the door at x 25..27), one 7 m away in the same room.
    let across = w.spawn(arch, Vec3::new(5.5, 0.0, 6.5)).unwrap();
    let beside = w.spawn(arch, Vec3::new(12.5, 0.0, 12.5)).unwrap();
    run(&mut w, 2);
    w.emit_noise(Vec3::new(5.5, 0.0, 12.5), 10.0);
    run(&mut w, 1);
    assert_eq!(mode(&w, beside), INVESTIGATING, "heard in the same room");
    assert_eq!(mode(&w, across), IDLE, "the wall stops a 10 m noise 42 m away by the route");
}

#[test]
fn a_heard_noise_behind_a_wall_is_walked_to_along_the_route() {
    let mut w = world(1, 10, true);
    let mut p = profile(SightOcclusion::None);
    p.forget_time = 60.0;
    let arch = w.add_archetype(archetype(Some(p)));
    let across = w.spawn(arch, Vec3::new(5.5, 0.0, 6.5)).unwrap();
    run(&mut w, 2);
    let spot = Vec3::new(5.5, 0.0, 12.5);
    w.emit_noise(spot, 60.0);
    run(&mut w, 1);
    assert_eq!(mode(&w, across), INVESTIGATING, "a 60 m noise carries the 42 m route");
    // Straight at it, it would stand against the wall; along the spot's field it goes round
    // through the door.
    let mut best = f32::INFINITY;
    for _ in 0..1500 {
        w.step(DT);
        best = best.min(flat(w.position(across).unwrap()).distance(flat(spot)));
    }
    assert!(best < 1.5, "it reached the noise through the door: closest {best} m");
}

#[test]
fn a_hit_on_a_closed_door_is_heard_on_both_sides_alike() {
    let mut w = world(1, 10, true);
    set_door(&mut w, Some(door(RouteMode::ExtraCost(10.0))));
    let arch = w.add_archetype(archetype(Some(profile(SightOcclusion::None))));
    let below = w.spawn(arch, Vec3::new(26.0, 0.0, 5.5)).unwrap();
    let above = w.spawn(arch, Vec3::new(26.0, 0.0, 13.5)).unwrap();
    run(&mut w, 2);
    // Where a blow lands: the closed cell's centre, a metre above the floor.
    w.emit_noise(Vec3::new(26.0, 1.0, 9.5), 6.0);
    run(&mut w, 1);
    assert_eq!(mode(&w, below), INVESTIGATING, "heard below the door");
    assert_eq!(mode(&w, above), INVESTIGATING, "heard above the door");
}
