//! Debug views and monitors: the flow-field mesh (walkable and blocked cells, the first active
//! target's direction field) in the editor and at run time, and the performance monitors.

use godot::classes::node::InternalMode;
use godot::classes::{MeshInstance3D, Performance};
use godot::prelude::*;

use swarm_core::StepStats;

use super::SwarmManager;
use crate::flow_debug;

/// Reads one debugger monitor's figure from a manager.
type Monitor = fn(&SwarmManager) -> f64;

impl SwarmManager {
    /// In the editor: the baked grid of [member flow_field_data] (walkable and blocked cells)
    /// while [member debug_draw_flow_field] is on, rebuilt when the data changes.
    pub(super) fn update_editor_flow_debug(&mut self) {
        let key = self.flow_field_data.as_ref().map(|d| (d.instance_id(), d.bind().revision() as usize));
        let grid = match (&self.flow_field_data, self.debug_draw_flow_field) {
            (Some(d), true) => d.bind().to_grid().ok(),
            _ => None,
        };
        let Some(grid) = grid else {
            if let Some(mut d) = self.debug_flow.take() {
                d.queue_free();
            }
            self.editor_debug_key = None;
            return;
        };
        if self.debug_flow.is_some() && self.editor_debug_key == key {
            return;
        }
        self.editor_debug_key = key;
        let mesh = flow_debug::debug_mesh(&grid, None, None);
        self.show_flow_debug(&mesh);
    }

    pub(super) fn show_flow_debug(&mut self, mesh: &Gd<godot::classes::ArrayMesh>) {
        let mut inst = match self.debug_flow.clone() {
            Some(i) => i,
            None => {
                let mut i = MeshInstance3D::new_alloc();
                i.set_name("SwarmFlowFieldDebug");
                i.set_as_top_level(true);
                self.base_mut().add_child_ex(&i).internal(InternalMode::FRONT).done();
                i.set_global_transform(Transform3D::IDENTITY);
                self.debug_flow = Some(i.clone());
                i
            }
        };
        inst.set_mesh(mesh);
    }

    /// The flow-field debug view: walkable and blocked cells and the first active target's
    /// direction field, rebuilt twice a second while shown.
    pub(super) fn update_flow_debug(&mut self) {
        let show = self.debug_draw_flow_field && self.world.as_ref().is_some_and(|w| w.surface().is_some());
        if !show {
            if let Some(mut d) = self.debug_flow.take() {
                d.queue_free();
            }
            return;
        }
        if self.debug_flow.is_some() && !self.frame.is_multiple_of(30) {
            return;
        }
        let w = self.world.as_ref().unwrap();
        let nav = w.surface().unwrap();
        let field = w.targets().active().first().and_then(|&slot| nav.target_field(slot));
        let mesh = flow_debug::debug_mesh(&nav.grid, Some(&nav.mods), field);
        self.show_flow_debug(&mesh);
    }

    /// The monitors shown in the debugger's Monitors tab (under "Swarm/<manager name>"), each
    /// reading one figure of the last step or of the last visual sync.
    fn monitor_ids(&self) -> [(String, Monitor); 9] {
        let n = self.base().get_name();
        fn stats(m: &SwarmManager) -> StepStats {
            m.world.as_ref().map(|w| w.stats()).unwrap_or_default()
        }
        [
            (format!("Swarm/{n} agents"), |m| m.world.as_ref().map_or(0.0, |w| w.count() as f64)),
            (format!("Swarm/{n} step ms"), |m| stats(m).step_ms as f64),
            (format!("Swarm/{n} sync ms"), |m| m.last_sync_ms as f64),
            (format!("Swarm/{n} active targets"), |m| stats(m).active_targets as f64),
            (format!("Swarm/{n} LOD full"), |m| stats(m).tiers.full as f64),
            (format!("Swarm/{n} LOD reduced"), |m| stats(m).tiers.reduced as f64),
            (format!("Swarm/{n} LOD cheap"), |m| stats(m).tiers.cheap as f64),
            (format!("Swarm/{n} dormant"), |m| stats(m).tiers.dormant as f64),
            (format!("Swarm/{n} far waiting"), |m| stats(m).far_waiting as f64),
        ]
    }

    pub(super) fn add_monitors(&mut self) {
        let mut perf = Performance::singleton();
        let me = self.base().instance_id();
        for (id, read) in self.monitor_ids() {
            let id = StringName::from(id.as_str());
            if !perf.has_custom_monitor(&id) {
                let callable = Callable::from_fn("swarm_monitor", move |_args| {
                    Gd::<SwarmManager>::try_from_instance_id(me).map_or(0.0, |m| read(&m.bind()))
                });
                perf.add_custom_monitor(&id, &callable);
                self.monitors.push(id);
            }
        }
    }

    pub(super) fn remove_monitors(&mut self) {
        let mut perf = Performance::singleton();
        for id in self.monitors.drain(..) {
            if perf.has_custom_monitor(&id) {
                perf.remove_custom_monitor(&id);
            }
        }
    }
}
