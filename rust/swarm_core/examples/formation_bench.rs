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
use swarm_core::formation::FormationShape;
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
    let ids = (0..n)
        .map(|i| w.spawn(a, Vec3::new(10.0 + (i % side) as f32 * 1.2, 0.0, 60.0 + (i / side) as f32 * 1.2)).unwrap())
        .collect();
    (w, ids)
}

fn order_ms(n: usize, on_field: bool, repeat: usize) -> (f64, f64) {
    let mut best = f64::MAX;
    let mut total = 0.0;
    for r in 0..repeat {
        let (mut w, ids) = group(n, on_field);
        let t = Instant::now();
        w.move_in_formation(&ids, Vec3::new(230.0, 0.0, 128.0), square(n.min(400)), &mut Vec::new()).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        best = best.min(ms);
        if r == 0 {
            // Summed straight distance of ours against `i % n` (same slots, same agents).
            let seats = &w.state().agents().seat;
            let pos = &w.state().agents().pos;
            let ours: f64 = (0..n).map(|i| Vec2::new(pos[i].x, pos[i].z).distance(seats[i].slot) as f64).sum();
            let mut slots: Vec<Vec2> = seats.iter().map(|s| s.slot).collect();
            slots.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
            let modulo: f64 = (0..n).map(|i| Vec2::new(pos[i].x, pos[i].z).distance(slots[i]) as f64).sum();
            total = ours / modulo;
        }
    }
    (best, total)
}

fn spread(n: usize) -> (f32, f32) {
    let (mut w, ids) = group(n, false);
    let o = w.move_in_formation(&ids, Vec3::new(120.0, 0.0, 60.0), square(n.min(400)), &mut Vec::new()).unwrap();
    let mut arrived = vec![None; n];
    for s in 0..20_000 {
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
    let steps: Vec<usize> = arrived.iter().map(|a| a.unwrap_or(20_000)).collect();
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
        "| agents | order, open ground (ms) | order, walled 256 m field (ms) | goal (ms) | summed route vs `i % n` |\n|---|---|---|---|---|\n",
    );
    for (n, goal) in [(100, 0.5), (1000, 5.0), (5000, 40.0)] {
        let (open, ratio) = order_ms(n, false, repeat);
        let (walled, _) = order_ms(n, true, repeat);
        md += &format!("| {n} | {open:.3} | {walled:.3} | {goal} | {:.0} % |\n", ratio * 100.0);
        eprintln!("{n}: open {open:.3} ms, walled {walled:.3} ms, summed route {:.0} % of i % n", ratio * 100.0);
    }
    let (sp, travel) = spread(1000);
    md += &format!(
        "\nWalked (open ground, 1,000 agents, square of 400 points in ranks): last arrival at {travel:.2} s, \
         first-to-last spread {sp:.2} s ({:.1} % of the travel time).\n",
        sp / travel * 100.0
    );
    print!("{md}");
    if let Some(p) = out {
        std::fs::write(p, md).expect("write --out");
    }
}
