//! Helpers shared by the scenario test files: the fixed step, grids drawn in ASCII, and the
//! two-room level most flow-field scenarios use.
#![allow(dead_code)]

use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
use swarm_core::glam::Vec3;

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
