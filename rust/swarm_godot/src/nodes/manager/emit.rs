//! Calls into game code. During its frame the manager only queues them (`Outcall`); at the end
//! of the frame `flush_outbox` makes them in order while the manager's own borrow is released
//! (through `base_mut()`), so a callback may call any manager method, spawn and despawn agents,
//! or free the node that received it. Nodes are looked up by instance id at the moment of each
//! call, so one freed by an earlier callback of the same flush is skipped.

use godot::prelude::*;

use super::outbox::Outcall;
use super::SwarmManager;
use crate::convert::to_vector3;
use crate::nodes::breakable::SwarmBreakable;
use crate::nodes::flow_modifier::SwarmFlowModifier;
use crate::nodes::target::SwarmTarget;

impl SwarmManager {
    /// Queues this step's hits: `apply_swarm_damage(amount, context)` on the target's parent when
    /// it has that method, then [signal target_attacked]; a blow on a door or barricade goes to
    /// its damage receiver, scaled by its strike damage scale (the context with the same
    /// `pushback` as a blow on a target), then [signal obstacle_attacked].
    pub(super) fn queue_attacks(&mut self) {
        let Some(w) = self.world.as_ref() else { return };
        if w.attack_events().is_empty() {
            return;
        }
        let me = self.to_gd().to_variant();
        for e in w.attack_events() {
            let context = |pushback: Vector3| {
                vdict! {
                    "source" => &me,
                    "agent_id" => e.agent_id.to_i64(),
                    "hit_point" => to_vector3(e.point),
                    "direction" => to_vector3(e.direction),
                    "pushback" => pushback,
                }
            };
            if let Some(k) = e.obstacle {
                let Some(m) = self.registry.modifier_of_box(k as usize) else { continue };
                if let Some(r) = m.receiver {
                    let amount = e.damage * r.scale;
                    self.outbox.push(if r.breakable {
                        Outcall::Strike { breakable: r.id, amount, point: to_vector3(e.point) }
                    } else {
                        let context = context(to_vector3(e.direction) * e.pushback);
                        Outcall::Damage { receiver: r.id, amount, context }
                    });
                    let agent_id = e.agent_id.to_i64();
                    self.outbox.push(Outcall::ObstacleAttacked { modifier: m.id, damage: amount, agent_id });
                }
                continue;
            }
            let Some(t) = self.registry.target_by_handle(e.target) else { continue };
            if !t.node.is_instance_valid() {
                continue;
            }
            if let Some(parent) = t.node.get_parent() {
                if parent.has_method("apply_swarm_damage") {
                    let context = context(to_vector3(e.direction) * e.pushback);
                    self.outbox.push(Outcall::Damage { receiver: parent.instance_id(), amount: e.damage, context });
                }
            }
            self.outbox.push(Outcall::TargetAttacked { target: t.id, damage: e.damage, agent_id: e.agent_id.to_i64() });
        }
    }

    /// Makes the queued calls, in order, with the manager's borrow released.
    pub(super) fn flush_outbox(&mut self) {
        if self.outbox.is_empty() {
            return;
        }
        let calls = std::mem::take(&mut self.outbox);
        let me = self.to_gd();
        // While this guard lives, game code may bind the manager again (re-entrant calls).
        let _released = self.base_mut();
        for call in calls {
            match call {
                Outcall::Damage { receiver, amount, context } => {
                    if let Ok(mut node) = Gd::<Object>::try_from_instance_id(receiver) {
                        node.call("apply_swarm_damage", &[amount.to_variant(), context.to_variant()]);
                    }
                }
                Outcall::Strike { breakable, amount, point } => {
                    if let Ok(mut b) = Gd::<SwarmBreakable>::try_from_instance_id(breakable) {
                        b.bind_mut().receive_strike(amount, point);
                    }
                }
                Outcall::ObstacleAttacked { modifier, damage, agent_id } => {
                    if let Ok(m) = Gd::<SwarmFlowModifier>::try_from_instance_id(modifier) {
                        me.signals().obstacle_attacked().emit(&m, damage, agent_id);
                    }
                }
                Outcall::TargetAttacked { target, damage, agent_id } => {
                    if let Ok(t) = Gd::<SwarmTarget>::try_from_instance_id(target) {
                        me.signals().target_attacked().emit(&t, damage, agent_id);
                    }
                }
                Outcall::FormationArrived { order_id } => me.signals().formation_arrived().emit(order_id),
            }
        }
    }
}
