//! Conversions between Godot values and core values, and field validation that reports bad
//! input by owner and field name.

use godot::prelude::*;
use swarm_core::glam::Vec3;
use swarm_core::Range;

#[inline]
pub fn to_vec3(v: Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

#[inline]
pub fn to_vector3(v: Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

/// Collects problems found while converting one resource. Values are clamped or replaced by
/// their default; each problem names the resource and field.
pub struct Checker {
    owner: String,
    pub problems: Vec<String>,
}

impl Checker {
    pub fn new(owner: String) -> Self {
        Self { owner, problems: Vec::new() }
    }

    /// `v` clamped into `lo..=hi`; NaN or infinite becomes `default`.
    pub fn f(&mut self, field: &str, v: f32, lo: f32, hi: f32, default: f32) -> f32 {
        if !v.is_finite() {
            self.problems.push(format!("{}: {field} = {v} is not a number; using {default}", self.owner));
            return default;
        }
        if v < lo || v > hi {
            let c = v.clamp(lo, hi);
            self.problems.push(format!("{}: {field} = {v} is outside {lo}..{hi}; using {c}", self.owner));
            return c;
        }
        v
    }

    pub fn i(&mut self, field: &str, v: i64, lo: i64, hi: i64) -> i64 {
        if v < lo || v > hi {
            let c = v.clamp(lo, hi);
            self.problems.push(format!("{}: {field} = {v} is outside {lo}..{hi}; using {c}", self.owner));
            return c;
        }
        v
    }

    /// A `Vector2(min, max)` range; ends clamped, swapped if inverted.
    pub fn range(&mut self, field: &str, v: Vector2, lo: f32, hi: f32, default: Range) -> Range {
        let a = self.f(&format!("{field}.x (min)"), v.x, lo, hi, default.min);
        let b = self.f(&format!("{field}.y (max)"), v.y, lo, hi, default.max);
        if a > b {
            self.problems.push(format!("{}: {field} has min {a} above max {b}; swapping them", self.owner));
        }
        Range::new(a.min(b), a.max(b))
    }
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
