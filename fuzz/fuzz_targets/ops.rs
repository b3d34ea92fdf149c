//! Random operation sequences on the public core API (spawn, despawn, damage, move and drop
//! targets, pin agents, open and close doors, noises, save/load, step), with the invariants
//! checked after every operation: no NaN, every id resolves to its own index, counts agree,
//! no agent stands in a cell closed to agents (after a step), and a save loads again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swarm_core::flow_field::{BakeParams, BakeSamples, ModifierBox, RouteMode, SurfaceGrid, SurfaceSample, NONE};
use swarm_core::glam::Vec3;
use swarm_core::{Archetype, AttackProfile, PerceptionProfile, World, WorldSettings};

fn world() -> World {
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 12, 10, |x, z, o| {
        if z != 5 || (5..7).contains(&x) {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    let grid = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
    let mut w = World::new(WorldSettings { max_agents: 40, worker_threads: 1, seed: 1, ..Default::default() });
    w.set_surface(Some(grid));
    let mut seer = Archetype::default();
    seer.perception = Some(PerceptionProfile::default());
    w.add_archetype(seer);
    let mut hitter = Archetype::default();
    hitter.attack = Some(AttackProfile::default());
    w.add_archetype(hitter);
    w
}

/// A coordinate from a byte: mostly on the grid, sometimes far off it or absurd.
fn coord(b: u8) -> f32 {
    match b {
        250 => 1e30,
        251 => -1e30,
        252 => f32::NAN,
        253 => f32::INFINITY,
        _ => b as f32 / 16.0 - 2.0,
    }
}

fn check(w: &World, stepped: bool) {
    let a = w.agents();
    assert!(a.pos.iter().chain(&a.vel).all(|p| p.is_finite()), "NaN position or velocity");
    assert!(a.health.iter().all(|h| h.is_finite()), "NaN health");
    assert!(w.count() <= w.capacity());
    let ids: Vec<_> = w.ids().collect();
    assert_eq!(ids.len(), w.count());
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(w.index_of(*id), Some(i), "id does not resolve to its index");
    }
    if stepped {
        let nav = w.surface().unwrap();
        for &c in &a.cell {
            assert!(c == NONE || !nav.mods.blocks_agents(c), "an agent stands in a closed cell");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut w = world();
    let mut targets: Vec<u32> = Vec::new();
    let mut door_closed = false;
    for op in data.chunks(4) {
        let [code, a, b, c] = [op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0), *op.get(3).unwrap_or(&0)];
        let pick = |w: &World, k: u8| (w.count() > 0).then(|| w.id_at(k as usize % w.count()));
        let mut stepped = false;
        match code % 12 {
            0 | 1 => {
                let _ = w.spawn((a % 3) as u16, Vec3::new(coord(b), 0.0, coord(c)));
            }
            2 => {
                if let Some(id) = pick(&w, a) {
                    w.despawn(id);
                }
            }
            3 => {
                if let Some(id) = pick(&w, a) {
                    let amount = if b == 255 { f32::NAN } else { b as f32 - 20.0 };
                    w.damage(id, amount);
                }
            }
            4 => targets.push(w.register_target(Vec3::new(coord(a), 0.0, coord(b)), c as f32 / 32.0)),
            5 => {
                if let Some(&t) = targets.get(a as usize % targets.len().max(1)) {
                    w.set_target_position(t, Vec3::new(coord(b), 0.0, coord(c)));
                }
            }
            6 => {
                if !targets.is_empty() {
                    let t = targets.swap_remove(a as usize % targets.len());
                    w.unregister_target(t);
                }
            }
            7 => {
                if let Some(id) = pick(&w, a) {
                    let t = targets.get(b as usize % targets.len().max(1)).copied();
                    w.set_agent_target(id, if c % 2 == 0 { t } else { None });
                }
            }
            8 => {
                door_closed = !door_closed;
                let route = if a % 2 == 0 { RouteMode::Blocked } else { RouteMode::ExtraCost(b as f32) };
                let boxes: Vec<ModifierBox> = if door_closed {
                    vec![ModifierBox::aligned(Vec3::new(6.0, 0.5, 5.5), Vec3::new(2.0, 2.0, 1.0), true, route)]
                } else {
                    Vec::new()
                };
                let nav = w.surface_mut().unwrap();
                nav.set_modifiers(&boxes, &mut Vec::new());
                nav.set_attackable(&[c % 2 == 0]);
            }
            9 => {
                w.emit_noise(Vec3::new(coord(a), 0.0, coord(b)), c as f32 / 8.0);
            }
            10 => {
                let bytes = w.save();
                w = World::load(&bytes).expect("a fresh save loads");
            }
            _ => {
                let dt = if a == 255 { f32::NAN } else { (a as f32 + 1.0) / 600.0 };
                for _ in 0..=(b % 4) {
                    w.step(dt);
                }
                // A NaN step is refused (nothing moves), so it proves nothing about closed cells.
                stepped = a != 255;
            }
        }
        check(&w, stepped);
    }
});
