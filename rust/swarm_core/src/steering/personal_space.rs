//! Personal Space: push away from neighbours inside the spacing radius, strongest when
//! touching, up to a sample cap. Coincident agents separate along a per-pair hash direction.

use glam::Vec2;

use crate::contact_list::{self, Slots};
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
///
/// The neighbours within `contact` go into `contacts` where `LIST` (their grid ranks, in the
/// walk's order; see `contact_list`), and the third answer counts them where the scan covered
/// `contact`; otherwise it is `u32::MAX`. A listing scan goes on past the sample cap to the end of
/// its walk, only testing for contact and listing, so that its list is whole (in a packed crowd
/// the cap stops about one scan in ten, and the list spares body blocking a walk of the grid for
/// it); it stops once the list is too long to keep (`contact_list::CAP`), and the count is then
/// past `CAP` but may stop short of all. Without `LIST` the count is known only where the cap did
/// not stop the walk.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn personal_space<const LIST: bool>(
    i: u32,
    seed: u32,
    backward: bool,
    p: Vec2,
    y: f32,
    radius: f32,
    max_samples: u32,
    contact: f32,
    grid: &SpatialGrid,
    contacts: &mut Slots,
) -> (Vec2, bool, u32) {
    if radius <= 0.0 {
        return (Vec2::ZERO, false, u32::MAX);
    }
    let asked = contact > 0.0 && contact <= radius;
    let mut s = Scan::<LIST> {
        p,
        inv_r: 1.0 / radius,
        contact2: contact * contact,
        seed,
        sorted: grid.sorted(),
        entries: grid.order(),
        acc: Vec2::ZERO,
        samples: 0,
        max_samples,
        contacts,
        // (A caller that did not ask counts as touching from the start; its list is not used.)
        touching: !asked as u32,
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
    // Without `LIST` the walk stops once the cap is reached with a contact seen (a walk that got
    // there on its last record counts as stopped too: its count is only not used).
    let stopped = !LIST && s.samples >= s.max_samples && s.touching != 0;
    let listed = if asked && !stopped { s.touching } else { u32::MAX };
    (push, s.touching == 0, listed)
}

/// `v.clamp_length_max(1.0)`, out of line so the common case stays a branch.
#[cold]
#[inline(never)]
fn clamp_to_unit(v: Vec2) -> Vec2 {
    v.clamp_length_max(1.0)
}

struct Scan<'a, const LIST: bool> {
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
    /// The ranks of the neighbours within the contact radius seen so far (`touching` of them;
    /// past the slots, they wrap round and the count says the list is too long).
    contacts: &'a mut Slots,
    /// How many neighbours within the contact radius were seen (one more where the caller did
    /// not ask): none, where the agent is alone.
    touching: u32,
}

impl<const LIST: bool> Scan<'_, LIST> {
    /// Adds the push of record `k`, a neighbour within the radius (up to the cap; past it, only
    /// looks for neighbours within contact); false once there is nothing left to learn.
    #[inline(always)]
    fn take(&mut self, k: usize) -> bool {
        let e = self.sorted[k];
        let off = Vec2::new(self.p.x - e.x, self.p.y - e.y);
        let d2 = off.length_squared();
        // Listed without a branch on the contact test (a neighbour is in contact about as often
        // as not): each is written into the next slot, which only a contact moves on from.
        if LIST {
            contact_list::put(self.contacts, self.touching, k);
        }
        self.touching += (d2 < self.contact2) as u32;
        if self.samples >= self.max_samples {
            // Past the cap: only the contact test was wanted.
            return self.past_cap();
        }
        if d2 < 1e-12 {
            self.acc += hash_dir(self.seed, self.entries[k]);
        } else {
            let d = d2.sqrt();
            self.acc += off * ((1.0 - d * self.inv_r) / d);
        }
        self.samples += 1;
        self.samples < self.max_samples || self.past_cap()
    }

    /// Whether a walk past the cap goes on: a listing one while its list can still be kept,
    /// another until it finds a contact (it only asks whether there is one).
    #[inline(always)]
    fn past_cap(&self) -> bool {
        if LIST {
            self.touching as usize <= contact_list::CAP
        } else {
            self.touching == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::contact_list::CAP;

    /// Agent 0 at the origin among `others`; its Personal Space scan (radius 1.2, contact 0.95).
    fn scan(others: &[(f32, f32)], cap: u32, backward: bool) -> (Vec<usize>, u32, bool) {
        let mut pos = vec![Vec3::ZERO];
        pos.extend(others.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)));
        let mut g = SpatialGrid::with_capacity(pos.len());
        g.rebuild(&pos, &|_| 0.4, 1.2);
        let mut slots = [0; CAP + 1];
        let (_, alone, listed) =
            personal_space::<true>(0, 7, backward, Vec2::ZERO, 0.0, 1.2, cap, 0.95, &g, &mut slots);
        let ranks = slots.iter().take(listed.min(CAP as u32) as usize);
        (ranks.map(|&k| g.order()[k as usize] as usize).collect(), listed, alone)
    }

    #[test]
    fn the_scan_lists_every_neighbour_within_contact_in_its_walk_order() {
        // Two within contact (agents 1 and 3), two within the radius only, one beyond it.
        let others = [(0.5, 0.1), (1.0, 0.3), (-0.2, -0.6), (0.0, 1.1), (3.0, 0.0)];
        for backward in [false, true] {
            let (mut listed, count, alone) = scan(&others, 8, backward);
            assert_eq!(count, 2);
            assert!(!alone);
            listed.sort_unstable();
            assert_eq!(listed, vec![1, 3], "backward {backward}");
        }
        // Nobody within contact: an empty list, and alone.
        let (listed, count, alone) = scan(&[(1.1, 0.0), (0.0, -1.0)], 8, false);
        assert_eq!((listed.len(), count, alone), (0, 0, true));
    }

    #[test]
    fn a_listing_scan_lists_past_the_cap_until_the_list_is_too_long() {
        // Five neighbours within contact and a cap of 2: the walk goes on past its 2 samples,
        // listing, and sees them all.
        let ring: Vec<(f32, f32)> = (0..5).map(|i| ((i as f32).cos() * 0.6, (i as f32).sin() * 0.6)).collect();
        for backward in [false, true] {
            let (mut listed, count, alone) = scan(&ring, 2, backward);
            listed.sort_unstable();
            assert_eq!((listed, count, alone), (vec![1, 2, 3, 4, 5], 5, false));
        }
        assert_eq!(scan(&ring, 8, false).1, 5);
        // The push is the capped one either way: the same as a scan that does not list.
        let mut pos = vec![Vec3::ZERO];
        pos.extend(ring.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)));
        let mut g = SpatialGrid::with_capacity(pos.len());
        g.rebuild(&pos, &|_| 0.4, 1.2);
        let mut slots = [0; CAP + 1];
        let listing = personal_space::<true>(0, 7, false, Vec2::ZERO, 0.0, 1.2, 2, 0.95, &g, &mut slots);
        let plain = personal_space::<false>(0, 7, false, Vec2::ZERO, 0.0, 1.2, 2, 0.95, &g, &mut slots);
        assert_eq!((listing.0, listing.1), (plain.0, plain.1));
        assert_eq!(plain.2, u32::MAX, "a scan that does not list stops at the cap");
        // More contacts than a list holds: counted past `CAP` (a list of them is no list).
        let crowd: Vec<(f32, f32)> =
            (0..CAP + 2).map(|i| ((i as f32 * 0.9).cos() * 0.7, (i as f32 * 0.9).sin() * 0.7)).collect();
        assert_eq!(scan(&crowd, 64, false).1, CAP as u32 + 2);
        // Past its cap, the walk stops as soon as the list is too long: counted past `CAP`.
        assert!(scan(&crowd, 2, false).1 > CAP as u32);
    }
}
