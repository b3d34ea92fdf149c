//! Far blocks, the Importance LOD's cheapest rung in time: agent storage (in the grid's tile
//! order, so a block is a compact patch of the horde) is cut into fixed blocks of `FAR_BLOCK`
//! agents. A block that lies wholly where every agent is certainly Cheap (beyond the
//! hysteresis-widened mid band of every registered target and the plain sight of Out-of-Sight
//! Fallback, beyond waking distance when one of its agents dozes, off camera) and presses
//! nothing (no closed modifier box within a turn's reach) steps once every `cheap_interval`
//! steps, on its turn, moving the whole interval's worth, and its agents wait in between: they
//! are not steered, blocked, settled or moved, and the classification only fills in their tier,
//! distance and sight, so a far horde costs a fraction of a step per agent.
//!
//! Farther out the turns thin out: a block takes its turn every `2 * cheap_interval` steps,
//! `4 * cheap_interval`, and so on (the block's turn *level*), as long as a turn covers at most
//! `LONGEST_TURN` steps and the block stands at least `CLEARANCE_TURNS` such turns' moves (of
//! the fastest archetype) beyond that boundary from every target: however long its turns, it
//! walks up to the boundary in no fewer than that many of them. Each level's turns fall on a
//! subset of the level below's (the same offset, twice the period), so a block that comes
//! nearer keeps its rhythm. In a big horde, runs of neighbouring blocks share their offset
//! (`turn_group`), so each step's turns stand in a few patches of the ground.
//!
//! Each step decides every block's `Status` from the state alone (positions, flags, targets,
//! camera, modifiers, tick), before the classification, so a loaded world decides the same. (A
//! block that waited keeps the bounds it was last decided with, `decide_keeping_bounds`: it has
//! not moved, so they are the bounds its positions give.)
//!
//! - `TURN + level`: far, and its turn (`turn`). Its agents take their full Cheap update (due)
//!   over `turn_steps(status, cheap_interval) * dt` and are marked `FLAG_WAITING`.
//! - `WAIT`: far, not its turn, and every agent marked waiting: they stand where they are, keep
//!   their velocity and facing, sit out body blocking and press nothing.
//! - `NEAR`: anything else (a block that has just become far steps as usual until its turn; an
//!   agent that had stepped ahead and whose block comes near, or whose block the storage
//!   reorder regrouped, steps on at once).
//!
//! Where nothing can be far (LOD off, an interval of 1, perception or a formation order in use)
//! the statuses are empty and no agent waits.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::agents::{FLAG_DORMANT, FLAG_WAITING};
use crate::archetype::ArchetypeRuntime;
use crate::camera::Frustum;
use crate::lod::LodSettings;
use crate::noise::hash2;
use crate::targets::{flat, Targets};

/// Agents per block. Fixed (a divisor of the stages' chunk sizes), so which agents step
/// together never depends on the thread count.
pub const FAR_BLOCK: usize = 128;

/// A block's status this step.
pub type Status = u8;
pub const NEAR: Status = 0;
pub const WAIT: Status = 1;
/// A turn of level 0 (over `cheap_interval` steps); `TURN + level` a turn over `cheap_interval
/// << level` steps (see `is_turn`, `turn_steps`).
pub const TURN: Status = 2;

/// The most steps a far block's turn covers through its level (a Cheap interval longer than this
/// still gives turns over the whole interval, at level 0 only): about half a second at 60 Hz,
/// level 3 at the default interval of 4 (at the default speeds and 60 steps a second, blocks
/// about 100 m or more from every target, off camera).
pub const LONGEST_TURN: u32 = 32;

/// A block takes turns of a level above 0 only where it stands at least this many of those
/// turns' moves beyond the far boundary (the fastest archetype at full speed): at the defaults
/// (4.5 m/s, 60 steps a second, an interval of 4) 15, 30 and 60 m beyond it (the boundary
/// 39.5 m from every target) for levels 1, 2 and 3. So a turn's staleness is a small share of
/// the time before any of its agents can matter, whatever the speeds and step length.
pub const CLEARANCE_TURNS: f32 = 25.0;

/// Turn levels there can be: up to `top_level(2)`, the shortest interval that has far blocks.
pub const LEVELS: usize = 5;

/// Whether `status` is a turn (of any level).
#[inline]
pub fn is_turn(status: Status) -> bool {
    status >= TURN
}

/// The turn level of `status` (none when it is not a turn).
#[inline]
pub fn level(status: Status) -> Option<usize> {
    is_turn(status).then(|| (status - TURN) as usize)
}

/// The steps a turn of `level` covers, for turns every `interval` steps at level 0.
#[inline]
pub fn level_steps(level: usize, interval: u32) -> u32 {
    interval << level
}

/// The steps a turn with `status` covers, for turns every `interval` steps at level 0 (1 for a
/// status that is not a turn).
#[inline]
pub fn turn_steps(status: Status, interval: u32) -> u32 {
    level(status).map_or(1, |l| level_steps(l, interval))
}

/// The highest turn level for turns every `interval` steps at level 0: the last whose turn
/// covers at most `LONGEST_TURN` steps (0 when the interval itself is longer).
pub fn top_level(interval: u32) -> u8 {
    let mut level = 0;
    while interval << (level + 1) <= LONGEST_TURN {
        level += 1;
    }
    level
}

/// Status of agent `i` (`NEAR` when there are no statuses).
#[inline]
pub fn of(statuses: &[Status], i: usize) -> Status {
    statuses.get(i / FAR_BLOCK).copied().unwrap_or(NEAR)
}

/// What deciding the statuses reads.
pub struct FarIn<'a> {
    pub tick: u64,
    pub lod: &'a LodSettings,
    /// How near a target wakes a dormant agent (none: dormancy is off).
    pub wake_within: Option<f32>,
    pub archetypes: &'a [ArchetypeRuntime],
    /// Whether any archetype perceives (its agents read their distance every step).
    pub any_perception: bool,
    /// Whether a formation order runs (its members take their full step every step).
    pub orders: bool,
    pub targets: &'a Targets,
    pub camera: Option<&'a Frustum>,
    /// Ground-plane rectangles of the closed modifier boxes (`SurfaceNav::closed_rects`).
    pub closed: &'a [(Vec2, Vec2)],
    /// Largest body radius.
    pub max_radius: f32,
    /// Farthest a turn can move an agent (the fastest archetype over the longest turn,
    /// `interval << top_level(interval)` steps); a turn of a lower level moves half as far per
    /// level below the top.
    pub turn_reach: f32,
    pub pos: &'a [Vec3],
    pub flags: &'a [u8],
    /// The blocks hold the same agents as at the last decision (no storage reorder since), so
    /// `decide_keeping_bounds` may keep a waiting block's bounds.
    pub kept: bool,
}

/// The steps a far block's turn covers, when far blocks can exist: the ladder on, an interval
/// above 1, no archetype perceiving and no formation order running.
pub fn interval(lod: &LodSettings, any_perception: bool, orders: bool) -> Option<u32> {
    let k = lod.cheap_interval;
    (lod.enabled && k > 1 && !any_perception && !orders).then_some(k)
}

/// Decides every block's status into `out` (empty when none can be far); returns the steps the
/// longest turn taken this step covers (1 when no block takes its turn).
pub fn decide(input: &FarIn, out: &mut Vec<Status>) -> u32 {
    decide_keeping_bounds(input, out, &mut Vec::new(), &mut Vec::new())
}

/// `decide`, with each block's bounds kept in `bounds` between steps: where `out` holds the last
/// step's statuses and `input.kept` says the blocks are the same agents (no reorder since), a
/// block that waited last step and whose agents are all still marked waiting has not moved, so
/// its bounds are not read again from every position. `still[b]` says block `b` is such a block
/// and waits again this step: nothing has moved it since the last step's settling, which left its
/// next positions equal to its positions.
pub fn decide_keeping_bounds(
    input: &FarIn,
    out: &mut Vec<Status>,
    bounds: &mut Vec<(Vec3, Vec3)>,
    still: &mut Vec<bool>,
) -> u32 {
    let n = input.pos.len();
    let blocks = n.div_ceil(FAR_BLOCK);
    let kept = input.kept && out.len() == blocks && bounds.len() == blocks;
    let Some(k) = interval(input.lod, input.any_perception, input.orders) else {
        out.clear();
        return 1;
    };
    let top = top_level(k);
    if !kept {
        out.clear();
        out.resize(blocks, NEAR);
    }
    bounds.resize(blocks, (Vec3::ZERO, Vec3::ZERO));
    still.clear();
    still.resize(blocks, false);
    // Beyond this from every target an agent is past the hysteresis-widened mid band (so Cheap
    // unless drawn) and past the plain sight of every archetype that follows those who see; a
    // block holding a dormant agent must also be past waking distance (a dormant agent wakes in
    // the very step a target comes near).
    let lod = input.lod;
    let sight = input
        .archetypes
        .iter()
        .map(|a| &a.config.behavior)
        .filter(|b| b.use_out_of_sight)
        .fold(0.0f32, |m, b| m.max(b.sight_distance));
    let beyond = (lod.mid_distance * (1.0 + lod.hysteresis)).max(sight) + 1.0;
    let beyond_dormant = beyond.max(input.wake_within.map_or(0.0, |w| w + 1.0));
    // A closed box within reach of the block's bodies over a turn's move (and a margin): an agent
    // there may press it this step.
    let margin = input.max_radius + input.turn_reach + 2.0;
    let group = turn_group(out.len());
    let chunks = (out.par_chunks_mut(64), bounds.par_chunks_mut(64), still.par_chunks_mut(64));
    chunks.into_par_iter().enumerate().for_each(|(ci, (statuses, bounds, still))| {
        for (j, ((s, kept_bounds), still)) in statuses.iter_mut().zip(bounds).zip(still).enumerate() {
            let b = ci * 64 + j;
            let (i0, i1) = (b * FAR_BLOCK, ((b + 1) * FAR_BLOCK).min(n));
            let flags = &input.flags[i0..i1];
            let (all, any) = flags.iter().fold((!0u8, 0u8), |(all, any), &f| (all & f, any | f));
            // A script's move clears the mover's mark, and a turn ends with the block's new
            // positions read at the next step's decision.
            let waited = kept && *s == WAIT && all & FLAG_WAITING != 0;
            if !waited {
                *kept_bounds = bounds_of(&input.pos[i0..i1]);
            }
            debug_assert!(!waited || *kept_bounds == bounds_of(&input.pos[i0..i1]), "block {b} waited but moved");
            let (lo, hi) = *kept_bounds;
            *s = NEAR;
            let beyond = if any & FLAG_DORMANT != 0 { beyond_dormant } else { beyond };
            let Some(level) = far_level(input, (lo, hi), beyond, margin, top) else { continue };
            *s = if turn(b / group, input.tick, k << level) {
                TURN + level
            } else if all & FLAG_WAITING != 0 {
                *still = waited;
                WAIT
            } else {
                NEAR
            };
        }
    });
    out.iter().filter(|&&s| is_turn(s)).map(|&s| turn_steps(s, k)).max().unwrap_or(1)
}

/// The lowest and highest corner of `pos`.
fn bounds_of(pos: &[Vec3]) -> (Vec3, Vec3) {
    pos.iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), p| (lo.min(*p), hi.max(*p)))
}

/// Agents (of `n`) in blocks taking their turn, and in blocks waiting.
pub fn agents_by_status(statuses: &[Status], n: usize) -> (usize, usize) {
    let size = |b: usize| FAR_BLOCK.min(n.saturating_sub(b * FAR_BLOCK));
    statuses.iter().enumerate().fold((0, 0), |(t, w), (b, &s)| match s {
        WAIT => (t, w + size(b)),
        s if is_turn(s) => (t + size(b), w),
        _ => (t, w),
    })
}

/// Whether the blocks of turn group `g` (`turn_group`) take their turn at `tick`, for turns
/// every `k` steps: exactly every `k` steps (so a block never turns twice in a row, and the
/// visual sync's refresh bands show its agents at most one turn behind until a reorder regroups
/// them), at an offset drawn per group. Turns every `2 * k` steps fall on turns every `k` (the
/// next level's on this level's), so a block whose level changes never takes two turns less than
/// the shorter period apart. Groups side by side in storage (neighbours on the ground, in tile
/// order) so take their turns in no fixed sweep: an offset that followed the storage order would
/// sweep across the horde the same way every time and push it that way.
#[inline]
pub fn turn(g: usize, tick: u64, k: u32) -> bool {
    let k = k.max(1) as u64;
    (tick + hash2(g as u32, 0x5eed) as u64).is_multiple_of(k)
}

/// The turn group of each block, of `blocks` in all, is `block / turn_group(blocks)`: runs of
/// consecutive blocks (a patch of the ground, in tile order) that share their turns' offset, so
/// a step's turns stand in a few patches instead of all over the horde. The grid's rebuild then
/// refiles the movers of those patches only (a mover shifts the filing between its old and new
/// place, a whole row of cells when it changes row: spread over the horde, the shifts cover
/// nearly every entry), and the turning agents' neighbours are near in memory. At least
/// `TURN_GROUPS` groups remain, so the turns still spread about evenly over the steps (a horde
/// of fewer blocks turns block by block, as it always did); the groups change only with the
/// number of blocks, which changes only where blocks are regrouped anyway (a spawn, a despawn).
#[inline]
pub fn turn_group(blocks: usize) -> usize {
    (blocks / TURN_GROUPS).clamp(1, MAX_TURN_GROUP)
}

/// The fewest turn groups a horde is cut into (see `turn_group`).
const TURN_GROUPS: usize = 512;
/// The most blocks in a turn group (2,048 agents).
const MAX_TURN_GROUP: usize = 16;

/// Whether every agent standing in the box `lo..=hi` is certainly Cheap and far from anything
/// that needs it every step, and if so its turn level (at most `top`): the highest whose turns'
/// moves, `CLEARANCE_TURNS` times over, fit between `beyond` and the box's distance from every
/// target.
fn far_level(input: &FarIn, (lo, hi): (Vec3, Vec3), beyond: f32, margin: f32, top: u8) -> Option<u8> {
    let (flat_lo, flat_hi) = (flat(lo), flat(hi));
    if !input.targets.all_farther_than(flat_lo, flat_hi, beyond) {
        return None;
    }
    let (l, h) = (flat_lo - Vec2::splat(margin), flat_hi + Vec2::splat(margin));
    if input.closed.iter().any(|&(a, b)| a.x <= h.x && l.x <= b.x && a.y <= h.y && l.y <= b.y) {
        return None;
    }
    // The block's bodies lie within this sphere (with a generous reach upward for their height).
    let seen = input
        .camera
        .is_some_and(|cam| cam.contains_sphere((lo + hi) * 0.5, (hi - lo).length() * 0.5 + input.max_radius + 4.0));
    if seen {
        return None;
    }
    // A turn of level `l` moves at most `turn_reach / 2^(top - l)`.
    let clearance = |l: u8| CLEARANCE_TURNS * input.turn_reach / (1u32 << (top - l)) as f32;
    let mut level = 0;
    while level < top && input.targets.all_farther_than(flat_lo, flat_hi, beyond + clearance(level + 1)) {
        level += 1;
    }
    Some(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(pos: &'a [Vec3], flags: &'a [u8], targets: &'a Targets, lod: &'a LodSettings) -> FarIn<'a> {
        FarIn {
            tick: 0,
            lod,
            wake_within: None,
            archetypes: &[],
            any_perception: false,
            orders: false,
            targets,
            camera: None,
            closed: &[],
            max_radius: 0.5,
            turn_reach: 2.4,
            pos,
            flags,
            kept: false,
        }
    }

    #[test]
    fn blocks_beyond_the_mid_band_take_turns_and_wait_and_farther_ones_less_often() {
        let lod = LodSettings::default();
        let mut targets = Targets::default();
        targets.register(Vec3::ZERO, 1.0);
        // Six blocks: one at the target, then (past the widened mid band, 39.5 m with the
        // margin, and with turns of level 3 moving 2.4 m, 4.5 m/s for 32 steps at 60 Hz) one
        // less than 15 m beyond it (level 0), one less than 30 m (level 1), one less than 60 m
        // (level 2) and two farther (level 3, turns every 32 steps).
        let mut pos = vec![Vec3::new(1.0, 0.0, 0.0); FAR_BLOCK];
        for x in [50.0, 60.0, 95.0, 105.0, 500.0] {
            pos.extend(vec![Vec3::new(x, 0.0, 0.0); FAR_BLOCK]);
        }
        let levels = [0u8, 0, 1, 2, 3, 3];
        let mut flags = vec![FLAG_WAITING; 6 * FAR_BLOCK];
        flags[4 * FAR_BLOCK] = 0;
        let mut out = Vec::new();
        assert_eq!(top_level(lod.cheap_interval), 3);
        let mut turns_of = [0; 6];
        for tick in 0..4 * LONGEST_TURN as u64 {
            let mut inp = input(&pos, &flags, &targets, &lod);
            inp.tick = tick;
            let longest = decide(&inp, &mut out);
            let turn = |b: usize| turn(b, tick, lod.cheap_interval << levels[b]);
            let want = (1..6).filter(|&b| turn(b)).map(|b| lod.cheap_interval << levels[b]).max().unwrap_or(1);
            assert_eq!(longest, want, "tick {tick}");
            assert_eq!(out[0], NEAR, "the block at the target");
            for (b, &got) in out.iter().enumerate().skip(1) {
                let turn = turn(b);
                turns_of[b] += turn as u32;
                // Block 4 holds an agent that has not stepped ahead: it steps as usual.
                let expect = if turn {
                    TURN + levels[b]
                } else if b == 4 {
                    NEAR
                } else {
                    WAIT
                };
                assert_eq!(got, expect, "block {b} at tick {tick}");
                if turn {
                    assert_eq!(turn_steps(got, lod.cheap_interval), lod.cheap_interval << levels[b]);
                }
            }
        }
        assert_eq!(turns_of, [0, 32, 16, 8, 4, 4]);
        assert_eq!(turn_steps(WAIT, 4), 1);
        assert_eq!(turn_steps(NEAR, 4), 1);
        // The longest turn: `LONGEST_TURN` steps, or the interval when it is longer.
        assert_eq!([2, 3, 4, 8, 9, 16, 64].map(top_level), [4, 3, 3, 2, 1, 1, 0]);
        assert_eq!(top_level(2) as usize + 1, LEVELS);
    }

    #[test]
    fn a_waiting_block_keeps_its_bounds_until_a_mark_is_cleared_or_storage_reordered() {
        let lod = LodSettings::default();
        let mut targets = Targets::default();
        targets.register(Vec3::ZERO, 1.0);
        let far = vec![Vec3::new(500.0, 0.0, 0.0); FAR_BLOCK];
        let mut flags = vec![FLAG_WAITING; FAR_BLOCK];
        let (mut out, mut bounds) = (Vec::new(), Vec::new());
        let wait_tick = (0..).find(|&t| !turn(0, t, lod.cheap_interval << 3)).unwrap();
        let mut inp = input(&far, &flags, &targets, &lod);
        inp.tick = wait_tick;
        inp.kept = true;
        let mut still = Vec::new();
        decide_keeping_bounds(&inp, &mut out, &mut bounds, &mut still);
        assert_eq!(out, [WAIT]);
        assert_eq!(bounds, [(far[0], far[0])]);
        assert_eq!(still, [false], "it did not wait last step");
        decide_keeping_bounds(&inp, &mut out, &mut bounds, &mut still);
        assert_eq!((out.as_slice(), still.as_slice()), ([WAIT].as_slice(), [true].as_slice()), "waited twice");
        // Moved beside the target with every mark cleared (as the world does for a move from
        // outside the step), or with the marks kept but storage reordered: read anew.
        let near = vec![Vec3::new(2.0, 0.0, 0.0); FAR_BLOCK];
        flags[7] = 0;
        for (flags, kept) in [(&flags, true), (&vec![FLAG_WAITING; FAR_BLOCK], false)] {
            let (mut out, mut bounds) = (vec![WAIT], vec![(far[0], far[0])]);
            let mut inp = input(&near, flags, &targets, &lod);
            inp.tick = wait_tick;
            inp.kept = kept;
            let mut still = Vec::new();
            decide_keeping_bounds(&inp, &mut out, &mut bounds, &mut still);
            assert_eq!((out[0], bounds[0], still[0]), (NEAR, (near[0], near[0]), false), "kept {kept}");
        }
    }

    #[test]
    fn a_level_s_turns_fall_on_turns_of_the_level_below() {
        for b in 0..100 {
            for t in 0..64 {
                for (k, level) in [(4u32, 1u32), (4, 2), (2, 3), (3, 2)] {
                    if turn(b, t, k << level) {
                        assert!(turn(b, t, k << (level - 1)), "block {b}, tick {t}, interval {k}, level {level}");
                    }
                }
            }
        }
    }

    #[test]
    fn in_a_big_horde_neighbouring_blocks_turn_and_wait_together() {
        // 2,048 blocks, all 500 m from the target (level 3): groups of 4 blocks.
        let lod = LodSettings::default();
        let mut targets = Targets::default();
        targets.register(Vec3::ZERO, 1.0);
        let blocks = 2048;
        let pos = vec![Vec3::new(500.0, 0.0, 0.0); blocks * FAR_BLOCK];
        let flags = vec![FLAG_WAITING; blocks * FAR_BLOCK];
        let group = turn_group(blocks);
        assert_eq!(group, 4);
        let mut out = Vec::new();
        let mut turning = 0;
        for tick in 0..LONGEST_TURN as u64 {
            let mut inp = input(&pos, &flags, &targets, &lod);
            inp.tick = tick;
            decide(&inp, &mut out);
            for (g, statuses) in out.chunks(group).enumerate() {
                let expect = if turn(g, tick, LONGEST_TURN) { TURN + 3 } else { WAIT };
                assert!(statuses.iter().all(|&s| s == expect), "group {g} at tick {tick}: {statuses:?}");
            }
            turning += out.iter().filter(|&&s| is_turn(s)).count();
        }
        // Each block turns once in the 32 steps.
        assert_eq!(turning, blocks);
    }

    #[test]
    fn big_hordes_turn_in_groups_of_neighbouring_blocks() {
        // Up to 1,023 blocks (130,944 agents) every block is its own group, as before groups;
        // a million agents (7,813 blocks) turn 15 blocks at a time; never more than 16.
        assert_eq!(turn_group(0), 1);
        assert_eq!(turn_group(1023), 1);
        assert_eq!(turn_group(1024), 2);
        assert_eq!(turn_group(7813), 15);
        assert_eq!(turn_group(1 << 20), MAX_TURN_GROUP);
    }

    #[test]
    fn each_block_turns_every_interval_steps_at_offsets_in_no_block_order() {
        for k in [2u32, 4, 7] {
            for b in 0..50 {
                let turns: Vec<u64> = (0..20 * k as u64).filter(|&t| turn(b, t, k)).collect();
                assert_eq!(turns.len(), 20, "block {b}, interval {k}");
                assert!(turns.windows(2).all(|w| w[1] - w[0] == k as u64), "block {b}, interval {k}: {turns:?}");
            }
            // Neighbouring blocks' offsets: not one step apart in a row (a sweep).
            let offset = |b: usize| (0..k as u64).find(|&t| turn(b, t, k)).unwrap();
            let sweeps = (0..200).filter(|&b| (offset(b) + 1) % k as u64 == offset(b + 1)).count();
            assert!(sweeps < 200 / k as usize + 20, "interval {k}: {sweeps} of 200 neighbours one step apart");
        }
    }

    #[test]
    fn nothing_is_far_near_a_closed_box_on_camera_or_with_the_ladder_off() {
        let mut lod = LodSettings::default();
        let mut targets = Targets::default();
        targets.register(Vec3::ZERO, 1.0);
        let pos = vec![Vec3::new(500.0, 0.0, 0.0); FAR_BLOCK];
        let flags = vec![FLAG_WAITING; FAR_BLOCK];
        let mut out = Vec::new();
        let closed = [(Vec2::new(501.0, -1.0), Vec2::new(502.0, 1.0))];
        let mut inp = input(&pos, &flags, &targets, &lod);
        inp.tick = (0..).find(|&t| !turn(0, t, lod.cheap_interval)).unwrap();
        decide(&inp, &mut out);
        assert_eq!(out, [WAIT]);
        inp.wake_within = Some(600.0);
        decide(&inp, &mut out);
        assert_eq!(out, [WAIT], "within waking distance, nobody dormant");
        let dozing = vec![FLAG_WAITING | FLAG_DORMANT; FAR_BLOCK];
        inp.flags = &dozing;
        decide(&inp, &mut out);
        assert_eq!(out, [NEAR], "within waking distance of a dormant agent");
        inp.flags = &flags;
        inp.wake_within = None;
        inp.closed = &closed;
        decide(&inp, &mut out);
        assert_eq!(out, [NEAR], "a closed box beside the block");
        // A box-shaped view of half-size 10 round the block, then one far from it.
        let view = |x: f32| Frustum {
            planes: vec![
                glam::Vec4::new(1.0, 0.0, 0.0, x + 10.0),
                glam::Vec4::new(-1.0, 0.0, 0.0, 10.0 - x),
                glam::Vec4::new(0.0, 0.0, 1.0, 10.0),
                glam::Vec4::new(0.0, 0.0, -1.0, 10.0),
            ],
            position: Vec3::new(x, 5.0, 0.0),
        };
        for (x, seen) in [(500.0, true), (-500.0, false)] {
            let cam = view(x);
            let mut inp = input(&pos, &flags, &targets, &lod);
            inp.tick = (0..).find(|&t| !turn(0, t, lod.cheap_interval)).unwrap();
            inp.camera = Some(&cam);
            decide(&inp, &mut out);
            assert_eq!(out, [if seen { NEAR } else { WAIT }], "camera at x = {x}");
        }
        // A view of the upper floor only (y 25..35), round x 500: the block standing there at
        // y 30 is seen, whatever height the horde's other agents stand at.
        let floor = Frustum {
            planes: vec![
                glam::Vec4::new(1.0, 0.0, 0.0, 510.0),
                glam::Vec4::new(-1.0, 0.0, 0.0, -490.0),
                glam::Vec4::new(0.0, 1.0, 0.0, 35.0),
                glam::Vec4::new(0.0, -1.0, 0.0, -25.0),
            ],
            position: Vec3::new(500.0, 30.0, 20.0),
        };
        let mut two_floors = vec![Vec3::new(-500.0, 0.0, 0.0); FAR_BLOCK];
        two_floors.extend(vec![Vec3::new(500.0, 30.0, 0.0); FAR_BLOCK]);
        let flags2 = vec![FLAG_WAITING; 2 * FAR_BLOCK];
        let mut inp = input(&two_floors, &flags2, &targets, &lod);
        inp.tick = (0..).find(|&t| !turn(0, t, lod.cheap_interval) && !turn(1, t, lod.cheap_interval)).unwrap();
        inp.camera = Some(&floor);
        decide(&inp, &mut out);
        assert_eq!(out, [WAIT, NEAR], "the block on the upper floor is on camera");
        lod.enabled = false;
        let inp = input(&pos, &flags, &targets, &lod);
        assert_eq!(decide(&inp, &mut out), 1);
        assert!(out.is_empty());
    }
}
