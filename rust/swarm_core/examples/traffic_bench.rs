//! Traffic lanes' core cost: 100 lanes x 100 vehicles (10,000) stepped at 60 Hz, each lane's
//! window following an anchor that moves 6 m/s along a 2 km street (half the lanes drive against
//! it), measured alone and with the instance rows the engine uploads (curve sample and 3x4 matrix
//! per vehicle). One thread: a lane is one sequential sweep.
//!
//!   cargo run --release -p swarm_core --example traffic_bench -- [--lanes 100] [--vehicles 100]
//!       [--steps 600] [--out PATH]

use std::time::Instant;

use swarm_core::glam::Vec3;
use swarm_core::traffic::{Lane, LaneSetup, Polyline, TrafficProfile, VehicleKind};

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((p * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1]
}

fn main() {
    let (mut lanes_n, mut vehicles, mut steps, mut out) = (100usize, 100usize, 600usize, None::<String>);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        // `--key=value` or `--key value`.
        let (k, v) = match a.split_once('=') {
            Some((k, v)) => (k, v.to_string()),
            None => (a.as_str(), it.next().cloned().unwrap_or_default()),
        };
        let v = v.as_str();
        match k {
            "--lanes" => lanes_n = v.parse().expect("--lanes"),
            "--vehicles" => vehicles = v.parse().expect("--vehicles"),
            "--steps" => steps = v.parse().expect("--steps"),
            "--out" => out = Some(v.to_string()),
            _ => panic!("unknown argument {a}"),
        }
    }
    // A gently winding 2 km street, baked every 0.2 m as the engine would.
    let points: Vec<Vec3> =
        (0..=10_000).map(|i| i as f32 * 0.2).map(|x| Vec3::new(x, 0.0, 8.0 * (x * 0.01).sin())).collect();
    let line = Polyline::new(&points, &[], false);
    let kinds = vec![VehicleKind { half_length: 2.2, weight: 3.0 }, VehicleKind { half_length: 3.5, weight: 1.0 }];
    let mut lanes: Vec<Lane> = (0..lanes_n)
        .map(|i| {
            Lane::new(
                TrafficProfile::default(),
                &LaneSetup {
                    length: line.length(),
                    closed: false,
                    reverse: i % 2 == 1,
                    vehicle_count: vehicles,
                    window: Some((350.0, 350.0)),
                    anchor_offset: Some(400.0),
                    seed: i as u64,
                    kinds: kinds.clone(),
                },
            )
        })
        .collect();
    let dt = 1.0 / 60.0;
    let mut rows = vec![0.0f32; vehicles * 12];
    let (mut step_ms, mut total_ms) = (Vec::new(), Vec::new());
    let (mut moving, mut recycled) = (0usize, 0u64);
    for s in 0..steps + 120 {
        let anchor = 400.0 + 6.0 * dt * s as f32;
        let t0 = Instant::now();
        for lane in lanes.iter_mut() {
            lane.set_anchor(anchor);
            lane.step(dt);
        }
        let t1 = Instant::now();
        for lane in &lanes {
            let sign = if lane.reverse() { -1.0 } else { 1.0 };
            for slot in 0..lane.len() {
                let shown = if lane.on_curve(slot) { 1.0 } else { 0.0 };
                line.sample(lane.offset(slot)).write_instance(sign, 0.0, shown, &mut rows[slot * 12..slot * 12 + 12]);
            }
        }
        let t2 = Instant::now();
        if s >= 120 {
            step_ms.push((t1 - t0).as_secs_f64() * 1e3);
            total_ms.push((t2 - t0).as_secs_f64() * 1e3);
            moving += lanes.iter().map(|l| l.stats().moving).sum::<usize>();
        }
    }
    recycled += lanes.iter().map(|l| l.recycled()).sum::<u64>();
    let n = lanes_n * vehicles;
    let mean_speed: f32 = lanes.iter().map(|l| l.stats().mean_speed).sum::<f32>() / lanes_n as f32;
    let (sm, sp) = (percentile(&mut step_ms, 0.5), percentile(&mut step_ms, 0.95));
    let (tm, tp) = (percentile(&mut total_ms, 0.5), percentile(&mut total_ms, 0.95));
    let mut md = String::new();
    md.push_str(
        "| work | lanes x vehicles | median ms/step | p95 ms/step | ns/vehicle/step |\n|---|---:|---:|---:|---:|\n",
    );
    md.push_str(&format!(
        "| lane step (following, stop-and-go, belt) | {lanes_n} x {vehicles} | {sm:.3} | {sp:.3} | {:.1} |\n",
        sm * 1e6 / n as f64
    ));
    md.push_str(&format!(
        "| lane step + instance rows (curve sample, 3x4 matrix) | {lanes_n} x {vehicles} | {tm:.3} | {tp:.3} | {:.1} |\n",
        tm * 1e6 / n as f64
    ));
    md.push_str(&format!(
        "\n- {steps} steps measured after 120, one thread; {:.0}% of vehicles moving on average, mean speed {mean_speed:.2} m/s at the end (crawl {}), {recycled} recycled.\n",
        100.0 * moving as f64 / (steps * n) as f64,
        TrafficProfile::default().crawl_speed
    ));
    print!("{md}");
    if let Some(p) = out {
        std::fs::write(&p, md).expect("write --out");
    }
}
