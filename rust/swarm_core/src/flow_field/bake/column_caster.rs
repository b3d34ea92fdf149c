//! `ColumnCaster`: the bake's rays through a `ColliderSet` (which must be indexed), one column at
//! a time. Pass 1 casts several rays down (and up) each column in turn, so the caster keeps the
//! items whose bounds hold the column the last vertical ray went through; and where every one of
//! them is a box along the world's axes (and the set has no half-space), just their heights, so
//! such a ray costs a few comparisons an item. The hits are the set's own, step for step (its
//! bounds test, its ray along one axis against a box, the first of equally near hits). Rays
//! sideways go to the set as they are.

use glam::Vec3;

use super::colliders::ColliderSet;
use super::rays::{RayCaster, RayHit, RayKind};

/// A box along the world's axes whose ground-plane bounds hold the column: its heights, its
/// layer, and whether the column runs strictly inside it (not on a side face), so that a ray
/// starting between its heights starts inside it.
#[derive(Clone, Copy, Debug)]
struct Slab {
    lo: f32,
    hi: f32,
    layer: u32,
    strict: bool,
}

/// See the module docs.
pub struct ColumnCaster<'a> {
    set: &'a ColliderSet,
    /// The column the vertical items are for (x, z bits).
    at: Option<(u32, u32)>,
    /// The bucket's items whose bounds hold the column, in the set's order.
    ids: Vec<u32>,
    /// `ids` then the large items holding the column, as slabs, when `slabs_ok`: every one is a
    /// box along the axes and the set has no half-space.
    slabs: Vec<Slab>,
    slabs_ok: bool,
}

impl ColliderSet {
    /// A caster for one column at a time (see `ColumnCaster`).
    pub fn column_caster(&self) -> ColumnCaster<'_> {
        ColumnCaster { set: self, at: None, ids: Vec::new(), slabs: Vec::new(), slabs_ok: false }
    }
}

impl RayCaster for ColumnCaster<'_> {
    fn cast(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        if self.set.indexed && from.x == to.x && from.z == to.z {
            self.vertical(kind, from, to)
        } else {
            self.set.cast(kind, from, to)
        }
    }
}

impl ColumnCaster<'_> {
    fn vertical(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        let set = self.set;
        let at = (from.x.to_bits(), from.z.to_bits());
        if self.at != Some(at) {
            self.hold_column(from.x, from.z);
            self.at = Some(at);
        }
        if self.slabs_ok && from.y.is_finite() && to.y.is_finite() && from.y != to.y {
            return self.through_slabs(kind, from, to);
        }
        let lists = [&self.ids[..], &[], &set.large_items[..]];
        if kind == RayKind::Headroom && set.planes.is_empty() && !set.any_bounds_meet(lists, from, to) {
            // A ray up for headroom mostly meets nothing (one down mostly hits).
            return None;
        }
        set.cast_through(lists, kind, from, to)
    }

    /// The items a vertical ray at `(x, z)` can meet (the bucket's, less those it misses whatever
    /// its height), and their slabs where they can be.
    #[inline(never)]
    fn hold_column(&mut self, x: f32, z: f32) {
        let set = self.set;
        let holds = |id: u32| {
            let (lo, hi) = set.item_bounds(id);
            lo.x <= x && x <= hi.x && lo.z <= z && z <= hi.z
        };
        self.ids.clear();
        self.ids.extend(set.bucket_items(x, z).iter().copied().filter(|&id| holds(id)));
        self.slabs.clear();
        self.slabs_ok = set.planes.is_empty();
        // The set tests the bucket's items, then the large ones (those not holding the column
        // fail its bounds test whatever they are).
        for id in self.ids.iter().copied().chain(set.large_items.iter().copied().filter(|&id| holds(id))) {
            if !self.slabs_ok {
                break;
            }
            let Some(s) = set.solids.get(id as usize).filter(|s| s.axis_aligned) else {
                self.slabs_ok = false;
                break;
            };
            let (lo, hi) = set.solid_aabbs[id as usize];
            let strict = lo.x < x && x < hi.x && lo.z < z && z < hi.z;
            self.slabs.push(Slab { lo: lo.y, hi: hi.y, layer: s.layer, strict });
        }
    }

    /// A vertical ray (finite ends, not of zero length) against the column's slabs, answered as
    /// the set answers it: its bounds test, then its ray along one axis against a box, then the
    /// nearest hit (the first of equally near ones).
    fn through_slabs(&self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        let (o, d) = (from.y, (to - from).y);
        let (seg_lo, seg_hi) = (o.min(o + d), o.max(o + d));
        let (mut best_t, mut best) = (f32::INFINITY, (0.0f32, 0u32));
        for s in &self.slabs {
            if s.lo > seg_hi || s.hi < seg_lo {
                continue;
            }
            let (t, ny) = if o > s.lo && o < s.hi {
                // Inside (on a side face it misses): only a ray for headroom reports it.
                if !(s.strict && kind == RayKind::Headroom) {
                    continue;
                }
                (0.0, 0.0)
            } else {
                let t = if d < 0.0 { (s.hi - o) / d } else { (s.lo - o) / d };
                if !(t > 0.0 && t <= 1.0) {
                    continue;
                }
                (t, -d.signum())
            };
            if t < best_t {
                (best_t, best) = (t, (ny, s.layer));
            }
        }
        best_t.is_finite().then(|| RayHit {
            position: from + (to - from) * best_t,
            normal: Vec3::new(0.0, best.0, 0.0),
            layer: best.1,
            concave: false,
        })
    }
}
