//! Core step benchmark: the default horde (Approach & Surround, Personal Space, Idle Motion,
//! body blocking, one moving target) on open ground, at several agent counts, on one thread and
//! on all threads. Prints a markdown table and writes it to `--out PATH` if given.
//!
//! Usage: cargo run --release -p swarm_core --example bench -- [--out PATH] [--counts 10000,100000]

use std::time::Instant;

use swarm_core::glam::Vec3;
use swarm_core::{Archetype, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

struct Row {
    agents: usize,
    threads: usize,
    median_ms: f64,
    p95_ms: f64,
    ns_per_agent: f64,
    bytes_per_agent: f64,
}

fn horde(n: usize, threads: usize) -> World {
    let mut w = World::new(WorldSettings { max_agents: n, worker_threads: threads, seed: 1, ..Default::default() });
    let arch = w.add_archetype(Archetype::default());
    w.register_target(Vec3::ZERO, 1.0);
    // A disc at about one agent per 2 m², like a horde closing in.
    let radius = (n as f32 * 2.0 / std::f32::consts::PI).sqrt();
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for i in 0..n {
        let r = radius * ((i as f32 + 0.5) / n as f32).sqrt();
        let a = i as f32 * golden;
        w.spawn(arch, Vec3::new(r * a.cos(), 0.0, r * a.sin())).unwrap();
    }
    w
}

fn measure(n: usize, threads: usize) -> Row {
    let mut w = horde(n, threads);
    let warmup = 20;
    let steps = if n >= 1_000_000 {
        20
    } else if n >= 100_000 {
        60
    } else {
        200
    };
    let mut times = Vec::with_capacity(steps);
    let t = 0u32;
    for s in 0..warmup + steps {
        let ang = s as f32 * 0.01;
        let _ = t;
        w.set_target_position(0, Vec3::new(ang.cos() * 5.0, 0.0, ang.sin() * 5.0));
        let start = Instant::now();
        w.step(DT);
        if s >= warmup {
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let p95 = times[(times.len() * 95 / 100).min(times.len() - 1)];
    Row {
        agents: n,
        threads,
        median_ms: median,
        p95_ms: p95,
        ns_per_agent: median * 1e6 / n as f64,
        bytes_per_agent: w.state_bytes() as f64 / n as f64,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let counts: Vec<usize> =
        arg("--counts").map_or(vec![10_000, 100_000], |s| s.split(',').filter_map(|c| c.trim().parse().ok()).collect());
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rows = Vec::new();
    for &n in &counts {
        for threads in [1, all] {
            if threads == 1 && all == 1 && !rows.is_empty() && rows.iter().any(|r: &Row| r.agents == n) {
                continue;
            }
            let r = measure(n, threads);
            eprintln!("{n} agents, {threads} thread(s): {:.3} ms median", r.median_ms);
            rows.push(r);
        }
    }
    let mut md = String::from("| scenario | agents | threads | median ms/step | p95 ms/step | ns/agent/step | state bytes/agent |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for r in &rows {
        md += &format!(
            "| default horde, open ground | {} | {} | {:.3} | {:.3} | {:.1} | {:.0} |\n",
            r.agents, r.threads, r.median_ms, r.p95_ms, r.ns_per_agent, r.bytes_per_agent
        );
    }
    for &n in &counts {
        let one = rows.iter().find(|r| r.agents == n && r.threads == 1);
        let many = rows.iter().find(|r| r.agents == n && r.threads == all);
        if let (Some(a), Some(b)) = (one, many) {
            if all > 1 {
                md += &format!(
                    "\nParallel speed-up at {n} agents ({all} threads vs 1): {:.2}x",
                    a.median_ms / b.median_ms
                );
            }
        }
    }
    if let (Some(small), Some(big)) = (
        rows.iter().find(|r| r.agents == 10_000 && r.threads == all),
        rows.iter().find(|r| r.agents == 100_000 && r.threads == all),
    ) {
        md += &format!(
            "\nCost per agent, 100k vs 10k agents (all threads): {:.2}x",
            big.ns_per_agent / small.ns_per_agent
        );
    }
    md.push('\n');
    print!("{md}");
    if let Some(p) = arg("--out") {
        if let Some(dir) = std::path::Path::new(&p).parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(&p, &md).expect("write --out");
    }
}
