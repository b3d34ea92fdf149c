//! Route lengths over one flow field toward an order's destination, shared by every slot (no
//! path query per agent). An agent whose straight line to a point is blocked walks down the
//! field (steepest descent toward the destination) until the line opens: its exit. Its route is
//! the field's route to the exit, widened by `FIELD_DETOUR` for the corners a crowd walks wide
//! of, plus the straight leg from the exit. Exits toward the destination itself are shared
//! between agents whose descents meet (`ExitMemo`), so a dense group pays for each cell of its
//! paths about once.

use glam::{Vec2, Vec3};

use super::seat::Seat;
use crate::flow_field::{line_is_open, CellId, FlowField, ModifierLayer, SurfaceGrid, NONE};

/// Longest straight line (in half-cell steps) checked for being open; a longer one counts as
/// blocked, and the agent follows the destination's flow field until it is nearer.
pub const MAX_LINE_STEPS: u32 = 512;

/// The flow field toward an order's destination, with its grid.
#[derive(Clone, Copy)]
pub struct RouteField<'a> {
    pub grid: &'a SurfaceGrid,
    pub mods: &'a ModifierLayer,
    pub field: &'a FlowField,
}

impl RouteField<'_> {
    /// Route distance of `cell` to the destination (`None` off the field or unreachable).
    #[inline]
    pub fn distance(&self, cell: CellId) -> Option<f32> {
        if cell == NONE || cell as usize >= self.grid.cell_count() {
            return None;
        }
        Some(self.field.distance(cell)).filter(|d| d.is_finite())
    }
}

impl RouteField<'_> {
    /// Whether the straight line from `p` (in `cell`) to `slot` crosses open cells only.
    #[inline]
    pub fn line_open(&self, cell: CellId, p: Vec3, slot: Vec2) -> bool {
        line_is_open(self.grid, self.mods, cell, p, slot, MAX_LINE_STEPS)
    }
}

/// A route read off the flow field (between cell centres, corners cut to the cell) is this much
/// shorter than what a crowd walks around those corners, keeping clear of walls and each other.
pub const FIELD_DETOUR: f32 = 1.2;
/// Where a walk down the destination's field leaves it for a straight line (`RouteField::exit`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exit {
    /// The exit cell's centre (ground plane).
    pub at: Vec2,
    /// Its route distance to the destination.
    pub route: f32,
    /// The straight leg from it to the point the line was checked toward.
    pub leg: f32,
}

/// Cells followed down the field at most when looking for the exit (`RouteField::exit`).
const MAX_EXIT_CELLS: usize = 4096;

impl RouteField<'_> {
    /// The linked neighbour of `cell` nearest the destination, with its route distance.
    #[inline]
    pub fn steepest(&self, cell: CellId) -> Option<(CellId, f32)> {
        self.grid
            .links(cell)
            .iter()
            .filter_map(|&n| Some((n, self.distance(n)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
    }

    /// Where an agent in `cell` whose straight line to `slot` is blocked leaves the field: it
    /// walks down the field (steepest descent toward the destination) until the straight line
    /// from the cell it reached to the slot is open. Returns that cell, or `None` when no cell
    /// of the descent sees the slot. The descent is found
    /// first, then the first cell that sees the slot by bisection (sight only improves as the
    /// walk nears the destination, where the slots stand), so a long walk costs a few line
    /// checks. `path` is scratch.
    pub fn exit(&self, cell: CellId, slot: Vec2, path: &mut Vec<CellId>) -> Option<Exit> {
        self.descend(cell, path, |_| false)?;
        let last = path.len() - 1;
        if !self.sees(path[last], slot) {
            return None;
        }
        let e = path[self.first_seeing(path, last, slot)];
        let centre = self.grid.cell_center(e);
        let at = Vec2::new(centre.x, centre.z);
        Some(Exit { at, route: self.distance(e)?, leg: at.distance(slot) })
    }

    /// Walks down the field from `cell` (steepest descent), putting each cell walked into
    /// `path`, until the destination, `MAX_EXIT_CELLS`, or a next cell for which `stop` holds;
    /// returns that cell (`Some(None)` when the walk ended otherwise, `None` off the field).
    fn descend(&self, cell: CellId, path: &mut Vec<CellId>, stop: impl Fn(CellId) -> bool) -> Option<Option<CellId>> {
        path.clear();
        let mut c = cell;
        let mut dc = self.distance(c)?;
        while path.len() < MAX_EXIT_CELLS {
            path.push(c);
            match self.steepest(c) {
                Some((n, dn)) if dn < dc => (c, dc) = (n, dn),
                _ => break,
            }
            if stop(c) {
                return Some(Some(c));
            }
        }
        Some(None)
    }

    /// Whether the straight line from `cell`'s centre to `target` is open.
    #[inline]
    fn sees(&self, cell: CellId, target: Vec2) -> bool {
        self.line_open(cell, self.grid.cell_center(cell), target)
    }

    /// The first index of `path[1..=last]` whose cell sees `target`, given that `path[last]`
    /// does (bisection: sight only improves down a descent).
    fn first_seeing(&self, path: &[CellId], last: usize, target: Vec2) -> usize {
        let (mut lo, mut hi) = (1usize.min(last), last);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.sees(path[mid], target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }
}

/// The route length an agent walking to its slot expects: the straight line when it is open
/// (or there is no field); else down the field to its exit and the straight leg from there
/// (see `RouteField::exit`); without a known exit, its route distance to the destination.
/// Never less than the straight line.
#[inline]
pub fn walk_length(p: Vec3, cell: CellId, seat: &Seat, field: Option<RouteField>) -> f32 {
    let straight = Vec2::new(p.x, p.z).distance(seat.slot);
    let route = field.filter(|_| !seat.line_open).and_then(|f| f.distance(cell));
    match route {
        Some(d) if seat.exit_leg >= 0.0 && d >= seat.exit_route => {
            straight.max((d - seat.exit_route) * FIELD_DETOUR + seat.exit_leg)
        }
        Some(d) => straight.max(d * FIELD_DETOUR),
        None => straight,
    }
}

/// `ExitMemo::exit_of` of a cell whose descent never sees the target.
const NO_EXIT: CellId = NONE - 1;

/// Exits toward one target (the destination) remembered per cell: for a cell on a descent
/// already walked, the first cell from it onward that sees the target. Sight is taken to only
/// improve down a descent (the destination lies ahead): a walk that meets a remembered cell
/// which does not see the target has that cell's exit; one that meets a cell that sees it looks
/// for the first seeing cell on its own part of the way by bisection.
pub struct ExitMemo {
    target: Vec2,
    exit_of: Vec<CellId>,
    path: Vec<CellId>,
}

impl ExitMemo {
    pub fn new(cells: usize, target: Vec2) -> Self {
        Self { target, exit_of: vec![NONE; cells], path: Vec::new() }
    }

    /// The exit cell of a walk from `cell` toward the memo's target.
    pub fn exit_cell(&mut self, f: &RouteField, cell: CellId) -> Option<CellId> {
        let known = |m: &Self, c: CellId| m.exit_of.get(c as usize).copied().filter(|&e| e != NONE);
        if let Some(e) = known(self, cell) {
            return (e != NO_EXIT).then_some(e);
        }
        let exit_of = &self.exit_of;
        let met = f.descend(cell, &mut self.path, |c| exit_of.get(c as usize).is_some_and(|&e| e != NONE))?;
        let (target, path) = (self.target, &self.path);
        let last = path.len() - 1;
        let exit = match met.map(|j| (j, self.exit_of[j as usize])) {
            // Joined a walk whose cell does not see: the same exit (or none).
            Some((j, e)) if e != j => e,
            // Joined at a cell that sees: the first seeing cell of this part, or that cell.
            Some((j, _)) => {
                if path.len() > 1 && f.sees(path[last], target) {
                    path[f.first_seeing(path, last, target)]
                } else {
                    j
                }
            }
            None => {
                if f.sees(path[last], target) {
                    path[f.first_seeing(path, last, target)]
                } else {
                    NO_EXIT
                }
            }
        };
        // Remember: cells before the exit lead to it; the exit and cells after it see.
        let mut seen = false;
        for &c in path {
            seen |= c == exit;
            self.exit_of[c as usize] = if seen { c } else { exit };
        }
        (exit != NO_EXIT).then_some(exit)
    }
}
