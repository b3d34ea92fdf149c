//! The baked walkable surface: a layered grid of cells over the ground plane. A column (one x/z
//! square of `cell_size`) holds any number of spans, one per surface hit by a downward ray; each
//! span is a cell with its surface height, a walkable flag and 8 neighbour links. Built once from
//! bake samples (`SurfaceGrid::bake`), never changed at run time; `modifiers` layers doors and
//! barricades over it.
//!
//! This file holds the types and the read-only queries; `surface_bake` builds a grid from bake
//! samples (and from stored parts), `surface_io` stores and loads it (serde and compact bytes).

use std::fmt;
use std::ops::Range;

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// Index of a span (cell) in a `SurfaceGrid`.
pub type CellId = u32;
/// No cell (a missing link, an unreachable answer).
pub const NONE: CellId = u32::MAX;

/// Neighbour offsets `(dx, dz)` in link order, counter-clockwise from +x: even indices are
/// orthogonal, odd indices diagonal. Diagonal `d` is the sum of orthogonals `d - 1` and `d + 1`.
pub const DIRS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Agent dimensions that decide walkability and connectivity at bake time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BakeParams {
    /// Free height a span needs above it to be walkable.
    pub agent_height: f32,
    /// Largest height difference between neighbouring cells that still links them.
    pub max_step_height: f32,
    /// Cells without this much room to every blocked cell are blocked; gaps narrower than twice
    /// this bake as blocked.
    pub clearance_radius: f32,
}

impl Default for BakeParams {
    fn default() -> Self {
        Self { agent_height: 1.8, max_step_height: 0.4, clearance_radius: 0.3 }
    }
}

/// One surface hit in a column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceSample {
    pub height: f32,
    /// False for a surface agents may not stand on (too steep, an unwalkable layer). It still
    /// counts as a ceiling for the surfaces below it.
    pub walkable: bool,
}

impl SurfaceSample {
    pub fn walkable(height: f32) -> Self {
        Self { height, walkable: true }
    }

    pub fn blocked(height: f32) -> Self {
        Self { height, walkable: false }
    }
}

/// Raw bake input: per column, the surfaces hit by downward rays (any order).
#[derive(Clone, Debug, Default)]
pub struct BakeSamples {
    /// World position of the grid's minimum corner (x, z); `y` is informational.
    pub origin: Vec3,
    pub cell_size: f32,
    pub dims_x: u32,
    pub dims_z: u32,
    /// `column_start[c]..column_start[c + 1]` indexes `samples` for column `c = iz * dims_x + ix`.
    pub column_start: Vec<u32>,
    pub samples: Vec<SurfaceSample>,
}

impl BakeSamples {
    /// Fills every column by calling `f(ix, iz, out)` in column order; `f` appends the column's
    /// surfaces to `out`.
    pub fn from_fn(
        origin: Vec3,
        cell_size: f32,
        dims_x: u32,
        dims_z: u32,
        mut f: impl FnMut(u32, u32, &mut Vec<SurfaceSample>),
    ) -> Self {
        let cols = dims_x as usize * dims_z as usize;
        let mut s = Self {
            origin,
            cell_size,
            dims_x,
            dims_z,
            column_start: Vec::with_capacity(cols + 1),
            samples: Vec::with_capacity(cols),
        };
        s.column_start.push(0);
        for iz in 0..dims_z {
            for ix in 0..dims_x {
                f(ix, iz, &mut s.samples);
                s.column_start.push(s.samples.len() as u32);
            }
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum BakeError {
    /// `cell_size` not finite and positive.
    BadCellSize,
    /// A dimension is zero or the grid has more cells than ids.
    BadDimensions,
    /// `column_start` does not have `dims_x * dims_z + 1` ascending entries ending at the
    /// sample count.
    BadColumns,
    /// A bake parameter is negative or not finite.
    BadParams,
    /// Stored bytes are not a surface grid of a known version.
    BadBytes,
}

impl fmt::Display for BakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BakeError::BadCellSize => "cell_size must be finite and positive",
            BakeError::BadDimensions => "grid dimensions must be non-zero and fit in 32-bit cell ids",
            BakeError::BadColumns => "column ranges do not match the grid dimensions and sample count",
            BakeError::BadParams => "bake parameters must be finite and not negative",
            BakeError::BadBytes => "not a surface grid, or an unknown version",
        })
    }
}

impl std::error::Error for BakeError {}

/// The baked layered grid. Spans are stored column by column (columns in `iz * dims_x + ix`
/// order), ascending in height within a column, so a column's spans are a contiguous id range.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceGrid {
    pub(super) origin: Vec3,
    pub(super) cell_size: f32,
    pub(super) inv_cell: f32,
    pub(super) dims_x: u32,
    pub(super) dims_z: u32,
    pub(super) params: BakeParams,
    /// `column_start[c]..column_start[c + 1]` are the spans of column `c`.
    pub(super) column_start: Vec<u32>,
    /// Per span: surface height.
    pub(super) height: Vec<f32>,
    /// Per span: its column.
    pub(super) column: Vec<u32>,
    /// Per span: walkable after the height and clearance rules.
    pub(super) walkable: Vec<bool>,
    /// Per span: neighbour cell in each of `DIRS`, or `NONE`. Only walkable spans have links.
    pub(super) links: Vec<[CellId; 8]>,
    /// Per span: connected component (walkable spans joined by links), `NONE` if not walkable.
    pub(super) component: Vec<u32>,
    /// Per span: every linked neighbour has the span's own height (flat ground), so the surface
    /// height anywhere on it is the span's height.
    pub(super) flat: Vec<bool>,
    /// A hash of everything above that routes depend on (`content_key`).
    pub(super) key: u64,
}

impl SurfaceGrid {
    pub fn origin(&self) -> Vec3 {
        self.origin
    }

    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    pub fn dims(&self) -> (u32, u32) {
        (self.dims_x, self.dims_z)
    }

    pub fn params(&self) -> &BakeParams {
        &self.params
    }

    /// A hash of the grid's layout, surfaces, walkability and links: equal for equal grids, and
    /// what a cache built for one grid (the route searches' jump table) checks it against.
    pub fn content_key(&self) -> u64 {
        self.key
    }

    /// Number of cells (spans, walkable or not); cell ids are `0..cell_count()`.
    pub fn cell_count(&self) -> usize {
        self.height.len()
    }

    pub fn walkable_count(&self) -> usize {
        self.walkable.iter().filter(|&&w| w).count()
    }

    pub fn column_count(&self) -> usize {
        self.column_start.len() - 1
    }

    /// Cells of column `col`, lowest first.
    #[inline]
    pub fn column_spans(&self, col: u32) -> Range<CellId> {
        self.column_start[col as usize]..self.column_start[col as usize + 1]
    }

    /// Column under the ground-plane point, if inside the grid.
    #[inline]
    pub fn column_at(&self, x: f32, z: f32) -> Option<u32> {
        let fx = (x - self.origin.x) * self.inv_cell;
        let fz = (z - self.origin.z) * self.inv_cell;
        if !(fx >= 0.0 && fz >= 0.0 && fx < self.dims_x as f32 && fz < self.dims_z as f32) {
            return None;
        }
        Some((fz as u32).min(self.dims_z - 1) * self.dims_x + (fx as u32).min(self.dims_x - 1))
    }

    /// `(ix, iz)` of a column.
    #[inline]
    pub fn column_xz(&self, col: u32) -> (u32, u32) {
        (col % self.dims_x, col / self.dims_x)
    }

    #[inline]
    pub fn column_of(&self, cell: CellId) -> u32 {
        self.column[cell as usize]
    }

    #[inline]
    pub fn is_walkable(&self, cell: CellId) -> bool {
        self.walkable[cell as usize]
    }

    #[inline]
    pub fn surface_height(&self, cell: CellId) -> f32 {
        self.height[cell as usize]
    }

    /// Connected component of a walkable cell (cells in different components never have a
    /// route between them); `NONE` for a blocked cell.
    #[inline]
    pub fn component(&self, cell: CellId) -> u32 {
        self.component[cell as usize]
    }

    /// Neighbour of `cell` in direction `d` (index into `DIRS`), or `NONE`.
    #[inline]
    pub fn link(&self, cell: CellId, d: usize) -> CellId {
        self.links[cell as usize][d]
    }

    #[inline]
    pub fn links(&self, cell: CellId) -> &[CellId; 8] {
        &self.links[cell as usize]
    }

    /// Centre of a column on the ground plane.
    #[inline]
    pub fn column_center(&self, col: u32) -> Vec2 {
        let (ix, iz) = self.column_xz(col);
        Vec2::new(
            self.origin.x + (ix as f32 + 0.5) * self.cell_size,
            self.origin.z + (iz as f32 + 0.5) * self.cell_size,
        )
    }

    /// Centre of a cell, at its surface height.
    #[inline]
    pub fn cell_center(&self, cell: CellId) -> Vec3 {
        let c = self.column_center(self.column[cell as usize]);
        Vec3::new(c.x, self.height[cell as usize], c.y)
    }

    /// How far above a surface a position still counts as standing on it.
    #[inline]
    pub fn locate_tolerance(&self) -> f32 {
        self.params.max_step_height.max(0.5 * self.cell_size)
    }

    /// The cell a position is in: the column under it, and in that column the highest span at
    /// most `locate_tolerance()` above `pos.y`, else the lowest span. May be a blocked cell
    /// (check `is_walkable`); `None` outside the grid or over an empty column.
    pub fn locate(&self, pos: Vec3) -> Option<CellId> {
        let col = self.column_at(pos.x, pos.z)?;
        self.span_in_column(col, pos.y)
    }

    fn span_in_column(&self, col: u32, y: f32) -> Option<CellId> {
        let r = self.column_spans(col);
        if r.is_empty() {
            return None;
        }
        let top = y + self.locate_tolerance();
        let mut found = r.start;
        for s in r {
            if self.height[s as usize] <= top {
                found = s;
            } else {
                break;
            }
        }
        Some(found)
    }

    /// The cell a position moved into from `from` (a cell it was in): the same cell while in the
    /// same column, the linked neighbour when in an adjacent column (`None` where there is no
    /// link: blocked, a wall, a ledge or a step too high), else `locate`. Following links keeps
    /// an agent on its own floor where floors overlap.
    pub fn step_cell(&self, from: CellId, pos: Vec3) -> Option<CellId> {
        let col = self.column_at(pos.x, pos.z)?;
        let own = self.column[from as usize];
        if col == own {
            return Some(from);
        }
        let (ax, az) = self.column_xz(own);
        let (bx, bz) = self.column_xz(col);
        let (dx, dz) = (bx as i32 - ax as i32, bz as i32 - az as i32);
        if dx.abs() <= 1 && dz.abs() <= 1 {
            let d = DIRS.iter().position(|&o| o == (dx, dz)).unwrap();
            let t = self.links[from as usize][d];
            return (t != NONE).then_some(t);
        }
        self.locate(pos)
    }

    /// Nearest walkable cell to `pos`, searching square rings of columns outwards up to
    /// `max_rings` (distance in 3D; ties to the lower id).
    pub fn nearest_walkable(&self, pos: Vec3, max_rings: u32) -> Option<CellId> {
        self.nearest_where(pos, max_rings, |_| true)
    }

    /// Like `nearest_walkable`, among the walkable cells that also pass `accept`.
    pub fn nearest_where(&self, pos: Vec3, max_rings: u32, accept: impl Fn(CellId) -> bool) -> Option<CellId> {
        if !pos.is_finite() {
            return None;
        }
        let fx = ((pos.x - self.origin.x) * self.inv_cell).floor().clamp(-1e9, 1e9) as i64;
        let fz = ((pos.z - self.origin.z) * self.inv_cell).floor().clamp(-1e9, 1e9) as i64;
        let (dx, dz) = (self.dims_x as i64, self.dims_z as i64);
        let mut best = (f32::INFINITY, NONE);
        for r in 0..=max_rings as i64 {
            // Every column in ring r is at least (r - 1) cells away on the ground plane.
            let ring_min = (r - 1).max(0) as f32 * self.cell_size;
            if ring_min * ring_min > best.0 {
                break;
            }
            for z in (fz - r).max(0)..=(fz + r).min(dz - 1) {
                let edge = z == fz - r || z == fz + r;
                let mut visit = |x: i64| {
                    if x < 0 || x >= dx {
                        return;
                    }
                    for s in self.column_spans(z as u32 * self.dims_x + x as u32) {
                        if self.walkable[s as usize] && accept(s) {
                            let d2 = self.cell_center(s).distance_squared(pos);
                            if d2 < best.0 || (d2 == best.0 && s < best.1) {
                                best = (d2, s);
                            }
                        }
                    }
                };
                if edge {
                    for x in (fx - r).max(0)..=(fx + r).min(dx - 1) {
                        visit(x);
                    }
                } else {
                    visit(fx - r);
                    if r > 0 {
                        visit(fx + r);
                    }
                }
            }
        }
        (best.1 != NONE).then_some(best.1)
    }

    /// The four cells whose centres surround `pos` on `cell`'s floor, for bilinear blends:
    /// `[cell, x-neighbour, z-neighbour, diagonal]` (a missing one is `NONE`) and the weights
    /// of the neighbours' side, `(tx, tz)` in `0..=0.5`.
    #[inline]
    pub fn bilinear_cells(&self, cell: CellId, pos: Vec3) -> ([CellId; 4], f32, f32) {
        let c = self.column_center(self.column[cell as usize]);
        let fx = (pos.x - c.x) * self.inv_cell;
        let fz = (pos.z - c.y) * self.inv_cell;
        let (dx, tx) = if fx >= 0.0 { (0usize, fx.min(0.5)) } else { (4, (-fx).min(0.5)) };
        let (dz, tz) = if fz >= 0.0 { (2usize, fz.min(0.5)) } else { (6, (-fz).min(0.5)) };
        let l = &self.links[cell as usize];
        let ax = l[dx];
        let az = l[dz];
        let diag = match (dx, dz) {
            (0, 2) => 1,
            (4, 2) => 3,
            (4, 6) => 5,
            _ => 7,
        };
        ([cell, ax, az, l[diag]], tx, tz)
    }

    /// Surface height under `pos` on `cell`'s floor, blended bilinearly over the linked
    /// neighbours (so ramps and stairs are climbed smoothly; a missing neighbour counts as the
    /// cell's own height).
    #[inline]
    pub fn ground_height(&self, cell: CellId, pos: Vec3) -> f32 {
        if self.flat[cell as usize] {
            return self.height[cell as usize];
        }
        let ([c, ax, az, ad], tx, tz) = self.bilinear_cells(cell, pos);
        let h = |s: CellId| if s == NONE { self.height[c as usize] } else { self.height[s as usize] };
        let (h0, hx, hz, hd) = (h(c), h(ax), h(az), h(ad));
        let lo = h0 + (hx - h0) * tx;
        let hi = hz + (hd - hz) * tx;
        lo + (hi - lo) * tz
    }

    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.column_start.capacity() * 4
            + self.height.capacity() * 4
            + self.column.capacity() * 4
            + self.walkable.capacity()
            + self.links.capacity() * 32
            + self.component.capacity() * 4
            + self.flat.capacity()
    }
}
