//! `SwarmFlowFieldBaker`: the surface flow field bake (`flow_bake::FlowBaker`) for GDScript, a
//! slice at a time, so the editor's Bake Flow Field button can show progress.

use std::time::Instant;

use godot::classes::{Node3D, PhysicsDirectSpaceState3D, RefCounted};
use godot::global::Error;
use godot::prelude::*;

use crate::convert::to_bake_bounds;
use crate::flow_bake::{BakeSettings, FlowBaker};
use crate::nodes::manager::SwarmManager;
use crate::resources::flow_field_data::SwarmFlowFieldData;

enum State {
    Idle,
    Running(Box<FlowBaker>),
    Finished,
    Failed,
}

/// Bakes a [SwarmFlowFieldData] from the physics colliders in a manager's world, over as many
/// calls as you like, so a long bake can run over several frames with a progress bar:
/// [codeblock]
/// var baker := SwarmFlowFieldBaker.new()
/// if baker.start(manager) == OK:
///     while not baker.is_done():
///         progress_bar.value = baker.step(4096)
///         await get_tree().process_frame
///     manager.flow_field_data = baker.finish()
/// [/codeblock]
/// [method start] reads the manager's bake settings: [code]bake_bounds[/code] (world space),
/// [code]cell_size[/code], [code]clearance_radius[/code], [code]agent_height[/code],
/// [code]max_step_height[/code], [code]walkable_mask[/code] and [code]unwalkable_mask[/code]
/// (any [Node3D] with those properties works; a missing one takes its default). The colliders
/// must be in the manager's [World3D] (the node must be in the scene tree). Used by the editor's
/// Bake Flow Field button; [method SwarmManager.bake_flow_field] does the same in one call.
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct SwarmFlowFieldBaker {
    /// Sample with physics rays even where every collision shape over the bake bounds could be
    /// read directly. By default the bake reads the shapes once (boxes, spheres, capsules,
    /// cylinders, trimeshes, height maps, world boundaries) and answers its rays from them on
    /// all threads, which gives the same grid many times faster; it casts physics rays only
    /// when a shape it cannot read (a [ConvexPolygonShape3D], a custom shape) is in the bounds.
    /// See [method get_sample_method].
    #[var]
    use_physics_rays: bool,
    #[init(val = State::Idle)]
    state: State,
    manager: Option<Gd<Node3D>>,
    label: String,
    error: String,
    progress: f32,
    busy_usec: u64,
    rays: u64,
    method: String,
    dims: (u32, u32),
    result: Option<Gd<SwarmFlowFieldData>>,
    base: Base<RefCounted>,
}

#[godot_api]
impl SwarmFlowFieldBaker {
    /// Starts a bake with [param manager]'s settings. Returns [constant OK], or an error (with a
    /// message naming the node and the bad setting) when a setting is invalid or the node is not
    /// in the scene tree. Starting again drops any bake in progress.
    #[func]
    fn start(&mut self, manager: Option<Gd<Node3D>>) -> Error {
        self.reset();
        let Some(manager) = manager else {
            return self.fail("SwarmFlowFieldBaker.start: the manager is null".into(), Error::ERR_INVALID_PARAMETER);
        };
        self.label = node_label(&manager);
        if !manager.is_inside_tree() {
            let msg = format!("{}: cannot bake the flow field: the node is not in the scene tree", self.label);
            return self.fail(msg, Error::ERR_UNCONFIGURED);
        }
        let rays = self.use_physics_rays;
        let baker = read_settings(&manager).and_then(|s| FlowBaker::new(s, rays));
        match baker {
            Ok(b) => {
                self.dims = b.dims();
                self.state = State::Running(Box::new(b));
                self.manager = Some(manager);
                Error::OK
            }
            Err(e) => {
                let msg = format!("{}: cannot bake the flow field: {e}", self.label);
                self.fail(msg, Error::ERR_INVALID_PARAMETER)
            }
        }
    }

    /// Samples up to [param max_columns] more columns of the grid (at least one) and returns the
    /// progress, 0 to 1. After a failure (the manager left the tree) it returns 1 and
    /// [method finish] reports the error.
    #[func]
    fn step(&mut self, max_columns: i64) -> f32 {
        let t = Instant::now();
        let max = max_columns.clamp(1, i64::from(i32::MAX)) as usize;
        let space = match &self.state {
            State::Running(_) => self.space(),
            State::Idle => {
                godot_error!("SwarmFlowFieldBaker.step: call start() first");
                return 0.0;
            }
            State::Finished | State::Failed => return 1.0,
        };
        let mut space = match space {
            Ok(s) => s,
            Err(e) => {
                self.fail(e, Error::ERR_UNAVAILABLE);
                return 1.0;
            }
        };
        if let State::Running(b) = &mut self.state {
            self.progress = b.step(&mut space, max);
            self.rays = b.ray_count();
            self.method = b.method().to_string();
        }
        self.busy_usec += t.elapsed().as_micros() as u64;
        self.progress
    }

    /// True when there is nothing left to sample (also after a failure).
    #[func]
    fn is_done(&self) -> bool {
        match &self.state {
            State::Running(b) => b.is_done(),
            State::Idle => false,
            State::Finished | State::Failed => true,
        }
    }

    /// Progress of the sampling, 0 to 1.
    #[func]
    fn get_progress(&self) -> f32 {
        self.progress
    }

    /// Bakes the grid from the samples (sampling any columns still left) and returns it as a new
    /// [SwarmFlowFieldData]; null, with an error message, when the bake failed or was not
    /// started. Calling it again returns the same resource.
    #[func]
    fn finish(&mut self) -> Option<Gd<SwarmFlowFieldData>> {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Running(b) => {
                let mut b = *b;
                let t = Instant::now();
                if !b.is_done() {
                    match self.space() {
                        Ok(mut space) => {
                            while !b.is_done() {
                                b.step(&mut space, 1 << 20);
                            }
                            self.method = b.method().to_string();
                        }
                        Err(e) => {
                            self.fail(e, Error::ERR_UNAVAILABLE);
                            return None;
                        }
                    }
                }
                self.rays = b.ray_count();
                let r = b.finish();
                self.busy_usec += t.elapsed().as_micros() as u64;
                match r {
                    Ok(grid) => {
                        self.progress = 1.0;
                        self.state = State::Finished;
                        self.result = Some(SwarmFlowFieldData::from_grid(grid));
                        self.result.clone()
                    }
                    Err(e) => {
                        let msg = format!("{}: cannot bake the flow field: {e}", self.label);
                        self.fail(msg, Error::FAILED);
                        None
                    }
                }
            }
            State::Finished => {
                self.state = State::Finished;
                self.result.clone()
            }
            State::Failed => {
                self.state = State::Failed;
                godot_error!("{}", self.error);
                None
            }
            State::Idle => {
                godot_error!("SwarmFlowFieldBaker.finish: call start() first");
                None
            }
        }
    }

    /// Starts, samples and finishes in one call; null (with an error message) on failure.
    #[func]
    fn bake(&mut self, manager: Option<Gd<Node3D>>) -> Option<Gd<SwarmFlowFieldData>> {
        if self.start(manager) != Error::OK {
            return None;
        }
        self.finish()
    }

    /// The last error message; empty when none.
    #[func]
    fn get_error(&self) -> GString {
        GString::from(&self.error)
    }

    /// Grid size of the bake in columns (x, z), known after [method start].
    #[func]
    fn get_dims(&self) -> Vector2i {
        Vector2i::new(self.dims.0 as i32, self.dims.1 as i32)
    }

    /// Rays cast so far (answered from the collision shapes or by the physics engine: see
    /// [method get_sample_method]).
    #[func]
    fn get_ray_count(&self) -> i64 {
        self.rays as i64
    }

    /// How this bake samples, known after the first [method step]: [code]"collision shapes"[/code]
    /// (read once, rays answered on all threads), or [code]"physics rays"[/code] with the reason
    /// in brackets (a shape type it cannot read, or [member use_physics_rays]).
    #[func]
    fn get_sample_method(&self) -> GString {
        GString::from(&self.method)
    }

    /// Milliseconds spent inside [method step] and [method finish] (not the frames between).
    #[func]
    fn get_busy_msec(&self) -> f64 {
        self.busy_usec as f64 / 1000.0
    }
}

impl SwarmFlowFieldBaker {
    fn reset(&mut self) {
        self.state = State::Idle;
        self.manager = None;
        self.label.clear();
        self.error.clear();
        self.progress = 0.0;
        self.busy_usec = 0;
        self.rays = 0;
        self.method.clear();
        self.dims = (0, 0);
        self.result = None;
    }

    fn fail(&mut self, msg: String, code: Error) -> Error {
        godot_error!("{msg}");
        self.error = msg;
        self.state = State::Failed;
        self.progress = 1.0;
        code
    }

    fn space(&self) -> Result<Gd<PhysicsDirectSpaceState3D>, String> {
        let label = &self.label;
        let m = self
            .manager
            .as_ref()
            .filter(|m| m.is_instance_valid())
            .ok_or_else(|| format!("{label}: the flow field bake stopped: the node was freed"))?;
        if !m.is_inside_tree() {
            return Err(format!("{label}: the flow field bake stopped: the node left the scene tree"));
        }
        m.get_world_3d()
            .and_then(|w| w.get_direct_space_state())
            .ok_or_else(|| format!("{label}: the flow field bake stopped: no physics space to query"))
    }
}

/// "SwarmManager 'Name'" (class and node name) for messages.
fn node_label(n: &Gd<Node3D>) -> String {
    format!("{} '{}'", n.get_class(), n.get_name())
}

/// The bake settings of a SwarmManager, or of another node's properties of the same names
/// (missing ones take their defaults).
pub fn read_settings(node: &Gd<Node3D>) -> Result<BakeSettings, String> {
    if let Ok(m) = node.clone().try_cast::<SwarmManager>() {
        return Ok(m.bind().bake_settings());
    }
    let d = BakeSettings::default();
    let float = |name: &str, default: f32| -> Result<f32, String> {
        let v = node.get(name);
        match v.get_type() {
            VariantType::NIL => Ok(default),
            VariantType::FLOAT => Ok(v.to::<f64>() as f32),
            VariantType::INT => Ok(v.to::<i64>() as f32),
            _ => Err(format!("{name} = {v} is not a number")),
        }
    };
    let mask = |name: &str, default: u32| -> Result<u32, String> {
        let v = node.get(name);
        match v.get_type() {
            VariantType::NIL => Ok(default),
            VariantType::INT => {
                let i = v.to::<i64>();
                u32::try_from(i).map_err(|_| format!("{name} = {i} is outside 0..{}", u32::MAX))
            }
            _ => Err(format!("{name} = {v} is not an integer layer mask")),
        }
    };
    let bounds = {
        let v = node.get("bake_bounds");
        match v.get_type() {
            VariantType::NIL => d.bounds,
            VariantType::AABB => to_bake_bounds(v.to::<Aabb>()),
            _ => return Err(format!("bake_bounds = {v} is not an AABB")),
        }
    };
    Ok(BakeSettings {
        bounds,
        cell_size: float("cell_size", d.cell_size)?,
        clearance_radius: float("clearance_radius", d.clearance_radius)?,
        agent_height: float("agent_height", d.agent_height)?,
        max_step_height: float("max_step_height", d.max_step_height)?,
        walkable_mask: mask("walkable_mask", d.walkable_mask)?,
        unwalkable_mask: mask("unwalkable_mask", d.unwalkable_mask)?,
    })
}
