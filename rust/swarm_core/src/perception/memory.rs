//! Memory, search and alerts. An agent that loses sight of its target walks to the spot where it
//! last saw it when its profile has search on (else it idles at once); a search, an alert or an
//! investigated noise is given up `forget_time` seconds after the last sight, alert or noise, and
//! the agent goes idle (Idle Motion). An agent that sees its target alerts perceiving agents
//! within its `alert_spread_radius`: they search the target's position. Alerts are pulled, not
//! pushed: each non-chasing agent looks for the nearest seer around it (a bounded grid query,
//! every `ALERT_INTERVAL` steps, staggered per agent), so the pass is parallel and writes only
//! the agent's own state.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::agents::FLAG_DORMANT;
use crate::archetype::ArchetypeRuntime;
use crate::config::{PerceptionProfile, SightOcclusion};
use crate::flow_field::CellId;
use crate::perception::awareness::{Awareness, CHASING, IDLE, INVESTIGATING, SEARCHING};
use crate::perception::occlusion::route_separates;
use crate::spatial_grid::SpatialGrid;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// Steps between two alert checks of one agent.
pub const ALERT_INTERVAL: u32 = 4;
/// Neighbours an alert check examines at most.
pub const ALERT_MAX_SAMPLES: u32 = 64;
/// Within this distance (metres, ground plane) an agent has reached the spot it searches: it
/// stops walking there (and stops pressing whatever closes the way to it).
pub const SPOT_REACHED: f32 = 1.0;

/// Clears the dormant flag and countdown.
#[inline]
pub fn wake(flags: &mut u8, dormant_timer: &mut f32) {
    *flags &= !FLAG_DORMANT;
    *dormant_timer = 0.0;
}

/// One step of memory for an agent that does not see its target.
#[inline]
pub fn forget_step(p: &PerceptionProfile, a: &mut Awareness, dt: f32) {
    a.since = (a.since + dt).min(1e9);
    match a.mode {
        CHASING => a.mode = if p.search_enabled { SEARCHING } else { IDLE },
        SEARCHING | INVESTIGATING if a.since > p.forget_time => a.mode = IDLE,
        _ => {}
    }
}

/// Starts a search of `spot` (alert) or an investigation (noise).
#[inline]
pub fn go_to(a: &mut Awareness, mode: u8, spot: Vec3) {
    a.mode = mode;
    a.spot = spot;
    a.since = 0.0;
}

/// Whether a searching or investigating agent at `p` still walks to its spot (has not reached
/// it), or a chasing one chases: "going somewhere".
#[inline]
pub fn is_going(a: &Awareness, p: Vec3) -> bool {
    match a.mode {
        CHASING => true,
        SEARCHING | INVESTIGATING => {
            Vec2::new(a.spot.x - p.x, a.spot.z - p.z).length_squared() > SPOT_REACHED * SPOT_REACHED
        }
        _ => false,
    }
}

/// Straight steering toward a spot: full strength far away, easing within `arrival`, zero once reached.
#[inline]
pub fn seek(p: Vec2, spot: Vec2, arrival: f32) -> Vec2 {
    let d = spot - p;
    let len = d.length();
    if len <= SPOT_REACHED * 0.5 {
        return Vec2::ZERO;
    }
    d / len * (len / arrival.max(0.1)).min(1.0)
}

/// A spot within this distance (metres, ground plane) of the cell a target's flow field leads
/// to is walked to along that field (around walls, through doors); farther spots straight.
pub const SPOT_FIELD_RADIUS: f32 = 3.0;

/// Steering toward a searched or heard `spot` for an agent at `pos` in `cell`: along the spot's
/// own field when it holds one (`SpotFields`), else along the field of target `slot` when that
/// field leads to (near) the spot, as it does for an alert or a target last seen where it still
/// is; straight (`seek`) otherwise (no field yet, or no route); zero once the spot is reached.
#[inline]
pub fn spot_steer(
    nav: Option<&SurfaceNav>,
    slot: u32,
    cell: CellId,
    pos: Vec3,
    spot: Vec3,
    arrival: f32,
    near_band: f32,
) -> Vec2 {
    let (p, s) = (Vec2::new(pos.x, pos.z), Vec2::new(spot.x, spot.z));
    let d = p.distance(s);
    if d <= SPOT_REACHED * 0.5 {
        return Vec2::ZERO;
    }
    let along = nav.and_then(|n| {
        if let Some(f) = n.spot_field(spot) {
            return n.steer_on(f, cell, pos, d, near_band).filter(|v| *v != Vec2::ZERO);
        }
        let f = n.target_field(slot)?;
        let goal = n.grid.cell_center(f.target());
        if Vec2::new(goal.x, goal.z).distance(s) > SPOT_FIELD_RADIUS {
            return None;
        }
        n.steer(slot, cell, pos, d, near_band).filter(|v| *v != Vec2::ZERO)
    });
    along.unwrap_or_else(|| seek(p, s, arrival))
}

/// Read-only inputs of the alert pass.
pub(crate) struct AlertIn<'a> {
    pub tick: u32,
    pub archetypes: &'a [ArchetypeRuntime],
    pub targets: &'a Targets,
    pub nav: Option<&'a SurfaceNav>,
    pub grid: &'a SpatialGrid,
    pub pos: &'a [Vec3],
    pub target: &'a [u32],
    pub arch: &'a [u16],
    pub cell: &'a [CellId],
    pub seeds: &'a [u32],
    /// Agents that see their target this step (perceiving agents only count as seers).
    pub sees: &'a [bool],
    /// Largest `alert_spread_radius` of any archetype.
    pub max_radius: f32,
}

impl AlertIn<'_> {
    /// The nearest seer whose alert reaches agent `i` (ties: lower index), with its target.
    fn nearest_alert(&self, i: usize) -> Option<(u32, Vec3)> {
        let p3 = self.pos[i];
        let p = Vec2::new(p3.x, p3.z);
        let mut best: Option<(f32, u32)> = None;
        let mut seen = 0;
        self.grid.for_each_candidate(p, p3.y, self.max_radius, |j, q| {
            seen += 1;
            let ju = j as usize;
            if ju != i && self.sees[ju] {
                if let Some(pj) = self.archetypes[self.arch[ju] as usize].config.perception.as_ref() {
                    let d2 = q.distance_squared(p);
                    let r = pj.alert_spread_radius;
                    if r > 0.0
                        && d2 <= r * r
                        && best.is_none_or(|(bd, bj)| d2 < bd || (d2 == bd && j < bj))
                        && self.targets.get(self.target[ju]).is_some()
                        && !(pj.sight_occlusion == SightOcclusion::NavigationPath
                            && self.nav.is_some_and(|n| {
                                route_separates(
                                    n,
                                    self.target[ju],
                                    self.cell[i],
                                    self.cell[ju],
                                    d2.sqrt(),
                                    pj.occlusion_detour_tolerance,
                                )
                            }))
                    {
                        best = Some((d2, j));
                    }
                }
            }
            seen < ALERT_MAX_SAMPLES
        });
        let (_, j) = best?;
        let t = self.target[j as usize];
        self.targets.get(t).map(|tg| (t, tg.position))
    }
}

/// Alerts: every perceiving agent that does not see its target, on its turn, takes the nearest
/// seer's target position as a spot to search, and wakes.
pub(crate) fn alert_pass(
    inp: &AlertIn,
    aware: &mut [Awareness],
    flags: &mut [u8],
    dormant_timer: &mut [f32],
    chunk: usize,
) {
    (aware.par_chunks_mut(chunk), flags.par_chunks_mut(chunk), dormant_timer.par_chunks_mut(chunk))
        .into_par_iter()
        .enumerate()
        .for_each(|(ci, (aw, fl, tm))| {
            for k in 0..aw.len() {
                let i = ci * chunk + k;
                if aw[k].mode == CHASING
                    || inp.archetypes[inp.arch[i] as usize].config.perception.is_none()
                    || !inp.tick.wrapping_add(inp.seeds[i]).is_multiple_of(ALERT_INTERVAL)
                {
                    continue;
                }
                if let Some((_, spot)) = inp.nearest_alert(i) {
                    go_to(&mut aw[k], SEARCHING, spot);
                    wake(&mut fl[k], &mut tm[k]);
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losing_sight_searches_then_forgets() {
        let p = PerceptionProfile { forget_time: 1.0, ..Default::default() };
        let mut a = Awareness { mode: CHASING, ..Default::default() };
        forget_step(&p, &mut a, 0.1);
        assert_eq!(a.mode, SEARCHING);
        for _ in 0..8 {
            forget_step(&p, &mut a, 0.1);
        }
        assert_eq!(a.mode, SEARCHING);
        forget_step(&p, &mut a, 0.2);
        assert_eq!(a.mode, IDLE);
        let p = PerceptionProfile { search_enabled: false, ..Default::default() };
        let mut a = Awareness { mode: CHASING, ..Default::default() };
        forget_step(&p, &mut a, 0.1);
        assert_eq!(a.mode, IDLE);
    }

    #[test]
    fn seek_eases_and_stops_at_the_spot() {
        assert_eq!(seek(Vec2::ZERO, Vec2::new(10.0, 0.0), 2.0), Vec2::new(1.0, 0.0));
        assert!((seek(Vec2::ZERO, Vec2::new(1.0, 0.0), 2.0).x - 0.5).abs() < 1e-6);
        assert_eq!(seek(Vec2::ZERO, Vec2::new(0.2, 0.0), 2.0), Vec2::ZERO);
    }
}
