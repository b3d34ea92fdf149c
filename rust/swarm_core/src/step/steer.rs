//! Stage 4, steering (parallel over chunks): target choice, the Importance LOD gate, every
//! steering behaviour blended, movement and facing, per agent (`agent_step`: within each far
//! block every agent decides, then the deciding agents move, four at a time on SSE lanes where
//! four in a row can: `movement_lanes`). Reads the agents'
//! positions, velocities, parameters, archetypes, seeds, tiers, cells and awareness, the targets,
//! the grid, the flow field, the chaser counts and sight; writes `next_pos`, the agents'
//! facing, turn rate, steering, target, retarget timer, stored goal and flags, and (when body
//! blocking runs) each agent's blocking record and push resistance at its grid rank in
//! `blocking_spare` and `blocking_resistance`; each Personal Space scan writes the contacts it
//! listed at the agent's rank in `blocking_contacts` (`contact_list`).

use glam::{Vec2, Vec3, Vec4};
use rayon::prelude::*;

use std::mem::MaybeUninit;

use crate::agent_step::{at_rest, AgentIn, AgentState, Intent, StepCtx};
use crate::agents::Agents;
use crate::archetype::{ArchetypeMaxima, ArchetypeRuntime};
use crate::body_blocking::{self, resistance};
use crate::config::WorldSettings;
use crate::contact_list::ContactLists;
use crate::far_blocks;
use crate::formation::{Formations, Seat};
use crate::scatter::Scatter;
use crate::snorm::Snorm2;
use crate::spatial_grid::SpatialGrid;
use crate::step::chunk::CHUNK;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// What steering reads besides the agents.
pub(crate) struct SteerIn<'a> {
    pub dt: f32,
    pub time: f64,
    pub tick: u64,
    pub settings: &'a WorldSettings,
    pub maxima: &'a ArchetypeMaxima,
    pub archetypes: &'a [ArchetypeRuntime],
    pub targets: &'a Targets,
    pub grid: &'a SpatialGrid,
    pub nav: Option<&'a SurfaceNav>,
    pub target_counts: &'a [u32],
    pub sees: &'a [bool],
    pub formations: &'a Formations,
    /// Each far block's status this step (`far_blocks`; empty: none), and the steps a turn of
    /// level 0 covers (`far_blocks::turn_steps`).
    pub far: &'a [far_blocks::Status],
    pub turn_interval: u32,
}

/// Whether every agent of a chunk is `at_rest` outside any formation order: `StepCtx::begin`
/// would let each through its resting path. `orders`: whether any order runs; with none, no
/// agent has a seat (an order's end clears its members' seats), so the seats are not read
/// (24 bytes an agent: a tenth of a resting horde's step).
#[inline]
fn chunk_rests(flags: &[u8], steer: &[Vec2], vel: &[Vec3], seat: &[Seat], orders: bool) -> bool {
    // (Resting first: an awake chunk fails on its first agent.)
    flags.iter().zip(steer).zip(vel).all(|((&f, &s), &v)| at_rest(f, s, v))
        && !(orders && seat.iter().any(Seat::is_ordered))
}

/// Agents per steering work item for `n` agents: `CHUNK`, or less for a smaller horde, so that
/// there are at least `STEER_ITEMS` items and the last ones leave the other threads little idle
/// time (an item of the like-for-like horde takes about 0.3 ms at 1,024 agents); never below
/// `MIN_STEER_CHUNK`. Steering has no reduction, so its split never changes a result.
fn steer_chunk(n: usize) -> usize {
    // (Whole far blocks to an item.)
    (n / STEER_ITEMS).clamp(MIN_STEER_CHUNK, CHUNK) / far_blocks::FAR_BLOCK * far_blocks::FAR_BLOCK
}

const STEER_ITEMS: usize = 64;
const MIN_STEER_CHUNK: usize = 256;
// (An agent's place in its far block is kept in a byte between steering's loops.)
const _: () = assert!(far_blocks::FAR_BLOCK <= 256);

/// Runs the per-agent step for every agent.
#[inline(never)]
pub(crate) fn steer(
    input: &SteerIn,
    a: &mut Agents,
    next_pos: &mut [Vec3],
    blocking_spare: &mut Vec<Vec4>,
    blocking_resistance: &mut Vec<f32>,
    blocking_contacts: &mut ContactLists,
) {
    let SteerIn {
        dt,
        time,
        tick,
        settings,
        maxima,
        archetypes,
        targets,
        grid,
        nav,
        target_counts,
        sees,
        formations,
        far,
        turn_interval,
    } = *input;
    // (Personal Space lists the contacts whether or not body blocking runs: one branch less
    // in its scan.)
    blocking_contacts.resize(a.pos.len());
    let contacts = blocking_contacts.writer();
    let ctx = StepCtx {
        dt,
        far_turn: false,
        time,
        ground: if nav.is_some() { f32::NAN } else { settings.ground_height },
        // (A thousandth of a metre more for rounding.)
        isolation_reach: maxima.max_radius + 2.0 * maxima.max_speed * dt + 1e-3,
        contacts: &contacts,
        tick: tick as u32,
        retarget_interval: settings.retarget_interval,
        hysteresis: settings.retarget_hysteresis,
        archetypes,
        targets,
        grid,
        lod: &settings.lod,
        every: StepCtx::intervals(&settings.lod),
        target_counts,
        sees,
        nav,
        formations,
    };
    // A far block's turn, by its level: a longer step, and so a longer reach of its isolation
    // proof. (An agent stepping as usual proves its own for steps as usual: if a far block's agent
    // comes into contact with it on that block's turn, that agent, not isolated, moves out of it
    // by its own share.)
    let turn_ctx: [StepCtx; far_blocks::LEVELS] = std::array::from_fn(|level| {
        let long = dt * far_blocks::level_steps(level, turn_interval) as f32;
        let isolation_reach = ctx.isolation_reach + 2.0 * maxima.max_speed * (long - dt);
        StepCtx { dt: long, far_turn: true, isolation_reach, ..ctx }
    });
    let aware = &a.aware[..];
    let (pos, vel, params, arch, seeds, tiers, cells) =
        (&a.pos[..], &a.vel[..], &a.params[..], &a.archetype[..], &a.seed[..], &a.tier[..], &a.cell[..]);
    // Body blocking starts from the moved agents' records in the grid's cell order: each
    // agent writes its own, and its push resistance, at its rank (a permutation), sparing
    // blocking a gather pass and a look-up per neighbour.
    let n = pos.len();
    let blocking = settings.body_blocking && n > 1;
    blocking_spare.resize(if blocking { n } else { 0 }, Vec4::ZERO);
    blocking_resistance.resize(if blocking { n } else { 0 }, 0.0);
    let rank = grid.rank();
    let chunk = steer_chunk(n);
    let orders = !formations.is_empty();
    // Only an agent of the Importance LOD holds its steering, facing its stored goal: with the
    // ladder off, no goal is read (`World::update_settings` stores each agent's facing as its
    // goal when the ladder is switched on).
    let goals = settings.lod.enabled;
    debug_assert!(orders || !a.seat.iter().any(Seat::is_ordered), "a seat outlived its order");
    let records = Scatter::new(blocking_spare);
    let resistances = Scatter::new(blocking_resistance);
    (
        next_pos.par_chunks_mut(chunk),
        a.facing.par_chunks_mut(chunk),
        a.yaw_rate.par_chunks_mut(chunk),
        a.steer.par_chunks_mut(chunk),
        a.target.par_chunks_mut(chunk),
        a.retarget_timer.par_chunks_mut(chunk),
        a.goal.par_chunks_mut(chunk),
        a.flags.par_chunks_mut(chunk),
        a.seat.par_chunks_mut(chunk),
    )
        .into_par_iter()
        .enumerate()
        .for_each(|(ci, (np, facing, yaw_rate, steer, target, timer, goal, flags, seat))| {
            let base = ci * chunk;
            // Every column of the item cut to its length, so indexing them by an agent of the
            // item needs no bounds check (the split gave them all the same length).
            let n = np.len();
            let (facing, yaw_rate, steer, target, timer) =
                (&mut facing[..n], &mut yaw_rate[..n], &mut steer[..n], &mut target[..n], &mut timer[..n]);
            let (goal, flags, seat) = (&mut goal[..n], &mut flags[..n], &mut seat[..n]);
            // (`flags`: the agent's flags as its step leaves them.)
            let record = |i: usize, p: Vec3, flags: u8| {
                if blocking {
                    let (k, prm) = (rank[i] as usize, &params[i]);
                    // SAFETY: `rank` is a permutation of the agent indices, and each agent
                    // writes only at its own rank.
                    unsafe {
                        records.write(k, Vec4::new(p.x, p.z, p.y, prm.radius));
                        resistances.write(k, resistance(prm.push_resistance, flags));
                    }
                }
            };
            // Block by block (a far block's agents step together).
            for b0 in (0..np.len()).step_by(far_blocks::FAR_BLOCK) {
                let b1 = (b0 + far_blocks::FAR_BLOCK).min(np.len());
                let status = far_blocks::of(far, base + b0);
                if status == far_blocks::WAIT {
                    // Waiting: it stands where it is, untouched (its next position is settling's
                    // to write, its record the grid's, already where it stands); only its push
                    // resistance at its rank says it stands firm this step.
                    if blocking {
                        for &k in &rank[base + b0..base + b1] {
                            // SAFETY: as in `record`.
                            unsafe { resistances.write(k as usize, body_blocking::STANDS_FIRM) };
                        }
                    }
                    continue;
                }
                let ctx = far_blocks::level(status).map_or(&ctx, |level| &turn_ctx[level]);
                let rests =
                    chunk_rests(&flags[b0..b1], &steer[b0..b1], &vel[base + b0..base + b1], &seat[b0..b1], orders);
                if rests {
                    // Every agent takes `begin`'s resting path, without the per-agent step's setup.
                    for k in b0..b1 {
                        let f = &mut flags[k];
                        ctx.mark(f);
                        np[k] = ctx.rest(f, pos[base + k]);
                        record(base + k, np[k], *f);
                    }
                    continue;
                }
                let mut input = AgentIn { i: base, pos, vel, params, arch, seeds, tiers, cells, aware };
                // Two loops over the block: each agent decides (behaviours, or its held goal),
                // then the deciding agents move, four at a time on lanes where they can. The same
                // operations for each agent as one loop, but the moving loop is short enough for
                // the processor to overlap one agent's chain of square roots and divisions with
                // the next one's.
                let mut intents = [const { MaybeUninit::<(u8, Intent)>::uninit() }; far_blocks::FAR_BLOCK];
                let mut deciding = 0;
                for k in b0..b1 {
                    let i = base + k;
                    input.i = i;
                    let gate = match ctx.begin(&input, &mut target[k], &mut timer[k], &mut flags[k], steer[k], &seat[k])
                    {
                        Ok(gate) => gate,
                        Err(coasted) => {
                            np[k] = coasted;
                            record(i, coasted, flags[k]);
                            continue;
                        }
                    };
                    let mut st = AgentState {
                        target: target[k],
                        flags: flags[k],
                        spacing: Vec2::ZERO,
                        goal: if gate.holds() { goal[k].get() } else { Vec2::ZERO },
                        approached: false,
                        seat: seat[k],
                    };
                    let intent = ctx.decide(&input, &mut st, gate);
                    (target[k], flags[k]) = (st.target, st.flags);
                    if orders {
                        // (Only an order's step changes a seat.)
                        seat[k] = st.seat;
                    }
                    if goals && st.approached {
                        goal[k] = Snorm2::new(st.goal);
                    }
                    intents[deciding].write(((k - b0) as u8, intent));
                    deciding += 1;
                }
                // The moves four at a time where four agents in a row may go on lanes
                // (`advance4`, the same results), else one at a time.
                let mut e = 0;
                while e < deciding {
                    // SAFETY (here and below): the first `deciding` entries were written above.
                    let at = |e: usize| unsafe { intents[e].assume_init_ref() };
                    if e + 4 <= deciding {
                        let four: [&(u8, Intent); 4] = std::array::from_fn(|l| at(e + l));
                        let ks = four.map(|(j, _)| b0 + *j as usize);
                        let is = ks.map(|k| base + k);
                        let intents = four.map(|(_, t)| t);
                        if let Some(moved) = ctx.advance4(&input, is, intents, ks, steer, facing, yaw_rate) {
                            for ((k, i), p) in ks.into_iter().zip(is).zip(moved) {
                                np[k] = p;
                                record(i, p, flags[k]);
                            }
                            e += 4;
                            continue;
                        }
                    }
                    let (j, intent) = at(e);
                    let k = b0 + *j as usize;
                    input.i = base + k;
                    np[k] = ctx.advance(&input, intent, &mut steer[k], &mut facing[k], &mut yaw_rate[k]);
                    record(base + k, np[k], flags[k]);
                    e += 1;
                }
            }
        });
}
