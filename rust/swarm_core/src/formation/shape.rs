//! A formation's shape and where its slots lie: the points (ground-plane offsets, -Z forward, in
//! spacings), repeated in ranks behind for agents beyond the points, placed at a destination and
//! turned to face a heading. Also the shape's settings, checked against `bounds::formation`.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::bounds::formation as fb;
use crate::sanitize::Finding;

/// A formation as the game describes it (the `SwarmFormation` resource).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormationShape {
    /// Slot offsets on the ground plane (x right, y = local +Z, i.e. backwards), in spacings.
    pub points: Vec<Vec2>,
    pub spacing: f32,
    /// Speed (m/s) at which the longest route sets the common travel time.
    pub base_speed: f32,
    /// An agent's formation speed stays within these multiples of its own max speed.
    pub min_speed_multiplier: f32,
    pub max_speed_multiplier: f32,
    /// An agent within this distance of its slot has arrived.
    pub arrival_radius: f32,
}

impl Default for FormationShape {
    fn default() -> Self {
        Self {
            points: (-2..=2).map(|x| Vec2::new(x as f32, 0.0)).collect(),
            spacing: fb::SPACING.default,
            base_speed: fb::BASE_SPEED.default,
            min_speed_multiplier: fb::MIN_SPEED_MULTIPLIER.default,
            max_speed_multiplier: fb::MAX_SPEED_MULTIPLIER.default,
            arrival_radius: fb::ARRIVAL_RADIUS.default,
        }
    }
}

/// Why a shape cannot be used at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    NoPoints,
    TooManyPoints(usize),
    /// Index of a point that is not a finite number within `MAX_POINT_COORD`.
    BadPoint(usize),
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeError::NoPoints => write!(f, "points is empty (a formation needs at least one slot)"),
            ShapeError::TooManyPoints(n) => write!(f, "points holds {n} points, more than {}", fb::MAX_POINTS),
            ShapeError::BadPoint(i) => {
                write!(f, "points[{i}] is not a finite offset within {} spacings", fb::MAX_POINT_COORD)
            }
        }
    }
}

impl FormationShape {
    /// The shape with every setting within its bounds (findings name what changed), or why its
    /// points cannot be used.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Result<Self, ShapeError> {
        if self.points.is_empty() {
            return Err(ShapeError::NoPoints);
        }
        if self.points.len() > fb::MAX_POINTS {
            return Err(ShapeError::TooManyPoints(self.points.len()));
        }
        if let Some(i) = self.points.iter().position(|p| !p.is_finite() || p.abs().max_element() > fb::MAX_POINT_COORD)
        {
            return Err(ShapeError::BadPoint(i));
        }
        self.spacing = fb::SPACING.check(self.spacing, out);
        self.base_speed = fb::BASE_SPEED.check(self.base_speed, out);
        self.min_speed_multiplier = fb::MIN_SPEED_MULTIPLIER.check(self.min_speed_multiplier, out);
        self.max_speed_multiplier = fb::MAX_SPEED_MULTIPLIER.check(self.max_speed_multiplier, out);
        self.arrival_radius = fb::ARRIVAL_RADIUS.check(self.arrival_radius, out);
        Ok(self)
    }

    /// Local offsets (metres, y backwards) of the first `n` slots: the points in order, then
    /// the same points again one rank further back for each further `points.len()` agents. A
    /// rank is as deep as the shape plus one spacing.
    pub fn offsets(&self, n: usize, out: &mut Vec<Vec2>) {
        out.clear();
        let (lo, hi) = self.points.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
        let rank_depth = (hi - lo + 1.0) * self.spacing;
        let m = self.points.len();
        out.extend((0..n).map(|k| {
            let p = self.points[k % m] * self.spacing;
            p + Vec2::new(0.0, rank_depth * (k / m) as f32)
        }));
    }
}

/// Ground-plane frame of a placed formation: `forward` is where local -Z points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    pub origin: Vec2,
    pub forward: Vec2,
}

impl Placement {
    /// Facing from `from` (the group's centroid) toward `to`; -Z (Godot's forward) when they
    /// coincide.
    pub fn facing(from: Vec2, to: Vec2) -> Self {
        Self { origin: to, forward: (to - from).try_normalize().unwrap_or(Vec2::new(0.0, -1.0)) }
    }

    /// World ground-plane point of a local offset (x right, y backwards).
    #[inline]
    pub fn place(&self, local: Vec2) -> Vec2 {
        let f = self.forward;
        // Right of the heading: -Z forward has +X on its right.
        let right = Vec2::new(-f.y, f.x);
        self.origin + right * local.x - f * local.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn further_agents_fill_ranks_behind_the_shape() {
        let shape = FormationShape {
            points: vec![Vec2::new(-1.0, 0.0), Vec2::ZERO, Vec2::new(1.0, 0.0)],
            spacing: 2.0,
            ..Default::default()
        };
        let mut o = Vec::new();
        shape.offsets(7, &mut o);
        assert_eq!(o.len(), 7);
        assert_eq!(o[1], Vec2::ZERO);
        // A line is one spacing deep: the second rank stands 2 m behind.
        assert_eq!(o[4], Vec2::new(0.0, 2.0));
        assert_eq!(o[6], Vec2::new(-2.0, 4.0));
    }

    #[test]
    fn placement_turns_minus_z_to_the_heading() {
        let p = Placement::facing(Vec2::ZERO, Vec2::new(10.0, 0.0));
        assert_eq!(p.forward, Vec2::new(1.0, 0.0));
        // A slot one metre ahead (local -Z) lies one metre further along +X.
        assert!((p.place(Vec2::new(0.0, -1.0)) - Vec2::new(11.0, 0.0)).length() < 1e-6);
        // Facing +X, the right hand side is +Z.
        assert!((p.place(Vec2::new(1.0, 0.0)) - Vec2::new(10.0, 1.0)).length() < 1e-6);
        // Facing -Z (the default), local offsets are world offsets.
        let q = Placement::facing(Vec2::ZERO, Vec2::ZERO);
        assert_eq!(q.place(Vec2::new(3.0, 2.0)), Vec2::new(3.0, 2.0));
    }

    #[test]
    fn bad_shapes_are_refused_and_settings_clamped() {
        let mut f = Vec::new();
        let empty = FormationShape { points: vec![], ..Default::default() };
        assert_eq!(empty.checked(&mut f), Err(ShapeError::NoPoints));
        let nan = FormationShape { points: vec![Vec2::ZERO, Vec2::NAN], ..Default::default() };
        assert_eq!(nan.checked(&mut f), Err(ShapeError::BadPoint(1)));
        let slow = FormationShape { base_speed: -1.0, spacing: f32::NAN, ..Default::default() };
        let s = slow.checked(&mut f).unwrap();
        assert_eq!((s.base_speed, s.spacing), (fb::BASE_SPEED.lo, fb::SPACING.default));
        assert_eq!(f.len(), 2);
    }
}
