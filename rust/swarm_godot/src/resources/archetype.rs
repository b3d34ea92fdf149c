//! `SwarmAgentArchetype`: an agent type (mesh, body, health, profiles).

use godot::classes::{Material, Mesh};
use godot::prelude::*;
use swarm_core::Archetype;

use super::attack_profile::SwarmAttackProfile;
use super::behavior_profile::SwarmBehaviorProfile;
use super::movement_profile::SwarmMovementProfile;
use super::perception_profile::SwarmPerceptionProfile;
use super::vertex_animation::SwarmVertexAnimation;
use crate::convert::{report_findings, resource_name};

/// An agent type: how it looks, how big and heavy it is, its health and which behaviour and
/// movement profiles it uses. Pass it to [method SwarmManager.spawn_agent]. Only [member mesh]
/// is needed: empty profiles use sensible defaults.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmAgentArchetype {
    /// Mesh drawn for every agent of this type, through one MultiMesh. Without a mesh the agents
    /// are simulated but not drawn.
    #[export_group(name = "Visual")]
    #[export]
    mesh: Option<Gd<Mesh>>,
    /// Material used instead of the mesh's own (and instead of the VAT shader when
    /// [member vertex_animation] is set: give it a shader that reads the same textures).
    #[export]
    material_override: Option<Gd<Material>>,
    /// Animated agents: a baked vertex animation texture. Each agent plays its own clip (walk at
    /// its speed, idle, swing, death) through the addon's VAT shader. Its rest mesh is drawn when
    /// [member mesh] is empty.
    #[export]
    vertex_animation: Option<Gd<SwarmVertexAnimation>>,

    /// Body radius in metres, for body blocking and queries.
    #[export_group(name = "Body")]
    #[export(range = (0.01, 5.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.4)]
    agent_radius: f32,
    /// Relative mass in body blocking: of two agents that overlap, the one with more push
    /// resistance is moved less.
    #[export(range = (0.01, 100.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    push_resistance: f32,
    /// Health each agent starts with.
    #[export(range = (0.001, 10000.0, 0.1, or_greater))]
    #[init(val = 100.0)]
    max_health: f32,
    /// How hard these agents hit doors and barricades: each blow on an obstacle is multiplied by
    /// this, on top of the receiving [SwarmBreakable]'s [member SwarmBreakable.strike_damage_scale]
    /// (a blow of 10 at 2 on a door at 0.5 takes 10 off). 0: they only press obstacles, never
    /// swing at them. Crowd pressure is not affected.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    obstacle_damage_scale: f32,

    /// Steering behaviours (empty: defaults).
    #[export_group(name = "Profiles")]
    #[export]
    behavior_profile: Option<Gd<SwarmBehaviorProfile>>,
    /// Speed, acceleration and turning (empty: defaults).
    #[export]
    movement_profile: Option<Gd<SwarmMovementProfile>>,
    /// How these agents attack (empty: they never attack).
    #[export]
    attack_profile: Option<Gd<SwarmAttackProfile>>,
    /// What these agents notice: sight, occlusion, search, noise, alerts (empty: they always
    /// know where their target is).
    #[export]
    perception_profile: Option<Gd<SwarmPerceptionProfile>>,

    base: Base<Resource>,
}

impl SwarmAgentArchetype {
    pub fn mesh(&self) -> Option<Gd<Mesh>> {
        self.mesh.clone()
    }

    pub fn material_override(&self) -> Option<Gd<Material>> {
        self.material_override.clone()
    }

    pub fn vertex_animation(&self) -> Option<Gd<SwarmVertexAnimation>> {
        self.vertex_animation.clone()
    }

    /// The mesh drawn: [member mesh], else the vertex animation's rest mesh.
    pub fn drawn_mesh(&self) -> Option<Gd<Mesh>> {
        self.mesh.clone().or_else(|| self.vertex_animation.as_ref().and_then(|v| v.bind().mesh()))
    }

    /// The profile resources this archetype holds now.
    pub fn profiles(&self) -> Vec<Gd<Resource>> {
        let mut out: Vec<Gd<Resource>> = Vec::with_capacity(5);
        out.extend(self.behavior_profile.clone().map(|p| p.upcast()));
        out.extend(self.movement_profile.clone().map(|p| p.upcast()));
        out.extend(self.attack_profile.clone().map(|p| p.upcast()));
        out.extend(self.perception_profile.clone().map(|p| p.upcast()));
        out.extend(self.vertex_animation.clone().map(|p| p.upcast()));
        out
    }

    pub fn display_name(&self) -> String {
        resource_name(&self.base().clone().upcast(), "SwarmAgentArchetype")
    }

    /// The core archetype, checked by the core, and the problems found, each naming the
    /// resource and field (the profiles report under their own names).
    pub fn to_core(&self, owner: &str) -> (Archetype, Vec<String>) {
        let mut findings = Vec::new();
        let mut a = Archetype {
            agent_radius: self.agent_radius,
            push_resistance: self.push_resistance,
            max_health: self.max_health,
            obstacle_damage_scale: self.obstacle_damage_scale,
            ..Archetype::default()
        }
        .checked(&mut findings);
        let mut problems = Vec::new();
        report_findings(&format!("{owner}: {}", self.display_name()), &findings, &mut problems);
        if let Some(b) = &self.behavior_profile {
            a.behavior = b.bind().to_core(owner, &mut problems);
        }
        if let Some(m) = &self.movement_profile {
            a.movement = m.bind().to_core(owner, &mut problems);
        }
        a.attack = self.attack_profile.as_ref().map(|p| p.bind().to_core(owner, &mut problems));
        a.perception = self.perception_profile.as_ref().map(|p| p.bind().to_core(owner, &mut problems));
        (a, problems)
    }
}

#[godot_api]
impl godot::classes::IResource for SwarmAgentArchetype {
    /// Every property edit is announced with `changed`: a manager using this resource converts
    /// it again on its next frame (and only then).
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
