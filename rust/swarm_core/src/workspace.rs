//! The workspace: every per-step scratch buffer and derived cache beside the simulation state
//! (`SimState`): the spatial grid and whether it is out of date, the archetype maxima, body
//! blocking's buffers, the classification's outputs (distances, sight, LOD scratch), pressing
//! selection, surface settling's pressed cells, attack events and their per-chunk scratch,
//! reduction partials, the last step's stats and the thread pool. Nothing here carries over
//! from one step to the next in a way the state does not determine: `Workspace::new(&state)`
//! (or `reset`) rebuilds it at any time, with the grid marked dirty, and the next step gives
//! the same bits as with the workspace the world had.

use std::sync::Arc;

use glam::{DVec3, Vec2, Vec3, Vec4};

use crate::agents::{AgentParams, Cycles};
use crate::archetype::ArchetypeMaxima;
use crate::body_blocking::BlockingScratch;
use crate::combat::AttackEvent;
use crate::contact_list::ContactLists;
use crate::far_blocks;
use crate::flow_field::IntegrationJob;
use crate::lod::TierScratch;
use crate::spatial_grid::{SpatialGrid, Unmoved};
use crate::state::SimState;
use crate::stats::StepStats;
use crate::steering::pressure;
use crate::step::chunk::CHUNK;

/// The step length a query between steps builds the grid for (its cell size).
pub const QUERY_DT: f32 = 1.0 / 60.0;

pub struct Workspace {
    /// The spatial grid, valid for the agents' positions unless `grid_dirty`.
    pub(crate) grid: SpatialGrid,
    pub(crate) grid_dirty: bool,
    /// Ground-plane bounds of the positions as the last step left them, while nothing has moved
    /// an agent since (the deferred grid rebuild then skips a pass over the positions).
    pub(crate) pending_bounds: Option<(Vec2, Vec2)>,
    /// By far block: it waited in the last step, so its agents stand where the grid's last
    /// rebuild filed them (the deferred rebuild passes over them); empty when nothing is known
    /// (anything but a step moved agents, or the rebuild since took it).
    pub(crate) unmoved: Vec<bool>,
    /// The last step's length (after its clamp), once a step ran with this workspace.
    pub(crate) last_dt: Option<f32>,
    /// The grid was built beside the host's work (`build_grid_beside`) and no query or step
    /// has used it yet: a query takes it as its own (as if it had built it), and a step whose
    /// cells differ from a query's builds its own instead.
    pub(crate) grid_ahead: bool,
    /// Derived from the archetypes: neighbourhood sizes, perception features in use.
    pub(crate) maxima: ArchetypeMaxima,
    /// Positions the step moves agents to (before blocking and settling).
    pub(crate) next_pos: Vec<Vec3>,
    /// Body blocking's second buffer of cell-ordered records.
    pub(crate) blocking_spare: Vec<Vec4>,
    /// Body blocking's push resistances in the grid's cell order (`body_blocking::resistance`
    /// at each agent's rank), written by steering beside the records.
    pub(crate) blocking_resistance: Vec<f32>,
    /// Body blocking's contact lists by grid rank (`contact_list`), written by Personal Space
    /// in steering and by blocking's first pass where that walks the grid.
    pub(crate) blocking_contacts: ContactLists,
    /// Per agent: ground-plane distance to its target (`INFINITY`: none), from the classification.
    pub(crate) lod_dist: Vec<f32>,
    pub(crate) lod_scratch: TierScratch,
    /// Per agent: whether it sees its target this step.
    pub(crate) sees: Vec<bool>,
    /// Body blocking's buffers (who overlapped, who runs again).
    pub(crate) blocking: BlockingScratch,
    /// Agents chasing each target slot (Surround Shape).
    pub(crate) target_counts: Vec<u32>,
    pub(crate) press_candidates: Vec<pressure::Candidate>,
    pub(crate) pressing: Vec<u32>,
    /// Hits landed in the last step (the step's output, cleared by the next).
    pub(crate) events: Vec<AttackEvent>,
    /// Ids of the formation orders whose members all arrived in the last step.
    pub(crate) formation_arrivals: Vec<i64>,
    pub(crate) event_scratch: Vec<Vec<AttackEvent>>,
    /// Storage reorder's scratch: the new order (the grid's tile order) and its cycles.
    pub(crate) storage_order: Vec<u32>,
    pub(crate) cycles: Cycles,
    /// Per agent: the closed cell its last move pressed against (surface settling).
    pub(crate) pressed: Vec<u32>,
    /// Per block of `far_blocks::FAR_BLOCK` agents: its far-block status this step (empty when
    /// no block can be far), and the closed modifier boxes' rectangles it was decided with.
    pub(crate) far: Vec<far_blocks::Status>,
    /// Per block: its bounds at the last decision (kept for blocks that wait).
    pub(crate) far_bounds: Vec<(Vec3, Vec3)>,
    /// Per block: it waits this step and waited last step, untouched (`far_blocks::decide_keeping_bounds`).
    pub(crate) far_still: Vec<bool>,
    pub(crate) closed_rects: Vec<(Vec2, Vec2)>,
    /// Per chunk partial sums (the centroid).
    pub(crate) partials: Vec<DVec3>,
    /// Hearing's route search from a noise (its buffers kept between noises).
    pub(crate) hearing: IntegrationJob,
    /// The last step's counts and timings (its `ticks` mirrors the state's).
    pub(crate) stats: StepStats,
    pub(crate) pool: Arc<rayon::ThreadPool>,
}

impl Workspace {
    /// A fresh workspace for `state` (its thread pool has `worker_threads` threads).
    pub fn new(state: &SimState) -> Self {
        let cap = state.settings.max_agents;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(state.settings.worker_threads)
            .thread_name(|i| format!("swarm-{i}"))
            .build()
            .expect("rayon thread pool");
        let mut ws = Self {
            grid: SpatialGrid::with_capacity(cap),
            grid_dirty: true,
            pending_bounds: None,
            unmoved: Vec::with_capacity(cap / far_blocks::FAR_BLOCK + 1),
            last_dt: None,
            grid_ahead: false,
            maxima: ArchetypeMaxima::of(&state.archetypes),
            next_pos: Vec::with_capacity(cap),
            blocking_spare: Vec::with_capacity(cap),
            blocking_resistance: Vec::with_capacity(cap),
            blocking_contacts: ContactLists::default(),
            lod_dist: Vec::with_capacity(cap),
            lod_scratch: TierScratch::default(),
            sees: Vec::with_capacity(cap),
            blocking: BlockingScratch::default(),
            target_counts: Vec::new(),
            press_candidates: Vec::new(),
            pressing: Vec::new(),
            events: Vec::new(),
            formation_arrivals: Vec::new(),
            event_scratch: Vec::new(),
            storage_order: Vec::with_capacity(cap),
            cycles: Cycles::with_capacity(cap),
            pressed: Vec::new(),
            far: Vec::with_capacity(cap / far_blocks::FAR_BLOCK + 1),
            far_bounds: Vec::with_capacity(cap / far_blocks::FAR_BLOCK + 1),
            far_still: Vec::with_capacity(cap / far_blocks::FAR_BLOCK + 1),
            closed_rects: Vec::new(),
            partials: Vec::with_capacity(cap / CHUNK + 1),
            hearing: IntegrationJob::new(),
            stats: StepStats { ticks: state.ticks, ..StepStats::default() },
            pool: Arc::new(pool),
        };
        ws.restore_query_grid(state);
        ws
    }

    /// Forgets every derived cache (the buffers keep their memory): the grid is rebuilt before
    /// its next use and the maxima are recomputed from `state`.
    pub fn reset(&mut self, state: &SimState) {
        self.maxima = ArchetypeMaxima::of(&state.archetypes);
        self.positions_changed();
        self.events.clear();
        self.formation_arrivals.clear();
        self.stats = StepStats { ticks: state.ticks, ..StepStats::default() };
        self.blocking_contacts.forget();
        self.restore_query_grid(state);
    }

    /// Something other than a step moved, added or removed agents: the grid is rebuilt before
    /// its next use, with fresh bounds.
    pub(crate) fn positions_changed(&mut self) {
        self.grid_dirty = true;
        self.grid_ahead = false;
        self.pending_bounds = None;
        self.unmoved.clear();
        // Agents may have been added, removed or swapped, or their radii changed.
        self.grid.forget();
        // The last step's statuses no longer say who stood still.
        self.far.clear();
    }

    /// Rebuilds the spatial grid for `pos` and radii from `params` (cell size for a step of `dt`).
    pub(crate) fn rebuild_grid(&mut self, pos: &[Vec3], params: &[AgentParams], dt: f32) {
        let (cell, bounds) = (self.maxima.cell_size(dt), self.pending_bounds.take());
        rebuild_grid(&mut self.grid, pos, params, cell, bounds, &mut self.unmoved);
        self.grid_dirty = false;
    }

    /// The grid for queries between steps: rebuilt (on the pool, cell size for a step of
    /// `QUERY_DT`) if anything moved; returns whether it now counts as built by this query (it
    /// was rebuilt, or built ahead and not yet used: the very grid the query would build).
    pub(crate) fn ensure_grid(&mut self, pos: &[Vec3], params: &[AgentParams]) -> bool {
        if !self.grid_dirty {
            return std::mem::take(&mut self.grid_ahead);
        }
        let pool = self.pool.clone();
        pool.install(|| self.rebuild_grid(pos, params, QUERY_DT));
        true
    }

    /// Runs `f` on the calling thread while the pool rebuilds the grid as `ensure_grid` would
    /// (see `grid_ahead`), when the grid is out of date and the last step's cells are a query's
    /// (a step of the same length then uses the grid as it is).
    pub(crate) fn build_grid_beside<R>(&mut self, pos: &[Vec3], params: &[AgentParams], f: impl FnOnce() -> R) -> R {
        let query_cell = self.maxima.cell_size(QUERY_DT);
        if !self.grid_dirty || self.last_dt.is_none_or(|dt| self.maxima.cell_size(dt) != query_cell) {
            return f();
        }
        let (grid, bounds, unmoved) = (&mut self.grid, self.pending_bounds.take(), &mut self.unmoved);
        let result = self.pool.in_place_scope(|s| {
            s.spawn(move |_| rebuild_grid(grid, pos, params, query_cell, bounds, unmoved));
            f()
        });
        self.grid_dirty = false;
        self.grid_ahead = true;
        result
    }

    /// A step of `dt` is about to use the grid: one built ahead for other cells than the step's
    /// is built again for the step (as it would have been without `build_grid_beside`).
    pub(crate) fn take_grid_ahead(&mut self, dt: f32) {
        if std::mem::take(&mut self.grid_ahead) && self.grid.min_cell_size() != self.maxima.cell_size(dt) {
            self.grid_dirty = true;
        }
    }

    /// A fresh workspace's grid is dirty, so the next step would build it for that step's `dt`;
    /// when the world's grid had been built by a query since the last step (for `QUERY_DT`, and
    /// the next step uses it as it is), it is built that way again so the next step sees the
    /// same grid.
    fn restore_query_grid(&mut self, state: &SimState) {
        if state.grid_built_by_query {
            self.ensure_grid(&state.agents.pos, &state.agents.params);
        }
    }
}

/// Rebuilds `grid` for `pos` (radii from `params`), with the positions' bounds when known,
/// passing over the far blocks `unmoved` names (taken: a rebuild later compares with this one).
pub(crate) fn rebuild_grid(
    grid: &mut SpatialGrid,
    pos: &[Vec3],
    params: &[AgentParams],
    cell: f32,
    bounds: Option<(Vec2, Vec2)>,
    unmoved: &mut Vec<bool>,
) {
    match bounds {
        Some(b) => {
            let unmoved = Unmoved { blocks: unmoved, block: far_blocks::FAR_BLOCK };
            grid.rebuild_within(pos, &|i| params[i].radius, cell, b, unmoved)
        }
        None => grid.rebuild(pos, &|i| params[i].radius, cell),
    }
    unmoved.clear();
}
