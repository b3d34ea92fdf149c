//! Debug view of the surface flow field: one `ArrayMesh` in world space (draw it on a top-level
//! `MeshInstance3D` with an identity transform). Surface 0: a flat quad per cell, a little above
//! its surface (green walkable, red blocked by the bake, orange closed by a modifier, yellow
//! carrying an extra route cost). Surface 1, when a field is given: an arrow per cell along its
//! heading. Vertex colours under an unshaded material set on each surface, so it draws as-is.
//! Huge grids are thinned: quads and arrows are drawn for every k-th column in x and z.

use godot::classes::base_material_3d::{CullMode, Flags, ShadingMode, Transparency};
use godot::classes::mesh::{ArrayType, PrimitiveType};
use godot::classes::{ArrayMesh, StandardMaterial3D};
use godot::prelude::*;
use swarm_core::flow_field::{FlowField, ModifierLayer, SurfaceGrid, NONE};
use swarm_core::glam::{Vec2, Vec3};

/// Most cells drawn as quads; more are thinned by column stride.
pub const MAX_QUADS: usize = 1 << 20;
/// Most arrows drawn.
pub const MAX_ARROWS: usize = 1 << 16;
/// Height of the quads above their surface.
const QUAD_LIFT: f32 = 0.04;
/// Height of the arrows above their surface.
const ARROW_LIFT: f32 = 0.08;

pub const WALKABLE: [f32; 4] = [0.15, 0.8, 0.3, 0.45];
pub const BLOCKED: [f32; 4] = [0.9, 0.15, 0.1, 0.55];
pub const CLOSED: [f32; 4] = [1.0, 0.5, 0.05, 0.7];
pub const COSTLY: [f32; 4] = [0.95, 0.85, 0.15, 0.6];
const ARROW: [f32; 4] = [0.15, 0.45, 1.0, 1.0];
const TARGET: [f32; 4] = [1.0, 0.1, 0.9, 1.0];

/// Vertex data of the debug view, before it becomes a mesh.
#[derive(Default)]
pub struct DebugGeometry {
    pub quad_pos: Vec<Vec3>,
    pub quad_col: Vec<[f32; 4]>,
    pub quad_idx: Vec<i32>,
    pub line_pos: Vec<Vec3>,
    pub line_col: Vec<[f32; 4]>,
}

/// Column stride so that at most `max` of `count` items are drawn.
fn stride(count: usize, max: usize) -> u32 {
    if count <= max {
        1
    } else {
        ((count as f64 / max as f64).sqrt().ceil() as u32).max(1)
    }
}

/// Builds the quads and arrows (no Godot calls; see `debug_mesh`).
pub fn debug_geometry(grid: &SurfaceGrid, mods: Option<&ModifierLayer>, field: Option<&FlowField>) -> DebugGeometry {
    let n = grid.cell_count();
    let mods = mods.filter(|m| m.cell_count() == n);
    let field = field.filter(|f| f.is_built() && f.direction.cell_count() == n);
    let (dx, dz) = grid.dims();
    let cs = grid.cell_size();
    let mut g = DebugGeometry::default();

    let k = stride(n, MAX_QUADS);
    let half = 0.45 * cs * k as f32;
    for iz in (0..dz).step_by(k as usize) {
        for ix in (0..dx).step_by(k as usize) {
            let col = iz * dx + ix;
            // The quad covers the k x k block starting at this column.
            let c = grid.column_center(col) + Vec2::splat(0.5 * cs * (k as f32 - 1.0));
            for cell in grid.column_spans(col) {
                let colour = if !grid.is_walkable(cell) {
                    BLOCKED
                } else if mods.is_some_and(|m| m.blocks_agents(cell) || m.route_blocked(cell)) {
                    CLOSED
                } else if mods.is_some_and(|m| m.extra_cost(cell) > 0.0) {
                    COSTLY
                } else {
                    WALKABLE
                };
                let y = grid.surface_height(cell) + QUAD_LIFT;
                let base = g.quad_pos.len() as i32;
                for (sx, sz) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                    g.quad_pos.push(Vec3::new(c.x + sx * half, y, c.y + sz * half));
                    g.quad_col.push(colour);
                }
                g.quad_idx.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
            }
        }
    }

    if let Some(f) = field {
        let walkable = grid.walkable_count();
        let k = stride(walkable, MAX_ARROWS);
        let len = 0.4 * cs * k.min(3) as f32;
        for iz in (0..dz).step_by(k as usize) {
            for ix in (0..dx).step_by(k as usize) {
                for cell in grid.column_spans(iz * dx + ix) {
                    if !grid.is_walkable(cell) {
                        continue;
                    }
                    let d = f.direction(cell);
                    if d == Vec2::ZERO || !d.is_finite() {
                        continue;
                    }
                    let p = grid.cell_center(cell) + Vec3::Y * ARROW_LIFT;
                    let dir = Vec3::new(d.x, 0.0, d.y).normalize_or_zero();
                    let side = Vec3::new(-dir.z, 0.0, dir.x);
                    let (tail, tip) = (p - dir * len, p + dir * len);
                    let back = tip - dir * (0.45 * len);
                    for (a, b) in [(tail, tip), (tip, back + side * 0.3 * len), (tip, back - side * 0.3 * len)] {
                        g.line_pos.extend_from_slice(&[a, b]);
                        g.line_col.extend_from_slice(&[ARROW, ARROW]);
                    }
                }
            }
        }
        let t = f.target();
        if t != NONE && (t as usize) < n {
            let p = grid.cell_center(t) + Vec3::Y * ARROW_LIFT;
            let r = 0.45 * cs;
            for (a, b) in
                [(Vec3::new(-r, 0.0, -r), Vec3::new(r, 0.0, r)), (Vec3::new(-r, 0.0, r), Vec3::new(r, 0.0, -r))]
            {
                g.line_pos.extend_from_slice(&[p + a, p + b]);
                g.line_col.extend_from_slice(&[TARGET, TARGET]);
            }
        }
    }
    g
}

/// The debug view of `grid`, with the closed and costly cells of `mods` and the headings of
/// `field` when given (a layer or field for another grid is ignored).
pub fn debug_mesh(grid: &SurfaceGrid, mods: Option<&ModifierLayer>, field: Option<&FlowField>) -> Gd<ArrayMesh> {
    let g = debug_geometry(grid, mods, field);
    let mut mesh = ArrayMesh::new_gd();
    if !g.quad_idx.is_empty() {
        let arrays = arrays(&g.quad_pos, &g.quad_col, Some(&g.quad_idx));
        mesh.add_surface_from_arrays(PrimitiveType::TRIANGLES, &arrays);
        let i = mesh.get_surface_count() - 1;
        mesh.surface_set_material(i, &material(true));
        mesh.surface_set_name(i, "cells");
    }
    if !g.line_pos.is_empty() {
        let arrays = arrays(&g.line_pos, &g.line_col, None);
        mesh.add_surface_from_arrays(PrimitiveType::LINES, &arrays);
        let i = mesh.get_surface_count() - 1;
        mesh.surface_set_material(i, &material(false));
        mesh.surface_set_name(i, "directions");
    }
    mesh
}

fn arrays(pos: &[Vec3], col: &[[f32; 4]], idx: Option<&[i32]>) -> VarArray {
    let mut a = VarArray::new();
    a.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    let v: PackedVector3Array = pos.iter().map(|p| Vector3::new(p.x, p.y, p.z)).collect();
    let c: PackedColorArray = col.iter().map(|c| Color::from_rgba(c[0], c[1], c[2], c[3])).collect();
    a.set(ArrayType::VERTEX.ord() as usize, &v.to_variant());
    a.set(ArrayType::COLOR.ord() as usize, &c.to_variant());
    if let Some(idx) = idx {
        a.set(ArrayType::INDEX.ord() as usize, &PackedInt32Array::from(idx).to_variant());
    }
    a
}

fn material(transparent: bool) -> Gd<StandardMaterial3D> {
    let mut m = StandardMaterial3D::new_gd();
    m.set_shading_mode(ShadingMode::UNSHADED);
    m.set_flag(Flags::ALBEDO_FROM_VERTEX_COLOR, true);
    m.set_cull_mode(CullMode::DISABLED);
    if transparent {
        m.set_transparency(Transparency::ALPHA);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use swarm_core::flow_field::{BakeParams, BakeSamples, IntegrationJob, SurfaceSample};

    fn grid() -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 6, 5, |x, _, out| {
            if x == 3 {
                out.push(SurfaceSample::blocked(0.0));
            } else {
                out.push(SurfaceSample::walkable(0.0));
            }
            if x < 2 {
                out.push(SurfaceSample::walkable(3.0));
            }
        });
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    #[test]
    fn quads_per_cell_coloured_and_arrows_downhill() {
        let g = grid();
        let n = g.cell_count();
        assert_eq!(n, 40);
        let d = debug_geometry(&g, None, None);
        assert_eq!(d.quad_pos.len(), 4 * n);
        assert_eq!(d.quad_idx.len(), 6 * n);
        assert!(d.line_pos.is_empty());
        let red = d.quad_col.iter().filter(|c| **c == BLOCKED).count() / 4;
        assert_eq!(red, n - g.walkable_count());
        assert_eq!(red, 5);

        let mut mods = ModifierLayer::new(&g);
        let c = g.locate(Vec3::new(5.5, 0.0, 2.5)).unwrap();
        mods.stamp_cell(c, 0xff, 0.0);
        let target = g.locate(Vec3::new(0.5, 0.0, 0.5)).unwrap();
        let mut f = FlowField::new();
        f.rebuild(&g, &mods, target, &mut IntegrationJob::new());
        let d = debug_geometry(&g, Some(&mods), Some(&f));
        assert_eq!(d.quad_col.iter().filter(|c| **c == CLOSED).count(), 4);
        assert_eq!(d.line_pos.len() % 2, 0);
        // Each arrow is 3 lines (6 points) centred on its cell; the one at (2.5, 2.5) on the
        // ground points toward the target at (0.5, 0.5).
        let arrow = d
            .line_pos
            .chunks_exact(6)
            .find(|a| ((a[0] + a[1]) * 0.5 - Vec3::new(2.5, ARROW_LIFT, 2.5)).length() < 1e-4)
            .unwrap();
        assert!(arrow[1].x < arrow[0].x && arrow[1].z < arrow[0].z);
        // The target is marked with a cross (2 lines) after the arrows.
        assert_eq!(d.line_pos.len() % 6, 4);
        // A layer for another grid is ignored.
        let one = BakeSamples::from_fn(Vec3::ZERO, 1.0, 1, 1, |_, _, o| o.push(SurfaceSample::walkable(0.0)));
        let other = ModifierLayer::new(&SurfaceGrid::bake(&one, BakeParams::default()).unwrap());
        let d = debug_geometry(&g, Some(&other), None);
        assert_eq!(d.quad_col.iter().filter(|c| **c == CLOSED).count(), 0);
    }
}
