//! The curve a lane drives on, as the engine bakes it: points about evenly spaced, with an up
//! vector at each (or world up when the curve has none). Sampling by arc length gives a point
//! and the frame of the segment it lies on (forward along the segment, the segment start's
//! baked up made square to it), which orients each vehicle.

use glam::Vec3;

/// A baked curve.
#[derive(Clone, Debug, Default)]
pub struct Polyline {
    points: Vec<Vec3>,
    ups: Vec<Vec3>,
    /// Arc length at each point.
    dist: Vec<f32>,
    /// Per segment: its unit direction, and its start's up vector made square to it.
    seg_forward: Vec<Vec3>,
    seg_up: Vec<Vec3>,
    /// Per bucket of `bucket` metres of arc length: the segment its start lies in (so a sample
    /// finds its segment in a step or two instead of a search).
    first_segment: Vec<u32>,
    bucket: f32,
    closed: bool,
}

/// A point on the curve and its frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub pos: Vec3,
    /// Unit tangent in the curve's direction.
    pub forward: Vec3,
    /// Unit, square to `forward`.
    pub up: Vec3,
}

impl Polyline {
    /// From baked points and up vectors (`ups` empty, or shorter than `points`, means world up).
    /// Points that are not finite are dropped; a closed curve gets its closing segment.
    pub fn new(points: &[Vec3], ups: &[Vec3], closed: bool) -> Self {
        let mut line = Polyline { closed, ..Default::default() };
        for (i, p) in points.iter().enumerate() {
            if !p.is_finite() || line.points.last().is_some_and(|q| q.distance_squared(*p) < 1e-12) {
                continue;
            }
            let up = ups.get(i).copied().filter(|u| u.is_finite() && u.length_squared() > 1e-12).unwrap_or(Vec3::Y);
            line.points.push(*p);
            line.ups.push(up.normalize());
        }
        if closed && line.points.len() > 2 && line.points[0].distance_squared(*line.points.last().unwrap()) > 1e-12 {
            let (p, u) = (line.points[0], line.ups[0]);
            line.points.push(p);
            line.ups.push(u);
        }
        let mut d = 0.0;
        for i in 0..line.points.len() {
            if i > 0 {
                d += line.points[i].distance(line.points[i - 1]);
            }
            line.dist.push(d);
        }
        let segments = line.points.len().saturating_sub(1);
        for i in 0..segments {
            let forward = (line.points[i + 1] - line.points[i]).normalize_or(Vec3::NEG_Z);
            // Square to forward; world up, then any perpendicular, when the baked up is along it.
            let square = |u: Vec3| (u - forward * u.dot(forward)).try_normalize();
            let up =
                square(line.ups[i]).or_else(|| square(Vec3::Y)).unwrap_or_else(|| forward.any_orthonormal_vector());
            line.seg_forward.push(forward);
            line.seg_up.push(up);
        }
        if segments > 0 && d > 0.0 {
            line.bucket = d / segments as f32;
            let mut seg = 0usize;
            for b in 0..=segments {
                let at = b as f32 * line.bucket;
                while seg + 1 < segments && line.dist[seg + 1] <= at {
                    seg += 1;
                }
                line.first_segment.push(seg as u32);
            }
        }
        line
    }

    /// Arc length of the whole curve.
    pub fn length(&self) -> f32 {
        self.dist.last().copied().unwrap_or(0.0)
    }

    /// Usable: at least two distinct points.
    pub fn is_valid(&self) -> bool {
        self.points.len() >= 2 && self.length() > 0.0
    }

    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Arc length of the curve's point closest to `p`. With `near` (the last answer, for a point
    /// that moves continuously) only the curve within `SEARCH` metres of it is searched, and the
    /// whole curve only when the closest point found lies on that stretch's edge.
    pub fn closest_offset(&self, p: Vec3, near: Option<f32>) -> f32 {
        const SEARCH: f32 = 50.0;
        let segments = self.seg_forward.len();
        if segments == 0 || !p.is_finite() {
            return 0.0;
        }
        let scan = |from: usize, to: usize| -> (f32, f32) {
            let mut best = (f32::INFINITY, 0.0);
            for i in from..to {
                let (a, d) = (self.points[i], self.seg_forward[i]);
                let seg = self.dist[i + 1] - self.dist[i];
                let t = (p - a).dot(d).clamp(0.0, seg);
                let q = (a + d * t).distance_squared(p);
                if q < best.0 {
                    best = (q, self.dist[i] + t);
                }
            }
            best
        };
        if let Some(o) = near.filter(|o| o.is_finite() && !self.closed) {
            let seg_of = |x: f32| ((x.max(0.0) / self.bucket) as usize).min(self.first_segment.len() - 1);
            let from = self.first_segment[seg_of(o - SEARCH)] as usize;
            let to = (self.first_segment[seg_of(o + SEARCH)] as usize + 1).min(segments);
            let (_, best) = scan(from, to);
            let inside = (best > self.dist[from] || from == 0) && (best < self.dist[to] || to == segments);
            if inside {
                return best;
            }
        }
        scan(0, segments).1
    }

    /// The point and frame at arc length `offset` (clamped to the curve; wrapped when closed).
    pub fn sample(&self, offset: f32) -> Sample {
        let n = self.points.len();
        if n < 2 {
            let pos = self.points.first().copied().unwrap_or(Vec3::ZERO);
            return Sample { pos, forward: Vec3::NEG_Z, up: Vec3::Y };
        }
        let len = self.length();
        let o = if !offset.is_finite() {
            0.0
        } else if self.closed {
            offset.rem_euclid(len)
        } else {
            offset.clamp(0.0, len)
        };
        // The segment i..i+1 holding `o`.
        let b = ((o / self.bucket) as usize).min(self.first_segment.len() - 1);
        let mut i = self.first_segment[b] as usize;
        while i + 2 < n && self.dist[i + 1] <= o {
            i += 1;
        }
        let seg = self.dist[i + 1] - self.dist[i];
        let t = if seg > 0.0 { ((o - self.dist[i]) / seg).clamp(0.0, 1.0) } else { 0.0 };
        let (a, b) = (self.points[i], self.points[i + 1]);
        // The frame of the segment (baked points lie a fraction of a metre apart).
        let (forward, up) = (self.seg_forward[i], self.seg_up[i]);
        Sample { pos: a.lerp(b, t), forward, up }
    }
}

impl Sample {
    /// The instance transform of a vehicle at this sample driving `sign` (1 along the curve, -1
    /// against it) as a row-major 3x4 matrix (the MultiMesh layout): the mesh's -Z points where it
    /// drives, +Y up, and the mesh's centre along Z (`centre_z`) sits on the curve. `scale` 0
    /// hides the instance.
    #[inline]
    pub fn write_instance(&self, sign: f32, centre_z: f32, scale: f32, out: &mut [f32]) {
        let f = self.forward * sign;
        let back = -f * scale;
        let up = self.up * scale;
        let right = f.cross(self.up) * scale;
        let o = self.pos - back * centre_z;
        out[..12]
            .copy_from_slice(&[right.x, up.x, back.x, o.x, right.y, up.y, back.y, o.y, right.z, up.z, back.z, o.z]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_follow_arc_length_and_keep_a_square_frame() {
        let pts: Vec<Vec3> = (0..=10).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
        let line = Polyline::new(&pts, &[], false);
        assert_eq!(line.length(), 10.0);
        let s = line.sample(2.5);
        assert!((s.pos - Vec3::new(2.5, 0.0, 0.0)).length() < 1e-5);
        assert!((s.forward - Vec3::X).length() < 1e-5 && (s.up - Vec3::Y).length() < 1e-5);
        assert_eq!(line.sample(99.0).pos, Vec3::new(10.0, 0.0, 0.0));
        assert_eq!(line.sample(f32::NAN).pos, Vec3::ZERO);
        assert!((line.closest_offset(Vec3::new(3.3, 5.0, 1.0), None) - 3.3).abs() < 1e-5);
        assert!((line.closest_offset(Vec3::new(3.3, 5.0, 1.0), Some(3.0)) - 3.3).abs() < 1e-5);
        assert_eq!(line.closest_offset(Vec3::new(-4.0, 0.0, 0.0), Some(9.0)), 0.0);

        // A closed square wraps.
        let sq = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
        let ring = Polyline::new(&sq, &[Vec3::Y; 4], true);
        assert!((ring.length() - 4.0).abs() < 1e-5);
        assert!((ring.sample(4.5).pos - Vec3::new(0.5, 0.0, 0.0)).length() < 1e-5);

        // The instance's -Z points along the driving direction, its centre on the curve.
        let mut m = [0.0; 12];
        s.write_instance(-1.0, 0.5, 1.0, &mut m);
        let back = Vec3::new(m[2], m[6], m[10]);
        let origin = Vec3::new(m[3], m[7], m[11]);
        assert!((back - Vec3::X).length() < 1e-5, "driving toward -X, the back points +X");
        assert!((origin + back * 0.5 - s.pos).length() < 1e-5);
        let right = Vec3::new(m[0], m[4], m[8]);
        assert!(right.cross(Vec3::new(m[1], m[5], m[9])).dot(back) > 0.99, "right-handed");
    }
}
