//! `SwarmBreakable`: the node over the core's breakable state machine for a door or barricade
//! (a child of a `SwarmFlowModifier`): it feeds strikes and crowd pressure in, and turns the
//! events out into signals, the modifier's route cost and `enabled`, colliders and visibility;
//! `repair()` undoes exactly what the break did.

use godot::classes::notify::NodeNotification;
use godot::classes::{Area3D, CollisionObject3D, CollisionPolygon3D, CollisionShape3D, Engine, INode, Node};
use godot::prelude::*;
use swarm_core::breakable::{valid_amount, BreakState, BreakableConfig, BreakableEvent, BreakableState};
use swarm_core::host_parts::PartState;

use crate::class_enum::class_enum;
use crate::lookup::MANAGER_GROUP;
use crate::nodes::flow_modifier::SwarmFlowModifier;

/// Health for anything the swarm should fight its way through: a door, a barricade, a boarded
/// window. Make it a child of the [SwarmFlowModifier] whose box it guards. Agents pressing the
/// closed box strike it ([member strike_damage_scale] of each blow comes off), and every agent
/// pressing it wears it down by [member crowd_pressure_per_agent] per second. Below
/// [member damaged_below] it turns [constant DAMAGED] and the modifier's route cost drops once to
/// [member damaged_route_cost_scale] of itself, so the crowd notices the door giving way; at zero
/// health it is [constant BROKEN]: the modifier is switched off ([member SwarmFlowModifier.enabled]),
/// the colliders and objects configured here switch off or on, and [signal broken] fires once.
/// [method repair] restores exactly what the break and the damage changed. The breakable never
/// touches [member SwarmFlowModifier.is_open], which belongs to a door script: a door shut by its
/// script after the break stays passable until repair, and one left open stays open after it.
///
/// Strikes the manager lands during its step are applied at this node's next physics frame, so
/// game code reacting to this node's signals may call back into the manager.
#[derive(GodotClass)]
#[class(tool, init, base = Node)]
pub struct SwarmBreakable {
    /// Health at full. Every strike and every tick of crowd pressure comes off this.
    #[export(range = (0.1, 10000.0, 0.1, or_greater))]
    #[init(val = 100.0)]
    max_health: f32,
    /// Share of each agent's blow this object takes: 1 in full, 0.5 for a reinforced door, 0
    /// means agents stop swinging at it and only press. Crowd pressure and [method apply_damage]
    /// are not affected.
    #[export(range = (0.0, 1.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    strike_damage_scale: f32,
    /// Health fraction at or below which the object is [constant DAMAGED]; crossing it fires
    /// [signal state_changed] and lowers the route cost once.
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.5)]
    damaged_below: f32,
    /// Share of the modifier's [member SwarmFlowModifier.route_cost] a crossing pays once
    /// [constant DAMAGED]: 0.5 halves it, 1 keeps the full cost until it breaks. Applied once, at
    /// the state crossing, never continuously.
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.5)]
    damaged_route_cost_scale: f32,
    /// Health per second each agent pressing the modifier's closed box takes off, on top of the
    /// strikes (only while the modifier's [member SwarmFlowModifier.agents_attack_it] is on). 0
    /// turns crowd pressure off.
    #[export(range = (0.0, 100.0, 0.01, or_greater, suffix = "hp/s"))]
    #[init(val = 2.0)]
    crowd_pressure_per_agent: f32,
    /// How far an agent's strike is heard. The noise goes to the manager
    /// ([method SwarmManager.emit_noise]): agents whose [SwarmPerceptionProfile] has search on
    /// and that see no target walk to it, and give up after their forget time. [signal noise_made]
    /// carries it too (for sounds). Without a perception profile in the scene this does nothing.
    #[export_group(name = "Noise")]
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 12.0)]
    hit_noise_radius: f32,
    /// Shortest time between two hit noises, however many agents strike.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 1.0)]
    hit_noise_interval: f32,
    /// How far the break is heard (fed to the manager like a hit noise, and [signal noise_made]
    /// at the moment it breaks).
    #[export(range = (0.0, 200.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 30.0)]
    break_noise_radius: f32,
    /// On: [method apply_damage] counts only when its context's `source` is a [SwarmManager], so
    /// the player's own weapons do not break doors. Agents' strikes ([method apply_swarm_damage])
    /// always count.
    #[export_group(name = "Break")]
    #[export]
    #[init(val = true)]
    only_swarm_damage: bool,
    /// At the break, disables every CollisionShape3D and CollisionPolygon3D under the body the
    /// modifier belongs to (its nearest PhysicsBody3D ancestor), except triggers (Area3D) and
    /// anything under [member show_on_break]. [method repair] re-enables exactly those.
    #[export]
    #[init(val = true)]
    disable_colliders_on_break: bool,
    /// Nodes hidden at the break (typically the door leaf); shown when the game starts and again
    /// at [method repair]. Leave empty and react to [signal broken] instead, if you like.
    #[export]
    hide_on_break: Array<NodePath>,
    /// Nodes shown at the break (a fallen door, planks, rubble); hidden when the game starts, even
    /// if left visible in the editor, and again at [method repair]. Only their visibility changes:
    /// colliders under them stay as they are (they are never disabled by the break).
    #[export]
    show_on_break: Array<NodePath>,

    /// Health and state; `None` until first used at run time.
    core: Option<BreakableState>,
    /// Route cost before the damaged crossing scaled it (restored by repair).
    saved_route_cost: Option<f32>,
    /// What the break changed: whether it switched the modifier off, the colliders it disabled.
    switched_off: bool,
    disabled_colliders: Vec<Gd<Node>>,
    setup_reported: bool,

    base: Base<Node>,
}

class_enum! {
    /// A breakable's state, `SwarmBreakable.State` in Godot.
    pub struct StateEnum in SwarmBreakable as "State" {
        /// Full or lightly damaged: health above [member damaged_below].
        INTACT = 0, "Intact";
        /// Health at or below [member damaged_below]; the route cost has dropped.
        DAMAGED = 1, "Damaged";
        /// Health reached zero (or [method break_now]): the modifier is switched off.
        BROKEN = 2, "Broken";
    }
}

#[godot_api]
impl SwarmBreakable {
    /// Health changed (a strike, crowd pressure, game damage, a break, or [method repair], which
    /// sends 1.0). `fraction` is health / [member max_health].
    #[signal]
    fn damaged(fraction: f32);
    /// The state changed to [constant INTACT], [constant DAMAGED] or [constant BROKEN].
    #[signal]
    fn state_changed(state: StateEnum);
    /// It broke (once per break).
    #[signal]
    fn broken();
    /// The number of agents pressing the modifier's closed box changed.
    #[signal]
    fn pressure_changed(count: i64);
    /// A strike or the break made a noise heard within `radius` of `position`. The manager's
    /// perception gets the same noise (at the end of this frame); game code may play a sound.
    #[signal]
    fn noise_made(position: Vector3, radius: f32);

    /// An agent's blow, as game code may deliver one (the same contract as a game script's
    /// `apply_swarm_damage`; the manager hands its agents' blows over directly, already scaled by
    /// [member strike_damage_scale]). Not affected by [member only_swarm_damage]. Applied at once.
    #[func]
    fn apply_swarm_damage(&mut self, amount: f32, context: VarDictionary) {
        if !self.valid_amount("apply_swarm_damage", amount) {
            return;
        }
        let point = context.get("hit_point").and_then(|v| v.try_to::<Vector3>().ok()).filter(|p| p.is_finite());
        let point = point.unwrap_or_else(|| self.noise_position());
        self.strike(amount, point);
    }

    /// Damage from game code. Ignored while [member only_swarm_damage] is on unless the context's
    /// `source` is a [SwarmManager]. Not scaled by [member strike_damage_scale].
    #[func]
    fn apply_damage(&mut self, amount: f32, context: VarDictionary) {
        if !self.valid_amount("apply_damage", amount) {
            return;
        }
        // A manager is recognised by its group (this node does not name the manager's type).
        let from_manager =
            context.get("source").is_some_and(|s| s.try_to::<Gd<Node>>().is_ok_and(|n| n.is_in_group(MANAGER_GROUP)));
        if !self.config().accepts_damage(from_manager) {
            return;
        }
        self.take(amount);
    }

    /// Breaks it now, whatever its health.
    #[func]
    fn break_now(&mut self) {
        let cfg = self.config();
        let events = self.core().break_now(&cfg);
        self.dispatch(events);
    }

    /// Full health and the full route cost again, and switches back exactly what the break
    /// switched: the modifier back on ([member SwarmFlowModifier.enabled]) if the break switched
    /// it off, the colliders the break disabled, [member hide_on_break] shown and
    /// [member show_on_break] hidden. [member SwarmFlowModifier.is_open] stays as the door script
    /// left it.
    #[func]
    fn repair(&mut self) {
        self.ensure_started();
        let modifier = self.modifier();
        if let (Some(cost), Some(m)) = (self.saved_route_cost.take(), modifier.as_ref()) {
            m.clone().bind_mut().put_route_cost(cost);
        }
        if std::mem::take(&mut self.switched_off) {
            if let Some(m) = modifier.as_ref() {
                m.clone().bind_mut().put_enabled(true);
            }
        }
        for mut c in std::mem::take(&mut self.disabled_colliders) {
            if c.is_instance_valid() {
                c.set("disabled", &false.to_variant());
            }
        }
        self.set_start_visibility();
        let cfg = self.config();
        let events = self.core().repair(&cfg);
        self.dispatch(events);
    }

    /// Current health (0 when broken).
    #[func]
    fn get_health(&self) -> f32 {
        match &self.core {
            Some(core) => core.health(),
            None => self.config().max_health(),
        }
    }

    /// [constant INTACT], [constant DAMAGED] or [constant BROKEN].
    #[func]
    fn get_state(&self) -> StateEnum {
        StateEnum(self.core.as_ref().map_or(StateEnum::INTACT, |c| c.state().index()))
    }

    /// Agents pressing the modifier's closed box at the last physics frame.
    #[func]
    fn get_pressing_agent_count(&self) -> i64 {
        self.core.as_ref().map_or(0, BreakableState::pressing)
    }

    /// The fixes the inspector offers beside the matching warnings: see
    /// [method SwarmFlowModifier.get_setup_fixes] (the same, for the parent modifier and its
    /// manager).
    #[func]
    fn get_setup_fixes(&self) -> VarArray {
        self.modifier().map_or_else(VarArray::new, |m| m.bind().setup_fixes(true))
    }

    /// What is wrong with this breakable's setup (the editor shows the same as configuration
    /// warnings); empty when it works.
    #[func]
    fn get_setup_warnings(&self) -> PackedStringArray {
        self.setup_warnings()
    }
}

#[godot_api]
impl INode for SwarmBreakable {
    fn ready(&mut self) {
        if Engine::singleton().is_editor_hint() {
            return;
        }
        self.ensure_started();
        if self.modifier().is_none() {
            self.report_setup();
        }
    }

    fn physics_process(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() || self.core.is_none() {
            return;
        }
        let dt = delta as f32;
        self.core().advance(dt);
        let Some(m) = self.modifier() else {
            self.report_setup();
            return;
        };
        let attack = m.bind().agents_attack_it();
        let broken = self.core().state() == BreakState::Broken;
        let pressing = if attack && !broken { m.bind().get_pressing_agent_count() } else { 0 };
        let cfg = self.config();
        let (changed, pressure) = self.core().press(&cfg, pressing, dt);
        if let Some(count) = changed {
            self.signals().pressure_changed().emit(count);
        }
        if pressure > 0.0 {
            self.take(pressure);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.setup_warnings()
    }

    fn on_notification(&mut self, what: NodeNotification) {
        // Moved under (or out of) a modifier: refresh the editor's warning icon.
        if what == NodeNotification::PARENTED || what == NodeNotification::UNPARENTED {
            self.base_mut().update_configuration_warnings();
        }
    }
}

impl SwarmBreakable {
    fn label(&self) -> String {
        let b = self.base();
        if b.is_inside_tree() {
            b.get_path().to_string()
        } else {
            format!("SwarmBreakable '{}'", b.get_name())
        }
    }

    fn valid_amount(&self, method: &str, amount: f32) -> bool {
        if valid_amount(amount) {
            return true;
        }
        godot_error!(
            "{}: {method}: amount must be a finite number at or above 0, got {amount}; the damage is ignored",
            self.label()
        );
        false
    }

    /// The exported settings as the core reads them (it cleans bad values itself).
    fn config(&self) -> BreakableConfig {
        BreakableConfig {
            max_health: self.max_health,
            strike_damage_scale: self.strike_damage_scale,
            damaged_below: self.damaged_below,
            damaged_route_cost_scale: self.damaged_route_cost_scale,
            crowd_pressure_per_agent: self.crowd_pressure_per_agent,
            hit_noise_radius: self.hit_noise_radius,
            hit_noise_interval: self.hit_noise_interval,
            break_noise_radius: self.break_noise_radius,
            only_swarm_damage: self.only_swarm_damage,
        }
    }

    /// The health state, started on first use.
    fn core(&mut self) -> &mut BreakableState {
        self.ensure_started();
        self.core.as_mut().expect("started above")
    }

    fn modifier(&self) -> Option<Gd<SwarmFlowModifier>> {
        self.base().get_parent()?.try_cast::<SwarmFlowModifier>().ok()
    }

    /// Reports a breakable outside a SwarmFlowModifier once.
    fn report_setup(&mut self) {
        if !self.setup_reported {
            self.setup_reported = true;
            godot_error!(
                "{}: parent: a SwarmBreakable must be a child of a SwarmFlowModifier (the box it guards); it takes damage but cannot open anything",
                self.label()
            );
        }
    }

    /// First use at run time: full health, bad fields reported, start visibility.
    fn ensure_started(&mut self) {
        if self.core.is_some() {
            return;
        }
        let cfg = self.config();
        let label = self.label();
        for p in cfg.problems() {
            godot_error!("{label}: {p}");
        }
        self.core = Some(BreakableState::new(&cfg));
        self.set_start_visibility();
    }

    fn noise_position(&self) -> Vector3 {
        self.modifier().map_or(Vector3::ZERO, |m| m.bind().global_center())
    }

    /// Emits [signal noise_made] and queues the noise on the modifier, whose manager feeds it to
    /// its agents' perception at the start of its next frame.
    fn make_noise(&mut self, at: Vector3, radius: f32) {
        self.signals().noise_made().emit(at, radius);
        if let Some(mut m) = self.modifier() {
            m.bind_mut().queue_noise(at, radius);
        }
    }

    /// An agent's blow handed over by the manager (at the end of its frame, its own borrow
    /// released): `amount` is already scaled by [member strike_damage_scale].
    pub(crate) fn receive_strike(&mut self, amount: f32, point: Vector3) {
        if valid_amount(amount) && point.is_finite() {
            self.strike(amount, point);
        }
    }

    /// Share of each agent's blow this object takes (0 when it is not a number).
    pub(crate) fn strike_scale(&self) -> f32 {
        if self.strike_damage_scale.is_finite() {
            self.strike_damage_scale.max(0.0)
        } else {
            0.0
        }
    }

    /// An agent's blow: the hit noise (rate-limited), then the damage.
    fn strike(&mut self, amount: f32, point: Vector3) {
        let cfg = self.config();
        if let Some(radius) = self.core().strike_noise(&cfg) {
            self.make_noise(point, radius);
        }
        self.take(amount);
    }

    /// Takes `amount` off health: reports the new health, then the state crossings it causes
    /// (unless a handler of [signal damaged] broke it meanwhile).
    fn take(&mut self, amount: f32) {
        let cfg = self.config();
        let Some(fraction) = self.core().wear(&cfg, amount) else {
            return;
        };
        self.signals().damaged().emit(fraction);
        let events = self.core().settle(&cfg);
        self.dispatch(events);
    }

    /// Turns the core's events into signals and engine changes, in order.
    fn dispatch(&mut self, events: Vec<BreakableEvent>) {
        for e in events {
            match e {
                BreakableEvent::Damaged(fraction) => self.signals().damaged().emit(fraction),
                BreakableEvent::ScaleRouteCost(scale) => {
                    if let Some(mut m) = self.modifier() {
                        let mut m = m.bind_mut();
                        let cost = m.route_cost();
                        self.saved_route_cost = Some(cost);
                        m.put_route_cost(cost * scale);
                    }
                }
                BreakableEvent::SwitchOff => self.switch_off(),
                BreakableEvent::PressureChanged(count) => self.signals().pressure_changed().emit(count),
                BreakableEvent::StateChanged(state) => self.signals().state_changed().emit(StateEnum(state.index())),
                BreakableEvent::Broken => self.signals().broken().emit(),
                BreakableEvent::BreakNoise(radius) => {
                    let at = self.noise_position();
                    self.make_noise(at, radius);
                }
            }
        }
    }

    /// The state to save (see `host_parts`): health and state, and what the break and the damaged
    /// crossing changed on the modifier.
    pub(crate) fn saved_part(&self) -> PartState {
        let core = self.core.unwrap_or_else(|| BreakableState::new(&self.config()));
        PartState::Breakable { core, switched_off: self.switched_off, saved_route_cost: self.saved_route_cost }
    }

    /// Takes a saved state over, with no signals: undoes what the current state did to colliders
    /// and visibility, then does what the saved one did. The modifier's own switches and route
    /// cost are restored with the modifier.
    pub(crate) fn restore_part(&mut self, core: BreakableState, switched_off: bool, saved_route_cost: Option<f32>) {
        self.ensure_started();
        for mut c in std::mem::take(&mut self.disabled_colliders) {
            if c.is_instance_valid() {
                c.set("disabled", &false.to_variant());
            }
        }
        self.set_start_visibility();
        self.core = Some(core);
        self.switched_off = switched_off;
        self.saved_route_cost = saved_route_cost;
        if core.state() == BreakState::Broken {
            self.break_colliders_and_visibility(self.modifier());
        }
    }

    /// The break's engine side: the modifier switches off, colliders switch off, break visibility.
    fn switch_off(&mut self) {
        let modifier = self.modifier();
        if let Some(mut m) = modifier.clone() {
            let mut m = m.bind_mut();
            if m.is_enabled() {
                self.switched_off = true;
                m.put_enabled(false);
            }
        } else {
            self.report_setup();
        }
        self.break_colliders_and_visibility(modifier);
    }

    /// The colliders the break disables and the nodes it hides and shows.
    fn break_colliders_and_visibility(&mut self, modifier: Option<Gd<SwarmFlowModifier>>) {
        if self.disable_colliders_on_break {
            let shown = self.resolve("show_on_break");
            if let Some(body) = modifier.as_ref().and_then(body_of) {
                let mut found = Vec::new();
                collect_colliders(body.upcast(), &shown, &mut found);
                for mut c in found {
                    if !c.get("disabled").try_to::<bool>().unwrap_or(true) {
                        c.set("disabled", &true.to_variant());
                        self.disabled_colliders.push(c);
                    }
                }
            }
        }
        for n in self.resolve("hide_on_break") {
            set_visible(n, false);
        }
        for n in self.resolve("show_on_break") {
            set_visible(n, true);
        }
    }

    /// hide_on_break shown, show_on_break hidden (at start and at repair).
    fn set_start_visibility(&mut self) {
        for n in self.resolve("hide_on_break") {
            set_visible(n, true);
        }
        for n in self.resolve("show_on_break") {
            set_visible(n, false);
        }
    }

    /// The nodes of a path list (paths relative to this node); a path that leads nowhere is
    /// reported with the field's name.
    fn resolve(&self, field: &str) -> Vec<Gd<Node>> {
        let paths = if field == "hide_on_break" { &self.hide_on_break } else { &self.show_on_break };
        let mut out = Vec::new();
        for p in paths.iter_shared() {
            if p.is_empty() {
                continue;
            }
            match self.base().get_node_or_null(&p) {
                Some(n) => out.push(n),
                None => godot_error!("{}: {field}: no node at path '{p}'", self.label()),
            }
        }
        out
    }

    fn setup_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        let Some(m) = self.modifier() else {
            w.push("A SwarmBreakable must be a child of a SwarmFlowModifier (the box agents press and strike): move it under one.");
            return w;
        };
        if !m.bind().blocks_agents() {
            w.push("The parent SwarmFlowModifier has Blocks Agents off, so agents walk through its box and nothing presses or strikes this: turn Blocks Agents on.");
        }
        if !m.bind().agents_attack_it() {
            w.push("The parent SwarmFlowModifier has Agents Attack It off, so agents neither strike this nor wear it down by crowd pressure: turn it on, or break it only from script.");
        }
        for child in m.get_children().iter_shared() {
            if child.instance_id() == self.base().instance_id() {
                break;
            }
            if child.has_method("apply_swarm_damage") {
                w.push(&format!(
                    "'{}' comes before this SwarmBreakable under the modifier and also has apply_swarm_damage, so it takes the agents' blows: move this breakable up to be the first.",
                    child.get_name()
                ));
                break;
            }
        }
        if let Some(facts) = m.bind().manager_facts() {
            if !facts.surface_flow_field_on {
                w.push("The manager's Surface Flow Field is off, so the modifier stops nobody and nothing strikes this: turn on Surface Flow Field Enabled on the SwarmManager.");
            } else if !facts.enforces_cell_boundaries {
                w.push("Surface Flow Enforce Cell Boundaries is off in the manager's SwarmSettings, so the closed box stops nobody and nothing presses or strikes this: turn it on.");
            }
        }
        if self.disable_colliders_on_break && body_of(&m).is_none() {
            w.push("Disable Colliders On Break is on but the modifier is not under a PhysicsBody3D, so there are no colliders to disable: put the modifier under the door's body, or turn the option off.");
        }
        for (field, paths) in [("Hide On Break", &self.hide_on_break), ("Show On Break", &self.show_on_break)] {
            for p in paths.iter_shared() {
                if !p.is_empty() && self.base().get_node_or_null(&p).is_none() {
                    w.push(&format!("{field}: no node at path '{p}'."));
                }
            }
        }
        w
    }
}

/// The body a modifier belongs to: its nearest PhysicsBody3D ancestor.
fn body_of(modifier: &Gd<SwarmFlowModifier>) -> Option<Gd<CollisionObject3D>> {
    let mut p = modifier.get_parent();
    while let Some(n) = p {
        if n.is_class("PhysicsBody3D") {
            return n.try_cast::<CollisionObject3D>().ok();
        }
        p = n.get_parent();
    }
    None
}

/// CollisionShape3D / CollisionPolygon3D nodes under `node`, skipping Area3D (triggers) and the
/// subtrees in `skip`.
fn collect_colliders(node: Gd<Node>, skip: &[Gd<Node>], out: &mut Vec<Gd<Node>>) {
    for child in node.get_children().iter_shared() {
        if skip.iter().any(|s| s.instance_id() == child.instance_id()) || child.clone().try_cast::<Area3D>().is_ok() {
            continue;
        }
        if child.clone().try_cast::<CollisionShape3D>().is_ok()
            || child.clone().try_cast::<CollisionPolygon3D>().is_ok()
        {
            out.push(child.clone());
        }
        collect_colliders(child, skip, out);
    }
}

fn set_visible(mut node: Gd<Node>, visible: bool) {
    if node.is_class("Node3D") || node.is_class("CanvasItem") {
        node.set("visible", &visible.to_variant());
    }
}
