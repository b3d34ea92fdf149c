//! The scene's collision shapes as plain data (`ColliderSet`), answering the bake's rays
//! (`RayCaster`) without a physics engine, with the engine's query semantics (see `rays`):
//!
//! - Solids (boxes, spheres, capsules, cylinders, each under any affine transform, and
//!   half-spaces, the world boundary) have an inside: `Down` and `Side` rays starting inside one
//!   ignore it, `Headroom` reports a hit at its start with a zero normal.
//! - Triangles (of trimeshes and height maps) have no inside; their front face is the engine's
//!   (clockwise seen from the front), and a ray hits one from behind only when it asks for back
//!   faces (`Headroom`, `Side`) or the triangle is double-sided.
//!
//! The engine layer reads the shapes from its physics server once per bake; `index` then buckets
//! them by ground-plane squares, so a ray (vertical, or one column long) tests only the few
//! shapes over it. The index is read-only, so columns can be sampled from several threads.

use glam::{Affine3A, Mat3A, Vec3, Vec3A};

use super::rays::{RayCaster, RayHit, RayKind};

/// A convex solid in its own space (axes along the local axes, centred on the origin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solid {
    Box {
        half: Vec3,
    },
    Sphere {
        radius: f32,
    },
    /// Along local y; `height` is the whole length, caps included (as the engine's shape).
    Capsule {
        radius: f32,
        height: f32,
    },
    /// Along local y; `height` is the whole length.
    Cylinder {
        radius: f32,
        height: f32,
    },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct SolidItem {
    solid: Solid,
    /// World to the solid's space.
    inv: Affine3A,
    /// The solid's normals to world normals (the inverse transpose of its linear part).
    normal_to_world: Mat3A,
    pub(super) layer: u32,
    /// A box whose axes stay along the world's: it is its world bounds, tested there directly.
    pub(super) axis_aligned: bool,
}

#[derive(Clone, Copy, Debug)]
struct TriItem {
    v: [Vec3A; 3],
    /// Unit front-face normal.
    n: Vec3A,
    layer: u32,
    double_sided: bool,
    /// From a trimesh or height map (reported as `RayHit::concave`).
    concave: bool,
}

/// Everything below a plane (`normal . p < d`, world space): the engine's world boundary.
#[derive(Clone, Copy, Debug)]
pub(super) struct HalfSpace {
    n: Vec3A,
    d: f32,
    layer: u32,
}

/// Most buckets of an index; coarser squares beyond.
const MAX_BUCKETS: usize = 1 << 20;
/// An item over more buckets than this is kept out of them (see `ColliderSet::large_items`).
const LARGE_ITEM: u64 = 4096;

/// The scene's collision shapes; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct ColliderSet {
    pub(super) solids: Vec<SolidItem>,
    tris: Vec<TriItem>,
    pub(super) planes: Vec<HalfSpace>,
    /// World bounds of each solid and each triangle. Item ids number the solids, then the
    /// triangles.
    pub(super) solid_aabbs: Vec<(Vec3A, Vec3A)>,
    tri_aabbs: Vec<(Vec3A, Vec3A)>,
    /// Bucket squares: origin, inverse size, counts; `bucket_start[b]..bucket_start[b + 1]`
    /// indexes `bucket_items` (item ids ascending within a bucket).
    origin: (f32, f32),
    inv_bucket: f32,
    buckets: (u32, u32),
    bucket_start: Vec<u32>,
    bucket_items: Vec<u32>,
    /// Items over more than `LARGE_ITEM` buckets (a floor under the whole level), tested by every
    /// ray instead of filling every bucket.
    pub(super) large_items: Vec<u32>,
    pub(super) indexed: bool,
}

impl ColliderSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// Shapes held (solids, triangles, half-spaces).
    pub fn counts(&self) -> (usize, usize, usize) {
        (self.solids.len(), self.tris.len(), self.planes.len())
    }

    /// Adds a solid placed by `transform` (its space to world). Refuses (with the reason) a
    /// non-finite or degenerate size or a transform that cannot be inverted.
    pub fn add_solid(&mut self, solid: Solid, transform: Affine3A, layer: u32) -> Result<(), String> {
        let ok = |v: f32| v.is_finite() && v > 0.0;
        let sizes_ok = match solid {
            Solid::Box { half } => ok(half.x) && ok(half.y) && ok(half.z),
            Solid::Sphere { radius } => ok(radius),
            Solid::Capsule { radius, height } | Solid::Cylinder { radius, height } => ok(radius) && ok(height),
        };
        if !sizes_ok {
            return Err(format!("{solid:?} has a size that is not a positive finite number"));
        }
        let inv = invert(transform)?;
        let m = transform.matrix3;
        let along_axes =
            [m.x_axis, m.y_axis, m.z_axis].iter().all(|c| c.cmpne(Vec3A::ZERO).bitmask().count_ones() == 1);
        let axis_aligned = matches!(solid, Solid::Box { .. }) && along_axes;
        let item = SolidItem { solid, inv, normal_to_world: inv.matrix3.transpose(), layer, axis_aligned };
        let aabb = item.world_aabb(transform);
        self.solids.push(item);
        self.solid_aabbs.push(aabb);
        self.indexed = false;
        Ok(())
    }

    /// Adds the triangles `faces` (three vertices each, in the shape's space) placed by
    /// `transform`. Degenerate and non-finite triangles are skipped; returns how many were.
    pub fn add_trimesh(&mut self, faces: &[Vec3], transform: Affine3A, double_sided: bool, layer: u32) -> usize {
        let mut skipped = 0;
        for f in faces.chunks_exact(3) {
            if !self.add_triangle([f[0], f[1], f[2]].map(|v| transform.transform_point3(v)), double_sided, layer) {
                skipped += 1;
            }
        }
        skipped
    }

    /// Adds a height map as the engine lays one out: `width` x `depth` heights (row by row,
    /// along x first), one unit apart, centred on the shape's origin, placed by `transform`;
    /// two triangles per square, facing up. Refuses a map whose sizes do not match.
    pub fn add_height_map(
        &mut self,
        width: usize,
        depth: usize,
        heights: &[f32],
        transform: Affine3A,
        layer: u32,
    ) -> Result<(), String> {
        if width < 2 || depth < 2 || width.checked_mul(depth) != Some(heights.len()) {
            return Err(format!("a height map of {width} x {depth} with {} heights", heights.len()));
        }
        let (hx, hz) = ((width - 1) as f32 * 0.5, (depth - 1) as f32 * 0.5);
        let at = |i: usize, j: usize| {
            transform.transform_point3(Vec3::new(i as f32 - hx, heights[j * width + i], j as f32 - hz))
        };
        for j in 0..depth - 1 {
            for i in 0..width - 1 {
                let (p00, p10, p01, p11) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
                self.add_triangle([p00, p10, p01], false, layer);
                self.add_triangle([p10, p11, p01], false, layer);
            }
        }
        Ok(())
    }

    /// Adds the half-space below the plane `normal . p = d` (in the shape's space) placed by
    /// `transform`: the engine's world boundary.
    pub fn add_half_space(&mut self, normal: Vec3, d: f32, transform: Affine3A, layer: u32) -> Result<(), String> {
        if !(normal.is_finite() && d.is_finite()) || normal.length_squared() < 1e-12 {
            return Err(format!("the plane ({normal}, {d}) is not a plane"));
        }
        let inv = invert(transform)?;
        let n = (inv.matrix3.transpose() * Vec3A::from(normal)).normalize();
        let on_plane = transform.transform_point3a(Vec3A::from(normal) * (d / normal.length_squared()));
        self.planes.push(HalfSpace { n, d: n.dot(on_plane), layer });
        self.indexed = false;
        Ok(())
    }

    fn add_triangle(&mut self, v: [Vec3; 3], double_sided: bool, layer: u32) -> bool {
        let v = v.map(Vec3A::from);
        // The engine's front face: clockwise seen from the front.
        let n = (v[2] - v[0]).cross(v[1] - v[0]);
        if !(v.iter().all(|p| p.is_finite()) && n.length_squared() > 1e-20) {
            return false;
        }
        let aabb = (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]));
        self.tris.push(TriItem { v, n: n.normalize(), layer, double_sided, concave: true });
        self.tri_aabbs.push(aabb);
        self.indexed = false;
        true
    }

    /// Buckets the shapes by ground-plane squares of about `bucket` metres (coarser if there
    /// would be more than `MAX_BUCKETS`). Call it after adding the shapes and before casting
    /// (casting through an unindexed set tests every shape).
    pub fn index(&mut self, bucket: f32) {
        let (mut lo, mut hi) = (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY));
        for (a, b) in self.aabbs() {
            lo = lo.min(*a);
            hi = hi.max(*b);
        }
        if self.aabbs().next().is_none() {
            (lo, hi) = (Vec3A::ZERO, Vec3A::ZERO);
        }
        let mut size = if bucket.is_finite() && bucket > 0.0 { bucket } else { 2.0 };
        let count = |size: f32| {
            let f = |e: f32| ((e / size).floor() as u64).saturating_add(1);
            (f(hi.x - lo.x), f(hi.z - lo.z))
        };
        while count(size).0.saturating_mul(count(size).1) > MAX_BUCKETS as u64 {
            size *= 2.0;
        }
        let (bx, bz) = count(size);
        self.origin = (lo.x, lo.z);
        self.inv_bucket = 1.0 / size;
        self.buckets = (bx as u32, bz as u32);
        let range = |a: &(Vec3A, Vec3A)| {
            let (x0, z0) = self.bucket_of(a.0.x, a.0.z);
            let (x1, z1) = self.bucket_of(a.1.x, a.1.z);
            (x0, z0, x1, z1)
        };
        let large = |(x0, z0, x1, z1): (u32, u32, u32, u32)| (x1 - x0 + 1) as u64 * (z1 - z0 + 1) as u64 > LARGE_ITEM;
        let mut start = vec![0u32; (bx * bz) as usize + 1];
        let mut large_items = Vec::new();
        for (id, a) in self.aabbs().enumerate() {
            let (x0, z0, x1, z1) = range(a);
            if large((x0, z0, x1, z1)) {
                large_items.push(id as u32);
                continue;
            }
            for z in z0..=z1 {
                for x in x0..=x1 {
                    start[(z * bx as u32 + x) as usize + 1] += 1;
                }
            }
        }
        for b in 1..start.len() {
            start[b] += start[b - 1];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[start.len() - 1] as usize];
        for (id, a) in self.aabbs().enumerate() {
            let (x0, z0, x1, z1) = range(a);
            if large((x0, z0, x1, z1)) {
                continue;
            }
            for z in z0..=z1 {
                for x in x0..=x1 {
                    let b = (z * bx as u32 + x) as usize;
                    items[fill[b] as usize] = id as u32;
                    fill[b] += 1;
                }
            }
        }
        self.bucket_start = start;
        self.bucket_items = items;
        self.large_items = large_items;
        self.indexed = true;
    }

    /// Every item's world bounds, by item id.
    fn aabbs(&self) -> impl Iterator<Item = &(Vec3A, Vec3A)> {
        self.solid_aabbs.iter().chain(&self.tri_aabbs)
    }

    /// The bucket holding ground-plane point `(x, z)`, clamped into the index.
    #[inline]
    pub(super) fn bucket_of(&self, x: f32, z: f32) -> (u32, u32) {
        // Clamped as floats first (NaN clamps to 0), so the conversion cannot overflow and needs
        // none of a saturating conversion's checks.
        let f = |v: f32, o: f32, n: u32| {
            let v = ((v - o) * self.inv_bucket).max(0.0).min(n.saturating_sub(1) as f32);
            // SAFETY: `v` is finite and within 0..n - 1, and n <= MAX_BUCKETS.
            unsafe { v.to_int_unchecked::<u32>() }
        };
        (f(x, self.origin.0, self.buckets.0), f(z, self.origin.1, self.buckets.1))
    }

    #[inline]
    pub(super) fn bucket_items(&self, x: f32, z: f32) -> &[u32] {
        self.bucket(self.bucket_of(x, z))
    }

    /// The items of bucket `(bx, bz)` (as `bucket_of` gives it), ids ascending.
    #[inline]
    pub(super) fn bucket(&self, (bx, bz): (u32, u32)) -> &[u32] {
        let b = (bz * self.buckets.0 + bx) as usize;
        &self.bucket_items[self.bucket_start[b] as usize..self.bucket_start[b + 1] as usize]
    }

    /// The nearest hit along `from -> to` by a ray of `kind` (see the module docs).
    pub fn cast(&self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        if !self.indexed {
            // Not indexed (a caller forgot `index`): every item, slowly but rightly.
            let all = 0..(self.solids.len() + self.tris.len()) as u32;
            return self.cast_with(kind, from, to, |ray, best| self.nearest::<3>(ray, all, best));
        }
        let first = self.bucket_items(from.x, from.z);
        let vertical = from.x == to.x && from.z == to.z;
        let other = if vertical { first } else { self.bucket_items(to.x, to.z) };
        // A ray across a bucket edge (the bake's rays are at most a column long sideways) tests
        // both buckets; items in both test twice, which finds nothing new.
        let other = if std::ptr::eq(first, other) { &[][..] } else { other };
        let lists = [first, other, &self.large_items[..]];
        if !vertical && self.planes.is_empty() && !self.any_bounds_meet(lists, from, to) {
            // Most rays sideways meet nothing: their answer without setting up a cast.
            return None;
        }
        self.cast_through(lists, kind, from, to)
    }

    /// Whether the bounds of any item of `lists` meet those of the segment `from -> to` as a
    /// cast bounds it (no item can be hit otherwise).
    pub(super) fn any_bounds_meet(&self, lists: [&[u32]; 3], from: Vec3, to: Vec3) -> bool {
        let (o, d) = (Vec3A::from(from), Vec3A::from(to - from));
        let (lo, hi) = (o.min(o + d), o.max(o + d));
        let meets = |&id: &u32| {
            let (l, h) = self.item_bounds(id);
            !(l.cmpgt(hi).any() || h.cmplt(lo).any())
        };
        lists.iter().any(|l| l.iter().any(meets))
    }

    /// World bounds of item `id` (solids first, then triangles).
    #[inline]
    pub(super) fn item_bounds(&self, id: u32) -> (Vec3A, Vec3A) {
        let solids = self.solids.len();
        if (id as usize) < solids {
            self.solid_aabbs[id as usize]
        } else {
            self.tri_aabbs[id as usize - solids]
        }
    }

    /// The nearest hit along `from -> to` among the items of `lists` (tested in that order, the
    /// first of equally near hits kept) and the half-spaces.
    pub(super) fn cast_through(&self, lists: [&[u32]; 3], kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        self.cast_with(kind, from, to, |ray, best| {
            // The bake's rays mostly run along one axis (vertical ones, level wall rays): one
            // loop each, so an axis-aligned box costs a few comparisons and one division. Each
            // list is its own loop (a chained iterator costs a branch per item).
            for ids in lists {
                let ids = ids.iter().copied();
                match ray.d.cmpne(Vec3A::ZERO).bitmask() {
                    0b001 => self.nearest::<0>(ray, ids, best),
                    0b010 => self.nearest::<1>(ray, ids, best),
                    0b100 => self.nearest::<2>(ray, ids, best),
                    _ => self.nearest::<3>(ray, ids, best),
                }
            }
        })
    }

    /// The nearest hit along `from -> to` among the items `items` offers and the half-spaces.
    #[inline(always)]
    fn cast_with(&self, kind: RayKind, from: Vec3, to: Vec3, items: impl FnOnce(&Ray, &mut Best)) -> Option<RayHit> {
        let (o, d) = (Vec3A::from(from), Vec3A::from(to - from));
        let ray = Ray { o, d, seg: (o.min(o + d), o.max(o + d)), kind };
        let mut best = Best { t: f32::INFINITY, n: Vec3A::ZERO, layer: 0, concave: false };
        items(&ray, &mut best);
        for h in &self.planes {
            if h.n.dot(o) < h.d {
                if kind == RayKind::Headroom {
                    best.offer(0.0, Vec3A::ZERO, h.layer, false);
                }
                continue;
            }
            let denom = h.n.dot(d);
            if denom < 0.0 {
                let t = (h.d - h.n.dot(o)) / denom;
                if (0.0..=1.0).contains(&t) {
                    best.offer(t, h.n, h.layer, false);
                }
            }
        }
        best.t.is_finite().then(|| RayHit {
            position: from + (to - from) * best.t,
            normal: best.n.into(),
            layer: best.layer,
            concave: best.concave,
        })
    }

    /// Offers every item of `ids` the ray meets to `best`. `K` is the one axis the ray runs
    /// along (3: none).
    #[inline]
    fn nearest<const K: usize>(&self, ray: &Ray, ids: impl Iterator<Item = u32>, best: &mut Best) {
        let solids = self.solids.len();
        for id in ids {
            let id = id as usize;
            if id < solids {
                let (lo, hi) = self.solid_aabbs[id];
                if lo.cmpgt(ray.seg.1).any() || hi.cmplt(ray.seg.0).any() {
                    continue;
                }
                let s = &self.solids[id];
                if K < 3 && s.axis_aligned {
                    match cast_aabb_along::<K>(ray.o, ray.d, lo, hi) {
                        Entry::Inside if ray.kind == RayKind::Headroom => best.offer(0.0, Vec3A::ZERO, s.layer, false),
                        Entry::At(t, n) => best.offer(t, n, s.layer, false),
                        _ => {}
                    }
                } else {
                    self.offer_solid(id, ray, best);
                }
            } else {
                let (lo, hi) = self.tri_aabbs[id - solids];
                if lo.cmpgt(ray.seg.1).any() || hi.cmplt(ray.seg.0).any() {
                    continue;
                }
                self.offer_triangle(id - solids, ray, best);
            }
        }
    }

    /// Offers solid `id` to `best` (any solid, any ray; kept out of the loops above).
    #[inline(never)]
    fn offer_solid(&self, id: usize, ray: &Ray, best: &mut Best) {
        let s = &self.solids[id];
        let entry = if s.axis_aligned {
            let (lo, hi) = self.solid_aabbs[id];
            cast_box(ray.o - (lo + hi) * 0.5, ray.d, (hi - lo) * 0.5)
        } else {
            s.cast(ray.o, ray.d)
        };
        match entry {
            Entry::Inside if ray.kind == RayKind::Headroom => best.offer(0.0, Vec3A::ZERO, s.layer, false),
            Entry::At(t, n) => {
                let n = if s.axis_aligned { n } else { (s.normal_to_world * n).normalize_or_zero() };
                best.offer(t, n, s.layer, false);
            }
            _ => {}
        }
    }

    /// Offers triangle `k` to `best`.
    #[inline(never)]
    fn offer_triangle(&self, k: usize, ray: &Ray, best: &mut Best) {
        let tri = &self.tris[k];
        if let Some((t, n)) = tri.cast(ray.o, ray.d, ray.kind != RayKind::Down) {
            best.offer(t, n, tri.layer, tri.concave);
        }
    }
}

/// A ray being cast: start, offset to the end, its bounds, its kind.
struct Ray {
    o: Vec3A,
    d: Vec3A,
    seg: (Vec3A, Vec3A),
    kind: RayKind,
}

/// The nearest hit so far of a cast (the first of equally near ones).
struct Best {
    t: f32,
    n: Vec3A,
    layer: u32,
    concave: bool,
}

impl Best {
    #[inline(always)]
    fn offer(&mut self, t: f32, n: Vec3A, layer: u32, concave: bool) {
        if t < self.t {
            *self = Best { t, n, layer, concave };
        }
    }
}

impl RayCaster for ColliderSet {
    fn cast(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        if !self.indexed {
            self.index(2.0);
        }
        ColliderSet::cast(self, kind, from, to)
    }
}

impl RayCaster for &ColliderSet {
    fn cast(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        ColliderSet::cast(self, kind, from, to)
    }
}

fn invert(t: Affine3A) -> Result<Affine3A, String> {
    let det = t.matrix3.determinant();
    if !(t.matrix3.is_finite() && t.translation.is_finite()) || det.abs() < 1e-12 || !det.is_finite() {
        return Err("its transform is not finite or has a zero scale".to_string());
    }
    Ok(t.inverse())
}

/// Where a ray meets a solid.
enum Entry {
    /// The ray starts inside.
    Inside,
    /// Enters at fraction `t` (0..=1) through a surface with this normal (solid's space).
    At(f32, Vec3A),
    Miss,
}

impl SolidItem {
    fn world_aabb(&self, t: Affine3A) -> (Vec3A, Vec3A) {
        let half = match self.solid {
            Solid::Box { half } => half,
            Solid::Sphere { radius } => Vec3::splat(radius),
            Solid::Capsule { radius, height } => Vec3::new(radius, (height * 0.5).max(radius), radius),
            Solid::Cylinder { radius, height } => Vec3::new(radius, height * 0.5, radius),
        };
        let m = t.matrix3;
        // Half extents of the transformed box: the absolute matrix times the half extents.
        let e = Mat3A::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs()) * Vec3A::from(half);
        (t.translation - e, t.translation + e)
    }

    /// The ray `o + t d` (world space, `t` in 0..=1) against the solid (kept out of the caller's
    /// loop, which mostly meets axis-aligned boxes).
    #[inline(never)]
    fn cast(&self, o: Vec3A, d: Vec3A) -> Entry {
        let (o, d) = (self.inv.transform_point3a(o), self.inv.matrix3 * d);
        match self.solid {
            Solid::Box { half } => cast_box(o, d, half.into()),
            Solid::Sphere { radius } => cast_sphere(o, d, Vec3A::ZERO, radius),
            Solid::Capsule { radius, height } => {
                let h = (height * 0.5 - radius).max(0.0);
                let y = o.y.clamp(-h, h);
                if (o - Vec3A::new(0.0, y, 0.0)).length_squared() < radius * radius {
                    return Entry::Inside;
                }
                let mut best = side_entry(o, d, radius, h);
                for c in [h, -h] {
                    if let Entry::At(t, n) = cast_sphere(o, d, Vec3A::new(0.0, c, 0.0), radius) {
                        if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                            best = Some((t, n));
                        }
                    }
                }
                best.map_or(Entry::Miss, |(t, n)| Entry::At(t, n))
            }
            Solid::Cylinder { radius, height } => {
                let h = height * 0.5;
                if o.x * o.x + o.z * o.z < radius * radius && o.y.abs() < h {
                    return Entry::Inside;
                }
                let mut best = side_entry(o, d, radius, h);
                if d.y != 0.0 {
                    for (c, ny) in [(h, 1.0), (-h, -1.0)] {
                        let t = (c - o.y) / d.y;
                        let p = o + d * t;
                        if (0.0..=1.0).contains(&t)
                            && p.x * p.x + p.z * p.z <= radius * radius
                            && best.as_ref().is_none_or(|(bt, _)| t < *bt)
                        {
                            best = Some((t, Vec3A::new(0.0, ny, 0.0)));
                        }
                    }
                }
                best.map_or(Entry::Miss, |(t, n)| Entry::At(t, n))
            }
        }
    }
}

/// Slab test of a ray starting outside (or inside) the box `|p| <= half`.
fn cast_box(o: Vec3A, d: Vec3A, half: Vec3A) -> Entry {
    if o.abs().cmplt(half).all() {
        return Entry::Inside;
    }
    let (mut t0, mut t1, mut axis) = (0.0f32, 1.0f32, usize::MAX);
    for k in 0..3 {
        if d[k].abs() < 1e-12 {
            if o[k].abs() > half[k] {
                return Entry::Miss;
            }
            continue;
        }
        let (mut a, mut c) = ((-half[k] - o[k]) / d[k], (half[k] - o[k]) / d[k]);
        if a > c {
            std::mem::swap(&mut a, &mut c);
        }
        if a > t0 {
            t0 = a;
            axis = k;
        }
        t1 = t1.min(c);
    }
    if t0 > t1 || axis == usize::MAX {
        return Entry::Miss;
    }
    let mut n = Vec3A::ZERO;
    n[axis] = -d[axis].signum();
    Entry::At(t0, n)
}

/// A ray along axis `k` only against the box `lo..hi`, answered as `cast_box` answers it (a
/// start on a face, or inside one axis's range on another's face, misses), without divisions
/// by the other axes.
#[inline]
fn cast_aabb_along<const K: usize>(o: Vec3A, d: Vec3A, lo: Vec3A, hi: Vec3A) -> Entry {
    let (i, j, k) = ((K + 1) % 3, (K + 2) % 3, K);
    if o[i] < lo[i] || o[i] > hi[i] || o[j] < lo[j] || o[j] > hi[j] {
        return Entry::Miss;
    }
    if o[k] > lo[k] && o[k] < hi[k] {
        let strictly = o[i] > lo[i] && o[i] < hi[i] && o[j] > lo[j] && o[j] < hi[j];
        return if strictly { Entry::Inside } else { Entry::Miss };
    }
    let t = if d[k] < 0.0 { (hi[k] - o[k]) / d[k] } else { (lo[k] - o[k]) / d[k] };
    if !(t > 0.0 && t <= 1.0) {
        return Entry::Miss;
    }
    let mut n = Vec3A::ZERO;
    n[k] = -d[k].signum();
    Entry::At(t, n)
}

/// A ray against the sphere of `radius` around `c`.
fn cast_sphere(o: Vec3A, d: Vec3A, c: Vec3A, radius: f32) -> Entry {
    let oc = o - c;
    let (a, b, k) = (d.dot(d), oc.dot(d), oc.dot(oc) - radius * radius);
    if k < 0.0 {
        return Entry::Inside;
    }
    let disc = b * b - a * k;
    if a <= 0.0 || disc < 0.0 {
        return Entry::Miss;
    }
    let t = (-b - disc.sqrt()) / a;
    if !(0.0..=1.0).contains(&t) {
        return Entry::Miss;
    }
    Entry::At(t, oc + d * t)
}

/// Where a ray from outside enters the side of the cylinder of `radius` around the y axis,
/// between heights `-h` and `h`.
fn side_entry(o: Vec3A, d: Vec3A, radius: f32, h: f32) -> Option<(f32, Vec3A)> {
    let a = d.x * d.x + d.z * d.z;
    if a <= 1e-20 {
        return None;
    }
    let b = o.x * d.x + o.z * d.z;
    let k = o.x * o.x + o.z * o.z - radius * radius;
    let disc = b * b - a * k;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    let p = o + d * t;
    ((0.0..=1.0).contains(&t) && p.y.abs() <= h).then(|| (t, Vec3A::new(p.x, 0.0, p.z)))
}

impl TriItem {
    /// Möller-Trumbore; the normal returned faces the ray (a back face's is turned round).
    #[inline(never)]
    fn cast(&self, o: Vec3A, d: Vec3A, back_faces: bool) -> Option<(f32, Vec3A)> {
        let facing = d.dot(self.n);
        let back = facing > 0.0;
        if back && !(back_faces || self.double_sided) {
            return None;
        }
        let [a, b, c] = self.v;
        let (e1, e2) = (b - a, c - a);
        let p = d.cross(e2);
        let det = e1.dot(p);
        if det.abs() < 1e-20 {
            return None;
        }
        let inv = 1.0 / det;
        let s = o - a;
        let u = s.dot(p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(e1);
        let v = d.dot(q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let t = e2.dot(q) * inv;
        (0.0..=1.0).contains(&t).then(|| (t, if back { -self.n } else { self.n }))
    }
}

#[cfg(test)]
#[path = "colliders_tests.rs"]
mod tests;
