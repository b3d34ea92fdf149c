//! The run-time modifier layer over a baked `SurfaceGrid` (doors, barricades, props): per cell,
//! whether agents may enter it, whether routes may cross it, and what a route pays to enter it.
//! Restamped wholesale (`clear` then `stamp_box` for every modifier) without touching the bake;
//! clearing only resets the cells the last stamps touched.
//!
//! Route cost is per crossing, however many cells deep the box is: a route pays a box's cost
//! when it enters one of the box's cells from a cell outside that box. The cost has a ceiling of
//! 1024 cells of detour for each cell a crossing enters (`1024 * cell_size * depth`, the depth
//! being the box's thinner horizontal side in cells, at least 1).

use glam::{Mat3, Vec3};
use serde::{Deserialize, Serialize};

use super::surface::{CellId, SurfaceGrid};

/// Agents may not step into the cell.
pub const BLOCKS_AGENTS: u8 = 1;
/// Routes may not cross the cell (impassable for integration and path queries).
pub const ROUTE_BLOCKED: u8 = 2;
/// Internal: the cell carries a route cost.
const HAS_COST: u8 = 0x40;
/// Internal: the cell is in `touched`.
const TOUCHED: u8 = 0x80;

/// Most detour one cell of a crossing can add, in cells.
pub const MAX_DETOUR_CELLS: f32 = 1024.0;

/// How routes treat a box's cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RouteMode {
    /// As if the box were not there.
    Free,
    /// Entering the box adds this many world units to a route (clamped to the ceiling).
    ExtraCost(f32),
    /// Routes never cross the box.
    Blocked,
}

/// An oriented box: world centre, local axes in world space, half size along each local axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModifierBox {
    pub center: Vec3,
    pub basis: Mat3,
    pub half_extents: Vec3,
    pub blocks_agents: bool,
    pub route: RouteMode,
}

impl ModifierBox {
    /// An axis-aligned box from its centre and full size.
    pub fn aligned(center: Vec3, size: Vec3, blocks_agents: bool, route: RouteMode) -> Self {
        Self { center, basis: Mat3::IDENTITY, half_extents: size * 0.5, blocks_agents, route }
    }
}

/// What one stamp did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StampResult {
    /// Cells the box covers.
    pub cells: usize,
    /// The route cost it applies after the ceiling (0 unless `ExtraCost`).
    pub route_cost: f32,
    /// Whether the requested cost was above the ceiling.
    pub clamped: bool,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ModifierLayer {
    /// Per cell: `BLOCKS_AGENTS | ROUTE_BLOCKED` (and the internal touched bit).
    flags: Vec<u8>,
    /// Per cell: cost a route pays to enter the cell from outside its box.
    extra: Vec<f32>,
    /// Per cell: the box (1-based stamp number) whose cost the cell carries; 0 for none.
    region: Vec<u32>,
    touched: Vec<CellId>,
    next_region: u32,
    scratch: Vec<CellId>,
    sorted: Vec<CellId>,
}

impl ModifierLayer {
    pub fn new(grid: &SurfaceGrid) -> Self {
        let n = grid.cell_count();
        Self { flags: vec![0; n], extra: vec![0.0; n], region: vec![0; n], next_region: 1, ..Default::default() }
    }

    /// Cells this layer is sized for.
    pub fn cell_count(&self) -> usize {
        self.flags.len()
    }

    /// Removes every stamp.
    pub fn clear(&mut self) {
        for &c in &self.touched {
            self.flags[c as usize] = 0;
            self.extra[c as usize] = 0.0;
            self.region[c as usize] = 0;
        }
        self.touched.clear();
        self.next_region = 1;
    }

    /// Whether no cell carries any modifier.
    pub fn is_empty(&self) -> bool {
        self.touched.is_empty()
    }

    /// Whether the cell carries a route cost (routes pay to enter it from outside its box).
    #[inline]
    pub fn has_cost(&self, cell: CellId) -> bool {
        self.flags.get(cell as usize).is_some_and(|&f| f & HAS_COST != 0)
    }

    /// A key of the sets of route-blocked cells and of cells carrying a route cost (equal sets,
    /// whatever their stamp order, give equal keys; the costs themselves are not in it), for
    /// what depends on nothing else of the layer.
    pub fn route_key(&self) -> u64 {
        let mut key = 0x9e37_79b9_7f4a_7c15 ^ self.flags.len() as u64;
        for &c in &self.touched {
            let f = self.flags[c as usize];
            for (bit, salt) in [(ROUTE_BLOCKED, 0u64), (HAS_COST, 1 << 32)] {
                if f & bit != 0 {
                    // splitmix64 of the cell (and which set), summed (order-free).
                    let mut z = (c as u64 | salt).wrapping_add(0x9e37_79b9_7f4a_7c15);
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    key = key.wrapping_add(z ^ (z >> 31));
                }
            }
        }
        key
    }

    /// Cells carrying a modifier, in stamp order.
    pub fn touched(&self) -> &[CellId] {
        &self.touched
    }

    /// Most route cost a box `depth_cells` deep may carry on a grid of `cell_size`.
    pub fn route_cost_ceiling(cell_size: f32, depth_cells: u32) -> f32 {
        MAX_DETOUR_CELLS * cell_size * depth_cells.max(1) as f32
    }

    /// Stamps one box: covered cells are those whose column centre lies in the box's footprint
    /// and whose surface is within the box's height band (the box overlaps the band from
    /// `max_step_height` below the surface to half `agent_height` above it); the column under
    /// the box centre is always tested at the centre itself, so a box thinner than a cell still
    /// covers its centre cell. Overlapping boxes combine: flags add up, the higher cost wins.
    pub fn stamp_box(&mut self, grid: &SurfaceGrid, b: &ModifierBox) -> StampResult {
        let mut res = StampResult::default();
        if self.flags.len() != grid.cell_count() {
            *self = Self::new(grid);
        }
        let det = b.basis.determinant();
        if !b.center.is_finite() || !b.half_extents.is_finite() || !det.is_finite() || det.abs() < 1e-12 {
            return res;
        }
        let he = b.half_extents.abs();
        let inv = b.basis.inverse();
        let cs = grid.cell_size();
        let band_lo = grid.params().max_step_height;
        let band_hi = 0.5 * grid.params().agent_height;

        // World AABB of the box on the ground plane.
        let ext = b.basis.x_axis.abs() * he.x + b.basis.y_axis.abs() * he.y + b.basis.z_axis.abs() * he.z;
        let (origin, (dx, dz)) = (grid.origin(), grid.dims());
        let lo_x = (((b.center.x - ext.x - origin.x) / cs).floor().max(0.0) as u32).min(dx);
        let lo_z = (((b.center.z - ext.z - origin.z) / cs).floor().max(0.0) as u32).min(dz);
        let hi_x = (((b.center.x + ext.x - origin.x) / cs).floor().max(-1.0) as i64).min(dx as i64 - 1);
        let hi_z = (((b.center.z + ext.z - origin.z) / cs).floor().max(-1.0) as i64).min(dz as i64 - 1);

        let hits = |x: f32, z: f32, h: f32| -> bool {
            let p0 = inv * (Vec3::new(x, h - band_lo, z) - b.center);
            let dir = inv * Vec3::new(0.0, band_lo + band_hi, 0.0);
            segment_hits_box(p0, dir, he)
        };
        self.scratch.clear();
        let centre_col = grid.column_at(b.center.x, b.center.z);
        for iz in lo_z as i64..=hi_z {
            for ix in lo_x as i64..=hi_x {
                let col = iz as u32 * dx + ix as u32;
                let c = grid.column_center(col);
                for s in grid.column_spans(col) {
                    let h = grid.surface_height(s);
                    if hits(c.x, c.y, h) || (Some(col) == centre_col && hits(b.center.x, b.center.z, h)) {
                        self.scratch.push(s);
                    }
                }
            }
        }

        let mut flags = 0u8;
        if b.blocks_agents {
            flags |= BLOCKS_AGENTS;
        }
        let mut cost = 0.0;
        match b.route {
            RouteMode::Free => {}
            RouteMode::Blocked => flags |= ROUTE_BLOCKED,
            RouteMode::ExtraCost(c) => {
                let c = if c.is_finite() { c.max(0.0) } else { 0.0 };
                // Depth: the thinner horizontal side of the footprint, in cells.
                let lx = 2.0 * he.x * b.basis.x_axis.truncate_xz_len();
                let lz = 2.0 * he.z * b.basis.z_axis.truncate_xz_len();
                let depth = (lx.min(lz) / cs).round().max(1.0) as u32;
                let ceiling = Self::route_cost_ceiling(cs, depth);
                res.clamped = c > ceiling;
                cost = c.min(ceiling);
            }
        }
        res.route_cost = cost;
        res.cells = self.scratch.len();
        if flags == 0 && cost <= 0.0 {
            // A free, non-blocking box changes nothing; leave the layer empty if it was.
            return res;
        }
        let region = self.next_region;
        self.next_region += 1;
        for &s in &self.scratch {
            let f = &mut self.flags[s as usize];
            if *f & TOUCHED == 0 {
                self.touched.push(s);
            }
            *f |= flags | TOUCHED;
            if cost > self.extra[s as usize] {
                self.extra[s as usize] = cost;
                self.region[s as usize] = region;
                *f |= HAS_COST;
            }
        }
        res
    }

    /// Marks one cell directly (tests, tools): flags to add and an entry cost for a box of its own.
    pub fn stamp_cell(&mut self, cell: CellId, flags: u8, cost: f32) {
        let f = &mut self.flags[cell as usize];
        if *f & TOUCHED == 0 {
            self.touched.push(cell);
        }
        *f |= (flags & (BLOCKS_AGENTS | ROUTE_BLOCKED)) | TOUCHED;
        if cost > self.extra[cell as usize] {
            *f |= HAS_COST;
            self.extra[cell as usize] = cost;
            self.region[cell as usize] = self.next_region;
        }
        self.next_region += 1;
    }

    /// Agents may not enter the cell.
    #[inline]
    pub fn blocks_agents(&self, cell: CellId) -> bool {
        self.flags.get(cell as usize).is_some_and(|f| f & BLOCKS_AGENTS != 0)
    }

    /// Routes may not cross the cell.
    #[inline]
    pub fn route_blocked(&self, cell: CellId) -> bool {
        self.flags.get(cell as usize).is_some_and(|f| f & ROUTE_BLOCKED != 0)
    }

    /// Route cost carried by the cell (paid when entering it from outside its box).
    #[inline]
    pub fn extra_cost(&self, cell: CellId) -> f32 {
        self.extra.get(cell as usize).copied().unwrap_or(0.0)
    }

    /// The box whose cost the cell carries (0 for none).
    #[inline]
    pub fn region(&self, cell: CellId) -> u32 {
        self.region.get(cell as usize).copied().unwrap_or(0)
    }

    /// Extra route cost of moving from `from` into its neighbour `to`.
    #[inline]
    pub fn entry_cost(&self, from: CellId, to: CellId) -> f32 {
        match self.flags.get(to as usize) {
            Some(&f) if f & HAS_COST != 0 && self.region[to as usize] != self.region(from) => self.extra[to as usize],
            _ => 0.0,
        }
    }

    /// A hash of everything routes depend on (blocked cells, costs, box boundaries), independent
    /// of stamp order within equal results; compare before and after a restamp to decide whether
    /// fields need rebuilding.
    pub fn route_fingerprint(&mut self) -> u64 {
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.touched);
        self.sorted.sort_unstable();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u32| {
            for b in v.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for &c in &self.sorted {
            let f = self.flags[c as usize] & ROUTE_BLOCKED;
            let e = self.extra[c as usize];
            if f == 0 && e == 0.0 {
                continue;
            }
            mix(c);
            mix(f as u32);
            mix(e.to_bits());
            mix(self.region[c as usize]);
        }
        h
    }

    pub fn heap_bytes(&self) -> usize {
        self.flags.capacity()
            + self.extra.capacity() * 4
            + self.region.capacity() * 4
            + (self.touched.capacity() + self.scratch.capacity() + self.sorted.capacity()) * 4
    }
}

impl ModifierLayer {
    /// Checks a loaded layer against the grid's cell count: every array sized for it, the
    /// touched list naming each stamped cell once, costs finite.
    pub(crate) fn validate(&self, cells: usize) -> Result<(), String> {
        if self.flags.len() != cells || self.extra.len() != cells || self.region.len() != cells {
            return Err(format!("modifier layer sized for {} cells, the grid has {cells}", self.flags.len()));
        }
        let mut listed = 0usize;
        for &c in &self.touched {
            match self.flags.get(c as usize) {
                Some(f) if f & TOUCHED != 0 => listed += 1,
                _ => return Err(format!("modifier layer lists cell {c}, which carries no stamp")),
            }
        }
        if listed != self.flags.iter().filter(|&&f| f & TOUCHED != 0).count() {
            return Err("modifier layer's stamped cells and their list disagree".into());
        }
        if self.extra.iter().any(|e| !(0.0..=1e12).contains(e)) {
            return Err("modifier layer holds a route cost that is negative or not a number".into());
        }
        if self.next_region >= u32::MAX / 2 {
            return Err(format!("modifier layer's stamp counter {} is out of range", self.next_region));
        }
        Ok(())
    }
}

trait XzLen {
    fn truncate_xz_len(self) -> f32;
}

impl XzLen for Vec3 {
    #[inline]
    fn truncate_xz_len(self) -> f32 {
        (self.x * self.x + self.z * self.z).sqrt()
    }
}

/// Whether the segment `p0 .. p0 + dir` meets the box `[-he, he]` (slab test, inclusive).
fn segment_hits_box(p0: Vec3, dir: Vec3, he: Vec3) -> bool {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for k in 0..3 {
        let (p, d, e) = (p0[k], dir[k], he[k]);
        if d.abs() < 1e-12 {
            if p < -e || p > e {
                return false;
            }
        } else {
            let (a, b) = ((-e - p) / d, (e - p) / d);
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            t0 = t0.max(a);
            t1 = t1.min(b);
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;

    fn floor(dx: u32, dz: u32, cs: f32) -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::ZERO, cs, dx, dz, |_, _, o| o.push(SurfaceSample::walkable(0.0)));
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    #[test]
    fn box_covers_footprint_and_clear_resets() {
        let g = floor(10, 10, 1.0);
        let mut m = ModifierLayer::new(&g);
        let r = m.stamp_box(
            &g,
            &ModifierBox::aligned(Vec3::new(5.0, 1.0, 5.0), Vec3::new(2.0, 2.0, 2.0), true, RouteMode::Blocked),
        );
        // Centres 4.5 and 5.5 on each axis.
        assert_eq!(r.cells, 4);
        let c = g.locate(Vec3::new(4.5, 0.0, 4.5)).unwrap();
        assert!(m.blocks_agents(c) && m.route_blocked(c));
        m.clear();
        assert!(!m.blocks_agents(c) && m.is_empty());
    }

    #[test]
    fn thin_box_closes_its_centre_cell() {
        let g = floor(10, 10, 1.0);
        let mut m = ModifierLayer::new(&g);
        let r = m.stamp_box(
            &g,
            &ModifierBox::aligned(Vec3::new(3.2, 1.0, 3.9), Vec3::new(0.05, 2.0, 0.05), true, RouteMode::Free),
        );
        assert_eq!(r.cells, 1);
        assert!(m.blocks_agents(g.locate(Vec3::new(3.5, 0.0, 3.5)).unwrap()));
    }

    #[test]
    fn rotated_box_and_height_band() {
        // Two floors: ground at 0 everywhere, a slab at 3.0 over x >= 5.
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 10, 10, |x, _, o| {
            o.push(SurfaceSample::walkable(0.0));
            if x >= 5 {
                o.push(SurfaceSample::walkable(3.0));
            }
        });
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let mut m = ModifierLayer::new(&g);
        // A door on the upper floor: covers the upper span only.
        m.stamp_box(
            &g,
            &ModifierBox::aligned(Vec3::new(7.5, 4.0, 7.5), Vec3::new(1.0, 2.0, 1.0), true, RouteMode::Blocked),
        );
        let upper = g.locate(Vec3::new(7.5, 3.0, 7.5)).unwrap();
        let lower = g.locate(Vec3::new(7.5, 0.0, 7.5)).unwrap();
        assert!(m.route_blocked(upper) && !m.route_blocked(lower));
        // A 45-degree rotated box 1.5 wide covers the diamond around (2.5, 2.5).
        m.clear();
        let b = ModifierBox {
            center: Vec3::new(2.5, 1.0, 2.5),
            basis: Mat3::from_rotation_y(std::f32::consts::FRAC_PI_4),
            half_extents: Vec3::new(0.75, 1.0, 0.75),
            blocks_agents: true,
            route: RouteMode::Free,
        };
        assert_eq!(m.stamp_box(&g, &b).cells, 5);
    }

    #[test]
    fn cost_is_per_crossing_with_ceiling() {
        let g = floor(10, 10, 0.5);
        let mut m = ModifierLayer::new(&g);
        let r = m.stamp_box(
            &g,
            &ModifierBox::aligned(Vec3::new(2.5, 1.0, 2.5), Vec3::new(0.5, 2.0, 1.0), true, RouteMode::ExtraCost(1e6)),
        );
        assert!(r.clamped);
        assert_eq!(r.route_cost, 512.0);
        let a = g.locate(Vec3::new(2.25, 0.0, 2.25)).unwrap();
        let b = g.locate(Vec3::new(2.25, 0.0, 2.75)).unwrap();
        let out = g.locate(Vec3::new(1.75, 0.0, 2.25)).unwrap();
        assert_eq!(m.entry_cost(out, a), 512.0);
        assert_eq!(m.entry_cost(a, b), 0.0);
        assert_eq!(m.entry_cost(a, out), 0.0);
        // A box two cells deep may carry twice as much.
        let r = m.stamp_box(
            &g,
            &ModifierBox::aligned(
                Vec3::new(4.0, 1.0, 4.0),
                Vec3::new(1.0, 2.0, 1.0),
                true,
                RouteMode::ExtraCost(5000.0),
            ),
        );
        assert_eq!(r.route_cost, 1024.0);
        let f = m.route_fingerprint();
        m.clear();
        assert_ne!(f, m.route_fingerprint());
    }
}
