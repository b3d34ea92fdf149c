//! Formation orders, as scenarios: agents ordered across open ground arrive together in their
//! slots without crossing paths, hold them, and go back to their target when released; around a
//! wall (on a surface flow field) the far side still arrives with the near side; bad orders are
//! refused; and the same order gives the same result on 1 and 4 threads.

mod common;

use common::DT;
use swarm_core::formation::assign::{paths_cross, paths_cross_clearly};
use swarm_core::formation::{FormationError, FormationShape, ShapeError};
use swarm_core::glam::{Vec2, Vec3};
use swarm_core::{AgentId, Archetype, World, WorldSettings};

fn world(threads: usize) -> World {
    World::new(WorldSettings { max_agents: 500, worker_threads: threads, seed: 5, ..Default::default() })
}

fn wedge() -> FormationShape {
    let mut points = vec![Vec2::ZERO];
    for k in 1..=7 {
        points.push(Vec2::new(-(k as f32), k as f32));
        points.push(Vec2::new(k as f32, k as f32));
    }
    FormationShape { points, ..Default::default() }
}

fn xz(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.z)
}

/// Steps until the order reports arrival (or `max` steps); records each agent's first step within
/// the arrival radius of where it ends. Returns the arrival step and the per-agent arrival steps.
fn run_order(w: &mut World, ids: &[AgentId], order: i64, max: usize) -> (usize, Vec<usize>) {
    let mut done = None;
    let mut track: Vec<Vec<Vec2>> = vec![Vec::new(); ids.len()];
    for s in 0..max {
        w.step(DT);
        for (k, &id) in ids.iter().enumerate() {
            track[k].push(xz(w.position(id).unwrap()));
        }
        if w.formation_arrivals().contains(&order) {
            assert!(done.is_none(), "arrival reported twice");
            done = Some(s);
            break;
        }
    }
    let done = done.expect("the order should arrive");
    let arrivals =
        track.iter().map(|t| t.iter().position(|p| p.distance(*t.last().unwrap()) <= 0.5).unwrap()).collect();
    (done, arrivals)
}

#[test]
fn open_ground_order_arrives_together_without_crossing() {
    let mut w = world(2);
    let a = w.add_archetype(Archetype::default());
    // A target far away: without the order the agents would chase it.
    w.register_target(Vec3::new(-20.0, 0.0, 0.0), 1.0);
    // As many agents as the wedge has points: one rank, its tip at the destination.
    let ids: Vec<AgentId> =
        (0..15).map(|i| w.spawn(a, Vec3::new((i % 5) as f32 * 1.5, 0.0, (i / 5) as f32 * 1.5)).unwrap()).collect();
    let starts: Vec<Vec2> = ids.iter().map(|&id| xz(w.position(id).unwrap())).collect();
    let dest = Vec3::new(45.0, 0.0, 3.0);
    let mut findings = Vec::new();
    let given = w.move_in_formation(&ids, dest, wedge(), &mut findings).unwrap();
    assert_eq!((given.agents, given.skipped), (15, 0));
    let planned = w.formation_progress(given.id).unwrap().time_to_arrive;
    let (done, arrivals) = run_order(&mut w, &ids, given.id, 3000);
    let (first, last) = (*arrivals.iter().min().unwrap(), *arrivals.iter().max().unwrap());
    let travel = last as f32 * DT;
    let spread = (last - first) as f32 * DT;
    eprintln!("planned {planned:.2} s, arrived at {:.2} s, spread {spread:.2} s", done as f32 * DT);
    assert!(spread <= 0.05 * travel, "spread {spread} s of {travel} s");
    assert!((travel - planned).abs() <= 0.15 * planned, "travel {travel} vs planned {planned}");
    // The wedge's tip stands at the destination.
    let ends: Vec<Vec2> = ids.iter().map(|&id| xz(w.position(id).unwrap())).collect();
    let tip = ends.iter().map(|e| e.distance(xz(dest))).fold(f32::MAX, f32::min);
    assert!(tip <= 0.5, "nearest agent {tip} m from the destination");
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            assert!(!paths_cross(starts[i], ends[i], starts[j], ends[j]), "paths of {i} and {j} cross");
        }
    }
    // Holding: two more seconds, nobody walks off (idle motion is off for ordered agents).
    for _ in 0..120 {
        w.step(DT);
        assert!(w.formation_arrivals().is_empty());
    }
    for (k, &id) in ids.iter().enumerate() {
        let seat = w.state().agents().seat[w.index_of(id).unwrap()];
        let p = xz(w.position(id).unwrap());
        assert!(p.distance(seat.slot) < 0.2, "agent {k} stands {} m off its slot", p.distance(seat.slot));
        assert!(
            w.velocity(id).unwrap().length() < 0.05,
            "agent {k} still walks {} at {} m",
            w.velocity(id).unwrap(),
            p.distance(seat.slot)
        );
    }
    // Released, they chase the target again.
    assert!(w.cancel_formation(given.id));
    assert!(w.formation_progress(given.id).is_none() && w.agent_order(ids[0]).is_none());
    let before: f32 = ids.iter().map(|&id| w.position(id).unwrap().x).sum();
    for _ in 0..120 {
        w.step(DT);
    }
    let after: f32 = ids.iter().map(|&id| w.position(id).unwrap().x).sum();
    assert!(after < before - 15.0 * 3.0, "released agents should head for the target");
    assert!(!w.cancel_formation(given.id));
}

/// The level: 40 x 60 m of floor (1 m cells) with a 2 m wall across z = 30 from x = 20 to the
/// east edge: a group in the north walking to a line in the south, about half of whose slots lie
/// behind the wall, goes around its west end.
fn walled_grid() -> swarm_core::flow_field::SurfaceGrid {
    use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 40, 60, |x, z, o| {
        if !((30..32).contains(&z) && x >= 20) {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
}

fn walled_order(threads: usize) -> (f32, f32, Vec<Vec3>) {
    let mut w = world(threads);
    w.set_surface(Some(walled_grid()));
    let a = w.add_archetype(Archetype { agent_radius: 0.3, ..Default::default() });
    // 32 agents in a block north of the wall, a line of 16 in two ranks south of it.
    let ids: Vec<AgentId> = (0..32)
        .map(|i| w.spawn(a, Vec3::new(14.0 + (i % 8) as f32 * 1.5, 0.0, 50.0 + (i / 8) as f32 * 1.5)).unwrap())
        .collect();
    let line = FormationShape {
        points: (0..16).map(|k| Vec2::new(k as f32 - 7.5, 0.0)).collect(),
        spacing: 1.5,
        ..Default::default()
    };
    let given = w.move_in_formation(&ids, Vec3::new(20.0, 0.0, 8.0), line, &mut Vec::new()).unwrap();
    let starts: Vec<Vec3> = ids.iter().map(|&id| w.position(id).unwrap()).collect();
    let (_, arrivals) = run_order(&mut w, &ids, given.id, 4000);
    let (first, last) = (*arrivals.iter().min().unwrap(), *arrivals.iter().max().unwrap());
    // Agents whose straight line from start to end stays on open ground walk it: those paths do
    // not cross (the agents around the wall share its end and may).
    let ends: Vec<Vec3> = ids.iter().map(|&id| w.position(id).unwrap()).collect();
    let nav = w.surface().unwrap();
    let clear: Vec<usize> = (0..ids.len())
        .filter(|&k| {
            let c = nav.cell_under(starts[k]);
            swarm_core::flow_field::line_is_open(&nav.grid, &nav.mods, c, starts[k], xz(ends[k]), 4096)
        })
        .collect();
    let mut crossings = 0;
    for (x, &i) in clear.iter().enumerate() {
        for &j in &clear[x + 1..] {
            crossings += paths_cross_clearly(xz(starts[i]), xz(ends[i]), xz(starts[j]), xz(ends[j]), 0.5) as usize;
        }
    }
    eprintln!("walled: {} straight walkers, {crossings} crossing pairs", clear.len());
    assert_eq!(crossings, 0);
    let grid = &w.surface().unwrap().grid;
    for &id in &ids {
        let p = w.position(id).unwrap();
        assert!(grid.locate(p).is_some(), "agent at {p} is inside the wall");
    }
    ((last - first) as f32 * DT, last as f32 * DT, ids.iter().map(|&id| w.position(id).unwrap()).collect())
}

#[test]
fn around_a_wall_the_far_side_arrives_with_the_near_side() {
    let (spread, travel, _) = walled_order(2);
    eprintln!("walled: spread {spread:.2} s of {travel:.2} s");
    assert!(spread <= 0.10 * travel, "spread {spread} s of {travel} s");
}

#[test]
fn an_order_gives_the_same_result_on_one_and_four_threads() {
    assert_eq!(walled_order(1).2, walled_order(4).2);
}

#[test]
fn bad_orders_are_refused_and_leave_agents_alone() {
    let mut w = world(1);
    let a = w.add_archetype(Archetype::default());
    let id = w.spawn(a, Vec3::ZERO).unwrap();
    let mut f = Vec::new();
    let dest = Vec3::new(5.0, 0.0, 0.0);
    assert_eq!(w.move_in_formation(&[], dest, wedge(), &mut f), Err(FormationError::NoAgents));
    let empty = FormationShape { points: vec![], ..Default::default() };
    assert_eq!(w.move_in_formation(&[id], dest, empty, &mut f), Err(FormationError::Shape(ShapeError::NoPoints)));
    assert_eq!(w.move_in_formation(&[id], Vec3::NAN, wedge(), &mut f), Err(FormationError::BadDestination));
    assert_eq!(w.move_in_formation(&[id], Vec3::splat(1e30), wedge(), &mut f), Err(FormationError::BadDestination));
    w.despawn(id);
    assert_eq!(w.move_in_formation(&[id], dest, wedge(), &mut f), Err(FormationError::NoAgents));
    assert_eq!(w.formation_count(), 0);
    // Stale and repeated ids are skipped; a second order takes the agent from the first.
    let b = w.spawn(a, Vec3::ZERO).unwrap();
    let first = w.move_in_formation(&[b, b, id], dest, wedge(), &mut f).unwrap();
    assert_eq!((first.agents, first.skipped), (1, 2));
    let second = w.move_in_formation(&[b], -dest, wedge(), &mut f).unwrap();
    assert_eq!(w.agent_order(b), Some(second.id));
    w.step(DT);
    assert!(w.formation_progress(first.id).is_none(), "the emptied order is dropped");
    // An agent despawned mid-order leaves it: the order completes for the others.
    let c = w.spawn(a, Vec3::new(0.0, 0.0, 3.0)).unwrap();
    let third = w.move_in_formation(&[b, c], dest, wedge(), &mut f).unwrap();
    w.step(DT);
    w.despawn(c);
    let mut arrived = 0;
    for _ in 0..600 {
        w.step(DT);
        arrived += w.formation_arrivals().iter().filter(|&&o| o == third.id).count();
    }
    assert_eq!(arrived, 1);
    assert_eq!(w.formation_progress(third.id).unwrap().agents, 1);
}

/// The engine test's level (tests/project/tests/test_formation_wall.gd) in the core: an 80 x 80 m
/// floor at 0.5 m cells with a 1 m wall across z = 0 from x = 4 to the east edge; 32 agents in a
/// block at z = 28 ordered into a line of 16 (two ranks, spacing 1.5) at z = -22.
#[test]
fn engine_wall_scenario_arrives_together() {
    use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
    let s = BakeSamples::from_fn(Vec3::new(-40.0, 0.0, -40.0), 0.5, 160, 160, |x, z, o| {
        let (px, pz) = (-40.0 + (x as f32 + 0.5) * 0.5, -40.0 + (z as f32 + 0.5) * 0.5);
        if !(px >= 4.0 && pz.abs() <= 0.5) {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    let grid = SurfaceGrid::bake(&s, BakeParams::default()).unwrap();
    let mut w = world(2);
    w.set_surface(Some(grid));
    let a = w.add_archetype(Archetype::default());
    let ids: Vec<AgentId> = (0..32)
        .map(|i| {
            w.spawn(a, Vec3::new(4.0 - 3.5 * 1.2 + (i % 8) as f32 * 1.2, 0.0, 28.0 - 1.5 * 1.2 + (i / 8) as f32 * 1.2))
                .unwrap()
        })
        .collect();
    let points = (0..16)
        .map(|k| Vec2::new(if k % 2 == 0 { -0.5 - (k / 2) as f32 } else { 0.5 + (k / 2) as f32 }, 0.0))
        .collect();
    let line = FormationShape { points, spacing: 1.5, ..Default::default() };
    let given = w.move_in_formation(&ids, Vec3::new(4.0, 0.0, -22.0), line, &mut Vec::new()).unwrap();
    let planned = w.formation_progress(given.id).unwrap().time_to_arrive;
    let (_, arrivals) = run_order(&mut w, &ids, given.id, 6000);
    let (first, last) = (*arrivals.iter().min().unwrap(), *arrivals.iter().max().unwrap());
    let spread = (last - first) as f32 * DT;
    eprintln!("engine wall: planned {planned:.2} s, last {:.2} s, spread {spread:.2} s", last as f32 * DT);
    assert!(spread <= 0.10 * planned, "spread {spread} s of {planned} s");
}
