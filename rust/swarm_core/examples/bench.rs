//! Core step benchmark: the default horde (Approach & Surround, Personal Space, Idle Motion,
//! body blocking, one moving target) on open ground, at several agent counts, on one thread and
//! on all threads, with Importance LOD on (the default) and off. Prints a markdown table and
//! writes it to `--out PATH` if given.
//!
//! Usage: cargo run --release -p swarm_core --example bench -- [--out PATH] [--counts 1000,10000,100000]

use std::time::Instant;

use swarm_core::glam::Vec3;
use swarm_core::{Archetype, LodSettings, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

struct Row {
    agents: usize,
    threads: usize,
    lod: bool,
    median_ms: f64,
    p95_ms: f64,
    ns_per_agent: f64,
    bytes_per_agent: f64,
}

fn horde(n: usize, threads: usize, lod: bool) -> World {
    let settings = WorldSettings {
        max_agents: n,
        worker_threads: threads,
        seed: 1,
        lod: LodSettings { enabled: lod, ..Default::default() },
        ..Default::default()
    };
    let mut w = World::new(settings);
    let mut a = Archetype::default();
    // Profiling aid: BENCH_OFF=ps,idle,approach switches behaviours off.
    let off = std::env::var("BENCH_OFF").unwrap_or_default();
    a.behavior.use_personal_space &= !off.contains("ps");
    a.behavior.use_idle_motion &= !off.contains("idle");
    a.behavior.use_approach &= !off.contains("approach");
    let arch = w.add_archetype(a);
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

fn measure(n: usize, threads: usize, lod: bool) -> Row {
    let mut w = horde(n, threads, lod);
    let warmup = 20;
    let steps = match n {
        n if n >= 1_000_000 => 20,
        n if n >= 100_000 => 60,
        _ => 200,
    };
    let mut times = Vec::with_capacity(steps);
    let mut ph = [0f64; 5];
    for s in 0..warmup + steps {
        let ang = s as f32 * 0.01;
        w.set_target_position(0, Vec3::new(ang.cos() * 5.0, 0.0, ang.sin() * 5.0));
        let start = Instant::now();
        w.step(DT);
        if s >= warmup {
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            let p = w.stats().phases;
            for (a, b) in ph.iter_mut().zip([p.classify, p.steer, p.body_blocking, p.settle, p.attack]) {
                *a += b as f64 / steps as f64;
            }
        }
    }
    eprintln!(
        "  phases (mean ms): classify {:.2}, steer {:.2}, blocking {:.2}, settle {:.2}, attack {:.2}",
        ph[0], ph[1], ph[2], ph[3], ph[4]
    );
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let p95 = times[(times.len() * 95 / 100).min(times.len() - 1)];
    Row {
        agents: n,
        threads,
        lod,
        median_ms: median,
        p95_ms: p95,
        ns_per_agent: median * 1e6 / n as f64,
        bytes_per_agent: w.state_bytes() as f64 / n as f64,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let counts: Vec<usize> = arg("--counts")
        .map_or(vec![1_000, 10_000, 100_000], |s| s.split(',').filter_map(|c| c.trim().parse().ok()).collect());
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rows: Vec<Row> = Vec::new();
    for &n in &counts {
        let mut configs = vec![(all, true), (all, false)];
        if all > 1 {
            configs.insert(0, (1, true));
        }
        // `--only THREADS,on|off` runs one configuration (for profiling).
        if let Some(only) = arg("--only") {
            let (t, l) = only.split_once(',').unwrap_or((&only, "on"));
            configs = vec![(t.parse().unwrap_or(all), l != "off")];
        }
        for (threads, lod) in configs {
            let r = measure(n, threads, lod);
            eprintln!(
                "{n} agents, {threads} thread(s), LOD {}: {:.3} ms median",
                if lod { "on" } else { "off" },
                r.median_ms
            );
            rows.push(r);
        }
    }
    let mut md = String::from(
        "| scenario | agents | threads | LOD | median ms/step | p95 ms/step | ns/agent/step | state bytes/agent |\n|---|---:|---:|---|---:|---:|---:|---:|\n",
    );
    for r in &rows {
        md += &format!(
            "| default horde, open ground | {} | {} | {} | {:.3} | {:.3} | {:.1} | {:.0} |\n",
            r.agents,
            r.threads,
            if r.lod { "on" } else { "off" },
            r.median_ms,
            r.p95_ms,
            r.ns_per_agent,
            r.bytes_per_agent
        );
    }
    let find = |n: usize, t: usize, lod: bool| rows.iter().find(|r| r.agents == n && r.threads == t && r.lod == lod);
    md.push('\n');
    for &n in &counts {
        if let (Some(one), Some(many)) = (find(n, 1, true), find(n, all, true)) {
            if all > 1 {
                md += &format!(
                    "- Parallel speed-up at {n} agents ({all} threads vs 1, LOD on): {:.2}x\n",
                    one.median_ms / many.median_ms
                );
            }
        }
        if let (Some(on), Some(off)) = (find(n, all, true), find(n, all, false)) {
            md += &format!(
                "- Importance LOD at {n} agents: step cost with LOD off / on = {:.2}x\n",
                off.median_ms / on.median_ms
            );
        }
    }
    let per_agent = |n: usize| find(n, all, true).map(|r| r.ns_per_agent);
    if let (Some(small), Some(big)) = (per_agent(10_000), per_agent(100_000)) {
        md += &format!("- Cost per agent, 100k vs 10k agents (all threads, LOD on): {:.2}x\n", big / small);
    }
    if let (Some(small), Some(big)) = (per_agent(1_000), per_agent(10_000)) {
        md += &format!("- Cost per agent, 10k vs 1k agents (all threads, LOD on): {:.2}x\n", big / small);
    }
    print!("{md}");
    if let Some(p) = arg("--out") {
        if let Some(dir) = std::path::Path::new(&p).parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(&p, &md).expect("write --out");
    }
}
