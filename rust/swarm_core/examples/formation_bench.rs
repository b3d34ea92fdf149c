//! Formation order cost (slot assignment + route lengths, everything `move_in_formation` does)
//! for 100, 1,000 and 5,000 agents: on open ground (straight routes), and on a 256 x 256 m flow
//! field at 1 m cells with walls between the group and the destination (one destination field
//! built, every route measured on it). Also the summed route of the assignment against the
//! seed's `i % n` slots, and how far apart in time the agents arrive when the order is walked
//! (open ground, 1,000 agents).
//!
//!   cargo run --release -p swarm_core --example formation_bench -- [--repeat 5] [--out PATH]

use std::time::Instant;

use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
use swarm_core::formation::assign::paths_cross_clearly;
use swarm_core::formation::{FormationShape, Placement};
use swarm_core::glam::{Vec2, Vec3};
use swarm_core::{AgentId, Archetype, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

fn square(n: usize) -> FormationShape {
    let w = (n as f32).sqrt().ceil() as usize;
    let points = (0..n).map(|k| Vec2::new((k % w) as f32 - w as f32 / 2.0, (k / w) as f32)).collect();
    FormationShape { points, spacing: 1.5, ..Default::default() }
}

/// 256 x 256 m of floor, with three walls (8 m gaps) across the way from x = 40 to x = 200.
fn walled_grid() -> SurfaceGrid {
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 256, 256, |x, z, o| {
        let wall = [90u32, 130, 170].iter().enumerate().any(|(k, &wx)| {
            let gap = 40 + 80 * k as u32;
            x == wx && !(gap..gap + 8).contains(&z)
        });
        if !wall {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
}

fn group(n: usize, on_field: bool) -> (World, Vec<AgentId>) {
    let mut w = World::new(WorldSettings { max_agents: n + 10, seed: 3, ..Default::default() });
    if on_field {
        w.set_surface(Some(walled_grid()));
    }
    let a = w.add_archetype(Archetype { agent_radius: 0.3, ..Default::default() });
    let side = (n as f32).sqrt().ceil() as usize;
    let spawned: Vec<AgentId> = (0..n)
        .map(|i| w.spawn(a, Vec3::new(10.0 + (i % side) as f32 * 1.2, 0.0, 60.0 + (i / side) as f32 * 1.2)).unwrap())
        .collect();
    // A selection in no particular order (as a box selection or a unit list gives it): agent k
    // of the list is spawned agent (k * 7919) mod n.
    let stride = if n.is_multiple_of(7919) { 1 } else { 7919 };
    let ids = (0..n).map(|k| spawned[(k * stride) % n]).collect();
    (w, ids)
}

fn order_ms(n: usize, on_field: bool, repeat: usize) -> (f64, f64) {
    let mut best = f64::MAX;
    let mut total = 0.0;
    for r in 0..repeat {
        let (mut w, ids) = group(n, on_field);
        let t = Instant::now();
        w.move_in_formation(&ids, Vec3::new(230.0, 0.0, 128.0), square(n.min(2500)), &mut Vec::new()).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        best = best.min(ms);
        if r == 0 && !on_field {
            // Paths that cross clearly (straight, start to slot, not two agents in a file) of ours against the seed's `i % n` (list
            // entry k takes slot k), counted on up to 1,000 agents of the list.
            let pos = &w.state().agents().pos;
            let seats = &w.state().agents().seat;
            let xz = |k: usize| Vec2::new(pos[k].x, pos[k].z);
            let centroid = (0..n).map(xz).sum::<Vec2>() / n as f32;
            let placement = Placement::facing(centroid, Vec2::new(230.0, 128.0));
            let mut offsets = Vec::new();
            square(n.min(2500)).offsets(n, &mut offsets);
            let sample: Vec<usize> = (0..n.min(1000)).collect();
            let idx: Vec<usize> = sample.iter().map(|&k| w.index_of(ids[k]).unwrap()).collect();
            let crossings = |end: &dyn Fn(usize) -> Vec2| {
                let mut c = 0usize;
                for x in 0..idx.len() {
                    for y in x + 1..idx.len() {
                        c += paths_cross_clearly(xz(idx[x]), end(x), xz(idx[y]), end(y), 0.5) as usize;
                    }
                }
                c
            };
            let ours = crossings(&|x| seats[idx[x]].slot) as f64;
            let modulo = crossings(&|x| placement.place(offsets[sample[x]])) as f64;
            total = ours + modulo / 1e9;
        }
    }
    (best, total)
}

fn spread(n: usize) -> (f32, f32) {
    let (mut w, ids) = group(n, false);
    let o = w.move_in_formation(&ids, Vec3::new(230.0, 0.0, 128.0), square(n.min(2500)), &mut Vec::new()).unwrap();
    let mut arrived = vec![None; n];
    for s in 0..40_000 {
        w.step(DT);
        for (k, &id) in ids.iter().enumerate() {
            if arrived[k].is_none() {
                let i = w.index_of(id).unwrap();
                if w.state().agents().seat[i].arrived {
                    arrived[k] = Some(s);
                }
            }
        }
        if w.formation_arrivals().contains(&o.id) {
            break;
        }
    }
    let steps: Vec<usize> = arrived.iter().map(|a| a.unwrap_or(40_000)).collect();
    let mut sorted = steps.clone();
    sorted.sort_unstable();
    let pct = |p: f32| sorted[((p * (n - 1) as f32) as usize).min(n - 1)] as f32 * DT;
    eprintln!(
        "walked {n}: planned {:.2} s, arrivals p0 {:.2} p10 {:.2} p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}",
        w.formation_progress(o.id).map_or(f32::NAN, |p| p.time_to_arrive),
        pct(0.0),
        pct(0.1),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    let (first, last) = (*steps.iter().min().unwrap(), *steps.iter().max().unwrap());
    ((last - first) as f32 * DT, last as f32 * DT)
}

fn main() {
    let (mut repeat, mut out) = (5usize, None::<String>);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (k, v) = match a.split_once('=') {
            Some((k, v)) => (k, v.to_string()),
            None => (a.as_str(), it.next().cloned().unwrap_or_default()),
        };
        match k {
            "--repeat" => repeat = v.parse().expect("--repeat"),
            "--out" => out = Some(v),
            _ => panic!("unknown argument {a}"),
        }
    }
    let mut md = String::from(
        "| agents | order, open ground (ms) | order, walled 256 m field (ms) | goal (ms) | crossing paths, ours | crossing paths, `i % n` |\n|---|---|---|---|---|---|\n",
    );
    for (n, goal) in [(100, 0.5), (1000, 5.0), (5000, 40.0)] {
        let (open, ratio) = order_ms(n, false, repeat);
        let (walled, _) = order_ms(n, true, repeat);
        let (ours, modulo) = (ratio.trunc() as u64, (ratio.fract() * 1e9).round() as u64);
        md += &format!("| {n} | {open:.3} | {walled:.3} | {goal} | {ours} | {modulo} |\n");
        eprintln!("{n}: open {open:.3} ms, walled {walled:.3} ms, crossing pairs {ours} (i % n: {modulo})");
    }
    let (sp, travel) = spread(1000);
    md += &format!(
        "\nWalked (open ground, 1,000 agents in a square, about 230 m): last arrival at {travel:.2} s, \
         first-to-last spread {sp:.2} s ({:.1} % of the travel time).\n",
        sp / travel * 100.0
    );
    print!("{md}");
    if let Some(p) = out {
        std::fs::write(p, md).expect("write --out");
    }
}
