//! Personal Space: push away from neighbours inside the spacing radius, strongest when
//! touching, up to a sample cap. Coincident agents separate along a per-pair hash direction.

use glam::Vec2;

use crate::noise::hash_dir;
use crate::spatial_grid::SpatialGrid;

/// Returns the push and whether the agent is alone within `contact`. That is only answered when
/// the scan's window covers it (`0 < contact <= radius`; otherwise the answer is false): the scan
/// then goes on past the sample cap, only testing distances, until it finds a neighbour that
/// close or runs out of candidates. The push itself is the same either way.
///
/// `backward` walks the neighbours in reverse order: when the cap stops the walk early, the
/// neighbours taken lean toward where it started, so callers pick the way per update (at random)
/// and over updates the push leans no way.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn personal_space(
    i: u32,
    seed: u32,
    backward: bool,
    p: Vec2,
    y: f32,
    radius: f32,
    max_samples: u32,
    contact: f32,
    grid: &SpatialGrid,
) -> (Vec2, bool) {
    if radius <= 0.0 {
        return (Vec2::ZERO, false);
    }
    let asked = contact > 0.0 && contact <= radius;
    let mut s = Scan {
        p,
        inv_r: 1.0 / radius,
        contact2: contact * contact,
        seed,
        sorted: grid.sorted(),
        entries: grid.order(),
        acc: Vec2::ZERO,
        samples: 0,
        max_samples,
        touching: !asked,
    };
    // Straight over the grid's cell-ordered records (the agent's own is skipped by rank).
    grid.for_each_neighbour(
        i,
        p,
        y,
        radius,
        backward,
        #[inline(always)]
        |k| s.take(k),
    );
    // The push is nearly always within unit length already: a branch (which the processor
    // predicts) spares the square root and division of the clamp.
    let push = if s.acc.length_squared() > 1.0 { clamp_to_unit(s.acc) } else { s.acc };
    (push, !s.touching)
}

/// `v.clamp_length_max(1.0)`, out of line so the common case stays a branch.
#[cold]
#[inline(never)]
fn clamp_to_unit(v: Vec2) -> Vec2 {
    v.clamp_length_max(1.0)
}

struct Scan<'a> {
    p: Vec2,
    inv_r: f32,
    /// Squared contact radius (see `personal_space`).
    contact2: f32,
    seed: u32,
    sorted: &'a [glam::Vec4],
    entries: &'a [u32],
    acc: Vec2,
    samples: u32,
    max_samples: u32,
    /// A neighbour within the contact radius was seen (or the caller did not ask).
    touching: bool,
}

impl Scan<'_> {
    /// Adds the push of record `k`, a neighbour within the radius (up to the cap; past it, only
    /// looks for a neighbour within contact); false once there is nothing left to learn.
    #[inline(always)]
    fn take(&mut self, k: usize) -> bool {
        let e = self.sorted[k];
        let off = Vec2::new(self.p.x - e.x, self.p.y - e.y);
        let d2 = off.length_squared();
        self.touching |= d2 < self.contact2;
        if self.samples >= self.max_samples {
            // Past the cap: only the contact test was wanted.
            return !self.touching;
        }
        if d2 < 1e-12 {
            self.acc += hash_dir(self.seed, self.entries[k]);
        } else {
            let d = d2.sqrt();
            self.acc += off * ((1.0 - d * self.inv_r) / d);
        }
        self.samples += 1;
        !(self.samples >= self.max_samples && self.touching)
    }
}
