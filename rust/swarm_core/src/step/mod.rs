//! The step pipeline: the order of the stages and their phase timings. Each stage is a function
//! in its own file, taking the state and workspace parts it reads and writes (no `World`):
//!
//! 1. `select_targets` (sequential; counts only in `step_ms`): active targets, flow-field slots
//!    and builds.
//! 2. `reorder` (when due): agent storage into the grid's tile order; then `far_blocks::decide`:
//!    which blocks of far Cheap agents take their turn this step and which wait.
//! 3. `classify`, beside the grid rebuild the last step left pending: dormancy, the LOD ladder,
//!    distances, plain sight, chaser counts, pressing turns.
//! 4. `perceive`: sight, memory, noises, alerts, ray requests.            (phase: classify)
//! 5. `steer`: the per-agent step into `next_pos`.                         (phase: steer)
//! 6. `block`: body blocking.                                             (phase: body_blocking)
//! 7. `settle`: surface settling, velocities, new positions, pressing.    (phase: settle)
//! 8. `attack`: swings, contact damage, events; then formation orders are followed (arrivals,
//!    members, completed orders).                                        (phase: attack)
//!
//! Every per-agent write goes to that agent's own index (or its own rank) and every reduction
//! uses fixed chunks (`chunk::CHUNK`), so results do not depend on the thread count.

pub mod attack;
pub mod block;
pub mod chunk;
pub mod classify;
pub mod going;
pub mod perceive;
pub mod reorder;
pub mod select_targets;
pub mod settle;
pub mod steer;

use std::time::Instant;

use crate::far_blocks;
use crate::state::SimState;
use crate::workspace::{self, Workspace};

/// Advances `state` by `dt` seconds (already validated, not yet clamped).
pub(crate) fn step(state: &mut SimState, ws: &mut Workspace, dt: f32) {
    let started = Instant::now();
    let dt = dt.min(0.1);
    ws.last_dt = Some(dt);
    ws.take_grid_ahead(dt);
    state.ticks += 1;
    ws.stats.ticks = state.ticks;
    state.time += dt as f64;
    // Whatever grid a query built is used (or replaced) by this step, which leaves it dirty.
    state.grid_built_by_query = false;

    let pool = ws.pool.clone();
    ws.stats.active_targets = select_targets::select_targets(
        &pool,
        &state.settings,
        dt,
        state.time,
        &state.agents.pos,
        &mut ws.partials,
        &mut state.targets,
        state.nav.as_mut(),
        &select_targets::SpotsIn {
            archetypes: &state.archetypes,
            arch: &state.agents.archetype,
            aware: &state.agents.aware,
            pos: &state.agents.pos,
        },
    );
    if let Some(nav) = state.nav.as_mut() {
        let mut cells = [crate::flow_field::NONE; crate::surface_nav::MAX_FORMATION_FIELDS];
        state.formations.field_cells(&mut cells);
        nav.update_formations(&cells, state.time);
    }
    pool.install(|| step_parallel(state, ws, dt));
    ws.stats.step_ms = started.elapsed().as_secs_f32() * 1000.0;
}

// Out of line (called once a step), so profiles and `tools/instructions.sh` see the stage.
#[inline(never)]
fn step_parallel(state: &mut SimState, ws: &mut Workspace, dt: f32) {
    let mut clock = Instant::now();
    let mut lap = || {
        let now = Instant::now();
        let ms = (now - clock).as_secs_f32() * 1000.0;
        clock = now;
        ms
    };
    let n = state.agents.len();
    ws.next_pos.resize(n, glam::Vec3::ZERO);
    let reordered = reorder::due(n, state.ticks, state.reordered_at, state.unsorted);
    if reordered {
        // The reorder follows the grid's tile order (and refiles the grid for the new storage).
        // A grid built since the last step for this step's cells (by a query, or beside the
        // engine's upload) is the one built here.
        let built_here = ws.grid_dirty || ws.grid.min_cell_size() == ws.maxima.cell_size(dt);
        if ws.grid_dirty {
            ws.rebuild_grid(&state.agents.pos, &state.agents.params, dt);
        }
        ws.grid.tile_order(&mut ws.storage_order);
        reorder::reorder_by_cell(&mut state.agents, &mut state.ids, &ws.storage_order, &mut ws.cycles);
        state.layout += 1;
        state.unsorted = 0;
        state.reordered_at = state.ticks;
        if built_here {
            // Built for this step's positions and cell size: only the agent indices changed.
            ws.grid.follow_storage_order(&ws.storage_order);
        } else {
            // Built by a query since the last step for other cells (`QUERY_DT`'s): rebuilt for
            // this step as before. Agent indices now stand for other agents, so nearly all would
            // count as changing cell.
            ws.grid.forget();
            ws.rebuild_grid(&state.agents.pos, &state.agents.params, dt);
        }
    }
    // Which blocks of far agents take their turn or wait (from the state as the last step left it).
    let orders = !state.formations.is_empty();
    // The steps a far block's turn covers at level 0 (1: no block can be far).
    let turn_interval = far_blocks::interval(&state.settings.lod, ws.maxima.any_perception, orders).unwrap_or(1);
    ws.closed_rects.clear();
    if let (Some(nav), true) = (state.nav.as_ref(), turn_interval > 1) {
        nav.closed_rects(&mut ws.closed_rects);
    }
    let far_in = far_blocks::FarIn {
        tick: state.ticks,
        lod: &state.settings.lod,
        wake_within: state.settings.dormancy_enabled.then(|| classify::wake_within(&state.settings)),
        archetypes: &state.archetypes,
        any_perception: ws.maxima.any_perception,
        orders,
        targets: &state.targets,
        camera: state.camera.as_ref(),
        closed: &ws.closed_rects,
        max_radius: ws.maxima.max_radius,
        turn_reach: ws.maxima.max_speed * dt * (turn_interval << far_blocks::top_level(turn_interval)) as f32,
        pos: &state.agents.pos,
        flags: &state.agents.flags,
        kept: !reordered,
    };
    let any_turn = far_blocks::decide_keeping_bounds(&far_in, &mut ws.far, &mut ws.far_bounds, &mut ws.far_still) > 1;
    (ws.stats.far_turn, ws.stats.far_waiting) = far_blocks::agents_by_status(&ws.far, n);
    classify_and_rebuild_grid(state, ws, dt, turn_interval);
    let a = &mut state.agents;
    let perceive_in = perceive::PerceiveIn {
        dt,
        tick: state.ticks as u32,
        eye_height: state.settings.agent_height,
        maxima: &ws.maxima,
        archetypes: &state.archetypes,
        targets: &state.targets,
        nav: state.nav.as_ref(),
        ids: &state.ids,
        grid: &ws.grid,
        dist: &ws.lod_dist,
    };
    ws.stats.perception = perceive::perceive(&perceive_in, a, &mut state.perception, &mut ws.sees, &mut ws.hearing);
    ws.stats.phases.classify = lap();

    let steer_in = steer::SteerIn {
        dt,
        time: state.time,
        tick: state.ticks,
        settings: &state.settings,
        maxima: &ws.maxima,
        archetypes: &state.archetypes,
        targets: &state.targets,
        grid: &ws.grid,
        nav: state.nav.as_ref(),
        target_counts: &ws.target_counts,
        sees: &ws.sees,
        formations: &state.formations,
        far: &ws.far,
        turn_interval,
    };
    steer::steer(
        &steer_in,
        a,
        &mut ws.next_pos,
        &mut ws.blocking_spare,
        &mut ws.blocking_resistance,
        &mut ws.blocking_contacts,
    );
    ws.stats.phases.steer = lap();

    let blocked = state.settings.body_blocking && n > 1;
    // Off a flow field the blocked positions are read straight from the grid's records by
    // settling (one pass over the agents less); settling on a field needs them in `next_pos`.
    let from_grid = blocked && state.nav.is_none();
    if blocked {
        block::block(
            dt,
            &state.settings,
            &ws.maxima,
            &ws.blocking_resistance,
            &mut ws.blocking_contacts,
            state.ticks as u32,
            &a.flags,
            &ws.far,
            turn_interval,
            any_turn,
            &a.tier,
            !from_grid,
            &mut ws.next_pos,
            &mut ws.grid,
            &mut ws.blocking_spare,
            &mut ws.blocking,
        );
    }
    ws.stats.phases.body_blocking = lap();

    let bounds = settle::settle(
        dt,
        state.settings.ground_height,
        state.settings.surface_flow_enforce_cell_boundaries,
        from_grid,
        &state.archetypes,
        &ws.grid,
        state.nav.as_mut(),
        a,
        &mut ws.next_pos,
        &mut ws.pressed,
        &settle::FarKept { far: &ws.far, still: &ws.far_still, bounds: &ws.far_bounds },
        turn_interval,
    );
    // The grid for the new positions is built at the start of the next step (alongside the
    // classification), or by the first query before it.
    ws.grid_dirty = true;
    ws.pending_bounds = (n > 0).then_some(bounds);
    // The blocks that waited stand where the grid filed them: the rebuild passes over them.
    ws.unmoved.clear();
    ws.unmoved.extend(ws.far.iter().map(|&s| s == far_blocks::WAIT));
    ws.stats.phases.settle = lap();

    attack::attack(
        dt,
        &state.archetypes,
        &state.targets,
        state.nav.as_ref(),
        &state.ids,
        &ws.pressed,
        a,
        &mut ws.event_scratch,
        &mut ws.events,
    );
    crate::formation::orders::follow(&mut state.formations, &mut a.seat, &a.pos, &mut ws.formation_arrivals);
    ws.stats.phases.attack = lap();
}

/// Classifies the agents, and runs the grid rebuild a step leaves pending (if any) alongside
/// (the classification does not read the grid): the rebuild's counting sort is sequential,
/// and this way the other threads spend that time classifying.
fn classify_and_rebuild_grid(state: &mut SimState, ws: &mut Workspace, dt: f32, turn_interval: u32) {
    let a = &mut state.agents;
    let input = classify::ClassifyIn {
        dt,
        settings: &state.settings,
        archetypes: &state.archetypes,
        any_perception: ws.maxima.any_perception,
        targets: &state.targets,
        camera: state.camera.as_ref(),
        pos: &a.pos,
        params: &a.params,
        target: &a.target,
        arch: &a.archetype,
        aware: &a.aware,
        far: &ws.far,
        turn_interval,
    };
    let out = classify::ClassifyOut {
        flags: &mut a.flags,
        dormant_timer: &mut a.dormant_timer,
        tier: &mut a.tier,
        seed: &a.seed,
        time: state.time,
        lod_dist: &mut ws.lod_dist,
        sees: &mut ws.sees,
        lod_scratch: &mut ws.lod_scratch,
        target_counts: &mut ws.target_counts,
        press_candidates: &mut ws.press_candidates,
        pressing: &mut ws.pressing,
    };
    let classify = || classify::run(&input, out);
    ws.stats.tiers = if ws.grid_dirty {
        let (cell, bounds) = (ws.maxima.cell_size(dt), ws.pending_bounds.take());
        let grid = &mut ws.grid;
        let (pos, params, unmoved) = (input.pos, input.params, &mut ws.unmoved);
        let ((), tiers) = rayon::join(|| workspace::rebuild_grid(grid, pos, params, cell, bounds, unmoved), classify);
        ws.grid_dirty = false;
        tiers
    } else {
        classify()
    };
}
