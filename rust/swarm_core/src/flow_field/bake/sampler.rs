//! The sampling passes of a bake (see the module docs of `bake`): surfaces and headroom per
//! column, then thin walls between neighbouring columns, a slice of columns per `step`, and
//! `finish`, which hands the samples to `SurfaceGrid::bake`.

use glam::Vec3;
use rayon::prelude::*;

use super::rays::{RayCaster, RayHit, RayKind};
use super::settings::BakeSettings;
use crate::flow_field::surface::{BakeSamples, SurfaceGrid, SurfaceSample};

/// Surfaces steeper than this are not walkable.
pub const MAX_SLOPE_DEGREES: f32 = 50.0;
/// Most surfaces recorded in one column.
const MAX_SURFACES_PER_COLUMN: usize = 64;
/// How far below a hit the next downward ray starts (inside the collider hit).
const DESCEND: f32 = 0.05;
/// How far above a surface its headroom ray starts.
const HEADROOM_LIFT: f32 = 0.05;
/// Rays start this far above the bounds and end this far below them.
const BOUNDS_PAD: f32 = 0.01;

/// Fixed facts of one bake, derived from the settings.
#[derive(Clone, Copy, Debug)]
struct Plan {
    settings: BakeSettings,
    origin: Vec3,
    dims_x: u32,
    dims_z: u32,
    top: f32,
    bottom: f32,
    /// Lowest normal.y of a walkable surface.
    min_normal_y: f32,
    /// Height above the surface of the wall rays between columns.
    side_lift: f32,
}

impl Plan {
    /// Ground-plane centre of column `col`.
    fn column_centre(&self, col: usize) -> (f32, f32) {
        let (ix, iz) = (col % self.dims_x as usize, col / self.dims_x as usize);
        let c = self.settings.cell_size;
        (self.origin.x + (ix as f32 + 0.5) * c, self.origin.z + (iz as f32 + 0.5) * c)
    }
}

/// Columns per parallel work item of pass 1 (fixed, so the split never depends on threads).
const PAR_COLUMNS: usize = 256;

/// Samples the scene's colliders column by column; see the module docs.
pub struct Baker {
    plan: Plan,
    column_start: Vec<u32>,
    samples: Vec<SurfaceSample>,
    /// Per sample: a trimesh surface is above it in its column.
    under_trimesh: Vec<bool>,
    /// Columns done in pass 1 (surfaces) and pass 2 (thin walls).
    surfaces_done: usize,
    walls_done: usize,
    rays: u64,
    scratch: Vec<(SurfaceSample, bool)>,
}

impl Baker {
    /// Validates the settings; the error names the bad field.
    pub fn new(settings: BakeSettings) -> Result<Self, String> {
        let (dims_x, dims_z) = settings.validate()?;
        let b = settings.bounds;
        let cols = dims_x as usize * dims_z as usize;
        let mut column_start = Vec::with_capacity(cols + 1);
        column_start.push(0);
        let side_lift = (settings.max_step_height + 0.1).min(settings.agent_height * 0.9).max(0.01);
        Ok(Self {
            plan: Plan {
                settings,
                origin: b.position,
                dims_x,
                dims_z,
                top: b.position.y + b.size.y + BOUNDS_PAD,
                bottom: b.position.y - BOUNDS_PAD,
                min_normal_y: MAX_SLOPE_DEGREES.to_radians().cos(),
                side_lift,
            },
            column_start,
            samples: Vec::with_capacity(cols),
            under_trimesh: Vec::with_capacity(cols),
            surfaces_done: 0,
            walls_done: 0,
            rays: 0,
            scratch: Vec::new(),
        })
    }

    pub fn settings(&self) -> &BakeSettings {
        &self.plan.settings
    }

    /// Grid size in columns (x, z).
    pub fn dims(&self) -> (u32, u32) {
        (self.plan.dims_x, self.plan.dims_z)
    }

    pub fn column_count(&self) -> usize {
        self.plan.dims_x as usize * self.plan.dims_z as usize
    }

    /// Rays cast so far.
    pub fn ray_count(&self) -> u64 {
        self.rays
    }

    /// Share of the sampling done, 0..=1.
    pub fn progress(&self) -> f32 {
        let cols = self.column_count();
        ((self.surfaces_done + self.walls_done) as f64 / (2 * cols) as f64) as f32
    }

    pub fn is_done(&self) -> bool {
        self.walls_done >= self.column_count()
    }

    /// Samples up to `max_columns` more columns (at least one) through `rays`; returns the
    /// progress, 0..=1.
    pub fn step(&mut self, rays: &mut impl RayCaster, max_columns: usize) -> f32 {
        let cols = self.column_count();
        let mut budget = max_columns.max(1);
        while budget > 0 && self.surfaces_done < cols {
            self.sample_column(rays, self.surfaces_done);
            self.surfaces_done += 1;
            budget -= 1;
        }
        while budget > 0 && self.surfaces_done >= cols && self.walls_done < cols {
            self.wall_column(rays, self.walls_done);
            self.walls_done += 1;
            budget -= 1;
        }
        self.progress()
    }

    /// `step` through a caster that threads can share (a `ColliderSet`): pass 1 samples its
    /// columns in parallel, in fixed chunks joined in column order, so the samples are those
    /// `step` would take on any number of threads; pass 2 runs in order, since each wall it finds
    /// changes which surfaces the next ones link.
    pub fn step_shared<C: Sync>(&mut self, rays: &C, max_columns: usize) -> f32
    where
        for<'c> &'c C: RayCaster,
    {
        let cols = self.column_count();
        let budget = max_columns.max(1);
        let start = self.surfaces_done;
        let end = (start + budget).min(cols);
        if start < end {
            let plan = self.plan;
            let chunks: Vec<_> = (start..end)
                .step_by(PAR_COLUMNS)
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|first| {
                    let (mut samples, mut under, mut ends) = (Vec::new(), Vec::new(), Vec::new());
                    let (mut found, mut cast) = (Vec::new(), 0);
                    for col in first..(first + PAR_COLUMNS).min(end) {
                        cast += surfaces(&plan, plan.column_centre(col), &mut &*rays, &mut found);
                        samples.extend(found.iter().rev().map(|f| f.0));
                        under.extend(found.iter().rev().map(|f| f.1));
                        ends.push(samples.len() as u32);
                    }
                    (samples, under, ends, cast)
                })
                .collect();
            for (samples, under, ends, cast) in chunks {
                let base = self.samples.len() as u32;
                self.column_start.extend(ends.iter().map(|e| base + e));
                self.samples.extend(samples);
                self.under_trimesh.extend(under);
                self.rays += cast;
            }
            self.surfaces_done = end;
        }
        // What is left of the budget goes to pass 2.
        let left = budget - (end - start);
        if left > 0 {
            self.step(&mut &*rays, left)
        } else {
            self.progress()
        }
    }

    /// Samples everything left through `rays` and bakes.
    pub fn run(mut self, rays: &mut impl RayCaster) -> Result<SurfaceGrid, String> {
        while !self.is_done() {
            self.step(rays, 1 << 20);
        }
        self.finish()
    }

    /// Bakes the grid from the samples (after sampling is done).
    pub fn finish(self) -> Result<SurfaceGrid, String> {
        if !self.is_done() {
            return Err(format!(
                "the bake is not finished ({:.0}% sampled): call step() until is_done()",
                self.progress() * 100.0
            ));
        }
        let samples = BakeSamples {
            origin: self.plan.origin,
            cell_size: self.plan.settings.cell_size,
            dims_x: self.plan.dims_x,
            dims_z: self.plan.dims_z,
            column_start: self.column_start,
            samples: self.samples,
        };
        SurfaceGrid::bake(&samples, self.plan.settings.params()).map_err(|e| format!("baking the grid failed: {e}"))
    }

    fn column_centre(&self, col: usize) -> (f32, f32) {
        self.plan.column_centre(col)
    }

    fn cast(&mut self, rays: &mut impl RayCaster, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        self.rays += 1;
        rays.cast(kind, from, to)
    }

    /// Pass 1 for column `col` (columns are sampled in order, so its samples go at the end).
    fn sample_column(&mut self, rays: &mut impl RayCaster, col: usize) {
        let mut found = std::mem::take(&mut self.scratch);
        self.rays += surfaces(&self.plan, self.column_centre(col), rays, &mut found);
        // Stored lowest first, as the grid's spans are.
        self.samples.extend(found.iter().rev().map(|f| f.0));
        self.under_trimesh.extend(found.iter().rev().map(|f| f.1));
        self.column_start.push(self.samples.len() as u32);
        self.scratch = found;
    }

    /// Pass 2 for column `col`: wall rays toward the +x and +z columns.
    fn wall_column(&mut self, rays: &mut impl RayCaster, col: usize) {
        let p = self.plan;
        let (ix, iz) = (col % p.dims_x as usize, col / p.dims_x as usize);
        let (ax, az) = self.column_centre(col);
        for (dx, dz) in [(1usize, 0usize), (0, 1)] {
            if ix + dx >= p.dims_x as usize || iz + dz >= p.dims_z as usize {
                continue;
            }
            let other = col + dx + dz * p.dims_x as usize;
            let (bx, bz) = self.column_centre(other);
            let (a0, a1) = (self.column_start[col] as usize, self.column_start[col + 1] as usize);
            for a in a0..a1 {
                if !self.samples[a].walkable {
                    continue;
                }
                let ha = self.samples[a].height;
                let Some(b) = self.link_candidate(other, ha) else { continue };
                let hb = self.samples[b].height;
                let pa = Vec3::new(ax, ha + p.side_lift, az);
                let pb = Vec3::new(bx, hb + p.side_lift, bz);
                let (ta, tb) = (self.under_trimesh[a], self.under_trimesh[b]);
                // Where the wall is along a -> b (0..1), from either side.
                let mut at = self.cast(rays, RayKind::Side, pa, pb).map(|h| fraction(pa, pb, h.position));
                if at.is_none() && (ta || tb) {
                    at = self.cast(rays, RayKind::Side, pb, pa).map(|h| 1.0 - fraction(pb, pa, h.position));
                }
                if let Some(t) = at {
                    let block_a = match (ta, tb) {
                        (true, false) => true,
                        (false, true) => false,
                        _ => t < 0.5,
                    };
                    self.samples[if block_a { a } else { b }].walkable = false;
                }
            }
        }
    }

    /// The walkable sample of column `col` nearest in height to `h`, within the step height.
    fn link_candidate(&self, col: usize, h: f32) -> Option<usize> {
        let (b0, b1) = (self.column_start[col] as usize, self.column_start[col + 1] as usize);
        let step = self.plan.settings.max_step_height;
        (b0..b1).filter(|&b| self.samples[b].walkable && (self.samples[b].height - h).abs() <= step).min_by(|&p, &q| {
            let (dp, dq) = ((self.samples[p].height - h).abs(), (self.samples[q].height - h).abs());
            dp.total_cmp(&dq)
        })
    }
}

/// Pass 1 for the column at ground-plane `(x, z)`: its surfaces into `found`, highest first, each
/// with whether a trimesh surface is above it. Returns the rays cast.
fn surfaces(p: &Plan, (x, z): (f32, f32), rays: &mut impl RayCaster, found: &mut Vec<(SurfaceSample, bool)>) -> u64 {
    let s = p.settings;
    let mut cast = 0u64;
    found.clear();
    let mut from = p.top;
    let mut trimesh_above = false;
    while found.len() < MAX_SURFACES_PER_COLUMN && from > p.bottom {
        cast += 1;
        let Some(hit) = rays.cast(RayKind::Down, Vec3::new(x, from, z), Vec3::new(x, p.bottom, z)) else {
            break;
        };
        // Never above where the ray started, so every round goes strictly down.
        let y = if hit.position.y.is_finite() { hit.position.y.min(from) } else { from };
        let walkable = hit.layer & s.walkable_mask != 0
            && hit.layer & s.unwalkable_mask == 0
            && hit.normal.is_finite()
            && hit.normal.y >= p.min_normal_y * hit.normal.length();
        found.push((SurfaceSample { height: y, walkable }, trimesh_above));
        trimesh_above |= hit.concave;
        from = y - DESCEND;
    }
    // Headroom, highest surface first: a walkable surface with less than agent_height to the
    // next surface up is blocked by the bake anyway, so only the others cast.
    for i in 0..found.len() {
        if !found[i].0.walkable {
            continue;
        }
        let h = found[i].0.height;
        if i > 0 && found[i - 1].0.height - h < s.agent_height {
            continue;
        }
        if s.agent_height > HEADROOM_LIFT {
            let a = Vec3::new(x, h + HEADROOM_LIFT, z);
            let b = Vec3::new(x, h + s.agent_height, z);
            cast += 1;
            if rays.cast(RayKind::Headroom, a, b).is_some() {
                found[i].0.walkable = false;
            }
        }
    }
    cast
}

/// How far along `from -> to` (0..1) a point on the segment is.
fn fraction(from: Vec3, to: Vec3, at: Vec3) -> f32 {
    let len = (to - from).length();
    if len > 0.0 {
        ((at - from).length() / len).clamp(0.0, 1.0)
    } else {
        0.0
    }
}
