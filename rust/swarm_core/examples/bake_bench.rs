//! Bake from collision shapes, without the engine: the engine bake benchmark's two-floor level
//! (a ground slab, an upper floor from x = 16 m, four ramps, walls 0.2 m thick every 16 m with a
//! doorway in each 16 m run on both floors, 0.6 m pillars every 8 m) as boxes in a
//! `ColliderSet`, baked at 0.5 m cells, 4,096 columns a step as the editor's button bakes. Times
//! building the set, the index, pass 1 (surfaces and headroom), pass 2 (thin walls) and the grid
//! bake apart, best of `--repeat`, and the minor page faults (fresh memory touched) of each.
//!
//! Usage: cargo run --release -p swarm_core --example bake_bench -- [--size 128] [--repeat 5]

use std::time::Instant;

use swarm_core::flow_field::bake::{BakeBounds, BakeSettings, Baker, ColliderSet, Solid};
use swarm_core::glam::{Affine3A, Quat, Vec3};

fn add_box(set: &mut ColliderSet, lo: Vec3, hi: Vec3) {
    let t = Affine3A::from_translation((lo + hi) * 0.5);
    set.add_solid(Solid::Box { half: (hi - lo) * 0.5 }, t, 1).unwrap();
}

fn level(size: f32) -> ColliderSet {
    let mut set = ColliderSet::new();
    add_box(&mut set, Vec3::new(0.0, -0.5, 0.0), Vec3::new(size, 0.0, size));
    add_box(&mut set, Vec3::new(16.0, 3.8, 0.0), Vec3::new(size, 4.0, size));
    for k in 0..4 {
        let z = 8.0 + k as f32 * size / 4.0;
        // Top from (2, 0) to (16, 4) along +x, 0.2 m thick, 3 m wide.
        let (d, angle) = (Vec3::new(14.0, 4.0, 0.0), (4.0f32).atan2(14.0));
        let rot = Quat::from_rotation_z(angle);
        let top_mid = Vec3::new(9.0, 2.0, z + 1.5);
        let t = Affine3A::from_rotation_translation(rot, top_mid - rot * Vec3::Y * 0.1);
        set.add_solid(Solid::Box { half: Vec3::new(d.length() * 0.5, 0.1, 1.5) }, t, 1).unwrap();
    }
    for y in [0.0, 4.0] {
        let mut x = 32.0;
        while x < size {
            let mut z = 0.0;
            while z < size {
                add_box(&mut set, Vec3::new(x - 0.1, y, z), Vec3::new(x + 0.1, y + 3.0, z + 7.0));
                add_box(&mut set, Vec3::new(x - 0.1, y, z + 9.0), Vec3::new(x + 0.1, y + 3.0, z + 16.0));
                z += 16.0;
            }
            x += 16.0;
        }
        let mut zw = 16.0;
        while zw < size {
            let mut xs = 16.0;
            while xs < size {
                let e = (xs + 16.0f32).min(size);
                add_box(&mut set, Vec3::new(xs, y, zw - 0.1), Vec3::new(xs + 6.0, y + 3.0, zw + 0.1));
                add_box(&mut set, Vec3::new(xs + 8.0, y, zw - 0.1), Vec3::new(e, y + 3.0, zw + 0.1));
                xs += 16.0;
            }
            zw += 16.0;
        }
    }
    let mut p = 20.0;
    while p < size {
        let mut q = 4.0;
        while q < size {
            add_box(&mut set, Vec3::new(p - 0.3, 0.0, q - 0.3), Vec3::new(p + 0.3, 3.8, q + 0.3));
            q += 8.0;
        }
        p += 8.0;
    }
    set
}

fn minflt() -> u64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| s.rsplit(')').next().and_then(|r| r.split_whitespace().nth(7)).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let size: f32 = arg("--size").and_then(|s| s.parse().ok()).unwrap_or(128.0);
    let repeat: usize = arg("--repeat").and_then(|s| s.parse().ok()).unwrap_or(5);
    let settings = BakeSettings {
        bounds: BakeBounds { position: Vec3::new(0.0, -1.0, 0.0), size: Vec3::new(size, 8.0, size) },
        ..Default::default()
    };
    let mut best = [f64::INFINITY; 6];
    let mut best_faults = [0; 3];
    let (mut walkable, mut rays, mut shapes) = (0, 0, 0);
    for _ in 0..repeat {
        let t0 = Instant::now();
        let mut set = level(size);
        let t1 = Instant::now();
        set.index(settings.cell_size * 4.0);
        shapes = set.counts().0;
        let t2 = Instant::now();
        let f2 = minflt();
        let mut baker = Baker::new(settings).unwrap();
        // As the editor's button steps it (and the engine benchmark): 4,096 columns at a time.
        let step = 4096;
        while baker.progress() < 0.5 {
            baker.step_shared(&set, step);
        }
        let t3 = Instant::now();
        let f3 = minflt();
        while !baker.is_done() {
            baker.step_shared(&set, step);
        }
        let t4 = Instant::now();
        let f4 = minflt();
        rays = baker.ray_count();
        let grid = baker.finish().unwrap();
        let t5 = Instant::now();
        let faults = [f3 - f2, f4 - f3, minflt() - f4];
        walkable = grid.walkable_count();
        // The engine stores the baked grid as bytes in its resource.
        std::hint::black_box(grid.to_bytes());
        let t6 = Instant::now();
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        let run = [ms(t0, t1), ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t4, t5), ms(t5, t6)];
        if run[2..5].iter().sum::<f64>() < best[2..5].iter().sum::<f64>() {
            (best, best_faults) = (run, faults);
        }
    }
    println!("bake {size} m x {size} m from {shapes} boxes: {walkable} walkable cells, {rays} rays");
    println!(
        "shapes {:.2} ms, index {:.2} ms, pass 1 {:.2} ms, pass 2 {:.2} ms, grid {:.2} ms; sampling + grid {:.2} ms; grid to bytes {:.2} ms",
        best[0],
        best[1],
        best[2],
        best[3],
        best[4],
        best[1..5].iter().sum::<f64>(),
        best[5]
    );
    println!(
        "minor page faults (fresh memory, Linux): pass 1 {}, pass 2 {}, grid {}",
        best_faults[0], best_faults[1], best_faults[2]
    );
}
