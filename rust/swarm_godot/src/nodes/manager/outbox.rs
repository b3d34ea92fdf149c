//! Calls into game code queued during the manager's frame, made at its end by `emit`.

use godot::prelude::*;

/// One call into game code, queued during the frame.
pub(super) enum Outcall {
    /// `apply_swarm_damage(amount, context)` on a node: a target's parent, or whatever takes the
    /// blows on a modifier box (the game's contract method, called by name).
    Damage { receiver: InstanceId, amount: f32, context: VarDictionary },
    /// An agent's blow on a `SwarmBreakable`, already scaled, handed over typed.
    Strike { breakable: InstanceId, amount: f32, point: Vector3 },
    /// The `obstacle_attacked` signal.
    ObstacleAttacked { modifier: InstanceId, damage: f32, agent_id: i64 },
    /// The `target_attacked` signal.
    TargetAttacked { target: InstanceId, damage: f32, agent_id: i64 },
    /// The `formation_arrived` signal.
    FormationArrived { order_id: i64 },
}
