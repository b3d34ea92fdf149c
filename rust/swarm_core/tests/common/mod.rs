//! Helpers shared by the scenario test files: the fixed step, grids drawn in ASCII, and the
//! two-room level most flow-field scenarios use (with its door and a perceiving archetype).
#![allow(dead_code)]

use swarm_core::flow_field::{BakeParams, BakeSamples, ModifierBox, RouteMode, SurfaceGrid, SurfaceSample};
use swarm_core::glam::Vec3;
use swarm_core::{Archetype, PerceptionProfile, SightOcclusion, World};

pub const DT: f32 = 1.0 / 60.0;

/// A grid from ASCII rows ('#' = wall, '.' = floor at height 0), 1 m cells.
pub fn ascii(rows: &[&str]) -> SurfaceGrid {
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, rows[0].len() as u32, rows.len() as u32, |x, z, o| {
        if rows[z as usize].as_bytes()[x as usize] != b'#' {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
}

/// Two rooms (z < 9 and z >= 10) joined by one 2 m door at x 25..27 in a long wall: the direct
/// line is blocked.
pub const ROOMS: [&str; 20] = [
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "#########################..###",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
];

/// An archetype of 0.3 m agents that perceive: sight along routes (a 4 m detour hides), search,
/// memory and alerts.
pub fn perceiving_archetype() -> Archetype {
    let mut p = Archetype::default();
    p.agent_radius = 0.3;
    p.perception = Some(PerceptionProfile {
        sight_distance: 20.0,
        sight_occlusion: SightOcclusion::NavigationPath,
        occlusion_detour_tolerance: 4.0,
        forget_time: 3.0,
        search_enabled: true,
        alert_spread_radius: 4.0,
    });
    p
}

/// Closes the door of `ROOMS` with a closed, costly (60 m) modifier box that agents strike.
pub fn close_rooms_door(w: &mut World) {
    let door =
        ModifierBox::aligned(Vec3::new(26.0, 0.5, 9.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(60.0));
    let nav = w.surface_mut().unwrap();
    let mut stamps = Vec::new();
    nav.set_modifiers(&[door], &mut stamps);
    nav.set_attackable(&[true]);
}
