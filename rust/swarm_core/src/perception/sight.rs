//! Sight: whether an agent sees its target this step. Within `sight_distance` (ground plane),
//! then the profile's occlusion: none, the last physics-ray answer (`RAY_CLEAR` only; the engine
//! layer casts a bounded, round-robin batch of rays per step from `collect_ray_requests`), or the
//! navigation-path test `route_hides`: the target's flow field gives the route length from the
//! agent's cell (route costs of doors included), compared with the straight-line distance.
//! A route that cannot be measured (no field yet, the agent off the field, no route at all, as
//! when a BLOCKED box was the only way in) reads as not blocked (see `occlusion`).

use glam::Vec3;
use rayon::prelude::*;

use crate::agents::FLAG_DORMANT;
use crate::archetype::ArchetypeRuntime;
use crate::config::{PerceptionProfile, SightOcclusion};
use crate::flow_field::CellId;
use crate::ids::AgentId;
use crate::perception::awareness::{Awareness, PerceptionRuntime, SightRay, CHASING, RAY_CLEAR};
use crate::perception::memory::{forget_step, wake};
pub use crate::perception::occlusion::{route_hides, route_separates, SLACK_CELLS};
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// Read-only inputs of the sight pass.
pub(crate) struct SightIn<'a> {
    pub dt: f32,
    pub archetypes: &'a [ArchetypeRuntime],
    pub targets: &'a Targets,
    pub nav: Option<&'a SurfaceNav>,
    pub pos: &'a [Vec3],
    pub target: &'a [u32],
    pub arch: &'a [u16],
    pub cell: &'a [CellId],
    /// Ground-plane distance to the target (`INFINITY`: none), from the LOD pass.
    pub dist: &'a [f32],
}

impl SightIn<'_> {
    /// Whether agent `i` with profile `p` sees its target now.
    #[inline]
    fn sees(&self, i: usize, p: &PerceptionProfile, aware: &Awareness) -> bool {
        let d = self.dist[i];
        if d > p.sight_distance || self.targets.get(self.target[i]).is_none() {
            return false;
        }
        match p.sight_occlusion {
            SightOcclusion::None => true,
            SightOcclusion::PhysicsRay => aware.ray == RAY_CLEAR,
            SightOcclusion::NavigationPath => !self.nav.is_some_and(|n| {
                route_hides(n, self.target[i], self.cell[i], self.pos[i], p.occlusion_detour_tolerance)
            }),
        }
    }
}

/// Sight and memory for every perceiving agent: `sees` (read by Out-of-Sight Fallback) becomes
/// "sees its target now"; seeing wakes a dormant agent; not seeing runs the memory transitions.
pub(crate) fn sight_pass(
    inp: &SightIn,
    aware: &mut [Awareness],
    sees: &mut [bool],
    flags: &mut [u8],
    dormant_timer: &mut [f32],
    chunk: usize,
) {
    (
        aware.par_chunks_mut(chunk),
        sees.par_chunks_mut(chunk),
        flags.par_chunks_mut(chunk),
        dormant_timer.par_chunks_mut(chunk),
    )
        .into_par_iter()
        .enumerate()
        .for_each(|(ci, (aw, se, fl, tm))| {
            for k in 0..aw.len() {
                let i = ci * chunk + k;
                let Some(p) = inp.archetypes[inp.arch[i] as usize].config.perception.as_ref() else { continue };
                let seen = inp.sees(i, p, &aw[k]);
                if seen {
                    let t = inp.targets.get(inp.target[i]).map_or(inp.pos[i], |t| t.position);
                    aw[k].mode = CHASING;
                    aw[k].spot = t;
                    aw[k].since = 0.0;
                    wake(&mut fl[k], &mut tm[k]);
                } else {
                    forget_step(p, &mut aw[k], inp.dt);
                }
                se[k] = seen;
            }
        });
}

/// Fills `rt.requests` with up to `rt.ray_budget` sight rays, round-robin over the agents that
/// need one (a `PhysicsRay` profile, a target within sight distance, awake), starting where the
/// last step stopped. Sequential and cheap: one pass over at most every agent.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collect_ray_requests(
    rt: &mut PerceptionRuntime,
    archetypes: &[ArchetypeRuntime],
    targets: &Targets,
    pos: &[Vec3],
    target: &[u32],
    arch: &[u16],
    flags: &[u8],
    dist: &[f32],
    eye_height: f32,
    id_of: impl Fn(usize) -> AgentId,
) {
    rt.requests.clear();
    let n = pos.len();
    if n == 0 || rt.ray_budget == 0 {
        return;
    }
    let start = rt.cursor % n;
    let mut next = start;
    for step in 0..n {
        let i = (start + step) % n;
        next = (i + 1) % n;
        let Some(p) = archetypes[arch[i] as usize].config.perception.as_ref() else { continue };
        if p.sight_occlusion != SightOcclusion::PhysicsRay || flags[i] & FLAG_DORMANT != 0 || dist[i] > p.sight_distance
        {
            continue;
        }
        let Some(t) = targets.get(target[i]) else { continue };
        rt.requests.push(SightRay {
            agent: id_of(i),
            target: target[i],
            from: pos[i] + Vec3::Y * (eye_height * 0.9),
            to: t.position + Vec3::Y * (eye_height * 0.5),
        });
        if rt.requests.len() >= rt.ray_budget {
            break;
        }
    }
    rt.cursor = next;
}
