//! `SwarmRectSpawner` and `SwarmRingSpawner`: nodes over the core's spawn shapes that place
//! agents through the manager's `spawn_agent`, optionally where the camera cannot see them.
//!
//! Both classes declare the same exported fields (Godot needs them on each class) and share
//! everything else: a spawner is read into a [`Prepared`] snapshot while it is bound, then the
//! points are drawn and the manager is called with no borrow of the spawner held, so game code
//! that reacts to `agent_spawned` may call back into the spawner.

use godot::classes::{Engine, INode3D, Node3D, Time};
use godot::prelude::*;
use swarm_core::glam::{Affine3A, Vec2};
use swarm_core::host_parts::PartState;
use swarm_core::spawn::{Shape, SpawnArea, SpawnRng};
use swarm_core::Frustum;

use crate::class_enum::class_enum;
use crate::convert::{to_affine, to_vector3, Checker};
use crate::lookup::SPAWNER_GROUP;
use crate::nodes::manager::SwarmManager;
use crate::resources::archetype::SwarmAgentArchetype;
use crate::resources::spawn_profile::{Picker, SwarmSpawnProfile};

use swarm_core::bounds::spawner as sb;
/// Largest `count` and `spawn(count)` accepted in one call.
pub use swarm_core::bounds::spawner::MAX_COUNT;
/// Seconds between two "points still in view" warnings of one spawner.
const VIEW_WARNING_INTERVAL_MS: u64 = 5000;

/// The view of [member SwarmManager.visibility_camera], else of the viewport's current camera;
/// `None` when there is no camera or its planes are not finite (then nothing is on screen).
pub fn manager_view(manager: &Gd<SwarmManager>) -> Option<Frustum> {
    manager.bind().camera_frustum().filter(Frustum::is_valid)
}

/// Everything a spawn needs from a spawner, read while it is bound.
pub struct Prepared {
    pub label: String,
    pub node: Gd<Node3D>,
    pub shape: Shape,
    pub xform: Affine3A,
    pub off_screen: bool,
    pub margin: f32,
    pub attempts: u32,
    pub skip_in_view: bool,
    pub count: i64,
    /// `None` when there is nothing to spawn (the problem is in the list returned with it).
    pub picker: Option<Picker>,
}

impl Prepared {
    /// The spawner's area placed in the world, on the ground plane `ground_y`.
    pub fn area(&self, ground_y: f32) -> SpawnArea {
        SpawnArea {
            shape: self.shape,
            xform: self.xform,
            ground_y,
            off_screen: self.off_screen,
            margin: self.margin,
            attempts: self.attempts,
        }
    }
}

/// Exported fields every spawner has, copied out of the node.
pub struct Common {
    pub spawn_profile: Option<Gd<SwarmSpawnProfile>>,
    pub archetype: Option<Gd<SwarmAgentArchetype>>,
    pub count: i64,
    pub spawn_off_screen: bool,
    pub off_screen_margin: f32,
    pub off_screen_attempts: i64,
    pub off_screen_fallback: i64,
    pub random_seed: i64,
}

/// Runtime state of a spawner: its generator and what it already reported.
#[derive(Default)]
pub struct SpawnerState {
    rng: Option<(i64, SpawnRng)>,
    reported: Vec<String>,
    last_view_warning_ms: Option<u64>,
}

/// What the two spawner classes provide to the shared code.
pub trait SpawnerNode {
    const CLASS: &'static str;
    fn common(&self) -> Common;
    fn shape(&self, c: &mut Checker) -> Shape;
    fn state(&mut self) -> &mut SpawnerState;
    fn node(&self) -> Gd<Node3D>;

    fn label(&self) -> String {
        format!("{} '{}'", Self::CLASS, self.node().get_name())
    }

    /// The generator the next spawn starts from: the one kept from the last, or a new one when
    /// there is none or [member SwarmRectSpawner.random_seed] changed since. With the seed.
    fn current_rng(&mut self) -> (i64, SpawnRng) {
        let seed = self.common().random_seed;
        match self.state().rng {
            Some((s, rng)) if s == seed => (seed, rng),
            _ => (seed, SpawnRng::new(seed)),
        }
    }

    /// The state to save (see `host_parts`): the generator as the next spawn would start it.
    fn saved_part(&mut self) -> PartState {
        let (seed, rng) = self.current_rng();
        PartState::Spawner { seed, rng }
    }

    /// Takes a saved generator over (a spawner whose seed changed since starts from its new one).
    fn restore_part(&mut self, seed: i64, rng: SpawnRng) {
        self.state().rng = Some((seed, rng));
    }

    /// The snapshot and every problem found (not printed). `profile` replaces the spawner's own
    /// profile and archetype (a director's override).
    /// With `need_picker` false (recycling only moves agents) the archetypes are not checked.
    fn check(&self, profile: Option<&Gd<SwarmSpawnProfile>>, need_picker: bool) -> (Prepared, Vec<String>) {
        let label = self.label();
        let c0 = self.common();
        let mut c = Checker::new(label.clone());
        let shape = self.shape(&mut c);
        let count = c.i(&sb::COUNT, c0.count);
        let margin = c.f(&sb::OFF_SCREEN_MARGIN, c0.off_screen_margin);
        let attempts = c.i(&sb::OFF_SCREEN_ATTEMPTS, c0.off_screen_attempts) as u32;
        let fallback = c.i(&sb::OFF_SCREEN_FALLBACK, c0.off_screen_fallback);
        let mut problems = std::mem::take(&mut c.problems);
        let picker = match (profile.or(c0.spawn_profile.as_ref()), c0.archetype) {
            _ if !need_picker => None,
            (Some(p), _) => {
                let (picker, mut more) = p.bind().picker(&label);
                problems.append(&mut more);
                picker
            }
            (None, Some(a)) => Some(Picker::single(a)),
            (None, None) => {
                problems.push(format!(
                    "{label}: spawn_profile and archetype are both empty; nothing to spawn. Set spawn_profile (or archetype)"
                ));
                None
            }
        };
        let node = self.node();
        let xform = to_affine(if node.is_inside_tree() { node.get_global_transform() } else { node.get_transform() });
        let prepared = Prepared {
            label,
            node,
            shape,
            xform,
            off_screen: c0.spawn_off_screen,
            margin,
            attempts,
            skip_in_view: fallback == 0,
            count,
            picker,
        };
        (prepared, problems)
    }

    /// [`Self::check`], printing the problems (only the new ones when `once`), and the generator
    /// (reseeded when [member SwarmRectSpawner.random_seed] changed), taken out of the node until
    /// [`Self::finish`].
    fn prepare(
        &mut self,
        profile: Option<&Gd<SwarmSpawnProfile>>,
        once: bool,
        need_picker: bool,
    ) -> (Prepared, SpawnRng) {
        let (p, problems) = self.check(profile, need_picker);
        let state = self.state();
        for msg in &problems {
            if !once || !state.reported.contains(msg) {
                godot_error!("{msg}");
            }
        }
        state.reported = problems;
        (p, self.current_rng().1)
    }

    /// Puts the generator back and warns (at most every few seconds) about points that stayed in
    /// view.
    fn finish(&mut self, rng: SpawnRng, outcome: &Outcome, p: &Prepared) {
        let seed = self.common().random_seed;
        let state = self.state();
        state.rng = Some((seed, rng));
        if outcome.in_view == 0 {
            return;
        }
        let now = Time::singleton().get_ticks_msec();
        if state.last_view_warning_ms.is_some_and(|t| now.saturating_sub(t) < VIEW_WARNING_INTERVAL_MS) {
            return;
        }
        state.last_view_warning_ms = Some(now);
        let what = if p.skip_in_view {
            "were not spawned (off_screen_fallback = SKIP)"
        } else {
            "were spawned in view (off_screen_fallback = SPAWN_IN_VIEW)"
        };
        godot_warn!(
            "{}: spawn_off_screen: {} of {} points were still in the camera's view after {} tries each and {what}. Move the spawner out of view, widen its shape or raise off_screen_attempts",
            p.label,
            outcome.in_view,
            outcome.requested,
            p.attempts
        );
    }

    fn configuration_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        if let Err(e) = SwarmManager::find_for(&self.node().upcast()) {
            w.push(&format!("This spawner has no manager to spawn into: {e}."));
        }
        let (_, problems) = self.check(None, true);
        let label = self.label();
        for p in problems {
            let p = p.strip_prefix(&format!("{label}: ")).unwrap_or(&p).to_string();
            w.push(&format!("{p}."));
        }
        w
    }
}

/// Result of one spawn call.
#[derive(Default)]
pub struct Outcome {
    pub ids: Vec<i64>,
    pub requested: usize,
    /// Points still in view after every try (skipped or spawned in view per the fallback).
    pub in_view: usize,
    /// The manager refused (full or bad input; it reported why).
    pub refused: bool,
}

/// Draws `count` points and spawns an agent at each through the manager's `spawn_agent`. No
/// borrow of the spawner or caller may be held: the manager's signals run game code.
pub fn execute(p: &Prepared, rng: &mut SpawnRng, manager: &mut Gd<SwarmManager>, count: usize) -> Outcome {
    let mut out = Outcome { requested: count, ..Default::default() };
    let Some(picker) = &p.picker else {
        return out;
    };
    if count == 0 {
        return out;
    }
    let view = if p.off_screen { manager_view(manager) } else { None };
    let area = p.area(ground_height(manager));
    out.ids.reserve(count);
    for _ in 0..count {
        let (pos, in_view) = area.spawn_point(rng, view.as_ref());
        let archetype = picker.pick(rng.next_f32());
        if in_view {
            out.in_view += 1;
            if p.skip_in_view {
                continue;
            }
        }
        let id = manager.bind_mut().spawn_agent(Some(archetype.clone()), to_vector3(pos));
        if id < 0 {
            out.refused = true;
            break;
        }
        out.ids.push(id);
    }
    out
}

/// The manager's ground plane (agents stand at its global Y).
pub fn ground_height(manager: &Gd<SwarmManager>) -> f32 {
    if manager.is_inside_tree() {
        manager.get_global_position().y
    } else {
        manager.get_position().y
    }
}

/// Either spawner class, for code that drives spawners without caring which shape they have.
#[derive(Clone)]
pub enum AnySpawner {
    Rect(Gd<SwarmRectSpawner>),
    Ring(Gd<SwarmRingSpawner>),
}

impl AnySpawner {
    pub fn from_node(n: Gd<Node>) -> Option<Self> {
        match n.try_cast::<SwarmRectSpawner>() {
            Ok(r) => Some(Self::Rect(r)),
            Err(n) => n.try_cast::<SwarmRingSpawner>().ok().map(Self::Ring),
        }
    }

    pub fn node(&self) -> Gd<Node3D> {
        match self {
            Self::Rect(g) => g.clone().upcast(),
            Self::Ring(g) => g.clone().upcast(),
        }
    }

    pub fn prepare(&mut self, profile: Option<&Gd<SwarmSpawnProfile>>, once: bool) -> (Prepared, SpawnRng) {
        match self {
            Self::Rect(g) => g.bind_mut().prepare(profile, once, true),
            Self::Ring(g) => g.bind_mut().prepare(profile, once, true),
        }
    }

    /// The shape and generator only (for moving agents, not spawning them).
    pub fn prepare_shape(&mut self) -> (Prepared, SpawnRng) {
        match self {
            Self::Rect(g) => g.bind_mut().prepare(None, true, false),
            Self::Ring(g) => g.bind_mut().prepare(None, true, false),
        }
    }

    /// The state to save (see `host_parts`).
    pub fn saved_part(&mut self) -> PartState {
        match self {
            Self::Rect(g) => g.bind_mut().saved_part(),
            Self::Ring(g) => g.bind_mut().saved_part(),
        }
    }

    /// Takes a saved generator over.
    pub fn restore_part(&mut self, seed: i64, rng: SpawnRng) {
        match self {
            Self::Rect(g) => g.bind_mut().restore_part(seed, rng),
            Self::Ring(g) => g.bind_mut().restore_part(seed, rng),
        }
    }

    pub fn finish_shape(&mut self, rng: SpawnRng, p: &Prepared) {
        self.finish(rng, &Outcome::default(), p);
    }

    /// Problems a director would hit driving this spawner with `profile` (not printed).
    pub fn problems(&self, profile: Option<&Gd<SwarmSpawnProfile>>) -> Vec<String> {
        match self {
            Self::Rect(g) => g.bind().check(profile, true).1,
            Self::Ring(g) => g.bind().check(profile, true).1,
        }
    }

    pub fn finish(&mut self, rng: SpawnRng, outcome: &Outcome, p: &Prepared) {
        match self {
            Self::Rect(g) => g.bind_mut().finish(rng, outcome, p),
            Self::Ring(g) => g.bind_mut().finish(rng, outcome, p),
        }
    }

    /// Spawns `count` agents (a director's call: each problem is reported once, not every frame).
    pub fn spawn(
        &mut self,
        manager: &mut Gd<SwarmManager>,
        count: usize,
        profile: Option<&Gd<SwarmSpawnProfile>>,
    ) -> Outcome {
        let (p, mut rng) = self.prepare(profile, true);
        let outcome = execute(&p, &mut rng, manager, count);
        self.finish(rng, &outcome, &p);
        outcome
    }
}

/// The body of both classes' `spawn(count)`; `None`: [member SwarmRectSpawner.count] (checked).
fn spawn_method(mut s: AnySpawner, count: Option<i64>) -> PackedInt64Array {
    let (p, mut rng) = s.prepare(None, false);
    let count = count.unwrap_or(p.count);
    if !(0..=MAX_COUNT).contains(&count) {
        godot_error!("{}: spawn: count = {count} is outside 0..{MAX_COUNT}; nothing spawned", p.label);
        s.finish(rng, &Outcome::default(), &p);
        return PackedInt64Array::new();
    }
    let mut manager = match SwarmManager::find_for(&p.node.clone().upcast()) {
        Ok(m) => m,
        Err(e) => {
            godot_error!("{}: spawn: {e}; nothing spawned", p.label);
            s.finish(rng, &Outcome::default(), &p);
            return PackedInt64Array::new();
        }
    };
    let outcome = execute(&p, &mut rng, &mut manager, count as usize);
    s.finish(rng, &outcome, &p);
    outcome.ids.into_iter().collect()
}

/// [member SwarmRectSpawner.auto_spawn]: spawn [member SwarmRectSpawner.count] once the scene is
/// ready (deferred, so every node, manager and camera included, has entered the tree).
fn auto_spawn(mut spawner: AnySpawner) {
    if Engine::singleton().is_editor_hint() {
        return;
    }
    match &mut spawner {
        AnySpawner::Rect(g) => g.run_deferred_gd(|g| {
            spawn_method(AnySpawner::Rect(g), None);
        }),
        AnySpawner::Ring(g) => g.run_deferred_gd(|g| {
            spawn_method(AnySpawner::Ring(g), None);
        }),
    }
}

/// Spawns agents at random points of a rectangle in its local XZ plane ([member size], centred
/// on the node). Assign a [SwarmSpawnProfile] (or a single [member archetype]), then call
/// [method spawn], turn on [member auto_spawn], or let a [SwarmSpawnerDirector] drive it. With
/// [member spawn_off_screen] it only uses points the camera cannot see. Agents stand on the
/// manager's ground plane whatever the spawner's height.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmRectSpawner {
    /// Which archetypes to spawn, by weight. Takes precedence over [member archetype].
    #[export_group(name = "Agents")]
    #[export]
    spawn_profile: Option<Gd<SwarmSpawnProfile>>,
    /// The archetype to spawn when [member spawn_profile] is empty.
    #[export]
    archetype: Option<Gd<SwarmAgentArchetype>>,
    /// Agents spawned by [member auto_spawn].
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    #[init(val = 10)]
    count: i64,
    /// Spawn [member count] agents when the scene starts (not in the editor).
    #[export]
    auto_spawn: bool,
    /// Seed of this spawner's random points and archetype picks: the same seed and calls give
    /// the same agents. Changing it restarts the sequence.
    #[export]
    random_seed: i64,

    /// Width (X) and depth (Z) of the rectangle in metres, centred on the node.
    #[export_group(name = "Shape")]
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "m"))]
    #[var(set)]
    #[init(val = Vector2::new(20.0, 20.0))]
    size: Vector2,

    /// Only spawn where the camera ([member SwarmManager.visibility_camera], else the viewport's
    /// camera) cannot see the agent. Without a camera every point counts as unseen.
    #[export_group(name = "Off Screen")]
    #[export]
    spawn_off_screen: bool,
    /// How far outside the view, in metres, a point must be: covers the agent's body (a sphere of
    /// this radius at the feet and another 2 m above them must be out of view).
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.0)]
    off_screen_margin: f32,
    /// Points drawn per agent before giving up on finding one out of view.
    #[export(range = (1.0, 256.0, 1.0, or_greater))]
    #[init(val = 16)]
    off_screen_attempts: i64,
    /// What happens to an agent whose every try was in view: [constant FALLBACK_SKIP] (not
    /// spawned; [method spawn] returns fewer ids) or [constant FALLBACK_SPAWN_IN_VIEW]. Either
    /// way a warning says how many.
    #[export]
    #[var(get, set)]
    off_screen_fallback: RectFallback,

    state: SpawnerState,
    base: Base<Node3D>,
}

/// Spawns agents at random points of a ring (annulus) in its local XZ plane, between
/// [member inner_radius] and [member outer_radius] around the node, evenly by area. Make it a
/// child of the player to keep spawning around them. Assign a [SwarmSpawnProfile] (or a single
/// [member archetype]), then call [method spawn], turn on [member auto_spawn], or let a
/// [SwarmSpawnerDirector] drive it. With [member spawn_off_screen] it only uses points the camera
/// cannot see. Agents stand on the manager's ground plane whatever the spawner's height.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmRingSpawner {
    /// Which archetypes to spawn, by weight. Takes precedence over [member archetype].
    #[export_group(name = "Agents")]
    #[export]
    spawn_profile: Option<Gd<SwarmSpawnProfile>>,
    /// The archetype to spawn when [member spawn_profile] is empty.
    #[export]
    archetype: Option<Gd<SwarmAgentArchetype>>,
    /// Agents spawned by [member auto_spawn].
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    #[init(val = 10)]
    count: i64,
    /// Spawn [member count] agents when the scene starts (not in the editor).
    #[export]
    auto_spawn: bool,
    /// Seed of this spawner's random points and archetype picks: the same seed and calls give
    /// the same agents. Changing it restarts the sequence.
    #[export]
    random_seed: i64,

    /// Radius of the inner edge in metres: nothing spawns closer to the centre.
    #[export_group(name = "Shape")]
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "m"))]
    #[var(set)]
    #[init(val = 20.0)]
    inner_radius: f32,
    /// Radius of the outer edge in metres.
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "m"))]
    #[var(set)]
    #[init(val = 30.0)]
    outer_radius: f32,

    /// Only spawn where the camera ([member SwarmManager.visibility_camera], else the viewport's
    /// camera) cannot see the agent. Without a camera every point counts as unseen.
    #[export_group(name = "Off Screen")]
    #[export]
    spawn_off_screen: bool,
    /// How far outside the view, in metres, a point must be: covers the agent's body (a sphere of
    /// this radius at the feet and another 2 m above them must be out of view).
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.0)]
    off_screen_margin: f32,
    /// Points drawn per agent before giving up on finding one out of view.
    #[export(range = (1.0, 256.0, 1.0, or_greater))]
    #[init(val = 16)]
    off_screen_attempts: i64,
    /// What happens to an agent whose every try was in view: [constant FALLBACK_SKIP] (not
    /// spawned; [method spawn] returns fewer ids) or [constant FALLBACK_SPAWN_IN_VIEW]. Either
    /// way a warning says how many.
    #[export]
    #[var(get, set)]
    off_screen_fallback: RingFallback,

    state: SpawnerState,
    base: Base<Node3D>,
}

macro_rules! common_impl {
    ($class:ident) => {
        impl $class {
            fn common_fields(&self) -> Common {
                Common {
                    spawn_profile: self.spawn_profile.clone(),
                    archetype: self.archetype.clone(),
                    count: self.count,
                    spawn_off_screen: self.spawn_off_screen,
                    off_screen_margin: self.off_screen_margin,
                    off_screen_attempts: self.off_screen_attempts,
                    off_screen_fallback: self.off_screen_fallback.0,
                    random_seed: self.random_seed,
                }
            }
        }
    };
}
common_impl!(SwarmRectSpawner);
common_impl!(SwarmRingSpawner);

impl SpawnerNode for SwarmRectSpawner {
    const CLASS: &'static str = "SwarmRectSpawner";
    fn common(&self) -> Common {
        self.common_fields()
    }
    fn shape(&self, c: &mut Checker) -> Shape {
        let x = c.f(&sb::SIZE_X, self.size.x);
        let y = c.f(&sb::SIZE_Y, self.size.y);
        Shape::Rect { size: Vec2::new(x, y) }
    }
    fn state(&mut self) -> &mut SpawnerState {
        &mut self.state
    }
    fn node(&self) -> Gd<Node3D> {
        self.to_gd().upcast()
    }
}

impl SpawnerNode for SwarmRingSpawner {
    const CLASS: &'static str = "SwarmRingSpawner";
    fn common(&self) -> Common {
        self.common_fields()
    }
    fn shape(&self, c: &mut Checker) -> Shape {
        let inner = c.f(&sb::INNER_RADIUS, self.inner_radius);
        let outer = c.f(&sb::OUTER_RADIUS, self.outer_radius);
        if inner > outer {
            c.problems.push(format!(
                "{}: inner_radius {inner} is larger than outer_radius {outer}; swapping them",
                self.label()
            ));
        }
        Shape::Ring { inner: inner.min(outer), outer: inner.max(outer) }
    }
    fn state(&mut self) -> &mut SpawnerState {
        &mut self.state
    }
    fn node(&self) -> Gd<Node3D> {
        self.to_gd().upcast()
    }
}

#[godot_api]
impl INode3D for SwarmRectSpawner {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(SPAWNER_GROUP);
    }

    fn ready(&mut self) {
        if self.auto_spawn {
            auto_spawn(AnySpawner::Rect(self.to_gd()));
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        SpawnerNode::configuration_warnings(self)
    }
}

#[godot_api]
impl INode3D for SwarmRingSpawner {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(SPAWNER_GROUP);
    }

    fn ready(&mut self) {
        if self.auto_spawn {
            auto_spawn(AnySpawner::Ring(self.to_gd()));
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        SpawnerNode::configuration_warnings(self)
    }
}

class_enum! {
    /// What happens when every off-screen try was in view, `SwarmRectSpawner.OffScreenFallback` in Godot.
    pub struct RectFallback in SwarmRectSpawner as "OffScreenFallback" {
        /// Agents whose every off-screen try was in view are not spawned.
        FALLBACK_SKIP = 0, "Skip";
        /// Agents whose every off-screen try was in view are spawned at the last point tried.
        FALLBACK_SPAWN_IN_VIEW = 1, "Spawn In View";
    }
}

#[godot_api]
impl SwarmRectSpawner {
    #[func]
    fn get_off_screen_fallback(&self) -> RectFallback {
        self.off_screen_fallback
    }

    #[func]
    fn set_off_screen_fallback(&mut self, off_screen_fallback: RectFallback) {
        self.off_screen_fallback = off_screen_fallback;
    }

    /// Spawns [param count] agents at random points of the rectangle through
    /// [method SwarmManager.spawn_agent] and returns their ids. Fewer when the manager is full or,
    /// with [member spawn_off_screen] and [constant FALLBACK_SKIP], when no unseen point was found.
    #[func(gd_self)]
    fn spawn(this: Gd<Self>, count: i64) -> PackedInt64Array {
        spawn_method(AnySpawner::Rect(this), Some(count))
    }

    /// The outline of the rectangle as line segments (pairs of points) in local space; the editor
    /// gizmo draws it.
    #[func]
    fn get_shape_outline(&self) -> PackedVector3Array {
        self.shape(&mut Checker::new(String::new())).outline().into_iter().map(to_vector3).collect()
    }

    #[func]
    fn set_size(&mut self, size: Vector2) {
        self.size = size;
        self.base_mut().update_gizmos();
        self.base_mut().update_configuration_warnings();
    }
}

class_enum! {
    /// What happens when every off-screen try was in view, `SwarmRingSpawner.OffScreenFallback` in Godot.
    pub struct RingFallback in SwarmRingSpawner as "OffScreenFallback" {
        /// Agents whose every off-screen try was in view are not spawned.
        FALLBACK_SKIP = 0, "Skip";
        /// Agents whose every off-screen try was in view are spawned at the last point tried.
        FALLBACK_SPAWN_IN_VIEW = 1, "Spawn In View";
    }
}

#[godot_api]
impl SwarmRingSpawner {
    #[func]
    fn get_off_screen_fallback(&self) -> RingFallback {
        self.off_screen_fallback
    }

    #[func]
    fn set_off_screen_fallback(&mut self, off_screen_fallback: RingFallback) {
        self.off_screen_fallback = off_screen_fallback;
    }

    /// Spawns [param count] agents at random points of the ring through
    /// [method SwarmManager.spawn_agent] and returns their ids. Fewer when the manager is full or,
    /// with [member spawn_off_screen] and [constant FALLBACK_SKIP], when no unseen point was found.
    #[func(gd_self)]
    fn spawn(this: Gd<Self>, count: i64) -> PackedInt64Array {
        spawn_method(AnySpawner::Ring(this), Some(count))
    }

    /// The outline of the ring (both circles and four spokes) as line segments (pairs of points)
    /// in local space; the editor gizmo draws it.
    #[func]
    fn get_shape_outline(&self) -> PackedVector3Array {
        self.shape(&mut Checker::new(String::new())).outline().into_iter().map(to_vector3).collect()
    }

    #[func]
    fn set_inner_radius(&mut self, r: f32) {
        self.inner_radius = r;
        self.base_mut().update_gizmos();
        self.base_mut().update_configuration_warnings();
    }

    #[func]
    fn set_outer_radius(&mut self, r: f32) {
        self.outer_radius = r;
        self.base_mut().update_gizmos();
        self.base_mut().update_configuration_warnings();
    }
}
