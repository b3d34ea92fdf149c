//! Archetypes as the step uses them: the sanitized config (`ArchetypeRuntime`, part of the
//! simulation state) and the maxima derived from all archetypes (`ArchetypeMaxima`, part of the
//! workspace: neighbourhood sizes for the grid, which perception features run at all).

use serde::{Deserialize, Serialize};

use crate::config::{Archetype, SightOcclusion};
use crate::perception::awareness::{Awareness, CHASING};

/// An archetype as the step uses it (sanitized).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchetypeRuntime {
    pub config: Archetype,
}

impl ArchetypeRuntime {
    /// Sanitizes a config for the step.
    pub fn new(a: Archetype) -> Self {
        Self { config: a.sanitized() }
    }

    /// Whether an agent of this archetype acts on its target (steers for it, strikes it): always
    /// without a perception profile; with one, only while it sees the target (chasing).
    #[inline]
    pub fn acts_on_target(&self, aware: &Awareness) -> bool {
        self.config.perception.is_none() || aware.mode == CHASING
    }
}

/// What the step derives from the whole archetype list (recomputed whenever it changes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ArchetypeMaxima {
    /// Largest body radius, spacing radius and top speed: neighbourhood sizes for the grid.
    pub max_radius: f32,
    pub max_spacing: f32,
    pub max_speed: f32,
    /// Largest alert radius, and which perception features any archetype uses.
    pub max_alert: f32,
    pub any_perception: bool,
    pub any_ray: bool,
}

impl ArchetypeMaxima {
    pub fn of(archetypes: &[ArchetypeRuntime]) -> Self {
        let profiles = || archetypes.iter().filter_map(|a| a.config.perception.as_ref());
        Self {
            max_radius: archetypes.iter().map(|a| a.config.agent_radius).fold(0.0, f32::max),
            max_spacing: archetypes.iter().map(|a| a.config.behavior.spacing_radius).fold(0.0, f32::max),
            max_speed: archetypes.iter().map(|a| a.config.movement.max_speed.max).fold(0.0, f32::max),
            max_alert: profiles().map(|p| p.alert_spread_radius).fold(0.0, f32::max),
            any_perception: profiles().next().is_some(),
            any_ray: profiles().any(|p| p.sight_occlusion == SightOcclusion::PhysicsRay),
        }
    }

    /// The spatial grid's cell size for a step of `dt` seconds.
    #[inline]
    pub fn cell_size(&self, dt: f32) -> f32 {
        (2.0 * self.max_radius + self.max_speed * dt).max(self.max_spacing).max(0.25)
    }
}
