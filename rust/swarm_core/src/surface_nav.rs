//! Agents on the surface flow field: which cell each agent stands in, one field per
//! target slot kept current (`FieldSet`), the steering direction an agent reads from its target's
//! field, and the settle pass after movement that grounds agents on their cell's surface, keeps
//! them out of cells they may not enter and brings strays back onto the nearest walkable cell.
//! Doors and barricades (`ModifierBox`es) restamp the modifier layer as a whole; agents pressing
//! a closed cell are counted per box.

use glam::{Vec2, Vec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::far_blocks;
use crate::flow_field::{
    constrain_move, escape_closed_cell, path_length, recover, CellId, FieldSet, FieldSetSettings, FlowField,
    ModifierBox, ModifierLayer, PathScratch, SpotFields, StampResult, SurfaceGrid, NONE,
};
use crate::targets::Targets;

/// Formation orders that hold a flow field toward their destination at once.
pub const MAX_FORMATION_FIELDS: usize = 8;
/// Rings of columns searched when an agent has left the field.
const RECOVER_RINGS: u32 = 64;
/// An agent whose route is no longer than this many times the straight distance (plus two cells)
/// has a clear run at the target and may use its slot instead of the field.
const CLEAR_RUN: f32 = 1.2;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SurfaceNav {
    pub grid: SurfaceGrid,
    pub mods: ModifierLayer,
    pub fields: FieldSet,
    /// Fields toward the spots perceiving agents search or investigate.
    pub spots: SpotFields,
    /// Fields toward the destinations of formation orders (`MAX_FORMATION_FIELDS` slots).
    pub formations: FieldSet,
    #[serde(skip)]
    spot_scratch: Vec<CellId>,
    /// Scratch of `path_length` (never read before it is reset).
    #[serde(skip)]
    path: PathScratch,
    /// Cell of each target slot, for `target_field`.
    target_cells: Vec<CellId>,
    /// Per cell: index of the modifier box that stamped it (`NONE`: none).
    box_of_cell: Vec<u32>,
    /// Per box: agents pressing its closed cells in the last step, and the sum of their
    /// heading directions (ground plane).
    pressing: Vec<u32>,
    push_dir: Vec<Vec2>,
    /// Per box: whether agents strike it (something there takes damage).
    attackable: Vec<bool>,
    fingerprint: u64,
}

/// The most cell-long pieces one agent's move is settled in (`SurfaceNav::settle`).
const MAX_PIECES: u32 = 64;

impl SurfaceNav {
    pub fn new(grid: SurfaceGrid, settings: FieldSetSettings) -> Self {
        let mods = ModifierLayer::new(&grid);
        let cells = grid.cell_count();
        Self {
            grid,
            mods,
            fields: FieldSet::new(settings),
            spots: SpotFields::new(settings),
            formations: {
                let mut f = FieldSet::new(settings);
                f.set_slot_count(MAX_FORMATION_FIELDS);
                f
            },
            spot_scratch: Vec::new(),
            path: PathScratch::default(),
            target_cells: Vec::new(),
            box_of_cell: vec![NONE; cells],
            pressing: Vec::new(),
            push_dir: Vec::new(),
            attackable: Vec::new(),
            fingerprint: 0,
        }
    }

    /// Checks a loaded flow field against itself and the target slot count (the grid checked
    /// itself when it was read): layer, fields and per-box records sized alike, no NaN.
    pub(crate) fn validate(&self, target_slots: usize) -> Result<(), String> {
        let cells = self.grid.cell_count();
        self.mods.validate(cells)?;
        self.fields.validate(&self.grid, target_slots)?;
        self.spots.validate(&self.grid)?;
        if self.formations.slot_count() != MAX_FORMATION_FIELDS {
            return Err("flow field's formation fields are miscounted".into());
        }
        self.formations.validate(&self.grid, MAX_FORMATION_FIELDS).map_err(|e| format!("formation fields: {e}"))?;
        if self.target_cells.len() > target_slots || self.target_cells.iter().any(|&c| c != NONE && c as usize >= cells)
        {
            return Err("flow field's target cells are out of range".into());
        }
        let boxes = self.pressing.len();
        if self.push_dir.len() != boxes || self.attackable.len() != boxes || self.box_of_cell.len() != cells {
            return Err("flow field's per-box records disagree in length".into());
        }
        if self.box_of_cell.iter().any(|&b| b != NONE && b as usize >= boxes) {
            return Err("flow field names a modifier box that does not exist".into());
        }
        if self.push_dir.iter().any(|d| !d.is_finite()) {
            return Err("flow field's push direction is not a number".into());
        }
        Ok(())
    }

    /// Points every active target's slot at the cell under it and advances field builds.
    pub fn update_targets(&mut self, targets: &Targets, slot_count: usize, now: f64) {
        self.fields.set_slot_count(slot_count);
        self.target_cells.resize(slot_count, NONE);
        for slot in 0..slot_count {
            let cell = match targets.get(slot as u32) {
                Some(t) if t.active => self.cell_under(t.position),
                _ => NONE,
            };
            self.target_cells[slot] = cell;
            self.fields.set_target(slot, cell);
        }
        self.fields.tick(&self.grid, &self.mods, now);
    }

    /// Points the spot fields at the spots agents walk to (`spots`: one point per such agent)
    /// and advances their builds.
    pub fn update_spots(&mut self, spots: impl Iterator<Item = Vec3>, now: f64) {
        let mut cells = std::mem::take(&mut self.spot_scratch);
        cells.clear();
        cells.extend(spots.map(|p| self.cell_under(p)));
        self.spots.update(&self.grid, &self.mods, cells.iter().copied(), now);
        self.spot_scratch = cells;
    }

    /// Points the formation fields at their orders' destination cells (`NONE`: unused) and
    /// advances their rebuilds (after route costs changed).
    pub fn update_formations(&mut self, cells: &[CellId], now: f64) {
        for (k, &c) in cells.iter().enumerate().take(MAX_FORMATION_FIELDS) {
            self.formations.set_target(k, c);
        }
        if cells.iter().any(|&c| c != NONE) {
            self.formations.tick(&self.grid, &self.mods, now);
        }
    }

    /// Builds formation field `k` toward `cell` at once (a new order measures its routes on it).
    pub fn build_formation_field(&mut self, k: usize, cell: CellId, now: f64) {
        self.formations.build_now(k, &self.grid, &self.mods, cell, now);
    }

    /// The built formation field `k`.
    #[inline]
    pub fn formation_field(&self, k: u8) -> Option<&FlowField> {
        self.formations.field(k as usize).filter(|f| f.is_built())
    }

    /// The complete flow field toward the spot at `p`, if that spot holds one.
    #[inline]
    pub fn spot_field(&self, p: Vec3) -> Option<&FlowField> {
        self.spots.field_toward(self.cell_under(p))
    }

    /// The open cell under a point, or the nearest open one.
    pub fn cell_under(&self, p: Vec3) -> CellId {
        match self.grid.locate(p) {
            Some(c) if crate::flow_field::enforce::is_open(&self.grid, &self.mods, c) => c,
            _ => recover(&self.grid, &self.mods, p, RECOVER_RINGS).map_or(NONE, |(_, c)| c),
        }
    }

    /// The built field of a target slot.
    pub fn target_field(&self, slot: u32) -> Option<&FlowField> {
        self.fields.field(slot as usize).filter(|f| f.is_built())
    }

    /// Route length between two points over open cells; `None` when either is off the field or
    /// no route exists.
    ///
    /// A field toward `to`'s cell (a target's, a searched spot's or a formation order's) built on
    /// the current route costs answers at once; otherwise a search (jump point search over
    /// precomputed jump distances, built on the first query after the route blocks change; A*
    /// where cost boxes make steps unequal).
    pub fn path_length(&mut self, from: Vec3, to: Vec3) -> Option<f32> {
        let (a, b) = (self.cell_under(from), self.cell_under(to));
        if a == NONE || b == NONE {
            return None;
        }
        if let Some(d) = self.field_distance(a, b) {
            return d.is_finite().then_some(d);
        }
        path_length(&self.grid, &self.mods, a, b, f32::INFINITY, &mut self.path)
    }

    /// The route distance from cell `a` on a field toward cell `b` that is built on the current
    /// route costs, if one exists.
    fn field_distance(&self, a: CellId, b: CellId) -> Option<f32> {
        let sets = [&self.fields, &self.formations];
        let field = sets
            .iter()
            .flat_map(|set| (0..set.slot_count()).filter_map(|k| set.current_field(k)))
            .find(|f| f.target() == b && f.distance.cell_count() == self.grid.cell_count())
            .or_else(|| self.spots.current_field_toward(b))?;
        Some(field.distance(a))
    }

    /// Replaces every modifier (the whole layer is restamped). Fields rebuild, throttled, only
    /// when the route costs or closures actually changed. Returns what each stamp did.
    pub fn set_modifiers(&mut self, boxes: &[ModifierBox], out: &mut Vec<StampResult>) {
        for &c in self.mods.touched() {
            self.box_of_cell[c as usize] = NONE;
        }
        self.mods.clear();
        out.clear();
        for (k, b) in boxes.iter().enumerate() {
            let before = self.mods.touched().len();
            out.push(self.mods.stamp_box(&self.grid, b));
            for &c in &self.mods.touched()[before..] {
                self.box_of_cell[c as usize] = k as u32;
            }
        }
        self.pressing.clear();
        self.pressing.resize(boxes.len(), 0);
        self.push_dir.clear();
        self.push_dir.resize(boxes.len(), Vec2::ZERO);
        self.attackable.clear();
        self.attackable.resize(boxes.len(), false);
        let fp = self.mods.route_fingerprint();
        if fp != self.fingerprint {
            self.fingerprint = fp;
            self.fields.mark_costs_changed();
            self.spots.mark_costs_changed();
            self.formations.mark_costs_changed();
        }
    }

    /// Ground-plane rectangles `(min, max)` of the closed cells of each modifier box that has any
    /// (agents may press them), into `out` (far blocks keep away from them).
    pub fn closed_rects(&self, out: &mut Vec<(Vec2, Vec2)>) {
        out.clear();
        out.resize(self.pressing.len(), (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)));
        let (g, size) = (&self.grid, self.grid.cell_size());
        let origin = Vec2::new(g.origin().x, g.origin().z);
        for &c in self.mods.touched() {
            let k = self.box_of_cell[c as usize];
            if k == NONE || !self.mods.blocks_agents(c) {
                continue;
            }
            let (x, z) = g.column_xz(g.column_of(c));
            let lo = origin + Vec2::new(x as f32, z as f32) * size;
            let r = &mut out[k as usize];
            *r = (r.0.min(lo), r.1.max(lo + Vec2::splat(size)));
        }
        out.retain(|r| r.0.x <= r.1.x);
    }

    /// Agents that pressed against box `k`'s closed cells in the last step.
    pub fn pressing_count(&self, k: usize) -> u32 {
        self.pressing.get(k).copied().unwrap_or(0)
    }

    /// Mean ground-plane direction of the agents pressing box `k` (zero when none): the way the
    /// crowd shoves it.
    pub fn push_direction(&self, k: usize) -> Vec2 {
        self.push_dir.get(k).map_or(Vec2::ZERO, |d| d.normalize_or_zero())
    }

    /// Marks which boxes agents strike when they press them (something there takes damage and
    /// its modifier lets agents attack it).
    pub fn set_attackable(&mut self, flags: &[bool]) {
        for (a, &f) in self.attackable.iter_mut().zip(flags) {
            *a = f;
        }
    }

    /// The attackable box whose closed cell `cell` is, if any.
    #[inline]
    pub fn attackable_box(&self, cell: CellId) -> Option<u32> {
        if cell == NONE {
            return None;
        }
        let k = *self.box_of_cell.get(cell as usize)?;
        self.attackable.get(k as usize).copied().unwrap_or(false).then_some(k)
    }

    /// Counts, per box, the agents whose last move pressed a closed cell (`pressed`, per agent)
    /// and that are going somewhere (`going`: the agent's heading, `None` when it is not).
    pub fn count_pressing(&mut self, pressed: &[CellId], going: impl Fn(usize) -> Option<Vec2>) {
        self.pressing.iter_mut().for_each(|p| *p = 0);
        self.push_dir.iter_mut().for_each(|d| *d = Vec2::ZERO);
        if self.pressing.is_empty() {
            return;
        }
        for (i, &c) in pressed.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let Some(dir) = going(i) else { continue };
            let k = self.box_of_cell[c as usize] as usize;
            if let Some(p) = self.pressing.get_mut(k) {
                *p += 1;
                self.push_dir[k] += dir;
            }
        }
    }

    /// Completed field builds over all slots.
    pub fn rebuild_count(&self) -> u64 {
        (0..self.fields.slot_count()).map(|s| self.fields.build_count(s)).sum()
    }

    /// Steering toward a target along its field, when the field should be followed: the route
    /// is known and the agent is far, or walls make the route longer than a clear run. `None`
    /// means "use the slot approach" (close with a clear run, or no field yet). An unreachable
    /// agent gets `Some(ZERO)`.
    #[inline]
    pub fn steer(&self, target_slot: u32, cell: CellId, pos: Vec3, straight: f32, near_band: f32) -> Option<Vec2> {
        self.steer_on(self.target_field(target_slot)?, cell, pos, straight, near_band)
    }

    /// `steer` on a given field (a target's or a spot's).
    #[inline]
    pub fn steer_on(&self, field: &FlowField, cell: CellId, pos: Vec3, straight: f32, near_band: f32) -> Option<Vec2> {
        if cell == NONE {
            return None;
        }
        let route = field.distance(cell);
        if !route.is_finite() {
            return Some(Vec2::ZERO);
        }
        let clear = route <= straight * CLEAR_RUN + 2.0 * self.grid.cell_size();
        if clear && straight <= near_band {
            return None;
        }
        Some(field.sample(&self.grid, cell, pos))
    }

    /// After movement: every agent moves from `old` toward `new` across open cells only (when
    /// `enforce`), stands on its cell's surface, and strays are brought back. Writes the settled
    /// positions into `new` and the cells into `cells`.
    /// `pressed` receives, per agent, the closed cell its move pressed against (`NONE` if none).
    #[allow(clippy::too_many_arguments)] // (the columns it reads and writes, one by one)
    pub fn settle(
        &self,
        enforce: bool,
        old: &[Vec3],
        new: &mut [Vec3],
        cells: &mut [CellId],
        pressed: &mut [CellId],
        chunk: usize,
        far: &[far_blocks::Status],
    ) {
        debug_assert!(chunk.is_multiple_of(far_blocks::FAR_BLOCK));
        (new.par_chunks_mut(chunk), cells.par_chunks_mut(chunk), pressed.par_chunks_mut(chunk))
            .into_par_iter()
            .enumerate()
            .for_each(|(ci, (np, cs, pr))| {
                for (b, ((np, cs), pr)) in np
                    .chunks_mut(far_blocks::FAR_BLOCK)
                    .zip(cs.chunks_mut(far_blocks::FAR_BLOCK))
                    .zip(pr.chunks_mut(far_blocks::FAR_BLOCK))
                    .enumerate()
                {
                    let base = ci * chunk + b * far_blocks::FAR_BLOCK;
                    if far_blocks::of(far, base) == far_blocks::WAIT {
                        // Waiting agents stand where they are (their next position is their
                        // position) and press nothing.
                        pr.fill(NONE);
                        continue;
                    }
                    for (k, ((p, c), pr)) in np.iter_mut().zip(cs.iter_mut()).zip(pr.iter_mut()).enumerate() {
                        (*p, *c, *pr) = self.settle_long(enforce, old[base + k], *p, *c);
                    }
                }
            });
    }

    /// `settle_one` for a move of any length: one longer than a cell (a far block's turn covers
    /// several steps) is taken in pieces of at most a cell, so that no piece skips one; a move
    /// of more than `MAX_PIECES` cells stops after that many.
    #[inline]
    fn settle_long(&self, enforce: bool, old: Vec3, want: Vec3, cell: CellId) -> (Vec3, CellId, CellId) {
        let step = self.grid.cell_size();
        let d = Vec2::new(want.x - old.x, want.z - old.z);
        let len2 = d.length_squared();
        if len2 <= step * step || !len2.is_finite() {
            return self.settle_one(enforce, old, want, cell);
        }
        let len = len2.sqrt();
        let whole = (len / step).ceil();
        let pieces = whole.min(MAX_PIECES as f32) as u32;
        // Each piece from where the last one ended (a blocked piece never leaves the next one
        // more than a piece away).
        let piece = d / whole;
        let (mut at, mut cell, mut pressed) = (old, cell, NONE);
        for _ in 0..pieces {
            let to = Vec3::new(at.x + piece.x, at.y, at.z + piece.y);
            let (p, c, pr) = self.settle_one(enforce, at, to, cell);
            (at, cell) = (p, c);
            if pressed == NONE {
                pressed = pr;
            }
        }
        (at, cell, pressed)
    }

    #[inline]
    fn settle_one(&self, enforce: bool, old: Vec3, want: Vec3, cell: CellId) -> (Vec3, CellId, CellId) {
        let g = &self.grid;
        let start = if cell != NONE && (cell as usize) < g.cell_count() { cell } else { g.locate(old).unwrap_or(NONE) };
        let rescue = |p: Vec3| {
            let (q, c) = recover(&self.grid, &self.mods, p, RECOVER_RINGS).unwrap_or((p, NONE));
            (q, c, NONE)
        };
        if start == NONE {
            return rescue(want);
        }
        if enforce && !crate::flow_field::enforce::is_open(g, &self.mods, start) {
            // A door closed on it: step out into the nearest open neighbour.
            return escape_closed_cell(g, &self.mods, start, old).map_or_else(|| rescue(want), |(p, c)| (p, c, NONE));
        }
        if enforce {
            let r = constrain_move(g, &self.mods, start, old, want);
            return (r.pos, r.cell, r.pressed);
        }
        match g.step_cell(start, want).or_else(|| g.locate(want)) {
            Some(c) if g.is_walkable(c) => (Vec3::new(want.x, g.ground_height(c, want), want.z), c, NONE),
            _ => rescue(want),
        }
    }
}
