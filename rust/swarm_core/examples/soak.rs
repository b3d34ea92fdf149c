//! Soak run: many steps of a large horde with continuous spawn/despawn churn, moving targets,
//! doors closing and opening (struck while closed, broken open on a schedule), noises, and a
//! save/load round trip at a fixed interval. Checks after every step: no NaN; every 100 steps and
//! after each load: ids resolve to their own index, counts agree, no agent in a cell closed to
//! agents. Resident memory is sampled each tenth of the run; the run fails when the last tenth
//! is more than 5 % above the mark taken at tenth MARK (1: the 10 % mark). Prints one table row
//! per tenth and a summary line.
//!
//!     cargo run --release -p swarm_core --example soak -- STEPS AGENTS SAVE_EVERY THREADS MARK

use std::time::Instant;

use swarm_core::flow_field::{BakeParams, BakeSamples, ModifierBox, RouteMode, SurfaceGrid, SurfaceSample, NONE};
use swarm_core::glam::Vec3;
use swarm_core::{Archetype, AttackProfile, PerceptionProfile, World, WorldSettings};

/// Side of the square level in metres (1 m cells): four rooms split by two walls with doors.
const SIDE: u32 = 240;
const DOORS: [(f32, f32); 4] = [(60.0, 120.5), (180.0, 120.5), (120.5, 60.0), (120.5, 180.0)];

fn arg(k: usize, default: usize) -> usize {
    std::env::args().nth(k).and_then(|a| a.parse().ok()).unwrap_or(default)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" {
    fn malloc_trim(pad: usize) -> i32;
}

/// Resident memory in KiB, after handing freed heap pages back to the system (so the figure
/// follows live memory, not the allocator's high-water mark from the moment of a load, when the
/// old world, the save and the new world coexist).
fn rss_kib() -> u64 {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap memory to the system.
    unsafe {
        malloc_trim(0);
    }
    let s = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    s.split_whitespace().nth(1).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0) * 4
}

/// A small deterministic generator for the script (not the world's).
struct Script(u64);
impl Script {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 1_000_000) as f32 / 1_000_000.0
    }
}

fn level() -> SurfaceGrid {
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, SIDE, SIDE, |x, z, o| {
        let door = |c: u32| (c / 60) % 2 == 1 && c % 60 < 2;
        let wall = (z == SIDE / 2 && !door(x)) || (x == SIDE / 2 && !door(z));
        if !wall {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
}

fn set_doors(w: &mut World, closed: &[bool; 4]) {
    let boxes: Vec<ModifierBox> = DOORS
        .iter()
        .zip(closed)
        .filter(|(_, &c)| c)
        .map(|(&(x, z), _)| {
            let size = if z == 120.5 { Vec3::new(3.0, 2.0, 1.0) } else { Vec3::new(1.0, 2.0, 3.0) };
            ModifierBox::aligned(Vec3::new(x, 0.5, z), size, true, RouteMode::ExtraCost(40.0))
        })
        .collect();
    let n = boxes.len();
    let nav = w.surface_mut().unwrap();
    nav.set_modifiers(&boxes, &mut Vec::new());
    nav.set_attackable(&vec![true; n]);
}

fn check(w: &World, step: usize) -> Result<(), String> {
    let ids: Vec<_> = w.ids().collect();
    if ids.len() != w.count() || w.count() > w.capacity() {
        return Err(format!("step {step}: counts disagree"));
    }
    for (i, id) in ids.iter().enumerate() {
        if w.index_of(*id) != Some(i) {
            return Err(format!("step {step}: id {id:?} does not resolve to index {i}"));
        }
    }
    let nav = w.surface().unwrap();
    if let Some(i) = w.agents().cell.iter().position(|&c| c != NONE && nav.mods.blocks_agents(c)) {
        return Err(format!("step {step}: agent {i} stands in a closed cell"));
    }
    Ok(())
}

fn main() {
    let steps = arg(1, 1_000_000);
    let agents = arg(2, 20_000);
    let save_every = arg(3, 10_000).max(1);
    let threads = arg(4, 0);
    let mark = arg(5, 1).clamp(1, 9);
    let mut w = World::new(WorldSettings {
        max_agents: agents + agents / 10,
        worker_threads: threads,
        seed: 11,
        ..Default::default()
    });
    w.set_surface(Some(level()));
    let mut seer = Archetype::default();
    seer.perception = Some(PerceptionProfile { sight_distance: 40.0, ..Default::default() });
    let mut hitter = Archetype::default();
    hitter.attack = Some(AttackProfile::default());
    let kinds = [w.add_archetype(seer), w.add_archetype(hitter), w.add_archetype(Archetype::default())];
    let targets: Vec<u32> =
        (0..4).map(|k| w.register_target(Vec3::new(30.0 + 60.0 * k as f32, 0.0, 30.0), 1.0)).collect();
    let mut rng = Script(7);
    let spawn = |w: &mut World, rng: &mut Script| {
        let p = Vec3::new(2.0 + rng.unit() * (SIDE as f32 - 4.0), 0.0, 2.0 + rng.unit() * (SIDE as f32 - 4.0));
        let _ = w.spawn(kinds[(rng.next() % 3) as usize], p);
    };
    for _ in 0..agents {
        spawn(&mut w, &mut rng);
    }
    let mut closed = [true; 4];
    set_doors(&mut w, &closed);
    let (mut spawned, mut despawned, mut loads, mut save_bytes) = (0u64, 0u64, 0u64, 0usize);
    let tenth = (steps / 10).max(1);
    let mut rss_mark = 0u64;
    let mut rss_last_max = 0u64;
    let start = Instant::now();
    println!("| steps done | agents | RSS MiB | save KiB | loads | ms/step (this tenth) |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut tenth_start = Instant::now();
    for s in 1..=steps {
        let t = s as f32 / 60.0;
        for (k, &h) in targets.iter().enumerate() {
            let a = t * 0.2 + k as f32 * 1.57;
            let c = 60.0 + 120.0 * (k % 2) as f32;
            let r = 60.0 + 120.0 * (k / 2) as f32;
            w.set_target_position(h, Vec3::new(c + 25.0 * a.cos(), 0.0, r + 25.0 * a.sin()));
        }
        // Churn: a few agents leave and as many arrive every step.
        for _ in 0..(agents / 2000).max(1) {
            if w.count() > 0 {
                let id = w.id_at(rng.next() as usize % w.count());
                w.despawn(id);
                despawned += 1;
            }
            spawn(&mut w, &mut rng);
            spawned += 1;
        }
        // Doors: one closes or breaks open every 600 steps.
        if s % 600 == 0 {
            let k = (s / 600) % 4;
            closed[k] = !closed[k];
            set_doors(&mut w, &closed);
        }
        if s % 97 == 0 {
            w.emit_noise(Vec3::new(rng.unit() * SIDE as f32, 0.0, rng.unit() * SIDE as f32), 15.0);
        }
        w.step(1.0 / 60.0);
        if w.agents().pos.iter().any(|p| !p.is_finite()) {
            eprintln!("FAIL: NaN position at step {s}");
            std::process::exit(1);
        }
        let mut loaded = false;
        if s % save_every == 0 {
            let bytes = w.save();
            save_bytes = bytes.len();
            w = World::load(&bytes).unwrap_or_else(|e| {
                eprintln!("FAIL: step {s}: a fresh save does not load: {e}");
                std::process::exit(1)
            });
            loads += 1;
            loaded = true;
        }
        if s % 100 == 0 || loaded {
            if let Err(e) = check(&w, s) {
                eprintln!("FAIL: {e}");
                std::process::exit(1);
            }
        }
        if s % tenth == 0 {
            let rss = rss_kib();
            if s / tenth == mark {
                rss_mark = rss;
            }
            if s / tenth >= 10 {
                rss_last_max = rss_last_max.max(rss);
            }
            let ms = tenth_start.elapsed().as_secs_f64() * 1000.0 / tenth as f64;
            tenth_start = Instant::now();
            println!(
                "| {s} | {} | {:.1} | {} | {loads} | {ms:.2} |",
                w.count(),
                rss as f64 / 1024.0,
                save_bytes / 1024
            );
        }
    }
    let growth = if rss_mark > 0 { (rss_last_max as f64 / rss_mark as f64 - 1.0) * 100.0 } else { 0.0 };
    println!(
        "soak: {steps} steps, {agents} agents, {spawned} spawned, {despawned} despawned, {loads} save/loads, 0 NaN, invariants held, RSS {:.1} MiB at {}0 % and {:.1} MiB at the end ({growth:+.1} %), {:.0} s",
        rss_mark as f64 / 1024.0,
        mark,
        rss_last_max as f64 / 1024.0,
        start.elapsed().as_secs_f64()
    );
    if growth > 5.0 {
        eprintln!("FAIL: RSS grew {growth:.1} % from the {mark}0 % mark to the end");
        std::process::exit(1);
    }
}
