//! Direction fields: per cell, the unit ground-plane heading toward a `DistanceField`'s target,
//! which agents read once per step (`direction` for the cell, or `sample` blended bilinearly
//! over the cell's floor).
//!
//! A cell's heading is the descent of the smooth (any-angle) distance: toward the best point on
//! the segment between an orthogonal and a diagonal neighbour, so headings turn continuously
//! instead of snapping to 8 ways. Only linked, route-open neighbours and corner-safe diagonals
//! take part, so a heading never points into a blocked cell; beside walls it falls back to the
//! best single neighbour. Route-blocked cells point out to their best open neighbour; the target
//! cell and cells with no route have no heading (zero).

use glam::{Vec2, Vec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::integration::{best_of, neighbour_values, DistanceField};
use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, NONE};

/// Cells per parallel work item (fixed, so results never depend on the thread count).
const PAR_CHUNK: usize = 4096;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DirectionField {
    target: CellId,
    /// Per cell: unit heading on the ground plane (x, z), or zero.
    dir: Vec<Vec2>,
}

impl DirectionField {
    pub fn new() -> Self {
        Self { target: NONE, dir: Vec::new() }
    }

    /// Checks a loaded field: empty, or one heading per cell, each finite and at most unit
    /// length.
    pub(crate) fn validate(&self, cells: usize) -> Result<(), String> {
        if self.dir.is_empty() {
            return Ok(());
        }
        if self.dir.len() != cells || (self.target != NONE && self.target as usize >= cells) {
            return Err(format!("direction field of {} cells on a grid of {cells}", self.dir.len()));
        }
        if self.dir.iter().any(|d| !d.is_finite() || d.length_squared() > 1.0001) {
            return Err("direction field holds a heading that is not a unit vector".into());
        }
        Ok(())
    }

    /// Rebuilds every heading from `field` (parallel over fixed chunks; deterministic).
    pub fn build(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, field: &DistanceField) {
        self.begin(grid, field);
        self.build_cells(grid, mods, field, 0, grid.cell_count());
    }

    /// Starts a build in slices: sizes the field for `grid` and clears every heading.
    pub fn begin(&mut self, grid: &SurfaceGrid, field: &DistanceField) {
        self.target = field.target();
        self.dir.clear();
        self.dir.resize(grid.cell_count(), Vec2::ZERO);
    }

    /// Builds the headings of cells `from..from + count` (clamped); returns the next cell to
    /// build, `cell_count()` when done. Slices in any order give the same field as `build`.
    pub fn build_cells(
        &mut self,
        grid: &SurfaceGrid,
        mods: &ModifierLayer,
        field: &DistanceField,
        from: usize,
        count: usize,
    ) -> usize {
        let n = self.dir.len();
        let end = from.saturating_add(count).min(n);
        if field.cell_count() != n || grid.cell_count() != n || from >= end {
            return end.max(from.min(n));
        }
        let nodes = field.nodes();
        let target = field.target();
        let (cell, inv) = (grid.cell_size(), 1.0 / grid.cell_size());
        let empty = mods.is_empty();
        self.dir[from..end].par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(k, out)| {
            for (j, o) in out.iter_mut().enumerate() {
                let c = (from + k * PAR_CHUNK + j) as CellId;
                *o = Vec2::ZERO;
                if c == target || (!nodes[c as usize].smooth.is_finite() && !mods.route_blocked(c)) {
                    continue;
                }
                let v = if empty {
                    neighbour_values::<false>(grid, mods, nodes, c, target)
                } else {
                    neighbour_values::<true>(grid, mods, nodes, c, target)
                };
                let (v, d) = best_of(&v, cell, inv);
                if v.is_finite() {
                    *o = d.normalize_or_zero();
                }
            }
        });
        end
    }

    /// The target these headings lead to.
    pub fn target(&self) -> CellId {
        self.target
    }

    pub fn cell_count(&self) -> usize {
        self.dir.len()
    }

    /// Heading of one cell (zero: at the target, no route, or unknown cell).
    #[inline]
    pub fn direction(&self, cell: CellId) -> Vec2 {
        self.dir.get(cell as usize).copied().unwrap_or(Vec2::ZERO)
    }

    pub fn directions(&self) -> &[Vec2] {
        &self.dir
    }

    /// Heading at `pos` in `cell`, blended bilinearly with the linked neighbours around it (a
    /// missing neighbour, or one with no heading, counts as the cell's own heading). Unit length,
    /// or zero where the cell has no heading.
    #[inline]
    pub fn sample(&self, grid: &SurfaceGrid, cell: CellId, pos: Vec3) -> Vec2 {
        let own = self.direction(cell);
        if own == Vec2::ZERO {
            return own;
        }
        let ([_, ax, az, ad], tx, tz) = grid.bilinear_cells(cell, pos);
        let get = |s: CellId| {
            let d = if s == NONE { Vec2::ZERO } else { self.direction(s) };
            if d == Vec2::ZERO {
                own
            } else {
                d
            }
        };
        let lo = own.lerp(get(ax), tx);
        let hi = get(az).lerp(get(ad), tx);
        let v = lo.lerp(hi, tz);
        let len2 = v.length_squared();
        if len2 > 1e-6 {
            v * len2.sqrt().recip()
        } else {
            own
        }
    }

    pub fn heap_bytes(&self) -> usize {
        self.dir.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::super::integration::{integrate, IntegrationJob};
    use super::super::modifiers::ROUTE_BLOCKED;
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;

    fn ascii(rows: &[&str]) -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, rows[0].len() as u32, rows.len() as u32, |x, z, o| {
            if rows[z as usize].as_bytes()[x as usize] != b'#' {
                o.push(SurfaceSample::walkable(0.0));
            }
        });
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    fn at(g: &SurfaceGrid, x: u32, z: u32) -> CellId {
        g.locate(Vec3::new(x as f32 + 0.5, 0.0, z as f32 + 0.5)).unwrap()
    }

    fn build(g: &SurfaceGrid, m: &ModifierLayer, t: CellId) -> DirectionField {
        let mut f = DistanceField::new();
        integrate(g, m, t, &mut IntegrationJob::new(), &mut f);
        let mut d = DirectionField::new();
        d.build(g, m, &f);
        d
    }

    #[test]
    fn open_floor_headings_point_at_the_target() {
        let g = ascii(&["...................."; 20]);
        let m = ModifierLayer::new(&g);
        let t = at(&g, 10, 10);
        let d = build(&g, &m, t);
        assert_eq!(d.direction(t), Vec2::ZERO);
        let mut worst = 0.0f32;
        for z in 0..20 {
            for x in 0..20 {
                let c = at(&g, x, z);
                if c == t {
                    continue;
                }
                let want = (Vec2::new(10.0, 10.0) - Vec2::new(x as f32, z as f32)).normalize();
                let got = d.direction(c);
                assert!((got.length() - 1.0).abs() < 1e-4);
                worst = worst.max(got.angle_to(want).abs().to_degrees());
            }
        }
        // 8-way headings would be off by up to 22.5 degrees.
        assert!(worst < 5.0, "worst heading error {worst} degrees");
    }

    #[test]
    fn headings_never_point_into_blocked_cells() {
        let g = ascii(&["......", "..##..", "..##..", "......"]);
        let mut m = ModifierLayer::new(&g);
        m.stamp_cell(at(&g, 4, 1), ROUTE_BLOCKED, 0.0);
        let d = build(&g, &m, at(&g, 5, 2));
        for c in 0..g.cell_count() as CellId {
            let h = d.direction(c);
            if h == Vec2::ZERO || m.route_blocked(c) {
                continue;
            }
            // The cell a short step along the heading lands in must be linked and open.
            let p = g.cell_center(c) + Vec3::new(h.x, 0.0, h.y) * 0.7;
            let next = g.step_cell(c, p);
            assert!(next.is_some_and(|n| !m.route_blocked(n)), "cell {c} heading {h}");
        }
        // The route-blocked cell points out.
        assert_ne!(d.direction(at(&g, 4, 1)), Vec2::ZERO);
    }
}
