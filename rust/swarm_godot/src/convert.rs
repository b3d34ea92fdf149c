//! Conversions between Godot values and core values, and the messages for bad input: the core's
//! findings, and the binding's own checks of node fields, each naming the owner and field.

use godot::prelude::*;
use swarm_core::flow_field::bake::BakeBounds;
use swarm_core::glam::Vec3;
use swarm_core::sanitize::{End, Finding, FloatBound, IntBound, Reason};
use swarm_core::Range;

/// A position the world can hold: finite and within 1e9 m of the origin on every axis (the
/// core's own test, `swarm_core::bounds::load::usable_position`).
pub fn usable_position(p: Vector3) -> bool {
    swarm_core::bounds::load::usable_position(to_vec3(p))
}

#[inline]
pub fn to_vec3(v: Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

#[inline]
/// A Godot transform as the core's affine map (the same arithmetic as `Transform3D * Vector3`).
pub fn to_affine(t: Transform3D) -> swarm_core::glam::Affine3A {
    let b = t.basis;
    swarm_core::glam::Affine3A::from_mat3_translation(
        swarm_core::glam::Mat3::from_cols(to_vec3(b.col_a()), to_vec3(b.col_b()), to_vec3(b.col_c())),
        to_vec3(t.origin),
    )
}

pub fn to_vector3(v: Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

/// Collects the messages for the fields of a node that has no core config of its own, each
/// checked against its bound in the core's table (`swarm_core::bounds`): values are clamped or
/// replaced by their default, each message names the owner and field.
pub struct Checker {
    owner: String,
    pub problems: Vec<String>,
}

impl Checker {
    pub fn new(owner: String) -> Self {
        Self { owner, problems: Vec::new() }
    }

    /// `v` checked against the core's bound for the field (clamped, or its default when not a
    /// number), with the core's finding as a message.
    pub fn f(&mut self, bound: &FloatBound, v: f32) -> f32 {
        let mut found = Vec::new();
        let v = bound.check(v, &mut found);
        report_findings(&self.owner, &found, &mut self.problems);
        v
    }

    /// `v` clamped into the core's bound for the field, with the core's finding as a message.
    pub fn i(&mut self, bound: &IntBound, v: i64) -> i64 {
        let mut found = Vec::new();
        let v = bound.narrow(v, &mut found);
        report_findings(&self.owner, &found, &mut self.problems);
        v
    }
}

/// A Godot box as the bake's bounds.
pub fn to_bake_bounds(b: Aabb) -> BakeBounds {
    BakeBounds { position: to_vec3(b.position), size: to_vec3(b.size) }
}

/// A `Vector2(min, max)` as a core range, unchecked (the core's `checked` orders and bounds it).
#[inline]
pub fn to_range(v: Vector2) -> Range {
    Range::new(v.x, v.y)
}

/// One core finding as a message: "<owner>: <field> = <value> is outside <lo>..<hi>; using <c>".
/// The ends of a pair are the `x (min)` and `y (max)` of the resource's `Vector2`.
pub fn finding_message(owner: &str, f: &Finding) -> String {
    finding_message_as(owner, f.field, f)
}

/// `finding_message` for a field reported under another name (an entry of a list: `weights[2]`).
pub fn finding_message_as(owner: &str, name: &str, f: &Finding) -> String {
    let field = match f.end {
        Some(End::Min) => format!("{name}.x (min)"),
        Some(End::Max) => format!("{name}.y (max)"),
        None => name.to_string(),
    };
    let (v, used) = (f.value, f.used);
    match f.reason {
        Reason::NotANumber => format!("{owner}: {field} = {v} is not a number; using {used}"),
        Reason::OutOfRange { lo, hi } => format!("{owner}: {field} = {v} is outside {lo}..{hi}; using {used}"),
        Reason::MinAboveMax => format!("{owner}: {field} has min {v} above max {used}; swapping them"),
    }
}

/// The core's findings for `owner`'s fields, as messages appended to `problems`.
pub fn report_findings(owner: &str, findings: &[Finding], problems: &mut Vec<String>) {
    problems.extend(findings.iter().map(|f| finding_message(owner, f)));
}

/// A human-readable name for a resource in messages: its path, or its class when unsaved.
pub fn resource_name(r: &Gd<godot::classes::Resource>, class: &str) -> String {
    let p = r.get_path();
    if p.is_empty() {
        format!("{class} (unsaved)")
    } else {
        format!("{class} '{p}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use swarm_core::bounds::{behavior, movement, perception};

    fn messages(f: impl FnOnce(&mut Vec<Finding>)) -> Vec<String> {
        let mut findings = Vec::new();
        f(&mut findings);
        let mut out = Vec::new();
        report_findings("Owner", &findings, &mut out);
        out
    }

    #[test]
    fn findings_read_as_the_resource_messages() {
        let m = messages(|f| {
            perception::SIGHT_DISTANCE.check(-5.0, f);
            perception::SIGHT_OCCLUSION.narrow::<i64>(7, f);
            behavior::IDLE_PERIOD.check(f32::NAN, f);
        });
        assert_eq!(
            m,
            [
                "Owner: sight_distance = -5 is outside 0..1000000; using 0",
                "Owner: sight_occlusion = 7 is outside 0..2; using 2",
                "Owner: idle_period = NaN is not a number; using 2",
            ]
        );
        let m = messages(|f| {
            Range::new(6.0, f32::INFINITY).checked(&movement::MAX_SPEED, f);
        });
        assert_eq!(
            m,
            [
                "Owner: max_speed.y (max) = inf is not a number; using 4.5",
                "Owner: max_speed has min 6 above max 4.5; swapping them",
            ]
        );
    }
}
