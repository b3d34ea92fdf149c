//! `SwarmFlowFieldData`: a baked surface flow field grid, saved as a resource.

use std::cell::RefCell;
use std::rc::Rc;

use godot::classes::ArrayMesh;
use godot::prelude::*;
use swarm_core::flow_field::{BakeError, SurfaceGrid};
use swarm_core::glam::Vec3;

use crate::convert::{to_vec3, to_vector3};

/// A baked surface flow field: the layered grid of walkable cells that
/// [method SwarmManager.bake_flow_field] or the inspector's Bake Flow Field button made from the
/// scene's colliders. Assign it to [member SwarmManager.flow_field_data]; save it as a
/// [code].res[/code] (compact) or [code].tres[/code] file. The properties below describe the grid
/// and are read-only: bake again to change it.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmFlowFieldData {
    /// The grid in Swarm's binary format. Written by baking; not meant to be edited.
    #[export(storage)]
    #[var(get = get_grid_bytes, set = set_grid_bytes)]
    grid_bytes: PhantomVar<PackedByteArray>,

    /// World position of the grid's minimum corner; its y is the bottom of the bake bounds.
    #[var(get = get_origin, no_set, usage_flags = [EDITOR, READ_ONLY])]
    origin: PhantomVar<Vector3>,
    /// Edge of one cell (a column of the grid) in metres.
    #[var(get = get_cell_size, no_set, usage_flags = [EDITOR, READ_ONLY])]
    cell_size: PhantomVar<f32>,
    /// Columns along x and z.
    #[var(get = get_dims, no_set, usage_flags = [EDITOR, READ_ONLY])]
    dims: PhantomVar<Vector2i>,
    /// Cells (surfaces) in all columns, walkable or not.
    #[var(get = get_cell_count, no_set, usage_flags = [EDITOR, READ_ONLY])]
    cell_count: PhantomVar<i64>,
    /// Cells agents can stand on.
    #[var(get = get_walkable_cell_count, no_set, usage_flags = [EDITOR, READ_ONLY])]
    walkable_cell_count: PhantomVar<i64>,
    /// Agent height, step height and clearance radius the grid was baked with.
    #[var(get = get_bake_params, no_set, usage_flags = [EDITOR, READ_ONLY])]
    bake_params: PhantomVar<Vector3>,

    /// The stored bytes. A bake leaves them empty and keeps the grid in `cache`: they are
    /// made from it the first time they are read (saving the resource, or a script).
    bytes: RefCell<PackedByteArray>,
    /// Bumped on every change of `grid_bytes`.
    revision: u64,
    /// The decoded grid (or why the bytes are not one), decoded on first use.
    cache: RefCell<Option<Result<Rc<SurfaceGrid>, String>>>,

    base: Base<Resource>,
}

#[godot_api]
impl SwarmFlowFieldData {
    /// Replaces the stored grid bytes (the inspector and scene loading call this).
    #[func]
    fn set_grid_bytes(&mut self, bytes: PackedByteArray) {
        self.bytes.replace(bytes);
        self.revision += 1;
        self.cache.replace(None);
        self.base_mut().emit_changed();
    }

    /// The stored grid bytes (made from a freshly baked grid on the first read).
    #[func]
    fn get_grid_bytes(&self) -> PackedByteArray {
        if self.bytes.borrow().is_empty() {
            if let Some(Ok(grid)) = self.cache.borrow().as_ref() {
                self.bytes.replace(PackedByteArray::from(grid.to_bytes().as_slice()));
            }
        }
        self.bytes.borrow().clone()
    }

    /// True when the stored bytes are a grid this version can read.
    #[func]
    pub fn is_valid(&self) -> bool {
        self.grid().is_ok()
    }

    /// Why the stored bytes are not a usable grid; empty when they are.
    #[func]
    fn get_error(&self) -> GString {
        match self.grid() {
            Ok(_) => GString::new(),
            Err(e) => GString::from(&e),
        }
    }

    #[func]
    fn get_origin(&self) -> Vector3 {
        self.info(|g| to_vector3(g.origin()), Vector3::ZERO)
    }

    #[func]
    fn get_cell_size(&self) -> f32 {
        self.info(|g| g.cell_size(), 0.0)
    }

    #[func]
    fn get_dims(&self) -> Vector2i {
        self.info(|g| Vector2i::new(g.dims().0 as i32, g.dims().1 as i32), Vector2i::ZERO)
    }

    #[func]
    fn get_cell_count(&self) -> i64 {
        self.info(|g| g.cell_count() as i64, 0)
    }

    #[func]
    fn get_walkable_cell_count(&self) -> i64 {
        self.info(|g| g.walkable_count() as i64, 0)
    }

    /// `Vector3(agent_height, max_step_height, clearance_radius)`.
    #[func]
    fn get_bake_params(&self) -> Vector3 {
        self.info(
            |g| {
                let p = g.params();
                Vector3::new(p.agent_height, p.max_step_height, p.clearance_radius)
            },
            Vector3::ZERO,
        )
    }

    /// World-space box of the grid: x and z over its columns, y from its lowest to its highest
    /// surface.
    #[func]
    fn get_bounds(&self) -> Aabb {
        self.info(grid_bounds, Aabb::new(Vector3::ZERO, Vector3::ZERO))
    }

    /// A mesh that shows the grid: walkable cells green, blocked cells red (see
    /// [member SwarmManager.debug_draw_flow_field]). In world space, with its own unshaded
    /// vertex-colour materials; null when the data is not a valid grid.
    #[func]
    fn create_debug_mesh(&self) -> Option<Gd<ArrayMesh>> {
        self.grid().ok().map(|g| crate::flow_debug::debug_mesh(&g, None, None))
    }

    /// Most cells stacked in one column (1 for a single floor).
    #[func]
    fn get_max_layers(&self) -> i64 {
        self.info(|g| (0..g.column_count() as u32).map(|c| g.column_spans(c).len()).max().unwrap_or(0) as i64, 0)
    }

    /// Surface heights of the column under `position` (x and z), lowest first; empty outside the
    /// grid or over a column with no surface.
    #[func]
    fn get_surface_heights(&self, position: Vector3) -> PackedFloat32Array {
        self.info(
            |g| match g.column_at(position.x, position.z) {
                Some(col) => g.column_spans(col).map(|c| g.surface_height(c)).collect(),
                None => PackedFloat32Array::new(),
            },
            PackedFloat32Array::new(),
        )
    }

    /// True when an agent at `position` stands on a walkable cell: the column under it, on the
    /// highest surface at most a step above `position.y` (else the lowest).
    #[func]
    fn is_walkable_at(&self, position: Vector3) -> bool {
        self.info(|g| g.locate(to_vec3(position)).is_some_and(|c| g.is_walkable(c)), false)
    }

    /// True when both positions are on walkable cells joined by a route over the grid (through
    /// stairs and ramps; doors and other modifiers are not part of the baked grid).
    #[func]
    fn are_connected(&self, from: Vector3, to: Vector3) -> bool {
        self.info(
            |g| {
                let a = g.locate(to_vec3(from)).filter(|&c| g.is_walkable(c));
                let b = g.locate(to_vec3(to)).filter(|&c| g.is_walkable(c));
                matches!((a, b), (Some(a), Some(b)) if g.component(a) == g.component(b))
            },
            false,
        )
    }

    /// Centre of the cell [method is_walkable_at] looks at (x and z of the column's centre, y of
    /// the surface); [code]Vector3(NAN, NAN, NAN)[/code] outside the grid.
    #[func]
    fn get_cell_center(&self, position: Vector3) -> Vector3 {
        let nan = Vector3::new(f32::NAN, f32::NAN, f32::NAN);
        self.info(|g| g.locate(to_vec3(position)).map_or(nan, |c| to_vector3(g.cell_center(c))), nan)
    }
}

impl SwarmFlowFieldData {
    /// A new resource holding `grid`.
    pub fn from_grid(grid: SurfaceGrid) -> Gd<Self> {
        let mut r = Self::new_gd();
        {
            let b = r.bind_mut();
            // The bytes are made when first read (see `bytes`).
            b.cache.replace(Some(Ok(Rc::new(grid))));
        }
        r
    }

    /// A copy of the stored grid; damaged or foreign bytes are an error with a clear message.
    pub fn to_grid(&self) -> Result<SurfaceGrid, String> {
        self.grid().map(|g| (*g).clone())
    }

    /// The stored grid, shared (decoded once until the bytes change).
    pub fn grid(&self) -> Result<Rc<SurfaceGrid>, String> {
        if let Some(r) = self.cache.borrow().as_ref() {
            return r.clone();
        }
        let r = decode_grid(self.bytes.borrow().as_slice()).map(Rc::new);
        self.cache.replace(Some(r.clone()));
        r
    }

    /// Counts changes of the stored bytes (each `grid_bytes` assignment), so a user of the grid can
    /// tell a rebake into the same resource from no change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    fn info<T>(&self, f: impl FnOnce(&SurfaceGrid) -> T, fallback: T) -> T {
        match self.grid() {
            Ok(g) => f(&g),
            Err(_) => fallback,
        }
    }
}

/// Decodes stored grid bytes; every failure is a message for the user, never a panic.
pub fn decode_grid(bytes: &[u8]) -> Result<SurfaceGrid, String> {
    if bytes.is_empty() {
        return Err("SwarmFlowFieldData is empty: bake the flow field first".to_string());
    }
    SurfaceGrid::from_bytes(bytes).map_err(|e| match e {
        BakeError::BadBytes => format!(
            "SwarmFlowFieldData is damaged or from another version ({} bytes are not a Swarm surface grid): bake it again",
            bytes.len()
        ),
        other => format!("SwarmFlowFieldData is damaged ({other}): bake it again"),
    })
}

/// The grid's world-space box: x/z from the origin over the columns, y over its surfaces.
pub fn grid_bounds(g: &SurfaceGrid) -> Aabb {
    let (dx, dz) = g.dims();
    let (lo, hi) = (0..g.cell_count() as u32)
        .map(|c| g.surface_height(c))
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), h| (a.min(h), b.max(h)));
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (g.origin().y, g.origin().y) };
    let o = g.origin();
    let size = Vec3::new(dx as f32 * g.cell_size(), hi - lo, dz as f32 * g.cell_size());
    Aabb::new(Vector3::new(o.x, lo, o.z), to_vector3(size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceSample};

    fn sample_grid() -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::new(-2.0, 0.0, 3.0), 0.5, 6, 4, |x, z, out| {
            out.push(SurfaceSample::walkable(0.0));
            if x >= 3 {
                out.push(SurfaceSample::walkable(4.0));
            }
            if x == 1 && z == 1 {
                out.push(SurfaceSample::blocked(0.5));
            }
        });
        SurfaceGrid::bake(&s, BakeParams::default()).unwrap()
    }

    #[test]
    fn bytes_round_trip() {
        let g = sample_grid();
        let back = decode_grid(&g.to_bytes()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.walkable_count(), g.walkable_count());
        let b = grid_bounds(&g);
        assert_eq!(b.position, Vector3::new(-2.0, 0.0, 3.0));
        assert_eq!(b.size, Vector3::new(3.0, 4.0, 2.0));
    }

    #[test]
    fn damaged_bytes_are_a_clear_error() {
        let bytes = sample_grid().to_bytes();
        assert!(decode_grid(&[]).unwrap_err().contains("empty"));
        let e = decode_grid(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(e.contains("damaged"), "{e}");
        let mut bad = bytes.clone();
        bad[0] ^= 0xff;
        assert!(decode_grid(&bad).unwrap_err().contains("damaged"));
        // Flipping any single byte never panics.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] = b[i].wrapping_add(0x5b);
            let _ = decode_grid(&b);
        }
        assert!(decode_grid(b"not a grid at all, just text").is_err());
    }
}
