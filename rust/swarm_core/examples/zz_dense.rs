// Temporary profiling example (not committed): the engine bench's state after 6 s.
use std::time::Instant;
use swarm_core::glam::Vec3;
use swarm_core::{Archetype, World, WorldSettings};
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20000);
    let threads: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut w = World::new(WorldSettings { max_agents: n, worker_threads: threads, seed: 1, ..Default::default() });
    let arch = w.add_archetype(Archetype::default());
    w.register_target(Vec3::ZERO, 1.0);
    let radius = (n as f32 * 2.0 / std::f32::consts::PI).sqrt();
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for i in 0..n {
        let r = radius * ((i as f32 + 0.5) / n as f32).sqrt();
        let a = i as f32 * golden;
        w.spawn(arch, Vec3::new(r * a.cos(), 0.0, r * a.sin())).unwrap();
    }
    let mut t = Vec::new();
    let mut ph = [0f32; 5];
    for s in 0..660 {
        let ang = s as f32 * 0.01;
        w.set_target_position(0, Vec3::new(ang.cos() * 5.0, 0.0, ang.sin() * 5.0));
        let st = Instant::now();
        w.step(1.0 / 60.0);
        if s >= 360 {
            t.push(st.elapsed().as_secs_f64() * 1000.0);
            let p = w.stats().phases;
            for (a, b) in ph.iter_mut().zip([p.classify, p.steer, p.body_blocking, p.settle, p.attack]) { *a += b / 300.0; }
        }
    }
    t.sort_by(f64::total_cmp);
    let s = w.stats();
    if std::env::var("OVERLAP").is_ok() { overlap_report(&w); }
    println!("{n} agents {threads} threads: median {:.3} ms, p95 {:.3}; phases {:?}; tiers {:?}", t[150], t[285], ph, s.tiers);
}
#[allow(dead_code)]
fn overlap_report(w: &World) {
    let a = w.agents();
    let n = a.len();
    let mut worst = vec![0f32; n];
    for i in 0..n {
        for j in i + 1..n {
            let min = a.params[i].radius + a.params[j].radius;
            let d = ((a.pos[i].x - a.pos[j].x).powi(2) + (a.pos[i].z - a.pos[j].z).powi(2)).sqrt();
            let f = (min - d) / min;
            if f > worst[i] { worst[i] = f; }
            if f > worst[j] { worst[j] = f; }
        }
    }
    for t in 0..3u8 {
        let mut v: Vec<f32> = (0..n).filter(|&i| a.tier[i] == t).map(|i| worst[i]).collect();
        if v.is_empty() { continue; }
        v.sort_by(f32::total_cmp);
        println!("tier {t}: {} agents, overlap fraction median {:.3} p99 {:.3} max {:.3}", v.len(), v[v.len() / 2], v[v.len() * 99 / 100], v[v.len() - 1]);
    }
}
