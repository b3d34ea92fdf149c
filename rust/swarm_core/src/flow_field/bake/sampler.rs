//! The sampling passes of a bake (see the module docs of `bake`): surfaces and headroom per
//! column, then thin walls between neighbouring columns, a slice of columns per `step`, and
//! `finish`, which hands the samples to `SurfaceGrid::bake`.

use glam::Vec3;
use rayon::prelude::*;

use super::colliders::ColliderSet;
use super::rays::{RayCaster, RayKind};
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
    /// Pass 2's rays cast ahead for the current step's columns (see `wall_memo`).
    memo: Vec<WallMemo>,
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
            memo: Vec::new(),
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

    /// `step` through a `ColliderSet`, which threads share, with the same result on any number
    /// of threads: pass 1 samples its columns in parallel, in fixed chunks joined in column order
    /// (each chunk keeping the set's items under the column it is in, see `ColumnCaster`); pass
    /// 2 casts its rays in parallel against the surfaces pass 1 left, then goes through the
    /// columns in order as `step` does (each wall it finds can change which surfaces the next
    /// rays pair), casting again only for a pair that changed. (It casts a few more rays than
    /// `step` for the same samples.)
    pub fn step_shared(&mut self, rays: &ColliderSet, max_columns: usize) -> f32 {
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
                    let mut column_rays = rays.column_caster();
                    for col in first..(first + PAR_COLUMNS).min(end) {
                        cast += surfaces(&plan, plan.column_centre(col), &mut column_rays, &mut found);
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
        // What is left of the budget goes to pass 2: its rays cast on all threads first, then
        // the columns in order, casting again only where an earlier wall changed a pair.
        let left = budget - (end - start);
        if left > 0 && self.surfaces_done >= cols {
            let (first, end) = (self.walls_done, (self.walls_done + left).min(cols));
            // The memo's room is kept from step to step.
            let mut memo = std::mem::take(&mut self.memo);
            self.rays += self.wall_memo(rays, first, end, &mut memo);
            self.replay_walls(&mut &*rays, first, end, &memo);
            self.memo = memo;
            self.walls_done = end;
        }
        self.progress()
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

    /// Pass 2 for column `col`: wall rays toward the +x and +z columns (`step`).
    fn wall_column(&mut self, rays: &mut impl RayCaster, col: usize) {
        for (_, other) in self.wall_neighbours(col) {
            for a in self.column_start[col] as usize..self.column_start[col + 1] as usize {
                self.wall_sample(rays, col, other, a, None);
            }
        }
    }

    /// The wall ray from sample `a` (of column `col`) toward column `other`, cast unless
    /// `remembered` holds its answer for the pair it makes now (see `WallMemo`); blocks the
    /// surface on the wall's side. Returns the column of the sample blocked, if any.
    fn wall_sample(
        &mut self,
        rays: &mut impl RayCaster,
        col: usize,
        other: usize,
        a: usize,
        remembered: Option<(u32, f32)>,
    ) -> Option<usize> {
        let b = self.wall_pair(a, other)?;
        let at = match remembered.filter(|m| m.0 == b as u32) {
            Some((_, at)) => (!at.is_nan()).then_some(at),
            None => {
                let (at, cast) = wall_at(rays, self.wall_ends(col, other, a, b));
                self.rays += cast;
                at
            }
        };
        at.map(|t| if self.block(a, b, t) { col } else { other })
    }

    /// A wall at `t` along the ray from sample `a` to `b` blocks the surface on the side nearer
    /// to it (the one under a trimesh, if only one is). Returns whether that is `a`.
    fn block(&mut self, a: usize, b: usize, t: f32) -> bool {
        let block_a = match (self.under_trimesh[a], self.under_trimesh[b]) {
            (true, false) => true,
            (false, true) => false,
            _ => t < 0.5,
        };
        self.samples[if block_a { a } else { b }].walkable = false;
        block_a
    }

    /// Pass 2 over columns `first..end` with their rays answered in `memo` (from `first`'s first
    /// sample), in order as `step` does it. A pair is the one the memo was cast for as long as
    /// neither of its columns has had a surface blocked since (no wall found yet touched it):
    /// then the memo is used as it is. Otherwise the pair is worked out again from the surfaces
    /// as they are now, and cast again if it changed.
    fn replay_walls(&mut self, rays: &mut impl RayCaster, first: usize, end: usize, memo: &[WallMemo]) {
        let base = self.column_start[first] as usize;
        // Columns first.. that a wall found here changed (a pair reaches one row ahead).
        let mut changed = vec![false; (end + self.plan.dims_x as usize + 1).min(self.column_count()) - first];
        for col in first..end {
            for (k, other) in self.wall_neighbours(col) {
                for a in self.column_start[col] as usize..self.column_start[col + 1] as usize {
                    let (b, at) = memo[a - base][k];
                    let blocked = if changed[col - first] || changed[other - first] {
                        self.wall_sample(rays, col, other, a, Some((b, at)))
                    } else if b != u32::MAX && !at.is_nan() {
                        Some(if self.block(a, b as usize, at) { col } else { other })
                    } else {
                        None
                    };
                    if let Some(c) = blocked {
                        changed[c - first] = true;
                    }
                }
            }
        }
    }

    /// Pass 2's rays for columns `first..end`, cast on all threads against the surfaces as they
    /// are now, into `memo` per sample of those columns (from the first one's) and direction:
    /// the surface paired with and the answer (NaN: no wall). Returns the rays cast.
    fn wall_memo(&self, rays: &ColliderSet, first: usize, end: usize, memo: &mut Vec<WallMemo>) -> u64 {
        let base = self.column_start[first] as usize;
        memo.clear();
        memo.resize(self.column_start[end] as usize - base, [(u32::MAX, f32::NAN); 2]);
        // Each chunk of columns gets its own part of `memo`.
        let mut parts = Vec::new();
        let mut rest = &mut memo[..];
        for c0 in (first..end).step_by(PAR_COLUMNS) {
            let c1 = (c0 + PAR_COLUMNS).min(end);
            let (part, tail) = rest.split_at_mut((self.column_start[c1] - self.column_start[c0]) as usize);
            parts.push((c0, c1, part));
            rest = tail;
        }
        parts
            .into_par_iter()
            .map(|(c0, c1, part)| {
                let base = self.column_start[c0] as usize;
                let mut cast = 0;
                for col in c0..c1 {
                    for (k, other) in self.wall_neighbours(col) {
                        for a in self.column_start[col] as usize..self.column_start[col + 1] as usize {
                            let Some(b) = self.wall_pair(a, other) else { continue };
                            let (at, n) = wall_at(&mut &*rays, self.wall_ends(col, other, a, b));
                            cast += n;
                            part[a - base][k] = (b as u32, at.unwrap_or(f32::NAN));
                        }
                    }
                }
                cast
            })
            .sum()
    }

    /// The +x and +z neighbours of column `col` that exist, with their direction's index.
    fn wall_neighbours(&self, col: usize) -> impl Iterator<Item = (usize, usize)> {
        let (nx, nz) = (self.plan.dims_x as usize, self.plan.dims_z as usize);
        let (ix, iz) = (col % nx, col / nx);
        [(1usize, 0usize), (0, 1)]
            .into_iter()
            .enumerate()
            .filter(move |&(_, (dx, dz))| ix + dx < nx && iz + dz < nz)
            .map(move |(k, (dx, dz))| (k, col + dx + dz * nx))
    }

    /// The surface of column `other` that walkable sample `a` would link to, if any.
    fn wall_pair(&self, a: usize, other: usize) -> Option<usize> {
        self.samples[a].walkable.then(|| self.link_candidate(other, self.samples[a].height)).flatten()
    }

    /// The ends of the wall ray between samples `a` (of column `col`) and `b` (of `other`), and
    /// whether each is under a trimesh.
    fn wall_ends(&self, col: usize, other: usize, a: usize, b: usize) -> WallRay {
        let ((ax, az), (bx, bz)) = (self.column_centre(col), self.column_centre(other));
        let lift = self.plan.side_lift;
        WallRay {
            a: Vec3::new(ax, self.samples[a].height + lift, az),
            b: Vec3::new(bx, self.samples[b].height + lift, bz),
            under_trimesh: (self.under_trimesh[a], self.under_trimesh[b]),
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

/// Per sample, per direction (+x, +z): the surface its wall ray paired it with (`u32::MAX`:
/// none) and where along the ray the wall is (NaN: no wall).
type WallMemo = [(u32, f32); 2];

/// A wall ray of pass 2: from above surface `a` to above surface `b`.
struct WallRay {
    a: Vec3,
    b: Vec3,
    under_trimesh: (bool, bool),
}

/// Where along `a -> b` (0..1) a wall is, from either side (the way back only when an end is
/// under a trimesh, see the module docs), and the rays cast.
fn wall_at(rays: &mut impl RayCaster, w: WallRay) -> (Option<f32>, u64) {
    let (pa, pb) = (w.a, w.b);
    let at = rays.cast(RayKind::Side, pa, pb).map(|h| fraction(pa, pb, h.position));
    if at.is_none() && (w.under_trimesh.0 || w.under_trimesh.1) {
        return (rays.cast(RayKind::Side, pb, pa).map(|h| 1.0 - fraction(pb, pa, h.position)), 2);
    }
    (at, 1)
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
