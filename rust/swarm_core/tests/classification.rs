//! The classification's shortcut for a horde with nothing to classify (no Importance LOD ladder,
//! no dormancy, no perception, no plain sight: the like-for-like horde) steps the world exactly
//! as the whole pass does. The whole pass is forced by keeping dormancy on with a dormancy
//! distance no agent is beyond, which changes nothing else: every agent then wakes and stays
//! awake, as the shortcut has it.

use swarm_core::glam::Vec3;
use swarm_core::{Archetype, LodSettings, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

/// 600 default agents (Close-Range Pressure on where `pressure`, so the distances are read), most
/// closing on two targets, one of them moving, and 40 far out that doze off in the first four
/// seconds (dormancy on, as the world starts); then dormancy is switched off (`whole`: left on,
/// but reaching no agent) for 240 more steps on `threads` threads. Returns every agent's
/// position, velocity and facing bits, and its flags.
fn run(whole: bool, pressure: bool, threads: usize) -> Vec<u32> {
    let mut w = World::new(WorldSettings {
        max_agents: 600,
        worker_threads: threads,
        seed: 11,
        lod: LodSettings { enabled: false, ..Default::default() },
        ..Default::default()
    });
    let mut arch = Archetype::default();
    arch.behavior.use_pressure = pressure;
    let a = w.add_archetype(arch);
    for i in 0..600 {
        let r = if i < 40 { 150.0 + i as f32 } else { 6.0 + (i % 30) as f32 * 0.9 };
        let t = i as f32 * 2.399;
        w.spawn(a, Vec3::new(r * t.cos(), 0.0, r * t.sin())).unwrap();
    }
    w.register_target(Vec3::ZERO, 1.0);
    let moving = w.register_target(Vec3::new(20.0, 0.0, 0.0), 1.0);
    for _ in 0..240 {
        w.step(DT);
    }
    assert!(w.agents().flags.iter().any(|&f| f & swarm_core::agents::FLAG_DORMANT != 0), "none dozed off");
    let mut s = w.settings().clone();
    if whole {
        s.dormancy_distance = 1e6;
    } else {
        s.dormancy_enabled = false;
    }
    w.update_settings(s);
    for k in 0..240 {
        let a = k as f32 * 0.01;
        w.set_target_position(moving, Vec3::new(20.0 * a.cos(), 0.0, 20.0 * a.sin()));
        w.step(DT);
    }
    let ag = w.agents();
    let mut out = Vec::new();
    for i in 0..ag.len() {
        let (p, v, f) = (ag.pos[i], ag.vel[i], ag.facing[i]);
        out.extend([p.x, p.y, p.z, v.x, v.y, v.z, f.x, f.y].map(f32::to_bits));
        out.push(ag.flags[i] as u32);
    }
    out
}

#[test]
fn a_horde_with_nothing_to_classify_steps_as_the_whole_pass_steps_it() {
    for pressure in [false, true] {
        let shortcut = run(false, pressure, 2);
        let whole = run(true, pressure, 2);
        let diff = shortcut.iter().zip(&whole).position(|(a, b)| a != b);
        assert!(diff.is_none(), "pressure {pressure}: first difference at word {diff:?} of {}", shortcut.len());
        assert_eq!(shortcut, run(false, pressure, 1), "pressure {pressure}, one thread");
    }
}
