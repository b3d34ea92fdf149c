//! Navigation-path occlusion: whether walls or costly doors lie between an agent and its target
//! (`route_hides`) or between two agents (`route_separates`), read from the target's flow field.
//! A route that cannot be measured (no field yet, an agent off the field, no route at all, as
//! when a blocked box was the only way in) reads as not blocked: a crowd whose only way in is
//! shut still "sees" through it rather than forgetting its target.

use glam::{Vec2, Vec3};

use crate::flow_field::{CellId, NONE};
use crate::surface_nav::SurfaceNav;

/// Grid slack of the navigation-path test, in cells: the route is measured between cell
/// centres while the straight line joins the actual points.
pub const SLACK_CELLS: f32 = 1.5;

/// Navigation-path occlusion: true when the route from `cell` (where the agent at `pos` stands)
/// to the target of `slot` is longer than the straight line by more than `tolerance` metres (plus
/// `SLACK_CELLS`). False when the route cannot be measured.
#[inline]
pub fn route_hides(nav: &SurfaceNav, slot: u32, cell: CellId, pos: Vec3, tolerance: f32) -> bool {
    let Some(field) = nav.target_field(slot) else { return false };
    if cell == NONE {
        return false;
    }
    let route = field.distance.smooth_distance(cell);
    if !route.is_finite() {
        return false;
    }
    let goal = nav.grid.cell_center(field.target());
    let straight = Vec2::new(goal.x - pos.x, goal.z - pos.z).length();
    route > straight + tolerance + SLACK_CELLS * nav.grid.cell_size()
}

/// Navigation-path gate between two agents `a` and `b` that are `straight` metres apart, both
/// measured on the field of target `slot`: a route from one to the other is at least the
/// difference of their routes to the target, so when that difference exceeds the straight line
/// by more than `tolerance` something (a wall, a costly door) lies between them. False when
/// either route cannot be measured.
#[inline]
pub fn route_separates(nav: &SurfaceNav, slot: u32, a: CellId, b: CellId, straight: f32, tolerance: f32) -> bool {
    let Some(field) = nav.target_field(slot) else { return false };
    if a == NONE || b == NONE {
        return false;
    }
    let (ra, rb) = (field.distance.smooth_distance(a), field.distance.smooth_distance(b));
    if !ra.is_finite() || !rb.is_finite() {
        return false;
    }
    (ra - rb).abs() > straight + tolerance + SLACK_CELLS * nav.grid.cell_size()
}
