//! Stage 2, classification (parallel over chunks, beside the deferred grid rebuild): dormancy,
//! the Importance LOD ladder, each agent's distance to its target and plain distance sight; then
//! the per-target chaser counts (Surround Shape) and Close-Range Pressure's turn-taking.
//! Reads positions, radii, targets, archetypes, awareness and the camera; writes the agents'
//! flags (dormant, pressing), dormancy timers and tiers, and the workspace's distances, sight,
//! LOD scratch, chaser counts and pressing selection. A horde with nothing to classify (no
//! ladder, no dormancy, no perception, no plain sight) skips the per-agent pass (`everyone_full`).

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::agents::{AgentParams, FLAGS_RESTING, FLAG_DORMANT, FLAG_PRESSING};
use crate::archetype::ArchetypeRuntime;
use crate::camera::Frustum;
use crate::config::WorldSettings;
use crate::far_blocks;
use crate::lod::{self, TierCounts, TierScratch};
use crate::perception::awareness::Awareness;
use crate::steering::pressure;
use crate::step::chunk::CHUNK;
use crate::targets::{flat, Targets, NO_TARGET};

/// What the classification reads.
pub(crate) struct ClassifyIn<'a> {
    pub dt: f32,
    pub settings: &'a WorldSettings,
    pub archetypes: &'a [ArchetypeRuntime],
    /// Whether any archetype has a perception profile (`ArchetypeMaxima::any_perception`).
    pub any_perception: bool,
    pub targets: &'a Targets,
    pub camera: Option<&'a Frustum>,
    pub pos: &'a [Vec3],
    pub params: &'a [AgentParams],
    pub target: &'a [u32],
    pub arch: &'a [u16],
    pub aware: &'a [Awareness],
    /// Each far block's status this step (`far_blocks`; empty: none), and the steps a turn of
    /// level 0 covers (`far_blocks::turn_steps`).
    pub far: &'a [far_blocks::Status],
    pub turn_interval: u32,
}

/// What the classification writes (and the seeds and time of the pressing turns).
pub(crate) struct ClassifyOut<'a> {
    pub flags: &'a mut [u8],
    pub dormant_timer: &'a mut [f32],
    pub tier: &'a mut [u8],
    pub seed: &'a [u32],
    pub time: f64,
    pub lod_dist: &'a mut Vec<f32>,
    pub sees: &'a mut Vec<bool>,
    pub lod_scratch: &'a mut TierScratch,
    pub target_counts: &'a mut Vec<u32>,
    pub press_candidates: &'a mut Vec<pressure::Candidate>,
    pub pressing: &'a mut Vec<u32>,
}

/// The whole stage: `classify`, `count_per_target`, `select_pressing`; returns the agents per tier.
// Out of line (called once a step), so profiles and `tools/instructions.sh` see the stage.
#[inline(never)]
pub(crate) fn run(input: &ClassifyIn, out: ClassifyOut) -> TierCounts {
    let ClassifyOut {
        flags,
        dormant_timer,
        tier,
        seed,
        time,
        lod_dist,
        sees,
        lod_scratch,
        target_counts,
        press_candidates,
        pressing,
    } = out;
    let tiers = classify(input, flags, dormant_timer, tier, lod_dist, sees, lod_scratch);
    count_per_target(input.archetypes, input.target, target_counts);
    select_pressing(
        input.archetypes,
        time,
        input.arch,
        input.target,
        seed,
        lod_dist,
        flags,
        press_candidates,
        pressing,
    );
    tiers
}

/// Dormancy and the Importance LOD ladder: a parallel pass computes each agent's inputs
/// (distance to its target, on camera, dormant) and the ladder's rungs (`lod::rung`), then
/// `lod::share_cap` shares out the cap. Returns the agents per tier.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn classify(
    input: &ClassifyIn,
    flags: &mut [u8],
    dormant_timer: &mut [f32],
    tier: &mut [u8],
    lod_dist: &mut Vec<f32>,
    sees: &mut Vec<bool>,
    lod_scratch: &mut TierScratch,
) -> TierCounts {
    let ClassifyIn {
        dt,
        settings: s,
        archetypes,
        any_perception,
        targets,
        camera,
        pos,
        params,
        target,
        arch,
        aware,
        far,
        turn_interval,
    } = *input;
    let n = pos.len();
    lod_dist.resize(n, 0.0);
    sees.resize(n, true);
    let ladder = s.lod.enabled;
    // Whole blocks of agents at rest far from every target are passed over (`block_sleeps`).
    // Perceiving agents read their distance every step, so then none may perceive; and beyond
    // waking distance an agent sees no target (Out-of-Sight Fallback's neighbours read that),
    // so no such sight may reach that far.
    let wake_within = wake_within(s);
    let skip_sleepers = s.dormancy_enabled
        && !any_perception
        && !archetypes.iter().any(|a| {
            let b = &a.config.behavior;
            b.use_out_of_sight && b.sight_distance > wake_within
        });
    // (Most hordes use neither Out-of-Sight Fallback nor perception: their agents then skip the
    // per-agent archetype look-ups.)
    let out_of_sight = archetypes.iter().any(|a| a.config.behavior.use_out_of_sight);
    if !ladder && !s.dormancy_enabled && !any_perception && !out_of_sight && far.is_empty() {
        // Nothing to classify (the like-for-like horde): every agent is awake and Full and sees
        // its target, and nothing reads a distance but Close-Range Pressure's turn-taking.
        return everyone_full(input, flags, dormant_timer, tier, lod_dist, sees);
    }
    // The Importance LOD ladder's per-agent rungs run in this pass too (`lod::rung`); the
    // cap is shared out after it (`lod::share_cap`).
    let counts = (
        lod_dist.par_chunks_mut(CHUNK),
        flags.par_chunks_mut(CHUNK),
        dormant_timer.par_chunks_mut(CHUNK),
        sees.par_chunks_mut(CHUNK),
        tier.par_chunks_mut(CHUNK),
        lod_scratch.chunks(n, CHUNK).par_iter_mut(),
    )
        .into_par_iter()
        .enumerate()
        .map(|(ci, (ld, flags, timer, sees, tiers, candidates))| {
            let mut counts = lod::TierCounts::default();
            // The settings read per agent, as locals: as far as the compiler knows, the stores to
            // the byte columns below may change anything behind `s`, which it would then read
            // again for every agent.
            let (ladder_settings, dormancy, sleep_beyond, delay) =
                (s.lod.clone(), s.dormancy_enabled, s.dormancy_distance, s.dormancy_delay);
            // The chunk in blocks of `SLEEP_BLOCK` agents, each passed over whole when it sleeps:
            // a chunk is a run of tiles of the grid, and only the part of it near a target stays
            // awake.
            for b0 in (0..ld.len()).step_by(SLEEP_BLOCK) {
                let b1 = (b0 + SLEEP_BLOCK).min(ld.len());
                let base = ci * CHUNK + b0;
                let status = far_blocks::of(far, base);
                if status == far_blocks::WAIT {
                    // A far block between its turns: every agent is Cheap (the block lies beyond
                    // the mid band and the camera), its distance counts as none (nobody reads it
                    // but pressure's turn-taking, which then passes it over) and it sees its
                    // target only by a plain sight that cannot reach it; dormancy counts on at
                    // its turn.
                    ld[b0..b1].fill(f32::INFINITY);
                    beyond_sight(out_of_sight, archetypes, &arch[base..base + (b1 - b0)], &mut sees[b0..b1]);
                    tiers[b0..b1].fill(lod::CHEAP);
                    counts.cheap += b1 - b0;
                    counts.dormant += flags[b0..b1].iter().filter(|&&f| f & FLAG_DORMANT != 0).count();
                    continue;
                }
                // A far block's turn covers its whole interval.
                let dt = dt * far_blocks::turn_steps(status, turn_interval) as f32;
                if skip_sleepers && block_sleeps(targets, &pos[base..base + (b1 - b0)], &flags[b0..b1], wake_within) {
                    // Nobody wakes: each stays dormant (flags and countdown as they are) and
                    // Cheap, and sees its target only by a plain sight that needs none.
                    debug_assert!((base..base + (b1 - b0)).all(|i| {
                        let p = pos[i];
                        let own = target_distance(targets, target[i], p);
                        let b = &archetypes[arch[i] as usize].config.behavior;
                        nearest_target(targets, p, target[i], own) >= wake_within
                            && (!b.use_out_of_sight || own > b.sight_distance)
                    }));
                    beyond_sight(out_of_sight, archetypes, &arch[base..base + (b1 - b0)], &mut sees[b0..b1]);
                    if ladder {
                        tiers[b0..b1].fill(lod::CHEAP);
                        counts.cheap += b1 - b0;
                        counts.dormant += b1 - b0;
                    }
                    continue;
                }
                for k in b0..b1 {
                    let i = ci * CHUNK + k;
                    let p = pos[i];
                    if skip_sleepers
                        && flags[k] & FLAGS_RESTING == FLAGS_RESTING
                        && far_from_targets(targets, flat(p), flat(p), wake_within)
                    {
                        // One agent of a block that stays awake, sleeping as a whole block
                        // would (above).
                        sees[k] = !out_of_sight || !archetypes[arch[i] as usize].config.behavior.use_out_of_sight;
                        if ladder {
                            tiers[k] = lod::CHEAP;
                            counts.cheap += 1;
                            counts.dormant += 1;
                        }
                        continue;
                    }
                    let dist = target_distance(targets, target[i], p);
                    let mut dormant = flags[k] & FLAG_DORMANT != 0;
                    // Dormancy is measured to the nearest active target (and the agent's own), so a
                    // target that is not this agent's still wakes it; with none, it is far from all.
                    let near = if dormancy { nearest_target(targets, p, target[i], dist) } else { 0.0 };
                    let woke = !dormancy || (dormant && near < wake_within);
                    if woke {
                        dormant = false;
                        timer[k] = 0.0;
                    }
                    // Only an awake agent asks the camera: a dormant one is Cheap wherever it stands.
                    let on_camera = !dormant && camera.is_some_and(|c| c.contains_sphere(p, params[i].radius));
                    if !woke && !dormant {
                        // An agent walking to a searched spot or a heard noise stays awake (its
                        // awareness is only read when its archetype perceives).
                        let busy = || {
                            any_perception
                                && archetypes[arch[i] as usize].config.perception.is_some()
                                && aware[i].is_going()
                        };
                        if near > sleep_beyond && !on_camera && !busy() {
                            timer[k] += dt;
                            dormant = timer[k] >= delay;
                        } else {
                            timer[k] = 0.0;
                        }
                    }
                    flags[k] = if dormant { flags[k] | FLAG_DORMANT } else { flags[k] & !FLAG_DORMANT };
                    if ladder {
                        let f = ladder_settings.flags(dist, on_camera, dormant);
                        lod::rung(f, &mut tiers[k], dist, i as u32, &mut counts, candidates);
                    }
                    ld[k] = dist;
                    // Plain distance sight (occlusion comes with perception).
                    sees[k] = !out_of_sight || {
                        let b = &archetypes[arch[i] as usize].config.behavior;
                        !b.use_out_of_sight || dist <= b.sight_distance
                    };
                }
            }
            counts
        })
        .reduce(lod::TierCounts::default, |a, b| a + b);
    if ladder {
        lod::share_cap(&s.lod, counts, tier, lod_scratch)
    } else {
        lod::all_full(flags, tier, FLAG_DORMANT)
    }
}

/// The classification of a horde with no Importance LOD ladder, no dormancy, no perception and
/// no plain sight: every agent awake (its dormancy countdown at zero), Full and seeing its target;
/// the distances only where Close-Range Pressure reads them. The same as the whole pass gives
/// such a horde, without it.
fn everyone_full(
    input: &ClassifyIn,
    flags: &mut [u8],
    dormant_timer: &mut [f32],
    tier: &mut [u8],
    lod_dist: &mut [f32],
    sees: &mut [bool],
) -> TierCounts {
    let (pos, target, targets) = (input.pos, input.target, input.targets);
    if input.archetypes.iter().any(|a| a.config.behavior.use_pressure) {
        lod_dist.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, ld)| {
            for (k, d) in ld.iter_mut().enumerate() {
                let (i, p) = (ci * CHUNK + k, pos[ci * CHUNK + k]);
                *d = target_distance(targets, target[i], p);
            }
        });
    }
    for f in flags.iter_mut() {
        *f &= !FLAG_DORMANT;
    }
    dormant_timer.fill(0.0);
    sees.fill(true);
    lod::all_full(flags, tier, FLAG_DORMANT)
}

/// Ground-plane distance from `p` to the agent's target `target` (none: infinitely far).
#[inline]
fn target_distance(targets: &Targets, target: u32, p: Vec3) -> f32 {
    targets.get(target).map_or(f32::INFINITY, |t| Vec2::new(t.position.x - p.x, t.position.z - p.z).length())
}

/// Plain sight of agents beyond every sight distance (passed over by the classification): none
/// for those whose archetype uses Out-of-Sight Fallback (their neighbours read it), and the
/// default for the others. `out_of_sight`: whether any archetype uses it.
fn beyond_sight(out_of_sight: bool, archetypes: &[ArchetypeRuntime], arch: &[u16], sees: &mut [bool]) {
    if out_of_sight {
        for (se, &a) in sees.iter_mut().zip(arch) {
            *se = !archetypes[a as usize].config.behavior.use_out_of_sight;
        }
    } else {
        sees.fill(true);
    }
}

/// How near a target wakes a dormant agent: within 90 % of the dormancy distance (the margin
/// keeps an agent on the boundary from dozing and waking by turns).
pub(crate) fn wake_within(s: &WorldSettings) -> f32 {
    s.dormancy_distance * 0.9
}

/// Agents per block of a chunk that the classification passes over whole when it sleeps
/// (`block_sleeps`), the far blocks' size. Fixed, so which agents are passed over never depends on
/// the thread count.
const SLEEP_BLOCK: usize = far_blocks::FAR_BLOCK;
const _: () = assert!(CHUNK.is_multiple_of(SLEEP_BLOCK));

/// Whether a block of agents (positions `pos`, `flags`) sleeps through this classification: every
/// one of them rested through the last step (`FLAGS_RESTING`: dormant, and its step left it where
/// it stood), and the block's ground-plane bounds lie farther than `wake_within` (plus a metre
/// for rounding) from every registered target, so none of them wakes. Classifying them would
/// change nothing but their distance (which nobody reads of a dormant agent that does not
/// perceive) and their plain sight (none, where the caller allows the pass).
fn block_sleeps(targets: &Targets, pos: &[Vec3], flags: &[u8], wake_within: f32) -> bool {
    if !flags.iter().all(|&f| f & FLAGS_RESTING == FLAGS_RESTING) {
        return false;
    }
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for p in pos {
        lo = lo.min(flat(*p));
        hi = hi.max(flat(*p));
    }
    far_from_targets(targets, lo, hi, wake_within)
}

/// Whether the ground-plane rectangle `lo..=hi` lies farther than `wake_within` (plus a metre
/// for rounding) from every registered target.
#[inline]
fn far_from_targets(targets: &Targets, lo: Vec2, hi: Vec2, wake_within: f32) -> bool {
    targets.all_farther_than(lo, hi, wake_within + 1.0)
}

/// Ground distance from `p` to the nearest active target, or `own` (the distance to the agent's
/// own target, handle `mine`) when that is nearer; infinite with neither.
#[inline]
fn nearest_target(targets: &Targets, p: Vec3, mine: u32, own: f32) -> f32 {
    targets
        .active()
        .iter()
        .filter(|&&h| h != mine)
        .filter_map(|&h| targets.get(h))
        .map(|t| Vec2::new(t.position.x - p.x, t.position.z - p.z).length())
        .fold(own, f32::min)
}

/// Agents chasing each target slot, for Surround Shape's ring size (skipped when unused).
pub(crate) fn count_per_target(archetypes: &[ArchetypeRuntime], target: &[u32], counts: &mut Vec<u32>) {
    counts.clear();
    if !archetypes.iter().any(|a| a.config.behavior.use_surround_shape) {
        return;
    }
    for &t in target {
        if t != NO_TARGET {
            let t = t as usize;
            if counts.len() <= t {
                counts.resize(t + 1, 0);
            }
            counts[t] += 1;
        }
    }
}

/// Close-Range Pressure turn-taking: per target, the nearest agents whose press window is
/// open, up to their `max_active_attackers`, press (wherever they stand); everyone else's
/// pressing flag is cleared. `dist`: each agent's distance to its target (the classification's).
#[allow(clippy::too_many_arguments)]
pub(crate) fn select_pressing(
    archetypes: &[ArchetypeRuntime],
    time: f64,
    arch: &[u16],
    target: &[u32],
    seed: &[u32],
    dist: &[f32],
    flags: &mut [u8],
    candidates: &mut Vec<pressure::Candidate>,
    pressing: &mut Vec<u32>,
) {
    if !archetypes.iter().any(|a| a.config.behavior.use_pressure) {
        return;
    }
    candidates.clear();
    for i in 0..flags.len() {
        flags[i] &= !FLAG_PRESSING;
        let b = &archetypes[arch[i] as usize].config.behavior;
        let t = target[i];
        if !b.use_pressure || t == NO_TARGET || flags[i] & FLAG_DORMANT != 0 {
            continue;
        }
        // Whoever is nearest among those whose turn it is presses, however far out a big
        // crowd has pushed the ring.
        let d = dist[i];
        if d.is_finite() && pressure::window_open(time, seed[i], b.turn_taking_cycle, b.press_window) {
            candidates.push((t, d, i as u32, b.max_active_attackers));
        }
    }
    pressure::select_pressing(candidates, pressing);
    for &i in pressing.iter() {
        flags[i as usize] |= FLAG_PRESSING;
    }
}
