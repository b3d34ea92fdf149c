//! Runs a fixed default-horde workload (no timing) for instruction-count profiling:
//! `valgrind --tool=callgrind target/release/examples/step_profile [agents] [steps]`.

use swarm_core::glam::Vec3;
use swarm_core::{Archetype, World, WorldSettings};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = args.first().copied().unwrap_or(10_000);
    let steps = args.get(1).copied().unwrap_or(30);
    let mut w = World::new(WorldSettings { max_agents: n, worker_threads: 1, seed: 1, ..Default::default() });
    let arch = w.add_archetype(Archetype::default());
    w.register_target(Vec3::ZERO, 1.0);
    let radius = (n as f32 * 2.0 / std::f32::consts::PI).sqrt();
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for i in 0..n {
        let r = radius * ((i as f32 + 0.5) / n as f32).sqrt();
        let a = i as f32 * golden;
        w.spawn(arch, Vec3::new(r * a.cos(), 0.0, r * a.sin())).unwrap();
    }
    for _ in 0..steps {
        w.step(1.0 / 60.0);
    }
    let c = w.centroid();
    println!("centroid {c:?}");
}
