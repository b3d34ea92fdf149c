//! The world's agent raycast (`World::raycast`): the segment is cut to the agents' bounds, then
//! walked a cell at a time, testing each agent near it as a vertical cylinder.

use glam::{Vec2, Vec3};

use crate::ids::AgentId;
use crate::world::World;

impl World {
    /// The nearest agent hit by the segment `from..to` (agents are vertical cylinders of their
    /// radius and `agent_height`), with the hit point.
    pub fn raycast(&mut self, from: Vec3, to: Vec3) -> Option<(AgentId, Vec3)> {
        if !from.is_finite() || !to.is_finite() {
            return None;
        }
        self.ensure_grid();
        let step = self.ws.grid.cell_size().max(0.25);
        let reach = step + self.ws.maxima.max_radius;
        // Only the part of the ray over the agents' bounds can hit one: sample that part alone,
        // so a ray of any length keeps its samples a step apart.
        let (lo, hi) = self.ws.grid.agent_bounds();
        let (from, to) = clip_to_rect(from, to, lo - Vec2::splat(reach), hi + Vec2::splat(reach))?;
        let (a, b) = (Vec2::new(from.x, from.z), Vec2::new(to.x, to.z));
        let seg = b - a;
        let len = seg.length();
        let samples = (len / step).ceil() as usize + 1;
        let height = self.state.settings.agent_height;
        let mut best: Option<(f32, u32)> = None;
        let (pos, params) = (&self.state.agents.pos, &self.state.agents.params);
        for k in 0..samples.min(1_000_000) {
            let c = a + seg * (k as f32 / (samples.max(2) - 1) as f32);
            self.ws.grid.for_each_candidate(c, f32::NAN, reach, |j, q| {
                let r = params[j as usize].radius;
                if let Some(t) = segment_circle(a, seg, q, r) {
                    if best.is_none_or(|(bt, bj)| t < bt || (t == bt && j < bj)) {
                        let y = from.y + (to.y - from.y) * t;
                        let feet = pos[j as usize].y;
                        if y >= feet && y <= feet + height {
                            best = Some((t, j));
                        }
                    }
                }
                true
            });
        }
        best.map(|(t, j)| (self.id_at(j as usize), from + (to - from) * t))
    }
}

/// Smallest `t` in 0..=1 where the segment `a + t * seg` enters the circle, if it does.
fn segment_circle(a: Vec2, seg: Vec2, center: Vec2, r: f32) -> Option<f32> {
    let f = a - center;
    let c = f.length_squared() - r * r;
    if c <= 0.0 {
        return Some(0.0);
    }
    let aa = seg.length_squared();
    if aa < 1e-12 {
        return None;
    }
    let b = f.dot(seg);
    let disc = b * b - aa * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / aa;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// The part of the segment `from..to` whose ground-plane projection lies in the rectangle
/// `lo..hi` (x, z), or `None` when none does. Computed in f64, so a segment far longer than the
/// rectangle is cut without losing the rectangle's precision.
fn clip_to_rect(from: Vec3, to: Vec3, lo: Vec2, hi: Vec2) -> Option<(Vec3, Vec3)> {
    let (f, t) = (from.as_dvec3(), to.as_dvec3());
    let d = t - f;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, dp, l, h) in [(f.x, d.x, lo.x as f64, hi.x as f64), (f.z, d.z, lo.y as f64, hi.y as f64)] {
        if dp == 0.0 {
            if p < l || p > h {
                return None;
            }
        } else {
            let (mut a, mut b) = ((l - p) / dp, (h - p) / dp);
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            t0 = t0.max(a);
            t1 = t1.min(b);
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| {
        if t <= 0.0 {
            f
        } else if t >= 1.0 {
            f + d
        } else {
            f + d * t
        }
    };
    Some((at(t0).as_vec3(), at(t1).as_vec3()))
}
