//! `SwarmAttackProfile`: how an archetype attacks.

use godot::prelude::*;
use swarm_core::AttackProfile;

use crate::convert::{resource_name, Checker};

/// How an archetype attacks: a swing (start within [member swing_reach], damage after
/// [member swing_windup], then [member swing_recovery] and [member swing_cooldown]) and/or contact
/// damage per second while in reach, with pushback. Hits on a [SwarmTarget] call
/// `apply_swarm_damage(amount, context)` on the target's parent when it has that method, and emit
/// [signal SwarmManager.target_attacked]. With Close-Range Pressure on, only the agents whose turn
/// it is swing.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmAttackProfile {
    #[export_group(name = "Swing")]
    #[export]
    #[init(val = true)]
    swing_enabled: bool,
    /// A swing starts when the target is within this distance.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.8)]
    swing_reach: f32,
    #[export(range = (0.0, 1000.0, 0.1, or_greater))]
    #[init(val = 10.0)]
    swing_damage: f32,
    /// Seconds from the start of the swing to the hit (the hit lands only if still in reach).
    #[export(range = (0.0, 5.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.35)]
    swing_windup: f32,
    #[export(range = (0.0, 5.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.3)]
    swing_recovery: f32,
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.8)]
    swing_cooldown: f32,

    /// Damage per second while in reach (reported every 0.25 s).
    #[export_group(name = "Contact")]
    #[export]
    contact_enabled: bool,
    #[export(range = (0.0, 1000.0, 0.1, or_greater))]
    #[init(val = 5.0)]
    contact_damage_per_second: f32,
    /// Metres per second of contact the target is pushed (passed to the game as `pushback`).
    #[export(range = (0.0, 20.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.5)]
    contact_pushback: f32,

    base: Base<Resource>,
}

impl SwarmAttackProfile {
    pub fn to_core(&self, owner: &str, problems: &mut Vec<String>) -> AttackProfile {
        let d = AttackProfile::default();
        let mut c =
            Checker::new(format!("{owner}: {}", resource_name(&self.base().clone().upcast(), "SwarmAttackProfile")));
        let a = AttackProfile {
            swing_enabled: self.swing_enabled,
            swing_reach: c.f("swing_reach", self.swing_reach, 0.0, 1000.0, d.swing_reach),
            swing_damage: c.f("swing_damage", self.swing_damage, 0.0, 1e9, d.swing_damage),
            swing_windup: c.f("swing_windup", self.swing_windup, 0.0, 60.0, d.swing_windup),
            swing_recovery: c.f("swing_recovery", self.swing_recovery, 0.0, 60.0, d.swing_recovery),
            swing_cooldown: c.f("swing_cooldown", self.swing_cooldown, 0.0, 600.0, d.swing_cooldown),
            contact_enabled: self.contact_enabled,
            contact_damage_per_second: c.f(
                "contact_damage_per_second",
                self.contact_damage_per_second,
                0.0,
                1e9,
                d.contact_damage_per_second,
            ),
            contact_pushback: c.f("contact_pushback", self.contact_pushback, 0.0, 1000.0, d.contact_pushback),
        };
        problems.append(&mut c.problems);
        a
    }
}

#[godot_api]
impl godot::classes::IResource for SwarmAttackProfile {
    /// Every property edit is announced with `changed`: a manager using this resource converts
    /// it again on its next frame (and only then).
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
