//! A breakable object's health and state machine (a door or barricade the swarm fights through):
//! strikes, crowd pressure, the intact / damaged / broken thresholds, the one-time route-cost
//! drop when damaged, repair, and how often strikes are heard. The caller turns the returned
//! events into signals and engine changes (switching the box off, colliders, visibility).

/// Where an object stands. The index (0, 1, 2) is the public constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BreakState {
    /// Health above the damaged threshold.
    Intact,
    /// Health at or below the damaged threshold; the route cost has dropped.
    Damaged,
    /// Health reached zero (or it was broken outright): the box it guards is switched off.
    Broken,
}

impl BreakState {
    pub fn index(self) -> i64 {
        match self {
            BreakState::Intact => 0,
            BreakState::Damaged => 1,
            BreakState::Broken => 2,
        }
    }
}

/// A breakable's settings as the user set them; every reader cleans them (see
/// [`Self::problems`] for what is wrong and what is used instead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakableConfig {
    /// Health at full; not a positive finite number: 1.
    pub max_health: f32,
    /// Share of an agent's blow the object takes (the striker scales its blows by it).
    pub strike_damage_scale: f32,
    /// Health fraction at or below which it is damaged.
    pub damaged_below: f32,
    /// Share of the route cost a crossing pays once damaged.
    pub damaged_route_cost_scale: f32,
    /// Health per second each pressing agent takes off.
    pub crowd_pressure_per_agent: f32,
    /// How far a strike is heard (0: silent).
    pub hit_noise_radius: f32,
    /// Shortest time between two hit noises.
    pub hit_noise_interval: f32,
    /// How far the break is heard (0: silent).
    pub break_noise_radius: f32,
    /// Damage from outside the swarm is ignored.
    pub only_swarm_damage: bool,
}

impl Default for BreakableConfig {
    fn default() -> Self {
        Self {
            max_health: 100.0,
            strike_damage_scale: 1.0,
            damaged_below: 0.5,
            damaged_route_cost_scale: 0.5,
            crowd_pressure_per_agent: 2.0,
            hit_noise_radius: 12.0,
            hit_noise_interval: 1.0,
            break_noise_radius: 30.0,
            only_swarm_damage: true,
        }
    }
}

/// A setting made safe: NaN and infinities count as 0, negatives as 0.
fn clean(v: f32) -> f32 {
    if v.is_finite() {
        v.max(0.0)
    } else {
        0.0
    }
}

impl BreakableConfig {
    /// `max_health`, 1 when it is not a positive finite number.
    pub fn max_health(&self) -> f32 {
        if self.max_health.is_finite() && self.max_health > 0.0 {
            self.max_health
        } else {
            1.0
        }
    }

    /// What is wrong with the settings and what is used instead (each message reads after the
    /// object's name).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !(self.max_health.is_finite() && self.max_health > 0.0) {
            out.push(format!("max_health must be a finite number above 0, got {}; using 1", self.max_health));
        }
        for (name, v) in [
            ("strike_damage_scale", self.strike_damage_scale),
            ("damaged_below", self.damaged_below),
            ("damaged_route_cost_scale", self.damaged_route_cost_scale),
            ("crowd_pressure_per_agent", self.crowd_pressure_per_agent),
            ("hit_noise_radius", self.hit_noise_radius),
            ("hit_noise_interval", self.hit_noise_interval),
            ("break_noise_radius", self.break_noise_radius),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                out.push(format!("{name} must be a finite number at or above 0, got {v}; using 0"));
            }
        }
        out
    }

    /// Whether damage from game code counts: always from the swarm, from elsewhere only while
    /// `only_swarm_damage` is off.
    pub fn accepts_damage(&self, from_swarm: bool) -> bool {
        from_swarm || !self.only_swarm_damage
    }
}

/// An amount of damage the object can take: finite and at or above 0.
pub fn valid_amount(amount: f32) -> bool {
    amount.is_finite() && amount >= 0.0
}

/// Something the caller must do or tell, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BreakableEvent {
    /// Health changed; the health fraction now.
    Damaged(f32),
    /// It just turned damaged: scale the route cost by this, once (repair restores it).
    ScaleRouteCost(f32),
    /// It just broke: switch off the box it guards (its `enabled`, never a door script's
    /// `is_open`), and switch colliders and visibility.
    SwitchOff,
    /// The number of pressing agents changed.
    PressureChanged(i64),
    StateChanged(BreakState),
    /// It broke (once per break).
    Broken,
    /// The break is heard this far (from the object's centre).
    BreakNoise(f32),
}

/// A breakable's health, state and clocks.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BreakableState {
    health: f32,
    state: BreakState,
    since_hit_noise: f32,
    pressing: i64,
}

impl BreakableState {
    /// Full health, intact, and a strike may be heard at once.
    pub fn new(cfg: &BreakableConfig) -> Self {
        Self { health: cfg.max_health(), state: BreakState::Intact, since_hit_noise: f32::INFINITY, pressing: 0 }
    }

    pub fn health(&self) -> f32 {
        self.health
    }

    pub fn state(&self) -> BreakState {
        self.state
    }

    /// Health a finite number not below 0 (0 when broken), the noise clock not NaN or negative,
    /// the pressing count not negative (0 when broken).
    pub fn validate(&self) -> Result<(), String> {
        let health = self.health();
        if !(health.is_finite() && health >= 0.0) {
            return Err(format!("health {health}"));
        }
        if self.state() == BreakState::Broken && (health != 0.0 || self.pressing() != 0) {
            return Err(format!("broken with health {health} and {} pressing", self.pressing()));
        }
        if self.pressing() < 0 {
            return Err(format!("{} pressing agents", self.pressing()));
        }
        let clock = self.since_hit_noise;
        if clock.is_nan() || clock < 0.0 {
            return Err(format!("hit-noise clock {clock}"));
        }
        Ok(())
    }

    /// Agents pressing it, as of the last [`Self::press`].
    pub fn pressing(&self) -> i64 {
        self.pressing
    }

    /// Advances the hit-noise clock (NaN or negative steps count as 0).
    pub fn advance(&mut self, dt: f32) {
        self.since_hit_noise += clean(dt);
    }

    /// An agent's blow is about to land: how far it is heard, if it is (at most once per
    /// `hit_noise_interval`, never once broken). Then take the blow with [`Self::wear`].
    pub fn strike_noise(&mut self, cfg: &BreakableConfig) -> Option<f32> {
        if self.state == BreakState::Broken {
            return None;
        }
        let radius = clean(cfg.hit_noise_radius);
        if radius > 0.0 && self.since_hit_noise >= clean(cfg.hit_noise_interval) {
            self.since_hit_noise = 0.0;
            return Some(radius);
        }
        None
    }

    /// Takes `amount` off health and returns the health fraction to report, or `None` when
    /// nothing changed (already broken, or not a positive amount). Report the fraction, then call
    /// [`Self::settle`] for the state crossings.
    pub fn wear(&mut self, cfg: &BreakableConfig, amount: f32) -> Option<f32> {
        if self.state == BreakState::Broken || amount.is_nan() || amount <= 0.0 {
            return None;
        }
        self.health = (self.health - amount).max(0.0);
        Some(self.health / cfg.max_health())
    }

    /// The state crossing the health implies after [`Self::wear`]: broken at zero, damaged at or
    /// below the threshold (once). Nothing if it broke meanwhile.
    pub fn settle(&mut self, cfg: &BreakableConfig) -> Vec<BreakableEvent> {
        if self.state == BreakState::Broken {
            return Vec::new();
        }
        if self.health <= 0.0 {
            return self.break_open(cfg);
        }
        let fraction = self.health / cfg.max_health();
        if self.state == BreakState::Intact && fraction <= clean(cfg.damaged_below) {
            self.state = BreakState::Damaged;
            return vec![
                BreakableEvent::ScaleRouteCost(clean(cfg.damaged_route_cost_scale)),
                BreakableEvent::StateChanged(BreakState::Damaged),
            ];
        }
        Vec::new()
    }

    /// Breaks it now whatever its health (nothing when already broken).
    pub fn break_now(&mut self, cfg: &BreakableConfig) -> Vec<BreakableEvent> {
        if self.state == BreakState::Broken {
            return Vec::new();
        }
        let had = self.health;
        let mut events = Vec::new();
        if had > 0.0 {
            events.push(BreakableEvent::Damaged(0.0));
        }
        events.extend(self.break_open(cfg));
        events
    }

    fn break_open(&mut self, cfg: &BreakableConfig) -> Vec<BreakableEvent> {
        self.state = BreakState::Broken;
        self.health = 0.0;
        let mut events = vec![BreakableEvent::SwitchOff];
        if self.pressing != 0 {
            self.pressing = 0;
            events.push(BreakableEvent::PressureChanged(0));
        }
        events.push(BreakableEvent::StateChanged(BreakState::Broken));
        events.push(BreakableEvent::Broken);
        let radius = clean(cfg.break_noise_radius);
        if radius > 0.0 {
            events.push(BreakableEvent::BreakNoise(radius));
        }
        events
    }

    /// Full health and intact again (the caller restores the route cost and what the break
    /// switched).
    pub fn repair(&mut self, cfg: &BreakableConfig) -> Vec<BreakableEvent> {
        self.health = cfg.max_health();
        let was = self.state;
        self.state = BreakState::Intact;
        let mut events = vec![BreakableEvent::Damaged(1.0)];
        if was != BreakState::Intact {
            events.push(BreakableEvent::StateChanged(BreakState::Intact));
        }
        events
    }

    /// `pressing` agents press the closed object for `dt` seconds (none count once it is broken;
    /// negative counts as 0). Returns the new count when it changed, and the crowd-pressure
    /// damage to [`Self::wear`] (0 when there is none).
    pub fn press(&mut self, cfg: &BreakableConfig, pressing: i64, dt: f32) -> (Option<i64>, f32) {
        let broken = self.state == BreakState::Broken;
        let count = if broken { 0 } else { pressing.max(0) };
        let changed = (count != self.pressing).then(|| {
            self.pressing = count;
            count
        });
        let per_agent = cfg.crowd_pressure_per_agent;
        let damage = if count > 0 && per_agent.is_finite() && per_agent > 0.0 && !broken {
            per_agent * count as f32 * clean(dt)
        } else {
            0.0
        };
        (changed, damage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BreakableEvent as E;

    fn cfg() -> BreakableConfig {
        BreakableConfig { max_health: 100.0, ..Default::default() }
    }

    /// Wear then settle, as the node does; returns the events (the fraction first).
    fn take(s: &mut BreakableState, c: &BreakableConfig, amount: f32) -> Vec<BreakableEvent> {
        let Some(f) = s.wear(c, amount) else {
            return Vec::new();
        };
        let mut out = vec![E::Damaged(f)];
        out.extend(s.settle(c));
        out
    }

    #[test]
    fn strikes_cross_damaged_once_then_break() {
        let c = cfg();
        let mut s = BreakableState::new(&c);
        assert_eq!(take(&mut s, &c, 30.0), vec![E::Damaged(0.7)]);
        assert_eq!(
            take(&mut s, &c, 20.0),
            vec![E::Damaged(0.5), E::ScaleRouteCost(0.5), E::StateChanged(BreakState::Damaged)]
        );
        // The route cost drops once, not on every later blow.
        assert_eq!(take(&mut s, &c, 10.0), vec![E::Damaged(0.4)]);
        assert_eq!(
            take(&mut s, &c, 1000.0),
            vec![E::Damaged(0.0), E::SwitchOff, E::StateChanged(BreakState::Broken), E::Broken, E::BreakNoise(30.0)]
        );
        assert_eq!(s.health(), 0.0);
        assert_eq!(s.state().index(), 2);
        // Broken: blows change nothing.
        assert!(take(&mut s, &c, 5.0).is_empty());
        assert_eq!(s.strike_noise(&c), None);
    }

    #[test]
    fn one_blow_from_full_to_broken_skips_damaged() {
        let c = cfg();
        let mut s = BreakableState::new(&c);
        let ev = take(&mut s, &c, 100.0);
        assert!(!ev.contains(&E::StateChanged(BreakState::Damaged)));
        assert!(ev.contains(&E::Broken));
    }

    #[test]
    fn bad_amounts_are_refused() {
        let c = cfg();
        let mut s = BreakableState::new(&c);
        for a in [0.0, -5.0, f32::NAN, f32::NEG_INFINITY] {
            assert_eq!(s.wear(&c, a), None, "{a}");
        }
        assert_eq!(s.health(), 100.0);
        assert!(valid_amount(0.0) && valid_amount(3.0));
        assert!(!valid_amount(-1.0) && !valid_amount(f32::NAN) && !valid_amount(f32::INFINITY));
    }

    #[test]
    fn break_now_and_repair() {
        let c = cfg();
        let mut s = BreakableState::new(&c);
        let ev = s.break_now(&c);
        assert_eq!(ev[0], E::Damaged(0.0));
        assert_eq!(ev[1], E::SwitchOff);
        assert!(s.break_now(&c).is_empty(), "already broken");
        assert_eq!(s.repair(&c), vec![E::Damaged(1.0), E::StateChanged(BreakState::Intact)]);
        assert_eq!(s.health(), 100.0);
        assert_eq!(s.state(), BreakState::Intact);
        // Repairing an intact object only reports full health.
        assert_eq!(s.repair(&c), vec![E::Damaged(1.0)]);
        // Breaking at zero health does not report health again.
        let mut z = BreakableState::new(&c);
        z.health = 0.0;
        assert_eq!(z.break_now(&c)[0], E::SwitchOff);
    }

    #[test]
    fn repaired_objects_cross_damaged_again() {
        let c = cfg();
        let mut s = BreakableState::new(&c);
        take(&mut s, &c, 60.0);
        assert_eq!(s.state(), BreakState::Damaged);
        s.repair(&c);
        assert!(take(&mut s, &c, 60.0).contains(&E::ScaleRouteCost(0.5)));
    }

    #[test]
    fn crowd_pressure_scales_with_agents_and_time() {
        let c = cfg();
        let mut s = BreakableState::new(&c);
        assert_eq!(s.press(&c, 3, 0.5), (Some(3), 3.0));
        assert_eq!(s.press(&c, 3, 0.5), (None, 3.0));
        assert_eq!(s.press(&c, -2, 0.5), (Some(0), 0.0));
        assert_eq!(s.press(&c, 4, f32::NAN), (Some(4), 0.0));
        let off = BreakableConfig { crowd_pressure_per_agent: 0.0, ..c };
        assert_eq!(s.press(&off, 4, 1.0), (None, 0.0));
        let nan = BreakableConfig { crowd_pressure_per_agent: f32::NAN, ..c };
        assert_eq!(s.press(&nan, 4, 1.0), (None, 0.0));
        // The break resets the count (and says so); a broken object feels no pressure.
        let ev = s.break_now(&c);
        assert!(ev.contains(&E::PressureChanged(0)));
        assert_eq!(s.pressing(), 0);
        assert_eq!(s.press(&c, 9, 1.0), (None, 0.0));
    }

    #[test]
    fn crowd_pressure_wears_it_down_over_time() {
        let c = BreakableConfig { max_health: 10.0, crowd_pressure_per_agent: 1.0, ..cfg() };
        let mut s = BreakableState::new(&c);
        let mut broke_at = None;
        for tick in 0..600 {
            let (_, dmg) = s.press(&c, 4, 1.0 / 60.0);
            if take(&mut s, &c, dmg).contains(&E::Broken) {
                broke_at = Some(tick);
            }
        }
        // 4 agents × 1 hp/s: 10 hp in 2.5 s = 150 ticks.
        let t = broke_at.unwrap();
        assert!((149..=151).contains(&t), "{t}");
    }

    #[test]
    fn hit_noise_is_rate_limited() {
        let c = BreakableConfig { hit_noise_interval: 1.0, ..cfg() };
        let mut s = BreakableState::new(&c);
        assert_eq!(s.strike_noise(&c), Some(12.0), "the first blow is heard at once");
        assert_eq!(s.strike_noise(&c), None);
        s.advance(0.6);
        assert_eq!(s.strike_noise(&c), None);
        s.advance(f32::NAN);
        s.advance(-10.0);
        assert_eq!(s.strike_noise(&c), None);
        s.advance(0.4);
        assert_eq!(s.strike_noise(&c), Some(12.0));
        let silent = BreakableConfig { hit_noise_radius: f32::NAN, ..c };
        s.advance(5.0);
        assert_eq!(s.strike_noise(&silent), None);
        // Interval 0: every blow is heard.
        let every = BreakableConfig { hit_noise_interval: 0.0, ..c };
        assert!(s.strike_noise(&every).is_some() && s.strike_noise(&every).is_some());
    }

    #[test]
    fn bad_settings_are_reported_and_cleaned() {
        let bad = BreakableConfig {
            max_health: f32::NAN,
            damaged_below: -1.0,
            damaged_route_cost_scale: f32::INFINITY,
            break_noise_radius: f32::NAN,
            ..cfg()
        };
        let p = bad.problems();
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].starts_with("max_health"));
        assert_eq!(bad.max_health(), 1.0);
        assert_eq!(BreakableConfig { max_health: -3.0, ..cfg() }.max_health(), 1.0);
        assert!(cfg().problems().is_empty());
        // Health starts at the cleaned maximum; a negative threshold never turns it damaged,
        // and a NaN break radius breaks silently.
        let mut s = BreakableState::new(&bad);
        assert_eq!(s.health(), 1.0);
        assert_eq!(take(&mut s, &bad, 0.5), vec![E::Damaged(0.5)]);
        let ev = take(&mut s, &bad, 0.5);
        assert!(ev.contains(&E::Broken) && !ev.iter().any(|e| matches!(e, E::BreakNoise(_))));
        // An infinite scale counts as 0: a damaged crossing then makes the crossing free.
        let inf = BreakableConfig { damaged_route_cost_scale: f32::INFINITY, ..cfg() };
        let mut s = BreakableState::new(&inf);
        assert!(take(&mut s, &inf, 60.0).contains(&E::ScaleRouteCost(0.0)));
    }

    #[test]
    fn only_swarm_damage_rule() {
        let on = cfg();
        assert!(on.accepts_damage(true) && !on.accepts_damage(false));
        let off = BreakableConfig { only_swarm_damage: false, ..on };
        assert!(off.accepts_damage(true) && off.accepts_damage(false));
    }
}
