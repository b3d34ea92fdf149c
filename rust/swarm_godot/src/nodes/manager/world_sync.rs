//! Settings and the world: converts the settings resource and manager fields into core
//! settings, makes the world (again, when capacity, threads or seed change while it is empty),
//! and hands it the surface flow field it should follow.

use godot::prelude::*;
use swarm_core::bounds::world as wb;
use swarm_core::{World, WorldSettings};

use super::SwarmManager;

use crate::convert::report_findings;

impl SwarmManager {
    /// Hands the world the flow field it should follow (when enabled and changed).
    pub(super) fn sync_surface(&mut self) {
        let want = if self.surface_flow_field_enabled { self.flow_field_data.clone() } else { None };
        let key = want.as_ref().map(|d| (d.instance_id(), d.bind().revision() as usize));
        if key == self.applied_surface {
            if self.surface_flow_field_enabled && want.is_none() && !self.surface_problem_reported {
                self.surface_problem_reported = true;
                self.error(
                    "surface_flow_field_enabled",
                    "the surface flow field is on but flow_field_data is empty: press Bake Flow Field in the inspector or call bake_flow_field()",
                );
            }
            return;
        }
        self.applied_surface = key;
        self.surface_problem_reported = false;
        self.registry.modifiers_dirty = true;
        let grid = match want {
            None => None,
            Some(d) => match d.bind().to_grid() {
                Ok(g) => Some(g),
                Err(e) => {
                    self.error("flow_field_data", e);
                    None
                }
            },
        };
        self.world_mut().set_surface(grid);
    }

    pub(super) fn ground_height(&self) -> f32 {
        let b = self.base();
        if b.is_inside_tree() {
            b.get_global_position().y
        } else {
            b.get_position().y
        }
    }

    /// Core settings from the resource and manager fields, with the problems found (the bounds
    /// of the manager's own fields are the core's, like every other setting's).
    pub(super) fn current_settings(&self) -> (WorldSettings, Vec<String>) {
        let seed = self.random_seed as u64;
        let ground = self.ground_height();
        let mut findings = Vec::new();
        let max_active: i64 = wb::MAX_ACTIVE_TARGET_COUNT.narrow(self.max_active_target_count, &mut findings);
        let agent_height = wb::AGENT_HEIGHT.check(self.agent_height, &mut findings);
        let (mut s, mut problems) = match &self.settings {
            Some(s) => s.bind().to_core(seed, max_active, ground, &self.label()),
            None => (
                WorldSettings {
                    seed,
                    max_active_target_count: max_active as usize,
                    ground_height: ground,
                    ..Default::default()
                },
                Vec::new(),
            ),
        };
        s.agent_height = agent_height;
        report_findings(&self.label(), &findings, &mut problems);
        (s, problems)
    }

    /// This manager's own generation base for agent ids (from its node path, or its name out of
    /// the tree), so an id of another manager is stale here; the same scene gives the same ids
    /// on every run.
    fn id_generation_base(&self) -> u32 {
        use std::hash::{Hash, Hasher};
        let node = self.base();
        let name = if node.is_inside_tree() { node.get_path().to_string() } else { node.get_name().to_string() };
        // A fixed-key hasher: the same name gives the same base on every run and machine.
        let mut h = std::hash::DefaultHasher::new();
        name.hash(&mut h);
        h.finish() as u32
    }

    /// `world`, made this manager's own: its new agent ids take this manager's generation base.
    pub(super) fn adopt(&self, mut world: World) -> World {
        world.set_id_generation_base(self.id_generation_base());
        world
    }

    pub(super) fn world_mut(&mut self) -> &mut World {
        if self.world.is_none() {
            let (s, problems) = self.current_settings();
            for p in problems {
                godot_error!("{p}");
            }
            self.world = Some(self.adopt(World::new(s.clone())));
            self.visuals.invalidate();
            self.world_settings = Some(s);
        }
        self.world.as_mut().unwrap()
    }

    /// Applies edited settings. Capacity, threads and seed need a fresh world, which is made only
    /// while there are no agents (archetypes and targets are carried over).
    pub(super) fn sync_settings(&mut self) {
        let (s, problems) = self.current_settings();
        if self.world_settings.as_ref() == Some(&s) {
            return;
        }
        for p in problems {
            godot_error!("{p}");
        }
        let label = self.label();
        let Some(world) = self.world.as_mut() else {
            return;
        };
        if world.update_settings(s.clone()) {
            self.world_settings = Some(s);
            self.settings_problem_reported = false;
            return;
        }
        if world.count() == 0 {
            let mut w = self.adopt(World::new(s.clone()));
            self.registry.carry_over(&mut w);
            self.world = Some(w);
            self.visuals.invalidate();
            // The fresh world has no flow field yet: hand it over (and restamp the modifiers).
            self.applied_surface = None;
            self.world_settings = Some(s);
        } else if !self.settings_problem_reported {
            self.settings_problem_reported = true;
            godot_error!("{label}: settings: max_agents, worker_threads and random_seed changes take effect only while the manager has no agents; despawn them first");
        }
    }
}
