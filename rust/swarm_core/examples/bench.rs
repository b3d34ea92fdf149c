//! Core step benchmark: the simulation step alone (no engine), in three scenarios, each on one
//! thread and on all threads:
//!
//! - `open`: the default horde (Approach & Surround, Personal Space, Idle Motion, body blocking,
//!   one moving target; `Archetype::default()`) on open ground, with Importance LOD on (the
//!   default) and, on all threads, off;
//! - `flow`: the same horde on a 512 x 512 surface flow field with obstacles (2 x 2-cell pillars
//!   every 16 cells, two long walls with doorways), the target static at the centre; the cell size
//!   grows with the count so that the disc of agents fits inside the field;
//! - `doorway`: a dense crowd packed in a room on a flow field (cell 0.5 m) squeezing through one
//!   3 m doorway toward a target beyond it.
//!
//! Prints a markdown table (ms per step, median and p95; ns per agent per step; bytes of
//! simulation state per agent, `World::state_bytes() / n`, which leaves out the flow field) and
//! writes it to `--out PATH` if given. Per run, a "phases" line on stderr helps profiling. Each
//! configuration runs `--repeat` times (default 3; once at a million agents), spread round by round
//! over the whole benchmark, and the run with the lowest median is kept. Last, the machine's memory
//! copy rate (the floor under a pass over a million agents' state and under the engine's upload).
//!
//! Usage: cargo run --release -p swarm_core --example bench -- [--out PATH]
//!        [--counts 10000,100000,1000000] [--scenarios open,flow,doorway] [--only THREADS,on|off]
//!        [--doorway-agents 5000] [--repeat 3]

use std::time::Instant;

use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
use swarm_core::glam::Vec3;
use swarm_core::{Archetype, LodSettings, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;
/// Cells per side of the flow-field scenario's grid.
const FLOW_CELLS: u32 = 512;
/// Doorway scenario: cell size, field size (cells), the wall row, the doorway width (cells).
const DOOR_CELL: f32 = 0.5;
const DOOR_NX: u32 = 160;
const DOOR_NZ: u32 = 200;
const DOOR_WALL_Z: u32 = 120;
const DOOR_WIDTH: u32 = 6;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scenario {
    Open,
    Flow,
    Doorway,
}

impl Scenario {
    fn label(self) -> &'static str {
        match self {
            Scenario::Open => "default horde, open ground",
            Scenario::Flow => "default horde, 512x512 flow field",
            Scenario::Doorway => "dense crowd through a 3 m doorway",
        }
    }
}

struct Row {
    scenario: Scenario,
    agents: usize,
    threads: usize,
    lod: bool,
    median_ms: f64,
    p95_ms: f64,
    ns_per_agent: f64,
    bytes_per_agent: f64,
    /// Free-form detail for the notes (cell size, agents through the door, ...).
    detail: String,
    /// Mean ms per phase: classify, steer, body blocking, settle, attack, the rest.
    phases: [f64; 6],
}

/// A profiling aid's value from the environment variable `name`, or `default` when it is unset
/// or does not parse.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn settings(n: usize, threads: usize, lod: bool) -> WorldSettings {
    WorldSettings {
        max_agents: n,
        worker_threads: threads,
        seed: 1,
        lod: LodSettings {
            enabled: lod,
            // Profiling aid: BENCH_CHEAP_INTERVAL=8 updates Cheap agents every 8 steps instead
            // of the default 4.
            cheap_interval: env_or("BENCH_CHEAP_INTERVAL", LodSettings::default().cheap_interval),
            ..Default::default()
        },
        // Profiling aid: BENCH_OFF=dormancy turns dormancy off too (with LOD off, the engine
        // benchmark's like-for-like scene).
        dormancy_enabled: !std::env::var("BENCH_OFF").unwrap_or_default().contains("dormancy"),
        // Profiling aid: BENCH_OFF=blocking turns body blocking off.
        body_blocking: !std::env::var("BENCH_OFF").unwrap_or_default().contains("blocking"),
        ..Default::default()
    }
}

fn archetype() -> Archetype {
    let mut a = Archetype::default();
    // Profiling aid: BENCH_OFF=ps,idle,approach switches behaviours off.
    let off = std::env::var("BENCH_OFF").unwrap_or_default();
    a.behavior.use_personal_space &= !off.contains("ps");
    a.behavior.use_idle_motion &= !off.contains("idle");
    a.behavior.use_approach &= !off.contains("approach");
    a
}

/// Radius of a disc holding `n` agents at about one agent per 2 m², like a horde closing in.
fn disc_radius(n: usize) -> f32 {
    // Profiling aid: BENCH_AREA=1.5 packs the disc as the engine benchmark's scenes do.
    let area = env_or("BENCH_AREA", 2.0f32);
    (n as f32 * area / std::f32::consts::PI).sqrt()
}

/// Spawns `n` agents on a sunflower spiral filling a disc around `centre`.
fn spawn_disc(w: &mut World, arch: u16, n: usize, centre: Vec3) {
    let radius = disc_radius(n);
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for i in 0..n {
        let r = radius * ((i as f32 + 0.5) / n as f32).sqrt();
        let a = i as f32 * golden;
        w.spawn(arch, centre + Vec3::new(r * a.cos(), 0.0, r * a.sin())).unwrap();
    }
}

fn open_horde(n: usize, threads: usize, lod: bool) -> World {
    let mut w = World::new(settings(n, threads, lod));
    let arch = w.add_archetype(archetype());
    w.register_target(Vec3::ZERO, 1.0);
    spawn_disc(&mut w, arch, n, Vec3::ZERO);
    w
}

/// Cell size of the flow-field scenario: the disc (plus 15 %) fits in 512 cells, at least 0.5 m,
/// rounded up to 0.5 m.
fn flow_cell(n: usize) -> f32 {
    let c = (disc_radius(n) * 2.0 * 1.15 / FLOW_CELLS as f32).max(0.5);
    (c * 2.0).ceil() / 2.0
}

/// 512 x 512 cells centred on the origin: 2 x 2-cell pillars every 16 cells, two long walls
/// (at a quarter and three quarters of the depth) with a 4-cell doorway every 64 cells.
fn flow_grid(cell: f32) -> SurfaceGrid {
    let n = FLOW_CELLS;
    let half = n as f32 * cell * 0.5;
    let s = BakeSamples::from_fn(Vec3::new(-half, 0.0, -half), cell, n, n, |x, z, out| {
        let pillar = x % 16 == 8 || x % 16 == 9;
        let pillar = pillar && (z % 16 == 8 || z % 16 == 9);
        let wall = (z == n / 4 || z == 3 * n / 4) && x % 64 >= 4;
        if !pillar && !wall {
            out.push(SurfaceSample::walkable(0.0));
        }
    });
    SurfaceGrid::bake(&s, BakeParams::default()).expect("bake the flow-field scenario's grid")
}

fn flow_horde(n: usize, threads: usize, lod: bool) -> World {
    let mut w = World::new(settings(n, threads, lod));
    w.set_surface(Some(flow_grid(flow_cell(n))));
    let arch = w.add_archetype(archetype());
    w.register_target(Vec3::ZERO, 1.0);
    spawn_disc(&mut w, arch, n, Vec3::ZERO);
    w
}

/// A room 80 m wide: agents packed at 0.8 m spacing in its lower part, a wall across at
/// z = 60 m with one 3 m doorway in the middle, the target 20 m beyond it.
fn doorway_crowd(n: usize, threads: usize) -> World {
    let mut w = World::new(settings(n, threads, true));
    let door_x0 = DOOR_NX / 2 - DOOR_WIDTH / 2;
    let s = BakeSamples::from_fn(Vec3::ZERO, DOOR_CELL, DOOR_NX, DOOR_NZ, |x, z, out| {
        let wall = (z == DOOR_WALL_Z || z == DOOR_WALL_Z + 1) && !(door_x0..door_x0 + DOOR_WIDTH).contains(&x);
        if !wall {
            out.push(SurfaceSample::walkable(0.0));
        }
    });
    w.set_surface(Some(SurfaceGrid::bake(&s, BakeParams::default()).expect("bake the doorway grid")));
    let arch = w.add_archetype(archetype());
    let width = DOOR_NX as f32 * DOOR_CELL;
    let wall_z = DOOR_WALL_Z as f32 * DOOR_CELL;
    w.register_target(Vec3::new(width * 0.5, 0.0, wall_z + 20.0), 1.0);
    let spacing = 0.8;
    let per_row = ((width - 2.0) / spacing) as usize;
    for i in 0..n {
        let (col, row) = ((i % per_row) as f32, (i / per_row) as f32);
        // Rows fill from just below the wall backwards.
        let p = Vec3::new(1.0 + col * spacing, 0.0, wall_z - 1.5 - row * spacing);
        w.spawn(arch, p).unwrap();
    }
    w
}

fn agents_beyond_wall(w: &World) -> usize {
    let wall_far = (DOOR_WALL_Z + 2) as f32 * DOOR_CELL;
    w.agents().pos.iter().filter(|p| p.z > wall_far).count()
}

fn target_field_ready(w: &World) -> bool {
    w.surface().is_none_or(|s| s.target_field(0).is_some())
}

fn measure(sc: Scenario, n: usize, threads: usize, lod: bool) -> Row {
    let build = Instant::now();
    let mut w = match sc {
        Scenario::Open => open_horde(n, threads, lod),
        Scenario::Flow => flow_horde(n, threads, lod),
        Scenario::Doorway => doorway_crowd(n, threads),
    };
    let build_ms = build.elapsed().as_secs_f64() * 1000.0;
    let (warmup, steps) = match (sc, n) {
        (Scenario::Doorway, _) => (30, 300),
        (Scenario::Flow, n) if n < 1_000_000 => (60, if n >= 100_000 { 60 } else { 200 }),
        (_, n) if n >= 1_000_000 => (10, 20),
        (_, n) if n >= 100_000 => (20, 60),
        _ => (20, 200),
    };
    // Profiling aid: BENCH_WARMUP=240 warms up longer (past `dormancy_delay`, as the engine
    // benchmark's scenes are by their measured frames).
    let warmup = env_or("BENCH_WARMUP", warmup);
    // Profiling aid: BENCH_STEPS=1000 measures more steps (a profile then sees mostly them).
    let steps = env_or("BENCH_STEPS", steps);
    // The target's field is built time-sliced over the first steps: warm up for at least
    // `warmup` steps and 10 steps past the field's completion, at most 400 steps.
    let mut s = 0usize;
    let mut warm_steps = 0;
    let mut ready_at = target_field_ready(&w).then_some(0);
    let warm = Instant::now();
    while warm_steps < warmup.max(400) && (warm_steps < warmup || ready_at.is_none_or(|k| warm_steps < k + 10)) {
        if sc == Scenario::Open {
            let ang = s as f32 * 0.01;
            w.set_target_position(0, Vec3::new(ang.cos() * 5.0, 0.0, ang.sin() * 5.0));
        }
        w.step(DT);
        s += 1;
        warm_steps += 1;
        if ready_at.is_none() && target_field_ready(&w) {
            ready_at = Some(warm_steps);
        }
    }
    let warm_ms = warm.elapsed().as_secs_f64() * 1000.0;
    let mut times = Vec::with_capacity(steps);
    // classify, steer, blocking, settle, attack, rest (target selection, flow-field updates).
    let mut ph = [0f64; 6];
    for _ in 0..steps {
        if sc == Scenario::Open {
            let ang = s as f32 * 0.01;
            w.set_target_position(0, Vec3::new(ang.cos() * 5.0, 0.0, ang.sin() * 5.0));
        }
        let start = Instant::now();
        w.step(DT);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        s += 1;
        times.push(ms);
        let p = w.stats().phases;
        let parts = [p.classify, p.steer, p.body_blocking, p.settle, p.attack];
        for (a, b) in ph.iter_mut().zip(parts) {
            *a += b as f64 / steps as f64;
        }
        ph[5] += (ms - parts.iter().map(|&x| x as f64).sum::<f64>()) / steps as f64;
    }
    let t = w.stats().tiers;
    eprintln!(
        "  phases (mean ms): classify {:.2}, steer {:.2}, blocking {:.2}, settle {:.2}, attack {:.2}, rest {:.2} \
         | build {build_ms:.0} ms, warm-up {warm_steps} steps {warm_ms:.0} ms, {steps} measured \
         | tiers at the end: {} full, {} reduced, {} cheap ({} dormant) | far blocks' agents: {} on a turn, {} waiting",
        ph[0],
        ph[1],
        ph[2],
        ph[3],
        ph[4],
        ph[5],
        t.full,
        t.reduced,
        t.cheap,
        t.dormant,
        w.stats().far_turn,
        w.stats().far_waiting
    );
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let p95 = times[(times.len() * 95 / 100).min(times.len() - 1)];
    let ready = match ready_at {
        Some(k) => format!("target's field built in the first {k} steps"),
        None => format!("target's field NOT built after {warm_steps} warm-up steps"),
    };
    let field_mib = w.surface().map_or(0.0, |nav| {
        (nav.grid.heap_bytes() + nav.mods.heap_bytes() + nav.fields.heap_bytes()) as f64 / 1048576.0
    });
    let detail = match sc {
        Scenario::Open => String::new(),
        Scenario::Flow => format!(
            "cell {} m ({:.0} m square), {ready}; flow field memory (grid, modifiers, field) {field_mib:.1} MiB, not in state bytes",
            flow_cell(n),
            flow_cell(n) * FLOW_CELLS as f32
        ),
        Scenario::Doorway => format!(
            "{} of {n} agents through the doorway after {} steps ({:.1} s)",
            agents_beyond_wall(&w),
            s,
            s as f32 * DT
        ),
    };
    Row {
        scenario: sc,
        agents: n,
        threads,
        lod,
        median_ms: median,
        p95_ms: p95,
        ns_per_agent: median * 1e6 / n as f64,
        bytes_per_agent: w.state_bytes() as f64 / n as f64,
        detail,
        phases: ph,
    }
}

/// The machine's memory copy rate in GB/s (bytes copied per second, best of 5 copies of 256 MiB)
/// on `threads` threads: the floor under any pass that reads and writes a large horde's state,
/// and under the engine's MultiMesh upload (the instance buffer is written, then copied whole).
fn copy_rate(threads: usize) -> f64 {
    use rayon::prelude::*;
    const BYTES: usize = 256 << 20;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("copy-rate pool");
    let src = vec![1u64; BYTES / 8];
    let mut dst = vec![2u64; BYTES / 8];
    let part = src.len().div_ceil(threads);
    let best = (0..5)
        .map(|_| {
            let t = Instant::now();
            pool.install(|| {
                dst.par_chunks_mut(part).zip(src.par_chunks(part)).for_each(|(d, s)| d.copy_from_slice(s));
            });
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    std::hint::black_box(&dst);
    BYTES as f64 / best / 1e9
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let counts: Vec<usize> = arg("--counts")
        .map_or(vec![10_000, 100_000, 1_000_000], |s| s.split(',').filter_map(|c| c.trim().parse().ok()).collect());
    let scenarios: Vec<Scenario> =
        arg("--scenarios").map_or(vec![Scenario::Open, Scenario::Flow, Scenario::Doorway], |s| {
            s.split(',')
                .filter_map(|c| match c.trim() {
                    "open" => Some(Scenario::Open),
                    "flow" => Some(Scenario::Flow),
                    "doorway" => Some(Scenario::Doorway),
                    other => {
                        eprintln!("unknown scenario {other:?} (open, flow, doorway)");
                        None
                    }
                })
                .collect()
        });
    let door_agents: usize = arg("--doorway-agents").and_then(|s| s.parse().ok()).unwrap_or(5_000);
    let repeat: usize = arg("--repeat").and_then(|s| s.parse().ok()).unwrap_or(3).max(1);
    // LOD off at 1M agents is slow (every agent runs every behaviour every step); BENCH_LOD_OFF_1M=0
    // skips it.
    let lod_off_1m = std::env::var("BENCH_LOD_OFF_1M").map_or(true, |v| v != "0");
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    // `--only THREADS,on|off` runs one configuration (for profiling).
    let only = arg("--only").map(|only| {
        let (t, l) = only.split_once(',').unwrap_or((&only, "on"));
        (t.parse().unwrap_or(all), l != "off")
    });
    let mut notes: Vec<String> = Vec::new();
    // Every configuration to run: (scenario, agents, threads, LOD, runs).
    let mut jobs: Vec<(Scenario, usize, usize, bool, usize)> = Vec::new();
    for &sc in &scenarios {
        let scenario_counts = if sc == Scenario::Doorway { vec![door_agents] } else { counts.clone() };
        for &n in &scenario_counts {
            let mut configs = vec![(all, true)];
            if sc == Scenario::Open {
                if n < 1_000_000 || lod_off_1m {
                    configs.push((all, false));
                } else {
                    notes.push(format!("- LOD off at {n} agents on open ground skipped (BENCH_LOD_OFF_1M=0).\n"));
                }
            }
            if all > 1 {
                configs.insert(0, (1, true));
            }
            if let Some(o) = only {
                configs = vec![o];
            }
            for (threads, lod) in configs {
                jobs.push((sc, n, threads, lod, if n >= 1_000_000 { 1 } else { repeat }));
            }
        }
    }
    // Each configuration runs `runs` times and the run with the lowest median is kept: on a
    // shared machine other work only adds time. The runs are spread over the whole benchmark
    // (round by round through every configuration) so that a slow spell of the machine does not
    // fall on all the runs of one configuration.
    let mut best: Vec<Option<Row>> = jobs.iter().map(|_| None).collect();
    for round in 0..jobs.iter().map(|j| j.4).max().unwrap_or(0) {
        for (job, slot) in jobs.iter().zip(best.iter_mut()) {
            let &(sc, n, threads, lod, runs) = job;
            if round >= runs {
                continue;
            }
            let r = measure(sc, n, threads, lod);
            if slot.as_ref().is_none_or(|b| r.median_ms < b.median_ms) {
                *slot = Some(r);
            }
        }
    }
    let rows: Vec<Row> = best.into_iter().map(|r| r.expect("at least one run")).collect();
    let mut md = String::from(
        "| scenario | agents | threads | LOD | median ms/step | p95 ms/step | ns/agent/step | state bytes/agent |\n|---|---:|---:|---|---:|---:|---:|---:|\n",
    );
    for r in &rows {
        let (label, lod) = (r.scenario.label(), if r.lod { "on" } else { "off" });
        let (n, t, median) = (r.agents, r.threads, r.median_ms);
        let detail = if r.detail.is_empty() { String::new() } else { format!("; {}", r.detail) };
        eprintln!("{label}: {n} agents, {t} thread(s), LOD {lod}: {median:.3} ms median{detail}");
        md += &format!(
            "| {label} | {n} | {t} | {lod} | {median:.3} | {:.3} | {:.1} | {:.0} |\n",
            r.p95_ms, r.ns_per_agent, r.bytes_per_agent
        );
    }
    // Where the step's time goes, for the kept run of each configuration.
    md += "\nWhere the step's time goes: mean ms per phase of each kept run (`StepStats::phases`: classify \
           includes perception and the grid rebuild beside it, steer the whole per-agent step; rest is \
           target selection, flow-field slices and the step's own overhead), and the largest phase's share:\n\n\
           | scenario | agents | threads | LOD | classify | steer | blocking | settle | attack | rest | largest |\n\
           |---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|\n";
    const PHASES: [&str; 6] = ["classify", "steer", "blocking", "settle", "attack", "rest"];
    for r in &rows {
        let total: f64 = r.phases.iter().sum::<f64>().max(1e-9);
        let (k, big) = r.phases.iter().enumerate().fold((0, 0.0), |b, (k, &v)| if v > b.1 { (k, v) } else { b });
        let cells: Vec<String> = r.phases.iter().map(|v| format!("{v:.2}")).collect();
        md += &format!(
            "| {} | {} | {} | {} | {} | {} {:.0}% |\n",
            r.scenario.label(),
            r.agents,
            r.threads,
            if r.lod { "on" } else { "off" },
            cells.join(" | "),
            PHASES[k],
            100.0 * big / total
        );
    }
    let find = |sc: Scenario, n: usize, t: usize, lod: bool| {
        rows.iter().find(|r| r.scenario == sc && r.agents == n && r.threads == t && r.lod == lod)
    };
    md.push('\n');
    for &sc in &scenarios {
        let scenario_counts = if sc == Scenario::Doorway { vec![door_agents] } else { counts.clone() };
        for &n in &scenario_counts {
            if let (Some(one), Some(many)) = (find(sc, n, 1, true), find(sc, n, all, true)) {
                if all > 1 {
                    let what = match sc {
                        Scenario::Open => String::new(),
                        Scenario::Flow => ", 512x512 flow field".into(),
                        Scenario::Doorway => ", doorway".into(),
                    };
                    md += &format!(
                        "- Parallel speed-up at {n} agents{what} ({all} threads vs 1, LOD on): {:.2}x\n",
                        one.median_ms / many.median_ms
                    );
                }
            }
            if sc == Scenario::Open {
                if let (Some(on), Some(off)) = (find(sc, n, all, true), find(sc, n, all, false)) {
                    md += &format!(
                        "- Importance LOD at {n} agents: step cost with LOD off / on = {:.2}x\n",
                        off.median_ms / on.median_ms
                    );
                }
            }
            if sc != Scenario::Open {
                if let Some(r) = find(sc, n, all, true).or_else(|| find(sc, n, 1, true)) {
                    md += &format!("- {} at {n} agents: {}\n", r.scenario.label(), r.detail);
                }
            }
        }
    }
    let per_agent = |n: usize| find(Scenario::Open, n, all, true).map(|r| r.ns_per_agent);
    if let (Some(small), Some(big)) = (per_agent(10_000), per_agent(100_000)) {
        md += &format!(
            "- Cost per agent on open ground, 100k vs 10k agents (all threads, LOD on): {:.2}x\n",
            big / small
        );
    }
    if let (Some(small), Some(big)) = (per_agent(1_000), per_agent(10_000)) {
        md +=
            &format!("- Cost per agent on open ground, 10k vs 1k agents (all threads, LOD on): {:.2}x\n", big / small);
    }
    if let (Some(small), Some(big)) = (per_agent(100_000), per_agent(1_000_000)) {
        md +=
            &format!("- Cost per agent on open ground, 1M vs 100k agents (all threads, LOD on): {:.2}x\n", big / small);
    }
    for n in notes {
        md += &n;
    }
    // The memory floor under the largest counts: state read and written once, and the engine's
    // instance buffer (16 floats an instance) written and copied once. (Not when profiling one
    // configuration.)
    if only.is_none() {
        let (one, many) = (copy_rate(1), copy_rate(all));
        md += &format!(
            "- Memory copy rate (256 MiB, best of 5): {one:.1} GB/s on 1 thread, {many:.1} GB/s on {all} threads"
        );
        if let Some(r) = find(Scenario::Open, 1_000_000, all, true) {
            let ms_to_copy = |bytes: f64| bytes / (many * 1e9) * 1e3;
            md += &format!(
                ": at that rate, copying 1,000,000 agents' state ({:.0} bytes each) once takes {:.1} ms, and their \
                 64 MB MultiMesh instance buffer {:.1} ms on all threads (the engine's `set_buffer` copies it on one)",
                r.bytes_per_agent,
                ms_to_copy(r.bytes_per_agent * 1e6),
                ms_to_copy(64e6)
            );
        }
        md += ".\n";
    }
    print!("{md}");
    if let Some(p) = arg("--out") {
        if let Some(dir) = std::path::Path::new(&p).parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(&p, &md).expect("write --out");
    }
}
