//! Formation orders from game code: `move_in_formation`, `cancel_formation`,
//! `get_formation_progress`, `get_agent_order`, and the queued `formation_arrived` signals (the
//! rules are the core's `formation` module).

use godot::prelude::*;
use swarm_core::AgentId;

use super::outbox::Outcall;
use super::SwarmManager;
use crate::convert::to_vec3;
use crate::resources::formation::SwarmFormation;

#[godot_api(secondary)]
impl SwarmManager {
    /// Sends the agents [param ids] to [param destination] in [param formation] and returns the
    /// order's id (1, 2, ...), or -1 with an error when no id names a living agent, the formation
    /// is null or has no usable points, or the destination is not finite. Stale and repeated ids
    /// are skipped (with a warning). The formation faces from the agents' centroid toward the
    /// destination; each agent gets the slot that keeps the summed route shortest and walks its
    /// route (around walls on the surface flow field) at the speed that brings it there when the
    /// others arrive, keeping personal space and body blocking, then holds its slot facing the
    /// formation's forward until [method cancel_formation] or a new order. Ordered agents ignore
    /// their targets. An agent's earlier order is replaced.
    #[func]
    pub(crate) fn move_in_formation(
        &mut self,
        ids: PackedInt64Array,
        destination: Vector3,
        formation: Option<Gd<SwarmFormation>>,
    ) -> i64 {
        const M: &str = "move_in_formation";
        let Some(formation) = formation else {
            self.error(
                M,
                "formation is null; pass a SwarmFormation resource (presets are in res://addons/swarm/formations/)",
            );
            return -1;
        };
        if !destination.is_finite() {
            self.error(M, format!("destination {destination} must be finite; no order is given"));
            return -1;
        }
        let agents: Vec<AgentId> = ids.as_slice().iter().filter_map(|&id| AgentId::from_i64(id)).collect();
        let shape = formation.bind().to_core();
        self.sync_surface();
        let mut findings = Vec::new();
        let result = self.world_mut().move_in_formation(&agents, to_vec3(destination), shape, &mut findings);
        let mut problems = Vec::new();
        formation.bind().report(&format!("{}: {M}", self.label()), &findings, &mut problems);
        for p in problems {
            godot_warn!("{p}");
        }
        match result {
            Ok(given) => {
                let skipped = ids.len() - given.agents;
                if skipped > 0 {
                    godot_warn!(
                        "{}: {M}: {skipped} of {} ids were stale, unknown or repeated and are skipped",
                        self.label(),
                        ids.len()
                    );
                }
                given.id
            }
            Err(e) => {
                let what = if ids.is_empty() { "ids is empty".to_string() } else { e.to_string() };
                self.error(M, format!("{what} ({}); no order is given", formation.bind().display_name()));
                -1
            }
        }
    }

    /// Ends an order: its agents go back to chasing their targets. False for an unknown or
    /// finished order (one whose agents all died or were given other orders).
    #[func]
    pub(crate) fn cancel_formation(&mut self, order_id: i64) -> bool {
        self.world.as_mut().is_some_and(|w| w.cancel_formation(order_id))
    }

    /// An order's state: `agents` (living members), `arrived` (members that reached their slot),
    /// `time_to_arrive` (the planned travel time, seconds) and `elapsed` (seconds since the
    /// order). Empty for an unknown or finished order.
    #[func]
    pub(crate) fn get_formation_progress(&self, order_id: i64) -> VarDictionary {
        match self.world.as_ref().and_then(|w| w.formation_progress(order_id)) {
            Some(p) => vdict! {
                "agents" => p.agents as i64,
                "arrived" => p.arrived as i64,
                "time_to_arrive" => p.time_to_arrive as f64,
                "elapsed" => p.elapsed as f64,
            },
            None => VarDictionary::new(),
        }
    }

    /// The id of the formation order an agent follows, -1 when none (or for a stale id).
    #[func]
    pub(crate) fn get_agent_order(&self, id: i64) -> i64 {
        let order = AgentId::from_i64(id).and_then(|a| self.world.as_ref()?.agent_order(a));
        order.unwrap_or(-1)
    }
}

impl SwarmManager {
    /// Queues [signal formation_arrived] for the orders whose agents all arrived this step.
    pub(super) fn queue_formation_arrivals(&mut self) {
        let Some(w) = self.world.as_ref() else { return };
        let arrived: Vec<i64> = w.formation_arrivals().to_vec();
        self.outbox.extend(arrived.into_iter().map(|order_id| Outcall::FormationArrived { order_id }));
    }
}
