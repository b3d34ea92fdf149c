use std::time::Instant;
use swarm_core::formation::assign::assign;
use swarm_core::glam::Vec2;
fn main() {
    for n in [100usize, 256, 257, 1000, 5000] {
        let agents: Vec<Vec2> = (0..n).map(|i| Vec2::new((i % 10) as f32 * 1.3, (i / 10) as f32 * 1.1)).collect();
        let w = (n as f32).sqrt().ceil() as usize;
        let slots: Vec<Vec2> = (0..n).map(|k| Vec2::new(100.0 + (k % w) as f32 * 1.5, (k / w) as f32 * 1.5)).collect();
        let cost = |a: usize, s: usize| agents[a].distance(slots[s]);
        let t = Instant::now();
        for _ in 0..3 { std::hint::black_box(assign(&agents, &slots, &cost)); }
        eprintln!("{n}: {:.3} ms", t.elapsed().as_secs_f64() * 1000.0 / 3.0);
    }
}
