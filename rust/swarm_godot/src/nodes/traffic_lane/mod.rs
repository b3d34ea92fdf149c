//! `SwarmTrafficLane`: an ambient lane of vehicles along a `Path3D`, one controller over the
//! core's flat lane, drawn through MultiMesh, with engine voices and sleeping colliders.

mod audio;
mod colliders;
mod monitors;
mod running;

use godot::classes::{Camera3D, Curve3D, Engine, INode3D, Mesh, Node3D, Path3D};
use godot::prelude::*;
use swarm_core::bounds::traffic as tb;
use swarm_core::host_parts::PartState;
use swarm_core::traffic::{Lane, TrafficProfile};

use crate::convert::{finding_message_as, to_vec3, Checker};
use crate::lookup::LANE_GROUP;
use crate::resources::traffic_profile::SwarmTrafficProfile;
use running::{BuildInput, BuildKey, Running};

/// An ambient lane of traffic along a [Path3D]: a jam that creeps, stops and goes, for almost
/// nothing. One controller drives every vehicle over flat arrays (no node per vehicle); vehicles
/// are drawn through one [MultiMesh] per mesh in [member vehicle_meshes].
///
/// [b]Driving.[/b] Each vehicle follows the one ahead at the safe speed
/// [code]sqrt(2 * braking * max(0, gap - brake_gap))[/code] and never closes below
/// [member SwarmTrafficProfile.brake_gap]. Vehicles are placed [member SwarmTrafficProfile.packing_gap]
/// apart, so with the brake gap below it a packed lane creeps instead of freezing. Each go phase
/// commits to a distance ([member SwarmTrafficProfile.go_distance] body lengths, spent only on
/// real progress), then the vehicle pauses ([member SwarmTrafficProfile.pause_time]): stops
/// travel backward along the line like a real jam. Half a vehicle's length comes from its mesh's
/// AABB (its Z extent; the mesh's -Z faces where it drives).
///
/// [b]The endless belt.[/b] The lane simulates only a window of [member window_behind] +
/// [member window_ahead] metres around [member window_anchor] (default: the current camera).
/// A vehicle leaving the window's leading edge reappears behind the back of the line, and one the
/// window leaves behind reappears ahead of the front, packed at the packing gap and in order. A
/// closed curve with no anchor loops; an open one recycles over its whole length.
///
/// [b]Audio.[/b] At most [member SwarmTrafficProfile.max_voices] voices play
/// [member SwarmTrafficProfile.engine_stream], each given to a vehicle that moves and is within
/// [member SwarmTrafficProfile.earshot] of the current camera, faded over
/// [member SwarmTrafficProfile.fade_time], stopped when silent.
///
/// [b]Colliders.[/b] Every vehicle has a kinematic box collider that starts disabled;
/// [method wake_colliders] enables those near an actor for a while and freezes the lane meanwhile.
///
/// Everything random comes from [member seed]: the same seed gives the same traffic.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmTrafficLane {
    /// How the vehicles drive, sound and collide. Without one the default settings are used (with
    /// an error).
    #[export]
    profile: Option<Gd<SwarmTrafficProfile>>,
    /// The [Path3D] the lane drives along; empty uses the first [Path3D] child.
    #[export(node_path = ("Path3D"))]
    path: NodePath,
    /// Drive against the curve's direction (from its last point toward its first).
    #[export]
    reverse: bool,

    /// The [Node3D] the window follows (its closest point on the curve); empty uses the viewport's
    /// current [Camera3D]. With neither, the window is the whole curve.
    #[export_group(name = "Window")]
    #[export(node_path = ("Node3D"))]
    window_anchor: NodePath,
    /// Metres of lane simulated behind the anchor's closest point, in the direction of travel.
    #[export(range = (0.0, 500.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 60.0)]
    window_behind: f32,
    /// Metres of lane simulated ahead of the anchor's closest point, in the direction of travel.
    #[export(range = (0.0, 500.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 60.0)]
    window_ahead: f32,

    /// Vehicles in the lane; 0 fills the window (or the whole curve) at the packing gap.
    #[export_group(name = "Vehicles")]
    #[export(range = (0.0, 10000.0, 1.0))]
    #[init(val = 0)]
    vehicle_count: i64,
    /// Seed of the lane's random generator (vehicle kinds, go distances, pauses).
    #[export]
    seed: i64,
    /// The vehicle meshes, picked per vehicle by [member vehicle_weights].
    #[export]
    vehicle_meshes: Array<Option<Gd<Mesh>>>,
    /// Relative weight of each entry of [member vehicle_meshes], by index; missing weights count as 1.
    #[export]
    vehicle_weights: PackedFloat32Array,

    running: Option<Running>,
    /// A loaded lane waiting for the lane to be built (see [`Self::restore_part`]).
    pending_restore: Option<Box<Lane>>,
    /// Problems last reported (each reported once while it lasts).
    reported: Vec<String>,
    /// The lane has run: a path that goes away later is no error (it may be leaving the tree).
    ran: bool,
    /// Physics frames seen in the editor (the gizmo is redrawn every few).
    editor_frames: u32,
    /// Ids of the debugger monitors this lane added.
    monitors: Vec<StringName>,
    /// The actor of a wake event, and where it was last seen.
    wake_actor: Option<(InstanceId, Vector3)>,

    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for SwarmTrafficLane {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(LANE_GROUP);
        if !Engine::singleton().is_editor_hint() {
            let name = self.base().get_name().to_string();
            self.monitors = monitors::add(&name, self.base().instance_id(), Self::stat_of);
        }
    }

    fn exit_tree(&mut self) {
        let _ = self.stop();
        monitors::remove(&mut self.monitors);
    }

    fn physics_process(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() {
            // The window gizmo follows the anchor while it is moved in the editor.
            self.editor_frames = self.editor_frames.wrapping_add(1);
            if self.editor_frames.is_multiple_of(15) {
                self.base_mut().update_gizmos();
            }
            return;
        }
        self.frame(delta as f32);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        for m in self.setup_problems(true, true) {
            w.push(&m);
        }
        w
    }
}

#[godot_api]
impl SwarmTrafficLane {
    /// Emitted when [method wake_colliders] woke colliders: at the call with the number woken then
    /// (possibly 0), and on each later frame of the event that woke more as the actor moved.
    #[signal]
    fn colliders_woken(count: i64);
    /// Emitted when a wake event ended and every collider was disabled again (also when the lane
    /// was rebuilt, or lost its path, during the event).
    #[signal]
    fn colliders_slept();

    /// Enables the colliders of the vehicles within [member SwarmTrafficProfile.wake_radius] of
    /// [param actor] for [param seconds], following the actor while it moves (vehicles it comes
    /// near wake too), and freezes the lane meanwhile so no vehicle moves or is recycled under
    /// it. Then every collider is disabled again. Calling it during an event extends the event.
    #[func]
    fn wake_colliders(&mut self, actor: Option<Gd<Node3D>>, seconds: f32) {
        let label = self.label();
        let Some(actor) = actor.filter(|a| a.is_inside_tree()) else {
            godot_error!("{label}: wake_colliders: actor is null or not in the scene tree; nothing woken");
            return;
        };
        if !seconds.is_finite() || seconds <= 0.0 {
            godot_error!("{label}: wake_colliders: seconds = {seconds} must be a number above 0; nothing woken");
            return;
        }
        let seconds = Checker::new(format!("{label}: wake_colliders")).f(&tb::WAKE_SECONDS, seconds);
        if self.running.is_none() {
            godot_error!(
                "{label}: wake_colliders: the lane is not running (see its configuration warnings); nothing woken"
            );
            return;
        }
        let at = actor.get_global_position();
        self.wake_actor = Some((actor.instance_id(), at));
        let (xform, space) = (self.path_transform(), self.space());
        let Some(r) = self.running.as_mut() else { return };
        r.refresh_positions(xform);
        r.start_wake(seconds);
        let (woken, _) = r.update_wake(to_vec3(at), 0.0, xform, space);
        self.signals().colliders_woken().emit(woken as i64);
    }

    /// The window drawn by the editor gizmo, as pairs of points for lines in this node's space:
    /// the stretch of the curve it covers (lifted 0.3 m), a bar across each edge and a shorter
    /// one at the anchor. At run time it is where the lane's window is; in the editor, around
    /// [member window_anchor], or the curve's middle without one (at run time the window follows
    /// the camera). Empty without a usable path.
    #[func]
    fn get_window_outline(&self) -> PackedVector3Array {
        let mut out = PackedVector3Array::new();
        let Some(path) = self.find_path().filter(|p| p.is_inside_tree()) else { return out };
        let Some(curve) = Self::usable_curve(&path) else { return out };
        let len = curve.get_baked_length();
        let to_me = self.base().get_global_transform().affine_inverse() * path.get_global_transform();
        let anchor = self
            .base()
            .get_node_or_null(&self.window_anchor)
            .filter(|_| !self.window_anchor.is_empty())
            .and_then(|n| n.try_cast::<Node3D>().ok())
            .map_or(0.5 * len, |a| {
                curve.get_closest_offset(path.get_global_transform().affine_inverse() * a.get_global_position())
            });
        let mut c = Checker::new(String::new());
        let (behind, ahead) = (c.f(&tb::WINDOW_BEHIND, self.window_behind), c.f(&tb::WINDOW_AHEAD, self.window_ahead));
        // At run time: where the running lane's window is.
        let anchor = self.running.as_ref().and_then(|r| r.anchor_offset()).unwrap_or(anchor);
        // "Ahead" is along the direction of travel.
        let (lo, hi) = if self.reverse { (anchor - ahead, anchor + behind) } else { (anchor - behind, anchor + ahead) };
        let closed = curve.is_closed();
        let (lo, hi) = if closed { (lo, hi.min(lo + len)) } else { (lo.max(0.0), hi.min(len)) };
        let lift = Vector3::new(0.0, 0.3, 0.0);
        let at = |o: f32| {
            let o = if closed { o.rem_euclid(len) } else { o };
            to_me * (curve.sample_baked_ex().offset(o).done() + lift)
        };
        let steps = (((hi - lo) / 2.0).ceil() as usize).clamp(1, 2000);
        for i in 0..steps {
            let (a, b) = (lo + (hi - lo) * i as f32 / steps as f32, lo + (hi - lo) * (i + 1) as f32 / steps as f32);
            out.push(at(a));
            out.push(at(b));
        }
        for (o, half_width) in [(lo, 2.0), (hi, 2.0), (anchor, 0.8)] {
            let p = at(o);
            let d = at((o + 0.5).min(if closed { f32::MAX } else { len }))
                - at((o - 0.5).max(if closed { f32::MIN } else { 0.0 }));
            let side = d.cross(Vector3::UP).try_normalized().unwrap_or(Vector3::RIGHT) * half_width;
            out.push(p - side);
            out.push(p + side);
        }
        out
    }

    /// Each vehicle's distance along the curve (its offset, as [method Curve3D.sample_baked]
    /// takes it), front of the line first.
    #[func]
    fn get_vehicle_offsets(&self) -> PackedFloat32Array {
        let Some(r) = &self.running else { return PackedFloat32Array::new() };
        (0..r.lane.len()).map(|k| r.lane.offset(r.lane.slot(k))).collect()
    }

    /// Each vehicle's speed in m/s, in the order of [method get_vehicle_offsets].
    #[func]
    fn get_vehicle_speeds(&self) -> PackedFloat32Array {
        let Some(r) = &self.running else { return PackedFloat32Array::new() };
        (0..r.lane.len()).map(|k| r.lane.speed(r.lane.slot(k))).collect()
    }

    /// [code]vehicles[/code], [code]moving[/code] (faster than the profile's moving speed),
    /// [code]mean_speed[/code], [code]voices_playing[/code], [code]colliders_awake[/code],
    /// [code]recycled[/code] (vehicles moved by the belt so far) and [code]frozen[/code].
    #[func]
    fn get_stats(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let (stats, voices, awake) = match &self.running {
            Some(r) => (r.lane.stats(), r.voices.playing(), r.colliders.awake()),
            None => (Default::default(), 0, 0),
        };
        d.set("vehicles", stats.vehicles as i64);
        d.set("moving", stats.moving as i64);
        d.set("mean_speed", stats.mean_speed);
        d.set("voices_playing", voices as i64);
        d.set("colliders_awake", awake as i64);
        d.set("recycled", stats.recycled as i64);
        d.set("frozen", stats.frozen);
        d
    }
}

impl SwarmTrafficLane {
    /// One of `get_stats`' numbers of the lane `id` (for the monitors; 0 when it is gone).
    fn stat_of(id: InstanceId, key: &str) -> f64 {
        let Ok(lane) = Gd::<SwarmTrafficLane>::try_from_instance_id(id) else { return 0.0 };
        let v = lane.bind().get_stats().get(key).unwrap_or_default();
        v.try_to::<i64>().map(|i| i as f64).or_else(|_| v.try_to::<f64>()).unwrap_or(0.0)
    }

    fn label(&self) -> String {
        format!("SwarmTrafficLane '{}'", self.base().get_name())
    }

    /// The path: [member path], else the first [Path3D] child.
    fn find_path(&self) -> Option<Gd<Path3D>> {
        if !self.path.is_empty() {
            return self.base().get_node_or_null(&self.path).and_then(|n| n.try_cast::<Path3D>().ok());
        }
        self.base().get_children().iter_shared().find_map(|c| c.try_cast::<Path3D>().ok())
    }

    /// A curve the lane can drive on.
    fn usable_curve(path: &Gd<Path3D>) -> Option<Gd<Curve3D>> {
        path.get_curve().filter(|c| c.get_point_count() >= 2 && c.get_baked_length() > 0.0)
    }

    /// The anchor: [member window_anchor], else the viewport's current camera.
    fn find_anchor(&self) -> Option<Gd<Node3D>> {
        if !self.window_anchor.is_empty() {
            return self.base().get_node_or_null(&self.window_anchor).and_then(|n| n.try_cast::<Node3D>().ok());
        }
        self.listener().map(|c| c.upcast())
    }

    fn listener(&self) -> Option<Gd<Camera3D>> {
        self.base().get_viewport().and_then(|v| v.get_camera_3d())
    }

    fn path_transform(&self) -> Transform3D {
        self.find_path().filter(|p| p.is_inside_tree()).map_or(Transform3D::IDENTITY, |p| p.get_global_transform())
    }

    fn space(&self) -> Rid {
        self.base().get_world_3d().map_or(Rid::Invalid, |w| w.get_space())
    }

    /// The core profile and every problem with the setup, as sentences that name the fix
    /// (`editor`: as configuration warnings, else as runtime errors; `path`: with the path's).
    fn setup_problems(&self, editor: bool, path: bool) -> Vec<String> {
        let label = self.label();
        let mut out = Vec::new();
        match &self.profile {
            None => out.push(format!(
                "{label}: profile is empty: assign a SwarmTrafficProfile to Profile (the default settings are used meanwhile)"
            )),
            Some(p) => {
                p.bind().to_core(&label, &mut out);
            }
        }
        match self.find_path().filter(|_| path) {
            None if !path => {}
            None if self.path.is_empty() => {
                out.push(format!("{label}: no Path3D: add a Path3D child, or set Path to one"))
            }
            None => out.push(format!("{label}: path '{}' is not a Path3D: set Path to a Path3D", self.path)),
            Some(p) if Self::usable_curve(&p).is_none() => out.push(format!(
                "{label}: the Path3D '{}' has an empty curve: give it a Curve3D with at least two points",
                p.get_name()
            )),
            Some(_) => {}
        }
        if self.vehicle_meshes.iter_shared().all(|m| m.is_none()) {
            out.push(format!(
                "{label}: vehicle_meshes has no mesh: add at least one Mesh (vehicles are simulated but not drawn)"
            ));
        }
        let mut c = Checker::new(label.clone());
        c.f(&tb::WINDOW_BEHIND, self.window_behind);
        c.f(&tb::WINDOW_AHEAD, self.window_ahead);
        c.i(&tb::VEHICLE_COUNT, self.vehicle_count);
        out.extend(c.problems);
        for (i, w) in self.vehicle_weights.as_slice().iter().enumerate() {
            let mut found = Vec::new();
            tb::VEHICLE_WEIGHT.check(*w, &mut found);
            out.extend(found.iter().map(|f| finding_message_as(&label, &format!("vehicle_weights[{i}]"), f)));
        }
        if editor {
            // In the inspector the node's name is implied.
            let prefix = format!("{label}: ");
            return out.into_iter().map(|m| m.strip_prefix(&prefix).unwrap_or(&m).to_string()).collect();
        }
        out
    }

    /// Reports each problem once while it lasts.
    fn report(&mut self, problems: Vec<String>) {
        for p in problems.iter().filter(|p| !self.reported.contains(p)) {
            godot_error!("{p}");
        }
        self.reported = problems;
    }

    fn core_profile(&self) -> TrafficProfile {
        let mut ignored = Vec::new();
        self.profile.as_ref().map_or_else(TrafficProfile::default, |p| p.bind().to_core("", &mut ignored))
    }

    /// Tears the running lane down (no error: the path or lane may simply be leaving).
    /// Returns whether a wake event was cut short (its colliders are gone with the lane).
    fn stop(&mut self) -> bool {
        let mut interrupted = false;
        if let Some(mut r) = self.running.take() {
            interrupted = r.wake.remaining.is_some();
            r.free();
        }
        self.wake_actor = None;
        interrupted
    }

    /// `colliders_slept` for an event whose lane was torn down or rebuilt under it.
    fn stop_and_report(&mut self) {
        if self.stop() {
            self.signals().colliders_slept().emit();
        }
    }

    /// One physics frame: read, step, write, emit.
    fn frame(&mut self, dt: f32) {
        let problems = self.setup_problems(false, !self.ran);
        self.report(problems);
        let path = self.find_path().filter(|p| p.is_inside_tree());
        let Some((path, curve)) = path.and_then(|p| Self::usable_curve(&p).map(|c| (p, c))) else {
            self.stop_and_report();
            return;
        };
        let profile = self.core_profile();
        let xform = path.get_global_transform();
        let anchor = self.find_anchor().filter(|a| a.is_inside_tree()).map(|a| a.get_global_position());
        // A lane built with a window keeps it where it was when its anchor goes away.
        let anchored = anchor.is_some() || self.running.as_ref().is_some_and(|r| r.key.window.is_some());
        let key = self.build_key(&curve, &profile, anchored);
        if self.running.as_ref().is_none_or(|r| r.key != key) {
            self.stop_and_report();
            let meshes: Vec<Option<Gd<Mesh>>> = self.vehicle_meshes.iter_shared().collect();
            let weights: Vec<f32> =
                self.vehicle_weights.as_slice().iter().map(|w| tb::VEHICLE_WEIGHT.check(*w, &mut Vec::new())).collect();
            let input = BuildInput {
                curve: &curve,
                meshes: &meshes,
                weights: &weights,
                profile: profile.clone(),
                stream: self.profile.as_ref().and_then(|p| p.bind().engine_stream()),
                anchor_local: anchor.map(|a| xform.affine_inverse() * a),
            };
            let mut base = self.base().clone();
            self.running = Some(Running::build(key, input, &mut base));
            self.ran = true;
        }
        if let Some(saved) = self.pending_restore.take() {
            self.take_lane(saved);
        }
        let listener = self.listener().filter(|c| c.is_inside_tree()).map(|c| to_vec3(c.get_global_position()));
        let actor = self.wake_actor.map(|(id, last)| {
            let now = Gd::<Node3D>::try_from_instance_id(id).ok().filter(|a| a.is_inside_tree());
            now.map_or(last, |a| a.get_global_position())
        });
        if let (Some((id, _)), Some(at)) = (self.wake_actor, actor) {
            self.wake_actor = Some((id, at));
        }
        let space = if self.wake_actor.is_some() { self.space() } else { Rid::Invalid };
        let Some(r) = self.running.as_mut() else { return };
        if r.lane.profile() != &profile {
            r.lane.set_profile(profile);
        }
        if let Some(a) = anchor {
            r.follow_anchor(xform.affine_inverse() * a);
        }
        r.lane.step(dt);
        let positions = r.needs_positions();
        r.draw(xform, positions);
        if r.voices.has_players() {
            r.update_voices(listener, dt);
        }
        let (mut woken, mut slept) = (0, false);
        if let Some(at) = actor.filter(|_| r.wake.remaining.is_some()) {
            (woken, slept) = r.update_wake(to_vec3(at), dt, xform, space);
        }
        if slept {
            self.wake_actor = None;
            self.signals().colliders_slept().emit();
        } else if woken > 0 {
            self.signals().colliders_woken().emit(woken as i64);
        }
    }

    fn build_key(&self, curve: &Gd<Curve3D>, profile: &TrafficProfile, anchored: bool) -> BuildKey {
        let p = self.profile.as_ref().map(|p| p.bind());
        let mut ignore = Vec::new();
        BuildKey {
            curve: curve.instance_id(),
            baked_length: curve.get_baked_length().to_bits(),
            point_count: curve.get_point_count(),
            closed: curve.is_closed(),
            reverse: self.reverse,
            vehicle_count: tb::VEHICLE_COUNT.narrow(self.vehicle_count, &mut ignore),
            seed: self.seed as u64,
            window: anchored.then(|| {
                let b = tb::WINDOW_BEHIND.check(self.window_behind, &mut ignore);
                let a = tb::WINDOW_AHEAD.check(self.window_ahead, &mut ignore);
                (b.to_bits(), a.to_bits())
            }),
            meshes: self.vehicle_meshes.iter_shared().map(|m| m.map(|m| m.instance_id())).collect(),
            weights: self.vehicle_weights.as_slice().iter().map(|w| w.to_bits()).collect(),
            stream: p.as_ref().and_then(|p| p.engine_stream()).map(|s| s.instance_id()),
            max_voices: profile.max_voices,
            layers: p.as_ref().map_or((1, 1), |p| (p.collision_layer(), p.collision_mask())),
        }
    }
}

impl SwarmTrafficLane {
    /// The state to save (see `host_parts`): the running lane's vehicles, generator and window;
    /// `None` before the lane first runs.
    pub(crate) fn saved_part(&self) -> Option<PartState> {
        self.running.as_ref().map(|r| PartState::Lane(Box::new(r.lane.clone())))
    }

    /// Takes a saved lane over now if the lane runs, else once it is built.
    pub(crate) fn restore_part(&mut self, saved: Box<Lane>) {
        if self.running.is_some() {
            self.take_lane(saved);
        } else {
            self.pending_restore = Some(saved);
        }
    }

    /// Replaces the running lane with `saved` when it was built alike (same curve length,
    /// direction and vehicles); otherwise warns and keeps the lane as it is.
    fn take_lane(&mut self, saved: Box<Lane>) {
        let Some(r) = self.running.as_mut() else { return };
        match r.lane.matches(&saved) {
            Ok(()) => r.lane = *saved,
            Err(why) => godot_warn!(
                "SwarmTrafficLane '{}': load_state: {why}; the lane keeps its own vehicles",
                self.base().get_name()
            ),
        }
    }
}
