//! Formation orders: planning one (slots, assignment, route lengths, the common arrival time),
//! the table of running orders, and following them each step (who has arrived, which orders are
//! complete, which have no members left).
//!
//! Routes come from one flow field toward the destination, shared by every slot (no path query
//! per agent): an agent whose straight line to a point is blocked walks down the field until the
//! line opens (its exit, `RouteField::exit`) and goes straight from there. The assignment cost
//! of an agent and a slot is its route to where it comes out into the open toward the
//! destination plus the straight line from there to the slot (plus a little of the straight line
//! from where it stands, so agents leaving by the same gap keep their order); its travel length
//! is the route to its exit toward its own slot plus the leg from there (`walk_length`).

use glam::{Vec2, Vec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::assign::assign;
use super::routes::{walk_length, ExitMemo, RouteField};
use super::seat::{Seat, NO_ORDER};
use super::shape::{FormationShape, Placement, ShapeError};
use crate::flow_field::{CellId, NONE};

/// Most orders running at once (a new order past it is refused).
pub const MAX_ORDERS: usize = 1 << 16;
/// `Order::field` of an order without a flow field of its own.
pub const NO_FIELD: u8 = u8::MAX;

/// A running order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Order {
    /// The id the game holds (1, 2, ...; never reused within a world).
    pub id: i64,
    pub placement: Placement,
    pub arrival_radius: f32,
    pub min_speed_multiplier: f32,
    pub max_speed_multiplier: f32,
    /// The destination's cell on the surface flow field (`NONE` without one).
    pub dest_cell: CellId,
    /// Which formation field leads to the destination (`NO_FIELD`: straight lines).
    pub field: u8,
    /// Simulation time of the order, and the planned travel time from then.
    pub started: f64,
    pub time_to_arrive: f32,
    /// Living members and those of them that arrived, as of the last step.
    pub agents: u32,
    pub arrived: u32,
    /// `formation_arrived` was reported.
    pub announced: bool,
}

impl Order {
    /// Seconds left of the planned travel time at `now` (negative once it is over).
    #[inline]
    pub fn time_left(&self, now: f64) -> f32 {
        (self.started + self.time_to_arrive as f64 - now) as f32
    }
}

/// What `World::formation_progress` reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormationProgress {
    pub agents: u32,
    pub arrived: u32,
    pub time_to_arrive: f32,
    pub elapsed: f32,
}

/// Why an order was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum FormationError {
    /// None of the ids names a living agent.
    NoAgents,
    Shape(ShapeError),
    /// Not finite, or beyond `bounds::load::MAX_COORD`.
    BadDestination,
    TooManyOrders,
}

impl std::fmt::Display for FormationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormationError::NoAgents => write!(f, "ids names no living agent"),
            FormationError::Shape(e) => write!(f, "formation: {e}"),
            FormationError::BadDestination => write!(f, "destination is not a finite position"),
            FormationError::TooManyOrders => write!(f, "{MAX_ORDERS} formation orders are running already"),
        }
    }
}

/// The running orders, by index (`Seat::order`); freed indices are reused.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Formations {
    orders: Vec<Option<Order>>,
    last_id: i64,
}

impl Formations {
    /// Whether no order runs.
    pub fn is_empty(&self) -> bool {
        self.orders.iter().all(Option::is_none)
    }

    pub fn len(&self) -> usize {
        self.orders.iter().filter(|o| o.is_some()).count()
    }

    #[inline]
    pub fn get(&self, index: u32) -> Option<&Order> {
        self.orders.get(index as usize).and_then(Option::as_ref)
    }

    /// Index of the order with game id `id`.
    pub fn index_of(&self, id: i64) -> Option<u32> {
        self.orders.iter().position(|o| o.as_ref().is_some_and(|o| o.id == id)).map(|k| k as u32)
    }

    pub fn iter(&self) -> impl Iterator<Item = (u32, &Order)> {
        self.orders.iter().enumerate().filter_map(|(k, o)| o.as_ref().map(|o| (k as u32, o)))
    }

    /// The surface flow field was replaced: orders forget their fields and destination cells
    /// (their agents walk straight lines from now on).
    pub(crate) fn forget_surface(&mut self, seats: &mut [Seat]) {
        for o in self.orders.iter_mut().flatten() {
            o.field = NO_FIELD;
            o.dest_cell = NONE;
        }
        seats.iter_mut().for_each(|s| (s.exit_route, s.exit_leg) = (0.0, -1.0));
    }

    /// An agent left order `index` (it was given another): the order's counts drop at once.
    pub(crate) fn leave(&mut self, index: u32, arrived: bool) {
        if let Some(o) = self.orders.get_mut(index as usize).and_then(Option::as_mut) {
            o.agents = o.agents.saturating_sub(1);
            o.arrived = o.arrived.saturating_sub(arrived as u32).min(o.agents);
        }
    }

    /// Stores a new order under the next id; returns its index and id.
    pub(crate) fn insert(&mut self, mut order: Order) -> Result<(u32, i64), FormationError> {
        let k = match self.orders.iter().position(Option::is_none) {
            Some(k) => k,
            None if self.orders.len() < MAX_ORDERS => {
                self.orders.push(None);
                self.orders.len() - 1
            }
            None => return Err(FormationError::TooManyOrders),
        };
        self.last_id += 1;
        order.id = self.last_id;
        self.orders[k] = Some(order);
        Ok((k as u32, self.last_id))
    }

    pub(crate) fn remove(&mut self, index: u32) -> Option<Order> {
        let o = self.orders.get_mut(index as usize)?.take();
        while self.orders.last().is_some_and(Option::is_none) {
            self.orders.pop();
        }
        o
    }

    pub fn progress(&self, id: i64, now: f64) -> Option<FormationProgress> {
        let o = self.get(self.index_of(id)?)?;
        Some(FormationProgress {
            agents: o.agents,
            arrived: o.arrived,
            time_to_arrive: o.time_to_arrive,
            elapsed: (now - o.started).max(0.0) as f32,
        })
    }

    /// A formation field for a new order: a free one, else the one of the oldest order whose
    /// agents all arrived, else the oldest order's (its walkers go on in straight lines).
    pub(crate) fn free_field(&mut self, fields: usize) -> Option<u8> {
        let fields = fields.min(NO_FIELD as usize);
        let taken = |f: u8| self.orders.iter().flatten().any(|o| o.field == f);
        if let Some(f) = (0..fields as u8).find(|&f| !taken(f)) {
            return Some(f);
        }
        let victim =
            self.orders.iter_mut().flatten().filter(|o| o.field != NO_FIELD).min_by_key(|o| (!o.announced, o.id))?;
        let f = victim.field;
        victim.field = NO_FIELD;
        Some(f)
    }

    /// The destination cell wanted by each formation field (`NONE`: unused).
    pub(crate) fn field_cells(&self, out: &mut [CellId]) {
        out.fill(NONE);
        for o in self.orders.iter().flatten() {
            if let Some(c) = out.get_mut(o.field as usize) {
                *c = o.dest_cell;
            }
        }
    }

    /// Checks loaded orders: ids below the last id given and unique, numbers usable, every
    /// field index below `fields` and used once.
    pub(crate) fn validate(&self, fields: usize, cells: usize) -> Result<(), String> {
        let max = crate::bounds::load::MAX_COORD;
        if self.orders.len() > MAX_ORDERS {
            return Err(format!("{} formation orders, more than {MAX_ORDERS}", self.orders.len()));
        }
        let live: Vec<&Order> = self.orders.iter().flatten().collect();
        for (k, o) in live.iter().enumerate() {
            let ok = o.id >= 1
                && o.id <= self.last_id
                && live[..k].iter().all(|p| p.id != o.id && (o.field == NO_FIELD || p.field != o.field))
                && (o.field == NO_FIELD || (o.field as usize) < fields)
                && (o.dest_cell == NONE || (o.dest_cell as usize) < cells)
                && o.placement.origin.is_finite()
                && o.placement.origin.abs().max_element() <= max
                && o.placement.forward.is_finite()
                && (o.placement.forward.length() - 1.0).abs() < 1e-3
                && o.started.is_finite()
                && o.started >= 0.0
                && o.time_to_arrive.is_finite()
                && (0.0..=crate::bounds::load::MAX_SECONDS).contains(&o.time_to_arrive)
                && o.arrived <= o.agents;
            let mut findings = Vec::new();
            let shape = FormationShape {
                points: vec![Vec2::ZERO],
                arrival_radius: o.arrival_radius,
                min_speed_multiplier: o.min_speed_multiplier,
                max_speed_multiplier: o.max_speed_multiplier,
                ..Default::default()
            };
            let _ = shape.checked(&mut findings);
            if !ok || !findings.is_empty() {
                return Err(format!("formation order {} is out of range", o.id));
            }
        }
        Ok(())
    }

    /// Checks loaded seats against the orders.
    pub(crate) fn validate_seats(&self, seats: &[Seat]) -> Result<(), String> {
        let max = crate::bounds::load::MAX_COORD;
        let bad = seats.iter().any(|s| {
            (s.order != NO_ORDER && self.get(s.order).is_none())
                || !s.slot.is_finite()
                || s.slot.abs().max_element() > max
                || !s.exit_route.is_finite()
                || !(0.0..=max).contains(&s.exit_route)
                || !s.exit_leg.is_finite()
                || s.exit_leg > max
        });
        if bad {
            return Err("an agent's formation seat is out of range".into());
        }
        Ok(())
    }
}

/// Weight of the straight line from where an agent stands in its assignment cost on a flow
/// field: agents that leave the field at the same exit take their slots in the order they stand.
const STANDING_WEIGHT: f32 = 0.05;

/// The members of a new order, read from the agent storage.
pub struct Members<'a> {
    /// Agent indices, each once.
    pub index: &'a [usize],
    pub pos: &'a [Vec3],
    pub cells: &'a [CellId],
}

/// A planned order: the seat of each member (in `Members::index` order, order index unset) and
/// the common travel time.
pub struct Plan {
    pub placement: Placement,
    pub seats: Vec<Seat>,
    pub time_to_arrive: f32,
}

/// Plans an order: the formation faces from the members' centroid toward `destination`, its
/// slots (moved onto the nearest open cell by `open_slot` when they fall on a closed one) are
/// assigned so that the summed route length is least, and the common travel time is the
/// longest route at `base_speed` (see the module for how routes are measured).
pub fn plan(
    m: &Members,
    destination: Vec2,
    shape: &FormationShape,
    field: Option<RouteField>,
    open_slot: &dyn Fn(Vec2) -> (Vec2, CellId),
) -> Plan {
    let n = m.index.len();
    let xz = |i: usize| Vec2::new(m.pos[i].x, m.pos[i].z);
    let centroid = m.index.iter().map(|&i| xz(i)).sum::<Vec2>() / n.max(1) as f32;
    let placement = Placement::facing(centroid, destination);
    let mut offsets = Vec::with_capacity(n);
    shape.offsets(n, &mut offsets);
    let slot_xz: Vec<Vec2> = offsets.iter().map(|&o| open_slot(placement.place(o)).0).collect();
    let agent_xz: Vec<Vec2> = m.index.iter().map(|&i| xz(i)).collect();
    // On a field, where each agent comes out into the open toward the destination (itself when
    // its line there is open), and the route to that point.
    // On a field, where each agent that does not see the destination comes out into the open
    // toward it (its exit cell and that cell's route distance): whether each sees it is checked
    // in parallel, the walks of the others in order, sharing what earlier walks found.
    let exits: Vec<Option<(CellId, f32)>> = match field {
        None => vec![None; n],
        Some(f) => {
            let open: Vec<bool> = m
                .index
                .par_iter()
                .map(|&i| f.line_open(m.cells.get(i).copied().unwrap_or(NONE), m.pos[i], destination))
                .collect();
            let mut memo = ExitMemo::new(f.grid.cell_count(), destination);
            m.index
                .iter()
                .zip(open)
                .map(|(&i, open)| {
                    let cell = m.cells.get(i).copied().unwrap_or(NONE);
                    if open {
                        return None;
                    }
                    memo.exit_cell(&f, cell).and_then(|e| Some((e, f.distance(e)?)))
                })
                .collect()
        }
    };
    let centre = |c: CellId| {
        field.map_or(Vec2::ZERO, |f| {
            let p = f.grid.cell_center(c);
            Vec2::new(p.x, p.z)
        })
    };
    let to_exit: Vec<f32> = (0..n)
        .map(|a| match (field, exits[a]) {
            (Some(f), Some((_, route))) => {
                let i = m.index[a];
                f.distance(m.cells.get(i).copied().unwrap_or(NONE)).map_or(0.0, |d| (d - route).max(0.0))
            }
            _ => 0.0,
        })
        .collect();
    // Without a field the straight line (exact: no crossing paths); on one the route to the
    // agent's exit, the straight line from there, and a little of the line from where it stands.
    let cost = |a: usize, s: usize| match (field, exits[a]) {
        (None, _) => agent_xz[a].distance(slot_xz[s]),
        (Some(_), None) => (1.0 + STANDING_WEIGHT) * agent_xz[a].distance(slot_xz[s]),
        (Some(_), Some((e, _))) => {
            to_exit[a] + centre(e).distance(slot_xz[s]) + STANDING_WEIGHT * agent_xz[a].distance(slot_xz[s])
        }
    };
    let picks = assign(&agent_xz, &slot_xz, &cost);

    let seats: Vec<Seat> = picks
        .par_iter()
        .enumerate()
        .map_init(Vec::new, |path, (a, &s)| {
            let i = m.index[a];
            let slot = slot_xz[s as usize];
            let cell = m.cells.get(i).copied().unwrap_or(NONE);
            let mut seat = Seat { slot, line_open: true, ..Seat::default() };
            if let Some(f) = field.filter(|f| !f.line_open(cell, m.pos[i], slot)) {
                seat.line_open = false;
                // Where the agent comes out toward the destination usually sees its slot too;
                // else its own walk toward the slot.
                let shared = exits[a].filter(|&(e, _)| f.line_open(e, f.grid.cell_center(e), slot));
                let exit = match shared {
                    Some((e, route)) => Some((route, centre(e).distance(slot))),
                    None => f.exit(cell, slot, path).map(|e| (e.route, e.leg)),
                };
                if let Some((route, leg)) = exit {
                    (seat.exit_route, seat.exit_leg) = (route, leg);
                }
            }
            seat
        })
        .collect();
    let longest = seats
        .iter()
        .zip(m.index)
        .map(|(seat, &i)| walk_length(m.pos[i], m.cells.get(i).copied().unwrap_or(NONE), seat, field))
        .fold(0.0f32, f32::max);
    Plan { placement, seats, time_to_arrive: longest / shape.base_speed }
}

/// One step of following the orders, after the agents moved: marks agents within their order's
/// arrival radius of their slot as arrived, recounts each order's members, drops orders without
/// members, and appends to `arrivals` the ids of orders whose members have now all arrived
/// (each order once).
pub(crate) fn follow(f: &mut Formations, seats: &mut [Seat], pos: &[Vec3], arrivals: &mut Vec<i64>) {
    arrivals.clear();
    if f.orders.is_empty() {
        return;
    }
    for o in f.orders.iter_mut().flatten() {
        o.agents = 0;
        o.arrived = 0;
    }
    for (s, p) in seats.iter_mut().zip(pos) {
        if !s.is_ordered() {
            continue;
        }
        let Some(o) = f.orders.get_mut(s.order as usize).and_then(Option::as_mut) else {
            *s = Seat::default();
            continue;
        };
        if !s.arrived && Vec2::new(p.x, p.z).distance_squared(s.slot) <= o.arrival_radius * o.arrival_radius {
            s.arrived = true;
        }
        o.agents += 1;
        o.arrived += s.arrived as u32;
    }
    for k in 0..f.orders.len() {
        let Some(o) = f.orders.get_mut(k).and_then(Option::as_mut) else { continue };
        if o.agents == 0 {
            f.remove(k as u32);
        } else if o.arrived == o.agents && !o.announced {
            o.announced = true;
            arrivals.push(o.id);
        }
    }
}

/// An order for unit tests: facing `toward` from the origin, `time` seconds planned, no field.
#[cfg(test)]
pub(crate) fn test_order(time: f32, toward: Vec2) -> Order {
    Order {
        id: 1,
        placement: Placement::facing(Vec2::ZERO, toward),
        arrival_radius: 0.5,
        min_speed_multiplier: 0.5,
        max_speed_multiplier: 1.5,
        dest_cell: NONE,
        field: NO_FIELD,
        started: 0.0,
        time_to_arrive: time,
        agents: 1,
        arrived: 0,
        announced: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order() -> Order {
        test_order(1.0, Vec2::X)
    }

    #[test]
    fn orders_are_counted_announced_once_and_dropped_when_empty() {
        let mut f = Formations::default();
        let (k, id) = f.insert(order()).unwrap();
        assert_eq!(id, 1);
        let seat = |x: f32| Seat { order: k, slot: Vec2::new(x, 0.0), ..Seat::default() };
        let mut seats = vec![seat(0.0), seat(5.0), Seat::default()];
        let mut pos = vec![Vec3::new(0.2, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.0), Vec3::ZERO];
        let mut arrivals = Vec::new();
        follow(&mut f, &mut seats, &pos, &mut arrivals);
        assert!(arrivals.is_empty());
        assert_eq!((f.get(k).unwrap().agents, f.get(k).unwrap().arrived), (2, 1));
        pos[1].x = 4.8;
        follow(&mut f, &mut seats, &pos, &mut arrivals);
        assert_eq!(arrivals, vec![id]);
        // Walking off the slot afterwards does not un-arrive, nor announce again.
        pos[1].x = 0.0;
        follow(&mut f, &mut seats, &pos, &mut arrivals);
        assert!(arrivals.is_empty());
        // Members gone: the order is dropped; ids are never reused.
        follow(&mut f, &mut seats[2..], &pos[2..], &mut arrivals);
        assert!(f.is_empty());
        assert_eq!(f.insert(order()).unwrap().1, 2);
    }
}
