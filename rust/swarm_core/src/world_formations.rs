//! The world's formation API: giving, cancelling and reading formation orders (the rules are in
//! `formation/`).

use glam::{Vec2, Vec3};

use crate::agents::{FLAG_DORMANT, FLAG_WAITING};
use crate::flow_field::NONE;
use crate::formation::orders::{plan, Members, NO_FIELD};
use crate::formation::routes::RouteField;
use crate::formation::{FormationError, FormationProgress, FormationShape, Order, Seat};
use crate::ids::AgentId;
use crate::sanitize::Finding;
use crate::surface_nav::MAX_FORMATION_FIELDS;
use crate::world::World;

/// What `World::move_in_formation` did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrderGiven {
    /// The new order's id.
    pub id: i64,
    /// Agents in the order.
    pub agents: usize,
    /// Ids skipped: stale, or given twice.
    pub skipped: usize,
}

impl World {
    /// Orders the living agents among `ids` to `destination` in `shape` (see `formation`). An
    /// agent's earlier order is replaced. Settings of the shape out of bounds are clamped (the
    /// findings name them); stale and repeated ids are skipped.
    pub fn move_in_formation(
        &mut self,
        ids: &[AgentId],
        destination: Vec3,
        shape: FormationShape,
        findings: &mut Vec<Finding>,
    ) -> Result<OrderGiven, FormationError> {
        let shape = shape.checked(findings).map_err(FormationError::Shape)?;
        if !crate::bounds::load::usable_position(destination) {
            return Err(FormationError::BadDestination);
        }
        let mut index: Vec<usize> = ids.iter().filter_map(|&id| self.state.ids.resolve(id)).collect();
        index.sort_unstable();
        index.dedup();
        if index.is_empty() {
            return Err(FormationError::NoAgents);
        }
        let skipped = ids.len() - index.len();
        let now = self.state.time;
        let dest = Vec2::new(destination.x, destination.z);
        // The flow field toward the destination, when there is a surface and the destination
        // lies on it.
        let mut field_slot = NO_FIELD;
        let mut dest_cell = NONE;
        if let Some(nav) = self.state.nav.as_ref() {
            dest_cell = nav.cell_under(destination);
        }
        if dest_cell != NONE {
            if let Some(k) = self.state.formations.free_field(MAX_FORMATION_FIELDS) {
                field_slot = k;
                if let Some(nav) = self.state.nav.as_mut() {
                    nav.build_formation_field(k as usize, dest_cell, now);
                }
            }
        }
        let a = &self.state.agents;
        let nav = self.state.nav.as_ref();
        let field = nav.and_then(|n| {
            n.formation_field(field_slot).map(|field| RouteField { grid: &n.grid, mods: &n.mods, field })
        });
        let height = destination.y;
        let open_slot = |p: Vec2| match nav {
            Some(n) => {
                let q = Vec3::new(p.x, height, p.y);
                let c = n.cell_under(q);
                if c == NONE || n.grid.locate(q) == Some(c) {
                    (p, c)
                } else {
                    let m = n.grid.cell_center(c);
                    (Vec2::new(m.x, m.z), c)
                }
            }
            None => (p, NONE),
        };
        let members = Members { index: &index, pos: &a.pos, cells: &a.cell };
        let planned = self.ws.pool.install(|| plan(&members, dest, &shape, field, &open_slot));
        let order = Order {
            id: 0,
            placement: planned.placement,
            arrival_radius: shape.arrival_radius,
            min_speed_multiplier: shape.min_speed_multiplier,
            max_speed_multiplier: shape.max_speed_multiplier,
            dest_cell,
            field: field_slot,
            started: now,
            time_to_arrive: planned.time_to_arrive.min(crate::bounds::load::MAX_SECONDS),
            agents: index.len() as u32,
            arrived: 0,
            announced: false,
        };
        let (k, id) = self.state.formations.insert(order)?;
        let a = &mut self.state.agents;
        for &i in &index {
            let old = a.seat[i];
            if old.is_ordered() {
                self.state.formations.leave(old.order, old.arrived);
            }
        }
        for (&i, seat) in index.iter().zip(planned.seats) {
            a.seat[i] = Seat { order: k, ..seat };
            a.flags[i] &= !(FLAG_DORMANT | FLAG_WAITING);
            a.dormant_timer[i] = 0.0;
        }
        Ok(OrderGiven { id, agents: index.len(), skipped })
    }

    /// Ends an order: its agents go back to their targets. False for an unknown order.
    pub fn cancel_formation(&mut self, id: i64) -> bool {
        let Some(k) = self.state.formations.index_of(id) else { return false };
        self.state.formations.remove(k);
        let a = &mut self.state.agents;
        for (seat, timer) in a.seat.iter_mut().zip(a.retarget_timer.iter_mut()) {
            if seat.order == k {
                *seat = Seat::default();
                // Choose a target at once.
                *timer = 0.0;
            }
        }
        true
    }

    /// An order's members, arrivals and times; `None` for an unknown (or finished and emptied)
    /// order.
    pub fn formation_progress(&self, id: i64) -> Option<FormationProgress> {
        self.state.formations.progress(id, self.state.time)
    }

    /// The id of the order an agent follows.
    pub fn agent_order(&self, id: AgentId) -> Option<i64> {
        let i = self.state.ids.resolve(id)?;
        let seat = self.state.agents.seat[i];
        seat.is_ordered().then(|| self.state.formations.get(seat.order).map(|o| o.id)).flatten()
    }

    /// Ids of the orders whose members all arrived in the last step (each order once).
    pub fn formation_arrivals(&self) -> &[i64] {
        &self.ws.formation_arrivals
    }

    /// Running orders.
    pub fn formation_count(&self) -> usize {
        self.state.formations.len()
    }

    /// Agents in a running order (as of the last step or order).
    pub fn formation_agent_count(&self) -> usize {
        self.state.formations.iter().map(|(_, o)| o.agents as usize).sum()
    }
}
