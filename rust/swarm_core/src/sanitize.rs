//! Sanitizing helpers shared by every config type: a leaf module (it uses nothing of the crate),
//! so config and combat can both clamp their fields without importing each other.

/// Clamps `v` into `lo..=hi`, replacing NaN/inf by `fallback`.
pub fn finite_clamp(v: f32, lo: f32, hi: f32, fallback: f32) -> f32 {
    if v.is_finite() {
        v.clamp(lo, hi)
    } else {
        fallback
    }
}
