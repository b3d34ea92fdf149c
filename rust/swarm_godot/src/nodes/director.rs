//! `SwarmSpawnerDirector`: the node over the core's spawn schedule and recycler; it reads its
//! settings, drives its spawners, keeps the manager's despawn notices coming, and emits signals.

use std::collections::HashMap;

use godot::classes::{Engine, INode, Node};
use godot::prelude::*;
use swarm_core::bounds::director as db;
use swarm_core::glam::Vec3;
use swarm_core::host_parts::PartState;
use swarm_core::spawn::director::{distribute, limit_to_room, Director, DirectorConfig, Mode};
use swarm_core::spawn::recycle::{best_point, heading, nearest_player};

use crate::class_enum::class_enum;
use crate::convert::{to_vec3, to_vector3, Checker};
use crate::lookup::{DIRECTOR_GROUP, TARGET_GROUP};
use crate::nodes::manager::SwarmManager;
use crate::nodes::spawners::{ground_height, manager_view, AnySpawner};
use crate::nodes::target::SwarmTarget;
use crate::resources::spawn_profile::SwarmSpawnProfile;

/// Drives one or more [SwarmRectSpawner] / [SwarmRingSpawner] nodes: when to spawn, how many at
/// once and in total, and how many of its agents may be alive. Pick a [member mode]:
/// [constant ONE_SHOT] spawns [member initial_batch] once; [constant CONTINUOUS] spawns
/// [member initial_batch] then [member spawn_rate] agents per second; [constant MAINTAIN_POPULATION]
/// keeps [member max_alive] of its agents alive, replacing the fallen; [constant FINITE_ENCOUNTER]
/// spawns [member total_limit] agents (the [member initial_batch] first, then at
/// [member spawn_rate]) and emits [signal encounter_finished] once all of them are gone.
/// Spawning is spread over the spawners in turn and never exceeds [member max_per_frame] agents
/// per physics frame.
///
/// The pressure recycler ([member recycle_enabled]) takes agents that are off camera and farther
/// than [member recycle_distance] from every active target and moves them to fresh off-screen
/// points of the spawners, preferring points ahead of the player (the nearest target, moving or
/// facing), so a horde keeps up with a running player without spawning more.
#[derive(GodotClass)]
#[class(tool, init, base = Node)]
pub struct SwarmSpawnerDirector {
    /// The spawners to drive, as paths to [SwarmRectSpawner] or [SwarmRingSpawner] nodes. Empty:
    /// the director's own children that are spawners.
    #[export_group(name = "Spawners")]
    #[export]
    #[var(hint = TYPE_STRING, hint_string = "22/26:SwarmRectSpawner,SwarmRingSpawner")]
    spawners: Array<NodePath>,
    /// Archetypes to spawn, used instead of each spawner's own [member SwarmRectSpawner.spawn_profile]
    /// and [member SwarmRectSpawner.archetype]. Empty: each spawner uses its own.
    #[export]
    spawn_profile: Option<Gd<SwarmSpawnProfile>>,

    /// When agents are spawned: [constant ONE_SHOT], [constant CONTINUOUS],
    /// [constant MAINTAIN_POPULATION] or [constant FINITE_ENCOUNTER].
    #[export_group(name = "Spawning")]
    #[export]
    #[var(get, set)]
    mode: ModeEnum,
    /// Agents spawned as soon as the director starts (spread over frames by
    /// [member max_per_frame]). Not used by [constant MAINTAIN_POPULATION].
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    #[init(val = 50)]
    initial_batch: i64,
    /// Agents per second after the initial batch ([constant CONTINUOUS], [constant FINITE_ENCOUNTER]);
    /// in [constant MAINTAIN_POPULATION] the fastest refill, 0 meaning as fast as
    /// [member max_per_frame] allows.
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "/s"))]
    #[init(val = 10.0)]
    spawn_rate: f32,
    /// Most agents spawned in one physics frame, to spread big batches over frames.
    #[export(range = (1.0, 1000.0, 1.0, or_greater))]
    #[init(val = 50)]
    max_per_frame: i64,
    /// Most of this director's agents alive at once; spawning pauses at the limit. In
    /// [constant MAINTAIN_POPULATION] it is the population kept. 0: no limit.
    #[export(range = (0.0, 100000.0, 1.0, or_greater))]
    #[init(val = 500)]
    max_alive: i64,
    /// Most agents spawned in total until [method trigger] restarts the count. 0: no limit. In
    /// [constant FINITE_ENCOUNTER] it is the size of the encounter.
    #[export(range = (0.0, 100000.0, 1.0, or_greater))]
    total_limit: i64,
    /// Start (call [method trigger]) when the scene starts. Off: wait for [method trigger].
    #[export]
    #[init(val = true)]
    auto_start: bool,

    /// Move far, unseen agents to fresh off-screen spawn points ahead of the player.
    #[export_group(name = "Recycling")]
    #[export]
    recycle_enabled: bool,
    /// Agents farther than this from every active target (and off camera) are recycled. Spawn
    /// points are chosen closer than this to the player, so a recycled agent is not recycled again.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "m"))]
    #[init(val = 60.0)]
    recycle_distance: f32,
    /// Seconds between recycling passes.
    #[export(range = (0.01, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 1.0)]
    recycle_interval: f32,
    /// Most agents moved in one pass.
    #[export(range = (0.0, 1000.0, 1.0, or_greater))]
    #[init(val = 32)]
    recycle_max_per_pass: i64,

    schedule: Director,
    cursor: usize,
    connected: Option<Gd<SwarmManager>>,
    last_target_pos: HashMap<InstanceId, Vector3>,
    reported: Vec<String>,
    full_warned: bool,

    base: Base<Node>,
}

#[godot_api]
impl INode for SwarmSpawnerDirector {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(DIRECTOR_GROUP);
    }

    fn ready(&mut self) {
        if self.auto_start && !Engine::singleton().is_editor_hint() {
            self.trigger();
        }
    }

    fn exit_tree(&mut self) {
        self.disconnect();
    }

    fn physics_process(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() {
            return;
        }
        self.tick(delta);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        if let Err(e) = SwarmManager::find_for(&self.to_gd().upcast()) {
            w.push(&format!("This director has no manager to spawn into: {e}."));
        }
        let label = self.label();
        let (spawners, mut problems) = self.resolve_spawners();
        if spawners.is_empty() {
            w.push("No spawners: add SwarmRectSpawner or SwarmRingSpawner children, or list them in spawners.");
        }
        let (_, mut more) = self.settings();
        problems.append(&mut more);
        for s in &spawners {
            if !s.problems(self.spawn_profile.as_ref()).is_empty() {
                problems
                    .push(format!("{label}: spawner '{}' has problems (see its own warnings)", s.node().get_name()));
            }
        }
        for p in problems {
            let p = p.strip_prefix(&format!("{label}: ")).unwrap_or(&p).to_string();
            w.push(&format!("{p}."));
        }
        w
    }
}

class_enum! {
    /// When a director spawns, `SwarmSpawnerDirector.Mode` in Godot.
    pub struct ModeEnum in SwarmSpawnerDirector as "Mode" {
        /// Spawn [member initial_batch] once, then stop.
        ONE_SHOT = 0, "One Shot";
        /// Spawn [member initial_batch], then [member spawn_rate] agents per second, paused while
        /// [member max_alive] of them live, until [member total_limit] (if any) were spawned.
        CONTINUOUS = 1, "Continuous";
        /// Keep [member max_alive] of this director's agents alive, refilling at up to
        /// [member spawn_rate] per second (0: as fast as [member max_per_frame] allows).
        MAINTAIN_POPULATION = 2, "Maintain Population";
        /// Spawn [member total_limit] agents ([member initial_batch] first, then at
        /// [member spawn_rate]); when all were spawned and all are gone, emit [signal encounter_finished].
        FINITE_ENCOUNTER = 3, "Finite Encounter";
    }
}

#[godot_api]
impl SwarmSpawnerDirector {
    #[func]
    fn get_mode(&self) -> ModeEnum {
        self.mode
    }

    #[func]
    fn set_mode(&mut self, mode: ModeEnum) {
        self.mode = mode;
    }

    /// Emitted after a physics frame in which this director spawned agents, with how many it
    /// spawned in that frame.
    #[signal]
    fn wave_spawned(count: i64);
    /// Emitted once per [method trigger] in [constant FINITE_ENCOUNTER] mode, when all
    /// [member total_limit] agents were spawned and every agent of this director is gone.
    #[signal]
    fn encounter_finished();
    /// Emitted at the end of a physics frame in which the number of this director's live agents
    /// changed.
    #[signal]
    fn population_changed(alive: i64);
    /// Emitted after a recycling pass moved agents, with how many.
    #[signal]
    fn agents_recycled(count: i64);

    /// Starts the director, or restarts it: the initial batch, the rate and the
    /// [member total_limit] count start over (agents still alive keep counting against
    /// [member max_alive]). Spawning happens from the next physics frame.
    #[func]
    pub fn trigger(&mut self) {
        self.schedule.trigger(self.initial_batch);
    }

    /// Stops spawning (recycling goes on while [member recycle_enabled]); [method trigger]
    /// starts again.
    #[func]
    fn stop(&mut self) {
        self.schedule.stop();
    }

    /// Whether the director is spawning or, in [constant FINITE_ENCOUNTER], waiting for its
    /// encounter to end.
    #[func]
    fn is_running(&self) -> bool {
        self.schedule.is_running()
    }

    /// Live agents this director spawned (as of its last check: despawns are seen at once).
    #[func]
    fn get_alive_count(&self) -> i64 {
        self.schedule.alive_count() as i64
    }

    /// Ids of the live agents this director spawned.
    #[func]
    fn get_alive_ids(&self) -> PackedInt64Array {
        self.schedule.alive_ids().into_iter().collect()
    }

    /// Agents spawned since the last [method trigger].
    #[func]
    fn get_spawned_total(&self) -> i64 {
        self.schedule.spawned_total()
    }

    /// Runs one recycling pass now (whatever [member recycle_enabled] says) and returns how many
    /// agents it moved.
    #[func]
    fn recycle_now(&mut self) -> i64 {
        let Some((mut manager, mut spawners)) = self.context() else {
            return 0;
        };
        let (s, _) = self.settings();
        self.recycle_pass(&s, &mut manager, &mut spawners)
    }

    #[func]
    fn _on_agent_despawned(&mut self, id: i64) {
        self.schedule.forget(id);
    }
}

impl SwarmSpawnerDirector {
    fn label(&self) -> String {
        format!("SwarmSpawnerDirector '{}'", self.base().get_name())
    }

    /// Prints each problem once while it persists.
    fn report(&mut self, problems: Vec<String>) {
        for p in &problems {
            if !self.reported.contains(p) {
                godot_error!("{p}");
            }
        }
        self.reported = problems;
    }

    /// This frame's checked settings and the problems found (each naming the director).
    fn settings(&self) -> (DirectorConfig, Vec<String>) {
        let label = self.label();
        let mut c = Checker::new(label.clone());
        let cfg = DirectorConfig {
            mode: Mode::from_index(c.i(&db::MODE, self.mode.0)),
            initial_batch: c.i(&db::INITIAL_BATCH, self.initial_batch),
            spawn_rate: c.f(&db::SPAWN_RATE, self.spawn_rate) as f64,
            max_per_frame: c.i(&db::MAX_PER_FRAME, self.max_per_frame),
            max_alive: c.i(&db::MAX_ALIVE, self.max_alive),
            total_limit: c.i(&db::TOTAL_LIMIT, self.total_limit),
            recycle_distance: c.f(&db::RECYCLE_DISTANCE, self.recycle_distance),
            recycle_interval: c.f(&db::RECYCLE_INTERVAL, self.recycle_interval) as f64,
            recycle_max_per_pass: c.i(&db::RECYCLE_MAX_PER_PASS, self.recycle_max_per_pass),
        };
        let (cfg, more) = cfg.resolve_mode();
        let mut problems = c.problems;
        problems.extend(more.into_iter().map(|p| format!("{label}: {p}")));
        (cfg, problems)
    }

    /// The spawners to drive and the problems with [member spawners].
    fn resolve_spawners(&self) -> (Vec<AnySpawner>, Vec<String>) {
        let label = self.label();
        let mut out = Vec::new();
        let mut problems = Vec::new();
        let node = self.base();
        if self.spawners.is_empty() {
            for child in node.get_children().iter_shared() {
                if let Some(s) = AnySpawner::from_node(child) {
                    out.push(s);
                }
            }
        } else {
            for (i, path) in self.spawners.iter_shared().enumerate() {
                match node.get_node_or_null(&path).map(AnySpawner::from_node) {
                    Some(Some(s)) => out.push(s),
                    Some(None) => problems.push(format!(
                        "{label}: spawners[{i}] = \"{path}\" is not a SwarmRectSpawner or SwarmRingSpawner; it is ignored"
                    )),
                    None => problems.push(format!(
                        "{label}: spawners[{i}] = \"{path}\" does not lead to a node; it is ignored"
                    )),
                }
            }
        }
        (out, problems)
    }

    /// The manager (connected for despawn notices) and the spawners, reporting problems once.
    fn context(&mut self) -> Option<(Gd<SwarmManager>, Vec<AnySpawner>)> {
        let label = self.label();
        let (spawners, mut problems) = self.resolve_spawners();
        let (_, mut more) = self.settings();
        problems.append(&mut more);
        let manager = match SwarmManager::find_for(&self.to_gd().upcast()) {
            Ok(m) => Some(m),
            Err(e) => {
                problems.push(format!("{label}: {e}; nothing is spawned"));
                None
            }
        };
        if manager.is_some() && spawners.is_empty() && (self.schedule.is_running() || self.recycle_enabled) {
            problems.push(format!(
                "{label}: no spawners: add SwarmRectSpawner or SwarmRingSpawner children, or list them in spawners"
            ));
        }
        self.report(problems);
        let manager = manager?;
        self.connect(&manager);
        Some((manager, spawners))
    }

    fn connect(&mut self, manager: &Gd<SwarmManager>) {
        if self.connected.as_ref() == Some(manager) {
            return;
        }
        self.disconnect();
        let callable = Callable::from_object_method(&self.to_gd(), "_on_agent_despawned");
        let mut m = manager.clone();
        m.connect("agent_despawned", &callable);
        self.connected = Some(manager.clone());
    }

    fn disconnect(&mut self) {
        let Some(mut m) = self.connected.take() else {
            return;
        };
        if m.is_instance_valid() {
            let callable = Callable::from_object_method(&self.to_gd(), "_on_agent_despawned");
            if m.is_connected("agent_despawned", &callable) {
                m.disconnect("agent_despawned", &callable);
            }
        }
    }

    fn tick(&mut self, dt: f64) {
        let Some((mut manager, mut spawners)) = self.context() else {
            return;
        };
        let (cfg, _) = self.settings();

        if self.schedule.sweep_due(dt) {
            self.sweep(&mut manager);
        }
        if self.schedule.is_running() {
            self.spawn_step(&cfg, dt, &mut manager, &mut spawners);
        }
        if self.recycle_enabled && self.schedule.recycle_due(&cfg, dt) {
            self.recycle_pass(&cfg, &mut manager, &mut spawners);
        }

        let end = self.schedule.end_tick(&cfg);
        if end.encounter_finished {
            self.signals().encounter_finished().emit();
        }
        if let Some(n) = end.population {
            self.signals().population_changed().emit(n as i64);
        }
    }

    /// Forgets the director's agents that are no longer alive (one batch of checks).
    fn sweep(&mut self, manager: &mut Gd<SwarmManager>) {
        let ids = self.schedule.alive_ids();
        let dead: Vec<i64> = {
            let _guard = self.base_mut();
            let m = manager.bind();
            ids.into_iter().filter(|&id| !m.is_agent_alive(id)).collect()
        };
        for id in dead {
            self.schedule.forget(id);
        }
    }

    fn spawn_step(
        &mut self,
        cfg: &DirectorConfig,
        dt: f64,
        manager: &mut Gd<SwarmManager>,
        spawners: &mut [AnySpawner],
    ) {
        let mut n = self.schedule.wanted(cfg, dt);
        if n > 0 && !spawners.is_empty() {
            let (count, capacity) = {
                let m = manager.bind();
                (m.get_agent_count(), m.get_capacity())
            };
            let (room, full) = limit_to_room(n, count, capacity);
            if full && !self.full_warned {
                godot_warn!(
                    "{}: the manager is full (SwarmSettings.max_agents = {capacity}); spawning waits for room. Raise max_agents or lower max_alive",
                    self.label()
                );
            }
            self.full_warned = full;
            n = room;
        }
        let n = n.max(0) as usize;

        let ids = if n > 0 && !spawners.is_empty() {
            let profile = self.spawn_profile.clone();
            let plan = distribute(n, spawners.len(), &mut self.cursor);
            let _guard = self.base_mut();
            let mut ids = Vec::with_capacity(n);
            for (i, count) in plan {
                let out = spawners[i].spawn(manager, count, profile.as_ref());
                ids.extend(out.ids);
                if out.refused {
                    break;
                }
            }
            ids
        } else {
            Vec::new()
        };

        let got = self.schedule.record_spawned(cfg, ids);
        if got > 0 {
            self.signals().wave_spawned().emit(got);
        }
    }

    /// Moves far, unseen agents to off-screen points of the spawners ahead of the player.
    fn recycle_pass(
        &mut self,
        cfg: &DirectorConfig,
        manager: &mut Gd<SwarmManager>,
        spawners: &mut [AnySpawner],
    ) -> i64 {
        if spawners.is_empty() || cfg.recycle_max_per_pass == 0 {
            return 0;
        }
        let ids = manager.bind().get_recyclable_agents(cfg.recycle_distance, cfg.recycle_max_per_pass);
        let players = self.player_targets(manager);
        if ids.is_empty() || players.is_empty() {
            return 0;
        }
        let view = manager_view(manager);
        let ground_y = ground_height(manager);

        let mut plans = Vec::with_capacity(spawners.len());
        for sp in spawners.iter_mut() {
            let (p, rng) = sp.prepare_shape();
            let area = p.area(ground_y);
            // The player this spawner serves: the target nearest to it.
            let player = nearest_player(&players, area.xform.translation.into()).expect("players is not empty");
            plans.push((p, area, rng, player));
        }

        let mut moves: Vec<(i64, Vector3)> = Vec::with_capacity(ids.len());
        let k = plans.len();
        for (j, id) in ids.as_slice().iter().enumerate() {
            let (_, area, rng, (player, forward)) = &mut plans[(self.cursor + j) % k];
            if let Some(q) = best_point(area, rng, view.as_ref(), *player, *forward, cfg.recycle_distance) {
                moves.push((*id, to_vector3(q)));
            }
        }
        for (i, (p, _, rng, _)) in plans.into_iter().enumerate() {
            spawners[i].finish_shape(rng, &p);
        }

        let moved = {
            let _guard = self.base_mut();
            moves.iter().filter(|&&(id, q)| manager.bind_mut().set_agent_position(id, q)).count() as i64
        };
        if moved > 0 {
            self.signals().agents_recycled().emit(moved);
        }
        moved
    }

    /// Enabled targets of this manager: position and the direction they head (their movement
    /// since the last pass, else the way they face), flat on the ground.
    fn player_targets(&mut self, manager: &Gd<SwarmManager>) -> Vec<(Vec3, Vec3)> {
        let Some(tree) = self.base().get_tree_or_null() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut seen = HashMap::new();
        for node in tree.get_nodes_in_group(TARGET_GROUP).iter_shared() {
            let Ok(t) = node.try_cast::<SwarmTarget>() else {
                continue;
            };
            if !t.is_inside_tree() || !t.bind().enabled() {
                continue;
            }
            if SwarmManager::find_for(&t.clone().upcast()).ok().as_ref() != Some(manager) {
                continue;
            }
            let pos = t.get_global_position();
            if !pos.is_finite() {
                continue;
            }
            let moved = self.last_target_pos.get(&t.instance_id()).map(|&p| pos - p).unwrap_or(Vector3::ZERO);
            let forward = heading(to_vec3(moved), to_vec3(-t.get_global_basis().col_c()));
            seen.insert(t.instance_id(), pos);
            out.push((to_vec3(pos), forward));
        }
        self.last_target_pos = seen;
        out
    }
}

impl SwarmSpawnerDirector {
    /// The state to save (see `host_parts`): the schedule and the next spawner to use.
    pub(crate) fn saved_part(&self) -> PartState {
        PartState::Director { schedule: self.schedule.clone(), cursor: self.cursor.min(u32::MAX as usize) as u32 }
    }

    /// Takes a saved schedule over (checked when the save was read).
    pub(crate) fn restore_part(&mut self, schedule: Director, cursor: u32) {
        self.schedule = schedule;
        self.cursor = cursor as usize;
        self.last_target_pos.clear();
    }
}
