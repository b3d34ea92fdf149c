//! Surface flow field benchmark: baking single-floor grids (256 x 256, 512 x 512) from samples,
//! a full distance + direction rebuild on 512 x 512, the same rebuild time-sliced, per-agent
//! lookups, and point-to-point route lengths. Prints a markdown table and writes it to
//! `--out PATH` if given.
//!
//! Usage: cargo run --release -p swarm_core --example flow_field_bench -- [--out PATH] [--slice CELLS]

use std::hint::black_box;
use std::time::Instant;

use swarm_core::flow_field::*;
use swarm_core::glam::{Vec2, Vec3};

const CELL: f32 = 0.5;

/// A single floor with 2 x 2-cell pillars every 16 cells and a wall with doorways every 64 rows.
fn samples(n: u32) -> BakeSamples {
    BakeSamples::from_fn(Vec3::ZERO, CELL, n, n, |x, z, out| {
        let pillar = x % 16 < 2 && z % 16 < 2 && x > 2 && z > 2;
        let wall = z % 64 == 32 && x % 48 > 6;
        if !pillar && !wall {
            out.push(SurfaceSample::walkable(0.0));
        }
    })
}

fn params() -> BakeParams {
    BakeParams { agent_height: 1.8, max_step_height: 0.4, clearance_radius: 0.3 }
}

/// Median and minimum wall time of `reps` runs, in ms (the minimum is the better estimate on a
/// machine shared with other work).
fn time_ms2(reps: usize, mut f: impl FnMut()) -> (f64, f64) {
    let mut v: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

fn time_ms(reps: usize, f: impl FnMut()) -> f64 {
    time_ms2(reps, f).0
}

fn ms2((med, min): (f64, f64)) -> String {
    format!("{med:.2} ms (min {min:.2})")
}

/// Deterministic pseudo-random positions over the grid.
fn positions(n: usize, extent: f32) -> Vec<Vec3> {
    let mut s = 0x2545_f491_u32;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        (s >> 8) as f32 / 16_777_216.0
    };
    (0..n).map(|_| Vec3::new(next() * extent, 0.0, next() * extent)).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let slice: usize = arg("--slice")
        .and_then(|s| s.parse().ok())
        .unwrap_or(swarm_core::flow_field::FieldSetSettings::default().cells_per_tick);
    let threads = rayon::current_num_threads();
    let mut rows: Vec<(String, String)> = Vec::new();

    // Bake.
    let mut grid = None;
    for n in [256u32, 512] {
        let s = samples(n);
        let ms = time_ms2(5, || {
            black_box(SurfaceGrid::bake(&s, params()).unwrap());
        });
        let g = SurfaceGrid::bake(&s, params()).unwrap();
        rows.push((format!("bake {n} x {n} from samples ({} walkable cells)", g.walkable_count()), ms2(ms)));
        rows.push((format!("grid {n} x {n} memory"), format!("{:.1} MiB", g.heap_bytes() as f64 / 1048576.0)));
        grid = Some(g);
    }
    let g = grid.unwrap();
    let (dx, _) = g.dims();
    let extent = dx as f32 * CELL;
    let mods = ModifierLayer::new(&g);
    let target = g.nearest_walkable(Vec3::new(extent * 0.5, 0.0, extent * 0.5), 8).unwrap();

    // Full rebuild.
    let mut job = IntegrationJob::new();
    let mut dist = DistanceField::new();
    let mut dir = DirectionField::new();
    integrate(&g, &mods, target, &mut job, &mut dist);
    let integ = time_ms2(11, || integrate(&g, &mods, target, &mut job, &mut dist));
    let direc = time_ms2(11, || dir.build(&g, &mods, &dist));
    rows.push(("512 x 512 distance field (one shot)".into(), ms2(integ)));
    rows.push((format!("512 x 512 direction field ({threads} threads)"), ms2(direc)));
    rows.push(("512 x 512 full rebuild (distance + direction)".into(), ms2((integ.0 + direc.0, integ.1 + direc.1))));

    // Time-sliced rebuild, one slice a tick as the simulation runs it: distance slices of `slice`
    // cells (the first one starting the build, the last one handing the distances over to the
    // direction field), then direction slices of as many. A slice's cost is its median over the
    // repeats (the same slice settles the same cells each time); the worst slice is the dearest of
    // those. The single longest slice of any repeat is shown too: it includes whatever else the
    // machine did meanwhile.
    let reps = 7;
    let (mut dist_ms, mut dir_ms): (Vec<Vec<f64>>, Vec<Vec<f64>>) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let mut run = Vec::new();
        loop {
            let t = Instant::now();
            if run.is_empty() {
                job.start(&g, target);
            }
            let done = job.run(&g, &mods, slice);
            if done {
                job.finish(&mut dist);
                dir.begin(&g, &dist);
            }
            run.push(t.elapsed().as_secs_f64() * 1000.0);
            if done {
                break;
            }
        }
        dist_ms.push(run);
        let mut next = 0;
        let mut run = Vec::new();
        while next < g.cell_count() {
            let t = Instant::now();
            next = dir.build_cells(&g, &mods, &dist, next, slice);
            run.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        dir_ms.push(run);
    }
    for (what, runs) in [("distance", &dist_ms), ("direction", &dir_ms)] {
        let slices = runs[0].len();
        let median = |k: usize| {
            let mut v: Vec<f64> = runs.iter().map(|r| r[k]).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let medians: Vec<f64> = (0..slices).map(median).collect();
        let worst = medians.iter().copied().fold(0.0, f64::max);
        let mean = medians.iter().sum::<f64>() / slices as f64;
        let raw = runs.iter().flatten().copied().fold(0.0, f64::max);
        rows.push((
            format!("512 x 512 time-sliced {what} field, {slice} cells a slice"),
            format!("{slices} slices, worst {worst:.2} ms, mean {mean:.2} ms (longest single slice of {reps} runs {raw:.2} ms)"),
        ));
    }

    // Route-cost box: a door across the wall, rebuild with the overflow queue in use.
    let mut mods2 = ModifierLayer::new(&g);
    for k in 0..8 {
        let x = 48.0 * k as f32 * CELL + 1.5;
        mods2.stamp_box(
            &g,
            &ModifierBox::aligned(
                Vec3::new(x, 1.0, 32.5 * CELL),
                Vec3::new(3.0, 2.0, 0.5),
                true,
                RouteMode::ExtraCost(20.0),
            ),
        );
    }
    let integ2 = time_ms2(11, || integrate(&g, &mods2, target, &mut job, &mut dist));
    rows.push(("512 x 512 distance field with 8 cost doors".into(), ms2(integ2)));
    let stamp = time_ms(11, || {
        mods2.clear();
        for k in 0..8 {
            let x = 48.0 * k as f32 * CELL + 1.5;
            mods2.stamp_box(
                &g,
                &ModifierBox::aligned(
                    Vec3::new(x, 1.0, 32.5 * CELL),
                    Vec3::new(3.0, 2.0, 0.5),
                    true,
                    RouteMode::ExtraCost(20.0),
                ),
            );
        }
    });
    rows.push(("restamp 8 door boxes".into(), format!("{:.1} us", stamp * 1000.0)));

    // A whole-layer restamp with 100 modifiers (doors, barricades, bins), as after any change.
    let boxes: Vec<ModifierBox> = (0..100)
        .map(|k| {
            let x = (k % 10) as f32 * 24.0 + 6.0;
            let z = (k / 10) as f32 * 24.0 + 6.0;
            let route = if k % 3 == 0 { RouteMode::Free } else { RouteMode::ExtraCost(10.0) };
            ModifierBox::aligned(Vec3::new(x, 1.0, z), Vec3::new(2.0, 2.0, 1.0), true, route)
        })
        .collect();
    let stamp100 = time_ms(11, || {
        mods2.clear();
        for b in &boxes {
            mods2.stamp_box(&g, b);
        }
        black_box(mods2.route_fingerprint());
    });
    rows.push((
        "restamp 100 modifier boxes (whole layer, with the route fingerprint)".into(),
        format!("{:.1} us", stamp100 * 1000.0),
    ));

    // Lookups, as an agent does once per step.
    integrate(&g, &mods, target, &mut job, &mut dist);
    dir.build(&g, &mods, &dist);
    let pos = positions(1 << 20, extent);
    let cells: Vec<CellId> = pos.iter().map(|&p| g.locate(p).unwrap_or(target)).collect();
    let per = |ms: f64| format!("{:.1} ns", ms * 1e6 / pos.len() as f64);
    let ms = time_ms(5, || {
        let mut acc = 0u32;
        for &p in &pos {
            acc = acc.wrapping_add(g.locate(p).unwrap_or(0));
        }
        black_box(acc);
    });
    rows.push(("locate(pos)".into(), per(ms)));
    let ms = time_ms(5, || {
        let mut acc = Vec2::ZERO;
        for &c in &cells {
            acc += dir.direction(c);
        }
        black_box(acc);
    });
    rows.push(("direction(cell)".into(), per(ms)));
    let ms = time_ms(5, || {
        let mut acc = Vec2::ZERO;
        for (&c, &p) in cells.iter().zip(&pos) {
            acc += dir.sample(&g, c, p);
        }
        black_box(acc);
    });
    rows.push(("sample(cell, pos) bilinear".into(), per(ms)));
    let ms = time_ms(5, || {
        let mut acc = 0.0;
        for (&c, &p) in cells.iter().zip(&pos) {
            let q = p + Vec3::new(0.1, 0.0, 0.05);
            if let Some(n) = g.step_cell(c, q) {
                acc += g.ground_height(n, q);
            }
        }
        black_box(acc);
    });
    rows.push(("step_cell + ground_height".into(), per(ms)));

    // The closed-cell contact check every agent runs each step with cell boundaries enforced:
    // `constrain_move` against the 100 boxes above (a move of a fifth of a cell).
    let ms = time_ms(5, || {
        let mut acc = 0u32;
        for (&c, &p) in cells.iter().zip(&pos) {
            let r = constrain_move(&g, &mods2, c, p, p + Vec3::new(0.1, 0.0, 0.05));
            acc = acc.wrapping_add(r.cell ^ r.pressed);
        }
        black_box(acc);
    });
    rows.push(("closed-cell contact check per agent (constrain_move, 100 boxes stamped)".into(), per(ms)));

    // Route lengths.
    let mut sc = PathScratch::new();
    let pairs = 200;
    let mut settled = 0;
    let ms = time_ms(3, || {
        settled = 0;
        for k in 0..pairs {
            let a = cells[2 * k];
            let b = cells[2 * k + 1];
            black_box(path_length(&g, &mods, a, b, f32::INFINITY, &mut sc));
            settled += sc.last_settled;
        }
    });
    rows.push((
        "path_length, random pairs on 512 x 512 (jump point search)".into(),
        format!("{:.1} us each ({} cells settled on average)", ms * 1000.0 / pairs as f64, settled / pairs),
    ));
    let ms = time_ms(3, || {
        for k in 0..pairs {
            let a = cells[2 * k];
            let b = g.nearest_walkable(g.cell_center(a) + Vec3::new(6.0, 0.0, 4.0), 16).unwrap_or(a);
            black_box(path_length(&g, &mods, a, b, f32::INFINITY, &mut sc));
        }
    });
    rows.push(("path_length, pairs about 7 m apart".into(), format!("{:.1} us each", ms * 1000.0 / pairs as f64)));
    // The first query after the grid or its route blocks change builds the jump table.
    let first = time_ms2(5, || {
        let mut fresh = PathScratch::new();
        black_box(path_length(&g, &mods, cells[0], cells[1], f32::INFINITY, &mut fresh));
    });
    rows.push(("path_length, first query on a new grid (builds the jump table)".into(), ms2(first)));
    // With cost boxes (the 8 doors with a route cost and the 100 boxes above): still jump point
    // search, the boxes and the cells beside them expanded one step at a time. The first query
    // after the boxes change rebuilds the table (as the row above), so it is made before timing.
    black_box(path_length(&g, &mods2, cells[0], cells[1], f32::INFINITY, &mut sc));
    let mut settled = 0;
    let ms = time_ms(3, || {
        settled = 0;
        for k in 0..pairs {
            black_box(path_length(&g, &mods2, cells[2 * k], cells[2 * k + 1], f32::INFINITY, &mut sc));
            settled += sc.last_settled;
        }
    });
    rows.push((
        "path_length, random pairs, with 108 cost boxes (jump point search)".into(),
        format!("{:.1} us each ({} cells settled on average)", ms * 1000.0 / pairs as f64, settled / pairs),
    ));
    // A query toward a target whose field exists (`get_path_length` to the player, say) is read
    // off that field.
    let mut nav = swarm_core::surface_nav::SurfaceNav::new(
        g.clone(),
        FieldSetSettings { cells_per_tick: usize::MAX, ..Default::default() },
    );
    let goal = g.cell_center(cells[1]);
    let mut targets = swarm_core::targets::Targets::default();
    targets.register(goal, 1.0);
    targets.select_active(goal, 1.0 / 60.0, 1, 0.8);
    nav.update_targets(&targets, 1, 0.0);
    let ms = time_ms(3, || {
        for k in 0..pairs {
            black_box(nav.path_length(g.cell_center(cells[2 * k]), goal));
        }
    });
    rows.push((
        "path_length toward a target with a built field".into(),
        format!("{:.2} us each", ms * 1000.0 / pairs as f64),
    ));

    let mut out =
        format!("Surface flow field benchmark ({threads} threads, cell {CELL} m)\n\n| what | time |\n| --- | --- |\n");
    for (k, v) in &rows {
        out.push_str(&format!("| {k} | {v} |\n"));
    }
    print!("{out}");
    if let Some(path) = arg("--out") {
        std::fs::write(&path, &out).expect("write --out");
    }
}
