//! Personal Space: push away from neighbours inside the spacing radius, strongest when
//! touching, up to a sample cap. Coincident agents separate along a per-pair hash direction.

use glam::Vec2;

use crate::noise::hash_dir;
use crate::spatial_grid::{SpatialGrid, LAYER_GAP};

/// Returns the push and how many neighbours it counted (0: nobody within `radius`).
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
    grid: &SpatialGrid,
) -> (Vec2, u32) {
    if radius <= 0.0 {
        return (Vec2::ZERO, 0);
    }
    let mut s = Scan {
        p,
        y,
        r2: radius * radius,
        inv_r: 1.0 / radius,
        seed,
        // The agent's own record is skipped by rank.
        me: grid.rank().get(i as usize).map_or(usize::MAX, |&k| k as usize),
        sorted: grid.sorted(),
        entries: grid.order(),
        acc: Vec2::ZERO,
        samples: 0,
        max_samples,
    };
    // Straight over the grid's cell-ordered records.
    grid.for_each_row_either_way(
        p,
        radius,
        backward,
        |a, b| {
            if backward {
                s.walk((a..b).rev())
            } else {
                s.walk(a..b)
            }
        },
    );
    (s.acc.clamp_length_max(1.0), s.samples)
}

struct Scan<'a> {
    p: Vec2,
    y: f32,
    r2: f32,
    inv_r: f32,
    seed: u32,
    me: usize,
    sorted: &'a [glam::Vec4],
    entries: &'a [u32],
    acc: Vec2,
    samples: u32,
    max_samples: u32,
}

impl Scan<'_> {
    /// Adds the pushes of the records `ks`; false once the cap is reached.
    #[inline(always)]
    fn walk(&mut self, ks: impl Iterator<Item = usize>) -> bool {
        for k in ks {
            let e = self.sorted[k];
            let off = Vec2::new(self.p.x - e.x, self.p.y - e.y);
            let d2 = off.length_squared();
            if d2 >= self.r2 || (e.z - self.y).abs() > LAYER_GAP || k == self.me {
                continue;
            }
            if d2 < 1e-12 {
                self.acc += hash_dir(self.seed, self.entries[k]);
            } else {
                let d = d2.sqrt();
                self.acc += off * ((1.0 - d * self.inv_r) / d);
            }
            self.samples += 1;
            if self.samples >= self.max_samples {
                return false;
            }
        }
        true
    }
}
