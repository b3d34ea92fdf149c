//! The baked walkable surface: a layered grid of cells over the ground plane. A column (one x/z
//! square of `cell_size`) holds any number of spans, one per surface hit by a downward ray; each
//! span is a cell with its surface height, a walkable flag and 8 neighbour links. Built once from
//! bake samples (`SurfaceGrid::bake`), never changed at run time; `modifiers` layers doors and
//! barricades over it.
//!
//! Bake rules: a span is walkable when its sample says so and the next surface above it is at
//! least `agent_height` higher. Neighbouring walkable spans link when their heights differ by at
//! most `max_step_height` (links are mutual; a diagonal link also needs both orthogonal cells of
//! its 2x2 block linked, so a diagonal never cuts a corner). Erosion by `clearance_radius` then
//! blocks every cell where no point is `clearance_radius` away from blocked space: any cell whose
//! walkable run along an axis or diagonal is narrower than twice the clearance, and any cell whose
//! centre is closer than the clearance to the centre of a missing neighbour.

use std::collections::BinaryHeap;
use std::fmt;
use std::ops::Range;

use glam::{Vec2, Vec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Index of a span (cell) in a `SurfaceGrid`.
pub type CellId = u32;
/// No cell (a missing link, an unreachable answer).
pub const NONE: CellId = u32::MAX;

/// Neighbour offsets `(dx, dz)` in link order, counter-clockwise from +x: even indices are
/// orthogonal, odd indices diagonal. Diagonal `d` is the sum of orthogonals `d - 1` and `d + 1`.
pub const DIRS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Samples closer than this in one column are one surface (the upper one is kept).
const MERGE_EPS: f32 = 0.01;
/// Spans processed per parallel work item (fixed, so work splits never depend on thread count).
const PAR_CHUNK: usize = 4096;

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
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "SurfaceGridData")]
pub struct SurfaceGrid {
    origin: Vec3,
    cell_size: f32,
    inv_cell: f32,
    dims_x: u32,
    dims_z: u32,
    params: BakeParams,
    /// `column_start[c]..column_start[c + 1]` are the spans of column `c`.
    column_start: Vec<u32>,
    /// Per span: surface height.
    height: Vec<f32>,
    /// Per span: its column.
    column: Vec<u32>,
    /// Per span: walkable after the height and clearance rules.
    walkable: Vec<bool>,
    /// Per span: neighbour cell in each of `DIRS`, or `NONE`. Only walkable spans have links.
    links: Vec<[CellId; 8]>,
    /// Per span: connected component (walkable spans joined by links), `NONE` if not walkable.
    component: Vec<u32>,
    /// Per span: every linked neighbour has the span's own height (flat ground), so the surface
    /// height anywhere on it is the span's height.
    flat: Vec<bool>,
}

/// What is stored: links and span columns are derived again on load.
#[derive(Serialize, Deserialize)]
struct SurfaceGridData {
    origin: Vec3,
    cell_size: f32,
    dims_x: u32,
    dims_z: u32,
    params: BakeParams,
    column_start: Vec<u32>,
    height: Vec<f32>,
    walkable: Vec<bool>,
}

#[derive(Serialize)]
struct SurfaceGridRef<'a> {
    origin: Vec3,
    cell_size: f32,
    dims_x: u32,
    dims_z: u32,
    params: BakeParams,
    column_start: &'a [u32],
    height: &'a [f32],
    walkable: &'a [bool],
}

impl Serialize for SurfaceGrid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SurfaceGridRef {
            origin: self.origin,
            cell_size: self.cell_size,
            dims_x: self.dims_x,
            dims_z: self.dims_z,
            params: self.params,
            column_start: &self.column_start,
            height: &self.height,
            walkable: &self.walkable,
        }
        .serialize(s)
    }
}

impl TryFrom<SurfaceGridData> for SurfaceGrid {
    type Error = BakeError;

    fn try_from(d: SurfaceGridData) -> Result<Self, BakeError> {
        SurfaceGrid::from_parts(
            d.origin,
            d.cell_size,
            d.dims_x,
            d.dims_z,
            d.params,
            d.column_start,
            d.height,
            d.walkable,
        )
    }
}

fn check_layout(cell_size: f32, dims_x: u32, dims_z: u32, params: &BakeParams) -> Result<usize, BakeError> {
    if !(cell_size.is_finite() && cell_size > 0.0) {
        return Err(BakeError::BadCellSize);
    }
    let p = [params.agent_height, params.max_step_height, params.clearance_radius];
    if p.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(BakeError::BadParams);
    }
    let cols = dims_x as u64 * dims_z as u64;
    if cols == 0 || cols >= NONE as u64 {
        return Err(BakeError::BadDimensions);
    }
    Ok(cols as usize)
}

fn check_columns(column_start: &[u32], cols: usize, count: usize) -> Result<(), BakeError> {
    if column_start.len() != cols + 1
        || column_start[0] != 0
        || column_start[cols] as usize != count
        || column_start.windows(2).any(|w| w[0] > w[1])
    {
        return Err(BakeError::BadColumns);
    }
    Ok(())
}

impl SurfaceGrid {
    /// Bakes the grid from samples: spans, headroom, links, clearance erosion, final links.
    pub fn bake(samples: &BakeSamples, params: BakeParams) -> Result<Self, BakeError> {
        let cols = check_layout(samples.cell_size, samples.dims_x, samples.dims_z, &params)?;
        check_columns(&samples.column_start, cols, samples.samples.len())?;

        // Spans: finite samples sorted by height, near-duplicates merged (upper kept), headroom.
        let mut column_start = Vec::with_capacity(cols + 1);
        let mut height = Vec::with_capacity(samples.samples.len());
        let mut walkable = Vec::with_capacity(samples.samples.len());
        let mut scratch: Vec<SurfaceSample> = Vec::new();
        column_start.push(0u32);
        for c in 0..cols {
            let (a, b) = (samples.column_start[c] as usize, samples.column_start[c + 1] as usize);
            scratch.clear();
            scratch.extend(samples.samples[a..b].iter().filter(|s| s.height.is_finite()));
            scratch.sort_by(|p, q| p.height.total_cmp(&q.height));
            let first = height.len();
            for (i, s) in scratch.iter().enumerate() {
                if scratch.get(i + 1).is_some_and(|n| n.height - s.height < MERGE_EPS) {
                    continue;
                }
                height.push(s.height);
                walkable.push(s.walkable);
            }
            // Headroom: the next surface above is the ceiling.
            for i in first..height.len() {
                if i + 1 < height.len() && height[i + 1] - height[i] < params.agent_height {
                    walkable[i] = false;
                }
            }
            if height.len() >= NONE as usize {
                return Err(BakeError::BadDimensions);
            }
            column_start.push(height.len() as u32);
        }
        let column = span_columns(&column_start);
        let mut grid = SurfaceGrid {
            origin: samples.origin,
            cell_size: samples.cell_size,
            inv_cell: 1.0 / samples.cell_size,
            dims_x: samples.dims_x,
            dims_z: samples.dims_z,
            params,
            column_start,
            height,
            column,
            walkable,
            links: Vec::new(),
            component: Vec::new(),
            flat: Vec::new(),
        };
        grid.links = grid.build_links();
        let eroded = grid.erosion();
        if eroded.iter().any(|&e| e) {
            for (w, e) in grid.walkable.iter_mut().zip(&eroded) {
                *w &= !e;
            }
            grid.links = grid.build_links();
        }
        grid.component = grid.components();
        grid.flat = grid.flat_spans();
        Ok(grid)
    }

    /// Rebuilds a grid from its stored parts (links and span columns are derived).
    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        origin: Vec3,
        cell_size: f32,
        dims_x: u32,
        dims_z: u32,
        params: BakeParams,
        column_start: Vec<u32>,
        height: Vec<f32>,
        walkable: Vec<bool>,
    ) -> Result<Self, BakeError> {
        let cols = check_layout(cell_size, dims_x, dims_z, &params)?;
        if !origin.is_finite() || height.len() != walkable.len() || height.iter().any(|h| !h.is_finite()) {
            return Err(BakeError::BadBytes);
        }
        check_columns(&column_start, cols, height.len())?;
        let column = span_columns(&column_start);
        let mut grid = SurfaceGrid {
            origin,
            cell_size,
            inv_cell: 1.0 / cell_size,
            dims_x,
            dims_z,
            params,
            column_start,
            height,
            column,
            walkable,
            links: Vec::new(),
            component: Vec::new(),
            flat: Vec::new(),
        };
        grid.links = grid.build_links();
        grid.component = grid.components();
        grid.flat = grid.flat_spans();
        Ok(grid)
    }

    /// Which spans are flat ground: all linked neighbours at the span's own height.
    fn flat_spans(&self) -> Vec<bool> {
        self.links
            .iter()
            .enumerate()
            .map(|(s, l)| l.iter().all(|&t| t == NONE || self.height[t as usize] == self.height[s]))
            .collect()
    }

    /// Labels connected components by flood fill over links, in id order (deterministic).
    fn components(&self) -> Vec<u32> {
        let n = self.height.len();
        let mut comp = vec![NONE; n];
        let mut stack = Vec::new();
        let mut next = 0;
        for s in 0..n {
            if !self.walkable[s] || comp[s] != NONE {
                continue;
            }
            comp[s] = next;
            stack.push(s as u32);
            while let Some(c) = stack.pop() {
                for &t in &self.links[c as usize] {
                    if t != NONE && comp[t as usize] == NONE {
                        comp[t as usize] = next;
                        stack.push(t);
                    }
                }
            }
            next += 1;
        }
        comp
    }

    /// Links between walkable spans (mutual nearest within the step height; diagonals only
    /// inside a fully linked 2x2 block).
    fn build_links(&self) -> Vec<[CellId; 8]> {
        let n = self.height.len();
        let step = self.params.max_step_height;
        // Pass 1: each span's nearest walkable span within the step in each orthogonal column.
        let mut best = vec![[NONE; 8]; n];
        best.par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(k, out)| {
            for (j, o) in out.iter_mut().enumerate() {
                let s = (k * PAR_CHUNK + j) as u32;
                if !self.walkable[s as usize] {
                    continue;
                }
                let h = self.height[s as usize];
                for d in (0..8).step_by(2) {
                    let Some(nc) = self.neighbour_column(self.column[s as usize], d) else { continue };
                    let mut best_dh = f32::INFINITY;
                    for t in self.column_spans(nc) {
                        let dh = (self.height[t as usize] - h).abs();
                        if self.walkable[t as usize] && dh <= step && dh < best_dh {
                            best_dh = dh;
                            o[d] = t;
                        }
                    }
                }
            }
        });
        // Pass 2: keep mutual orthogonal links, then diagonals closing a linked 2x2 block.
        let mut links = vec![[NONE; 8]; n];
        links.par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(k, out)| {
            for (j, o) in out.iter_mut().enumerate() {
                let s = k * PAR_CHUNK + j;
                for d in (0..8).step_by(2) {
                    let t = best[s][d];
                    if t != NONE && best[t as usize][(d + 4) & 7] == s as u32 {
                        o[d] = t;
                    }
                }
            }
        });
        let orth = links.clone();
        let mutual = |a: CellId, d: usize| -> CellId {
            let t = orth[a as usize][d];
            if t != NONE && orth[t as usize][(d + 4) & 7] == a {
                t
            } else {
                NONE
            }
        };
        links.par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(k, out)| {
            for (j, o) in out.iter_mut().enumerate() {
                let s = (k * PAR_CHUNK + j) as u32;
                for d in (1..8).step_by(2) {
                    let (o1, o2) = (o[d - 1], o[(d + 1) & 7]);
                    if o1 == NONE || o2 == NONE {
                        continue;
                    }
                    let c = mutual(o1, (d + 1) & 7);
                    if c != NONE
                        && c == mutual(o2, d - 1)
                        && (self.height[c as usize] - self.height[s as usize]).abs() <= step
                    {
                        o[d] = c;
                    }
                }
            }
        });
        links
    }

    /// Spans the clearance rules block (computed on the current links).
    fn erosion(&self) -> Vec<bool> {
        let n = self.height.len();
        let c = self.params.clearance_radius;
        let cs = self.cell_size;
        let mut eroded = vec![false; n];
        if c <= 0.0 {
            return eroded;
        }
        // Width rule: the walkable run through the cell along each axis and diagonal.
        let need = (2.0 * c / cs).ceil() as u32;
        eroded.par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(k, out)| {
            for (j, e) in out.iter_mut().enumerate() {
                let s = (k * PAR_CHUNK + j) as u32;
                if !self.walkable[s as usize] {
                    continue;
                }
                for line in 0..4 {
                    let run = 1 + self.run_length(s, line, need) + self.run_length(s, line + 4, need);
                    let spacing = if line % 2 == 0 { cs } else { cs * std::f32::consts::SQRT_2 };
                    if run as f32 * spacing + 1e-5 < 2.0 * c {
                        *e = true;
                        break;
                    }
                }
            }
        });
        // Wall rule: distance from the cell centre to the nearest missing neighbour's centre,
        // by propagating obstacle offsets outwards from cells with missing links. Only reaches
        // anything when the clearance exceeds one cell.
        if c > cs {
            let limit2 = (c / cs) * (c / cs);
            let mut offset = vec![(0i16, 0i16); n];
            let mut dist2 = vec![u32::MAX; n];
            let mut heap = BinaryHeap::new();
            for s in 0..n {
                if !self.walkable[s] {
                    continue;
                }
                for (d, &(dx, dz)) in DIRS.iter().enumerate() {
                    let d2 = (dx * dx + dz * dz) as u32;
                    if self.links[s][d] == NONE && d2 < dist2[s] {
                        dist2[s] = d2;
                        offset[s] = (dx as i16, dz as i16);
                    }
                }
                if dist2[s] != u32::MAX {
                    heap.push(std::cmp::Reverse((dist2[s], s as u32)));
                }
            }
            while let Some(std::cmp::Reverse((d2, s))) = heap.pop() {
                if d2 != dist2[s as usize] {
                    continue;
                }
                let (ox, oz) = offset[s as usize];
                for (d, &(dx, dz)) in DIRS.iter().enumerate() {
                    let t = self.links[s as usize][d];
                    if t == NONE {
                        continue;
                    }
                    let (tx, tz) = (ox as i32 - dx, oz as i32 - dz);
                    let t2 = (tx * tx + tz * tz) as u32;
                    if (t2 as f32) < limit2 && t2 < dist2[t as usize] {
                        dist2[t as usize] = t2;
                        offset[t as usize] = (tx as i16, tz as i16);
                        heap.push(std::cmp::Reverse((t2, t)));
                    }
                }
            }
            for (e, &d2) in eroded.iter_mut().zip(&dist2) {
                if d2 != u32::MAX && (d2 as f32) < limit2 {
                    *e = true;
                }
            }
        }
        eroded
    }

    /// Cells walkable in direction `d` from `s`, following links, up to `cap`.
    fn run_length(&self, s: CellId, d: usize, cap: u32) -> u32 {
        let mut n = 0;
        let mut cur = s;
        while n < cap {
            let t = self.links[cur as usize][d];
            if t == NONE {
                break;
            }
            cur = t;
            n += 1;
        }
        n
    }

    fn neighbour_column(&self, col: u32, d: usize) -> Option<u32> {
        let (ix, iz) = (col % self.dims_x, col / self.dims_x);
        let (x, z) = (ix as i64 + DIRS[d].0 as i64, iz as i64 + DIRS[d].1 as i64);
        if x < 0 || z < 0 || x >= self.dims_x as i64 || z >= self.dims_z as i64 {
            return None;
        }
        Some(z as u32 * self.dims_x + x as u32)
    }

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

    /// Compact little-endian bytes for storage (links are derived again on load).
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.height.len();
        let mut out = Vec::with_capacity(64 + self.column_start.len() * 4 + n * 5);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for v in [self.origin.x, self.origin.y, self.origin.z, self.cell_size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.dims_x.to_le_bytes());
        out.extend_from_slice(&self.dims_z.to_le_bytes());
        for v in [self.params.agent_height, self.params.max_step_height, self.params.clearance_radius] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(n as u32).to_le_bytes());
        for v in &self.column_start {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.height {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend(self.walkable.iter().map(|&w| w as u8));
        out
    }

    /// Reads `to_bytes` output; any inconsistency is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BakeError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC || r.u32()? != VERSION {
            return Err(BakeError::BadBytes);
        }
        let origin = Vec3::new(r.f32()?, r.f32()?, r.f32()?);
        let cell_size = r.f32()?;
        let dims_x = r.u32()?;
        let dims_z = r.u32()?;
        let params = BakeParams { agent_height: r.f32()?, max_step_height: r.f32()?, clearance_radius: r.f32()? };
        let n = r.u32()? as usize;
        let cols = check_layout(cell_size, dims_x, dims_z, &params)?;
        // Sizes are checked against the bytes present before anything is allocated.
        if r.remaining() != (cols + 1) * 4 + n * 5 {
            return Err(BakeError::BadBytes);
        }
        let column_start = (0..=cols).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        let height = (0..n).map(|_| r.f32()).collect::<Result<Vec<_>, _>>()?;
        let walkable = r.take(n)?.iter().map(|&b| b != 0).collect();
        Self::from_parts(origin, cell_size, dims_x, dims_z, params, column_start, height, walkable)
    }
}

const MAGIC: &[u8; 4] = b"SWSG";
const VERSION: u32 = 1;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BakeError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(BakeError::BadBytes)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn u32(&mut self) -> Result<u32, BakeError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }

    fn f32(&mut self) -> Result<f32, BakeError> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
}

fn span_columns(column_start: &[u32]) -> Vec<u32> {
    let mut column = Vec::with_capacity(*column_start.last().unwrap_or(&0) as usize);
    for (c, w) in column_start.windows(2).enumerate() {
        column.extend(std::iter::repeat_n(c as u32, (w[1] - w[0]) as usize));
    }
    column
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from ASCII rows (row 0 is z = 0): '.' floor at 0, '#' no surface.
    pub(crate) fn ascii(rows: &[&str], cell: f32, clearance: f32) -> SurfaceGrid {
        let dz = rows.len() as u32;
        let dx = rows[0].len() as u32;
        let s = BakeSamples::from_fn(Vec3::ZERO, cell, dx, dz, |x, z, out| {
            if rows[z as usize].as_bytes()[x as usize] != b'#' {
                out.push(SurfaceSample::walkable(0.0));
            }
        });
        let p = BakeParams { clearance_radius: clearance, ..Default::default() };
        SurfaceGrid::bake(&s, p).unwrap()
    }

    fn cell_at(g: &SurfaceGrid, x: u32, z: u32) -> CellId {
        let r = g.column_spans(z * g.dims().0 + x);
        if r.is_empty() {
            NONE
        } else {
            r.start
        }
    }

    #[test]
    fn open_floor_links_all_eight() {
        let g = ascii(&["...", "...", "..."], 1.0, 0.0);
        let c = cell_at(&g, 1, 1);
        for d in 0..8 {
            let t = g.link(c, d);
            assert_ne!(t, NONE);
            assert_eq!(g.link(t, (d + 4) & 7), c);
        }
        assert_eq!(g.link(cell_at(&g, 0, 0), 4), NONE);
    }

    #[test]
    fn diagonal_next_to_a_hole_is_not_linked() {
        let g = ascii(&["..", "#."], 1.0, 0.0);
        // (0,0) and (1,1) are diagonal; (0,1) is a hole, so no diagonal link.
        let a = cell_at(&g, 0, 0);
        let b = cell_at(&g, 1, 1);
        assert_eq!(g.link(a, 1), NONE);
        assert_eq!(g.link(b, 5), NONE);
        assert_ne!(a, NONE);
        assert_ne!(b, NONE);
    }

    #[test]
    fn gaps_narrower_than_twice_clearance_close() {
        // A wall across z = 2 with a 1-cell gap at x = 2 and a 2-cell gap at x = 6..8.
        let rows = ["..........", "..........", "##.###..##", "..........", ".........."];
        let g = ascii(&rows, 0.5, 0.3);
        // 1 cell = 0.5 m < 0.6 m: closed. 2 cells = 1.0 m >= 0.6 m: open.
        assert!(!g.is_walkable(cell_at(&g, 2, 2)));
        assert!(g.is_walkable(cell_at(&g, 6, 2)));
        assert!(g.is_walkable(cell_at(&g, 7, 2)));
        // Cells next to walls stay (clearance below one cell).
        assert!(g.is_walkable(cell_at(&g, 0, 1)));
        // A wider clearance closes the 2-cell gap too and erodes cells next to walls.
        let g = ascii(&rows, 0.5, 0.55);
        assert!(!g.is_walkable(cell_at(&g, 6, 2)));
        assert!(!g.is_walkable(cell_at(&g, 0, 1)));
    }

    #[test]
    fn low_overhang_and_steps() {
        // Column 0: floor 0 under a slab at 1.0 (too low for 1.8). Column 1: floor at 0.3 (a step).
        // Column 2: floor at 1.0 (too high a step from 0.3).
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 3, 1, |x, _, out| match x {
            0 => {
                out.push(SurfaceSample::walkable(0.0));
                out.push(SurfaceSample::blocked(1.0));
            }
            1 => out.push(SurfaceSample::walkable(0.3)),
            _ => out.push(SurfaceSample::walkable(1.0)),
        });
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        assert_eq!(g.cell_count(), 4);
        assert!(!g.is_walkable(0));
        assert!(!g.is_walkable(1));
        assert!(g.is_walkable(2));
        assert_eq!(g.link(2, 4), NONE);
        assert_eq!(g.link(2, 0), NONE);
        assert_eq!(g.locate(Vec3::new(0.5, 0.1, 0.5)), Some(0));
        assert_eq!(g.locate(Vec3::new(0.5, 1.2, 0.5)), Some(1));
        assert_eq!(g.cell_center(3), Vec3::new(2.5, 1.0, 0.5));
    }

    #[test]
    fn components_split_by_walls() {
        let g = ascii(&["..#..", "..#..", "..#.."], 1.0, 0.0);
        let (a, b) = (cell_at(&g, 0, 0), cell_at(&g, 4, 2));
        assert_ne!(g.component(a), g.component(b));
        assert_eq!(g.component(a), g.component(cell_at(&g, 1, 2)));
        let g = ascii(&["..#..", ".....", "..#.."], 1.0, 0.0);
        assert_eq!(g.component(cell_at(&g, 0, 0)), g.component(cell_at(&g, 4, 2)));
    }

    #[test]
    fn locate_nearest_and_step() {
        let g = ascii(&["....", ".##.", "...."], 1.0, 0.0);
        assert_eq!(g.locate(Vec3::new(-1.0, 0.0, 0.5)), None);
        assert_eq!(g.locate(Vec3::new(1.5, 0.0, 1.5)), None);
        let n = g.nearest_walkable(Vec3::new(1.4, 0.0, 1.5), 4).unwrap();
        assert_eq!(g.cell_center(n).truncate().x, 0.5);
        // From outside the grid.
        let n = g.nearest_walkable(Vec3::new(-5.0, 0.0, 0.2), 10).unwrap();
        assert_eq!(g.column_of(n), 0);
        assert_eq!(g.nearest_walkable(Vec3::new(-50.0, 0.0, 0.2), 3), None);
        let a = g.locate(Vec3::new(0.5, 0.0, 0.5)).unwrap();
        assert_eq!(g.step_cell(a, Vec3::new(1.2, 0.0, 0.5)), Some(g.link(a, 0)));
        assert_eq!(g.step_cell(a, Vec3::new(1.2, 0.0, 1.2)), None);
    }

    #[test]
    fn ground_height_blends_a_ramp() {
        let s =
            BakeSamples::from_fn(Vec3::ZERO, 1.0, 4, 1, |x, _, out| out.push(SurfaceSample::walkable(x as f32 * 0.2)));
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let c = g.locate(Vec3::new(1.5, 0.0, 0.5)).unwrap();
        assert!((g.ground_height(c, Vec3::new(1.5, 0.0, 0.5)) - 0.2).abs() < 1e-6);
        assert!((g.ground_height(c, Vec3::new(1.9, 0.0, 0.5)) - 0.28).abs() < 1e-5);
        assert!((g.ground_height(c, Vec3::new(1.1, 0.0, 0.5)) - 0.12).abs() < 1e-5);
    }

    #[test]
    fn bytes_round_trip_and_reject_garbage() {
        let g = ascii(&["....", ".#..", "...."], 0.5, 0.3);
        let b = g.to_bytes();
        assert_eq!(SurfaceGrid::from_bytes(&b).unwrap(), g);
        assert_eq!(SurfaceGrid::from_bytes(&b[..b.len() - 1]), Err(BakeError::BadBytes));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(SurfaceGrid::from_bytes(&bad).is_err());
        assert!(SurfaceGrid::from_bytes(&[]).is_err());
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 2, 2, |_, _, out| out.push(SurfaceSample::walkable(0.0)));
        assert!(SurfaceGrid::bake(&s, BakeParams { agent_height: f32::NAN, ..Default::default() }).is_err());
        s.column_start[2] = 9;
        assert_eq!(SurfaceGrid::bake(&s, BakeParams::default()), Err(BakeError::BadColumns));
        s.cell_size = 0.0;
        assert_eq!(SurfaceGrid::bake(&s, BakeParams::default()), Err(BakeError::BadCellSize));
    }
}
