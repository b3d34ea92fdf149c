//! A spawn director's schedule: when to spawn and how many this tick (one-shot, continuous,
//! maintained population, finite encounter), the count of its live agents, and when an
//! encounter ends. The caller places the agents and reports back which ids it got.

use std::collections::BTreeSet;

/// Largest count accepted for batches and limits.
pub use crate::bounds::spawner::MAX_COUNT;

/// Seconds between two checks of which of the director's agents are still alive (a safety net:
/// despawns are also reported at once through [`Director::forget`]).
pub const SWEEP_INTERVAL: f64 = 0.5;

/// When agents are spawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The initial batch once, then stop.
    OneShot,
    /// The initial batch, then `spawn_rate` per second until `total_limit` (if any).
    Continuous,
    /// Keep `max_alive` alive, refilling at up to `spawn_rate` per second (0: at once).
    MaintainPopulation,
    /// `total_limit` agents (the initial batch first, then at `spawn_rate`); ends when all were
    /// spawned and all are gone.
    FiniteEncounter,
}

impl Mode {
    /// The mode of an index 0..=3; anything else is [`Mode::OneShot`] (the binding range-checks).
    pub fn from_index(i: i64) -> Self {
        match i {
            1 => Mode::Continuous,
            2 => Mode::MaintainPopulation,
            3 => Mode::FiniteEncounter,
            _ => Mode::OneShot,
        }
    }
}

/// A director's settings, already range-checked (counts at or above 0, rates finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectorConfig {
    pub mode: Mode,
    pub initial_batch: i64,
    pub spawn_rate: f64,
    /// At least 1.
    pub max_per_frame: i64,
    /// 0: no limit.
    pub max_alive: i64,
    /// 0: no limit.
    pub total_limit: i64,
    pub recycle_distance: f32,
    pub recycle_interval: f64,
    pub recycle_max_per_pass: i64,
}

impl DirectorConfig {
    /// Fixes settings that make no sense for the mode and says what was done (each message reads
    /// after the director's name): a finite encounter without a size takes the initial batch as
    /// its size; a maintained population of 0 spawns nothing.
    pub fn resolve_mode(mut self) -> (Self, Vec<String>) {
        let mut problems = Vec::new();
        if self.mode == Mode::FiniteEncounter && self.total_limit == 0 {
            problems.push(format!(
                "total_limit = 0 in FINITE_ENCOUNTER mode, so the encounter has no size; using initial_batch ({}). Set total_limit",
                self.initial_batch
            ));
            self.total_limit = self.initial_batch;
        }
        if self.mode == Mode::MaintainPopulation && self.max_alive == 0 {
            problems.push(
                "max_alive = 0 in MAINTAIN_POPULATION mode: there is no population to keep, nothing is spawned. Set max_alive"
                    .to_string(),
            );
        }
        (self, problems)
    }

    /// Whether the mode spends the spawn rate.
    fn uses_rate(&self) -> bool {
        matches!(self.mode, Mode::Continuous | Mode::FiniteEncounter)
            || (self.mode == Mode::MaintainPopulation && self.spawn_rate > 0.0)
    }
}

/// What happened at the end of a tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickEnd {
    /// The encounter just ended (once per trigger).
    pub encounter_finished: bool,
    /// The live count, when it changed since the last tick.
    pub population: Option<usize>,
}

/// The director's runtime state. One tick, in order: [`Self::sweep_due`] (then
/// [`Self::forget`] the dead), while running [`Self::wanted`] then [`Self::record_spawned`],
/// [`Self::recycle_due`], [`Self::end_tick`].
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Director {
    running: bool,
    pending_initial: i64,
    spawned_total: i64,
    rate_acc: f64,
    alive: BTreeSet<i64>,
    finished: bool,
    last_population: Option<usize>,
    sweep_timer: f64,
    recycle_timer: f64,
}

/// A time step made safe: NaN, infinite and negative steps count as 0.
fn clean_dt(dt: f64) -> f64 {
    if dt.is_finite() {
        dt.max(0.0)
    } else {
        0.0
    }
}

impl Director {
    /// Starts or restarts: the initial batch, the rate and the total count start over (agents
    /// still alive keep counting against `max_alive`).
    pub fn trigger(&mut self, initial_batch: i64) {
        self.running = true;
        self.finished = false;
        self.pending_initial = initial_batch.clamp(0, MAX_COUNT);
        self.spawned_total = 0;
        self.rate_acc = 0.0;
    }

    /// Whether a saved schedule could have been reached: counts within `0..=MAX_COUNT`, the rate
    /// accumulator and the timers finite and not negative. Says what is wrong otherwise.
    pub fn validate(&self) -> Result<(), String> {
        let counts = [self.pending_initial, self.spawned_total];
        if counts.iter().any(|c| !(0..=MAX_COUNT).contains(c)) {
            return Err(format!("counts {counts:?} outside 0..={MAX_COUNT}"));
        }
        let clocks = [self.rate_acc, self.sweep_timer, self.recycle_timer];
        if clocks.iter().any(|c| !(c.is_finite() && *c >= 0.0)) {
            return Err(format!("rate and timers {clocks:?}"));
        }
        if self.alive.len() > MAX_COUNT as usize || self.alive.iter().any(|id| *id < 0) {
            return Err(format!("{} live agents, or a negative id", self.alive.len()));
        }
        Ok(())
    }

    pub fn stop(&mut self) {
        self.running = false;
    }

    pub fn is_running(&self) -> bool {
        self.running
    }

    pub fn alive_count(&self) -> usize {
        self.alive.len()
    }

    /// Ids of the live agents, ascending.
    pub fn alive_ids(&self) -> Vec<i64> {
        self.alive.iter().copied().collect()
    }

    pub fn spawned_total(&self) -> i64 {
        self.spawned_total
    }

    /// One of the director's agents is gone.
    pub fn forget(&mut self, id: i64) {
        self.alive.remove(&id);
    }

    /// Advances the sweep clock; true when the caller should check which agents still live.
    pub fn sweep_due(&mut self, dt: f64) -> bool {
        self.sweep_timer += clean_dt(dt);
        if self.sweep_timer >= SWEEP_INTERVAL {
            self.sweep_timer = 0.0;
            return !self.alive.is_empty();
        }
        false
    }

    /// Advances the recycle clock; true when a recycling pass is due.
    pub fn recycle_due(&mut self, cfg: &DirectorConfig, dt: f64) -> bool {
        self.recycle_timer += clean_dt(dt);
        if self.recycle_timer >= cfg.recycle_interval {
            self.recycle_timer = 0.0;
            return true;
        }
        false
    }

    /// How many to spawn this tick (accrues the rate over `dt`), within `max_per_frame`,
    /// `max_alive` and `total_limit`. May be 0 or less: nothing to spawn. The caller may spawn
    /// fewer (room in the world, points in view) and reports what it got to
    /// [`Self::record_spawned`].
    pub fn wanted(&mut self, cfg: &DirectorConfig, dt: f64) -> i64 {
        let alive = self.alive.len() as i64;
        if cfg.uses_rate() {
            self.rate_acc += cfg.spawn_rate * clean_dt(dt);
        }
        let from_rate = self.rate_acc.floor() as i64;
        let want = match cfg.mode {
            Mode::OneShot => self.pending_initial,
            Mode::MaintainPopulation => {
                let deficit = (cfg.max_alive - alive).max(0);
                if cfg.spawn_rate > 0.0 {
                    deficit.min(from_rate)
                } else {
                    deficit
                }
            }
            Mode::Continuous | Mode::FiniteEncounter => self.pending_initial + from_rate,
        };
        let mut n = want.min(cfg.max_per_frame);
        if cfg.max_alive > 0 {
            n = n.min(cfg.max_alive - alive);
        }
        if cfg.total_limit > 0 {
            n = n.min(cfg.total_limit - self.spawned_total);
        }
        n
    }

    /// Books the agents spawned this tick (after [`Self::wanted`]; call it with none too) and
    /// stops a one-shot that is done or a run that reached its total.
    pub fn record_spawned(&mut self, cfg: &DirectorConfig, ids: impl IntoIterator<Item = i64>) -> i64 {
        let mut got = 0i64;
        for id in ids {
            got += 1;
            self.alive.insert(id);
        }
        let from_initial = if cfg.mode == Mode::MaintainPopulation { 0 } else { got.min(self.pending_initial) };
        self.pending_initial -= from_initial;
        if cfg.uses_rate() {
            let used = if cfg.mode == Mode::MaintainPopulation { got } else { got - from_initial };
            // Whatever the limits held back is dropped, not saved up for a burst later.
            self.rate_acc = (self.rate_acc - used as f64).clamp(0.0, 1.0);
        }
        self.spawned_total += got;

        let total_reached = cfg.total_limit > 0 && self.spawned_total >= cfg.total_limit;
        match cfg.mode {
            Mode::OneShot if self.pending_initial <= 0 || total_reached => self.running = false,
            Mode::Continuous if total_reached => self.running = false,
            _ => {}
        }
        got
    }

    /// Ends the tick: a finite encounter whose agents were all spawned and are all gone ends
    /// (once), and the live count is reported when it changed.
    pub fn end_tick(&mut self, cfg: &DirectorConfig) -> TickEnd {
        let mut end = TickEnd::default();
        if self.running
            && cfg.mode == Mode::FiniteEncounter
            && self.spawned_total >= cfg.total_limit
            && self.alive.is_empty()
        {
            self.running = false;
            self.finished = true;
            end.encounter_finished = true;
        }
        let n = self.alive.len();
        if self.last_population != Some(n) {
            self.last_population = Some(n);
            end.population = Some(n);
        }
        end
    }
}

/// Clamps a spawn count to the room left in the world: `(n, full)`, `full` when there is none.
pub fn limit_to_room(n: i64, count: i64, capacity: i64) -> (i64, bool) {
    (n.min(capacity - count), count >= capacity)
}

/// Splits `n` agents evenly over `k` spawners, starting at `cursor` (which then moves on so
/// remainders rotate): `(spawner index, count)` in the order to spawn, zero counts left out.
pub fn distribute(n: usize, k: usize, cursor: &mut usize) -> Vec<(usize, usize)> {
    if k == 0 {
        return Vec::new();
    }
    let (per, extra) = (n / k, n % k);
    let plan =
        (0..k).map(|j| ((*cursor + j) % k, per + usize::from(j < extra))).filter(|&(_, count)| count > 0).collect();
    *cursor = (*cursor + extra.max(1)) % k;
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(mode: Mode) -> DirectorConfig {
        DirectorConfig {
            mode,
            initial_batch: 50,
            spawn_rate: 10.0,
            max_per_frame: 50,
            max_alive: 500,
            total_limit: 0,
            recycle_distance: 60.0,
            recycle_interval: 1.0,
            recycle_max_per_pass: 32,
        }
    }

    /// A simulated world: ids handed out in order, room for `capacity`, `kill` called per tick.
    struct Sim {
        next_id: i64,
        world: BTreeSet<i64>,
        capacity: i64,
        waves: Vec<i64>,
        finished_at: Option<usize>,
    }

    impl Sim {
        fn new(capacity: i64) -> Self {
            Self { next_id: 0, world: BTreeSet::new(), capacity, waves: Vec::new(), finished_at: None }
        }

        /// One tick the way the node runs it; `kill` picks ids to despawn first.
        fn tick(
            &mut self,
            d: &mut Director,
            c: &DirectorConfig,
            dt: f64,
            tick: usize,
            kill: impl Fn(&BTreeSet<i64>) -> Vec<i64>,
        ) {
            for id in kill(&self.world) {
                self.world.remove(&id);
                d.forget(id);
            }
            if d.sweep_due(dt) {
                for id in d.alive_ids() {
                    if !self.world.contains(&id) {
                        d.forget(id);
                    }
                }
            }
            if d.is_running() {
                let n = d.wanted(c, dt);
                let (n, _) = if n > 0 { limit_to_room(n, self.world.len() as i64, self.capacity) } else { (n, false) };
                let mut ids = Vec::new();
                for _ in 0..n.max(0) {
                    ids.push(self.next_id);
                    self.world.insert(self.next_id);
                    self.next_id += 1;
                }
                let got = d.record_spawned(c, ids);
                if got > 0 {
                    self.waves.push(got);
                }
            }
            if d.end_tick(c).encounter_finished {
                assert!(self.finished_at.is_none(), "encounter_finished twice");
                self.finished_at = Some(tick);
            }
        }
    }

    const DT: f64 = 1.0 / 60.0;

    #[test]
    fn one_shot_spawns_the_batch_over_frames_then_stops() {
        let mut c = cfg(Mode::OneShot);
        c.initial_batch = 120;
        let mut d = Director::default();
        d.trigger(c.initial_batch);
        let mut sim = Sim::new(10_000);
        for t in 0..60 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        assert_eq!(sim.waves, vec![50, 50, 20]);
        assert!(!d.is_running());
        assert_eq!(d.spawned_total(), 120);
        assert_eq!(d.alive_count(), 120);
    }

    #[test]
    fn continuous_spawns_at_the_rate_until_the_total() {
        let mut c = cfg(Mode::Continuous);
        c.initial_batch = 10;
        c.spawn_rate = 6.0;
        c.total_limit = 40;
        let mut d = Director::default();
        d.trigger(c.initial_batch);
        let mut sim = Sim::new(10_000);
        for t in 0..60 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        // 10 at once, then 6 per second.
        assert_eq!(d.spawned_total(), 10 + 6 - 1, "after one second (the accumulator floors)");
        for t in 60..600 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        assert_eq!(d.spawned_total(), 40);
        assert!(!d.is_running());
        assert!(sim.waves.iter().skip(1).all(|&w| w == 1), "{:?}", sim.waves);
    }

    #[test]
    fn max_alive_pauses_spawning_and_held_back_rate_is_dropped() {
        let mut c = cfg(Mode::Continuous);
        c.initial_batch = 0;
        c.spawn_rate = 100.0;
        c.max_alive = 5;
        let mut d = Director::default();
        d.trigger(0);
        let mut sim = Sim::new(10_000);
        for t in 0..120 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        assert_eq!(d.alive_count(), 5);
        // Kill all five: no burst of saved-up rate, just the rate's next frame (1 or 2).
        sim.tick(&mut d, &c, DT, 120, |w| w.iter().copied().collect());
        assert!(d.alive_count() <= 2, "{}", d.alive_count());
    }

    #[test]
    fn maintain_population_replaces_the_fallen() {
        let mut c = cfg(Mode::MaintainPopulation);
        c.max_alive = 30;
        c.spawn_rate = 0.0;
        let mut d = Director::default();
        d.trigger(c.initial_batch);
        let mut sim = Sim::new(10_000);
        sim.tick(&mut d, &c, DT, 0, |_| vec![]);
        assert_eq!(d.alive_count(), 30, "initial_batch is not used; the population is");
        sim.tick(&mut d, &c, DT, 1, |w| w.iter().take(7).copied().collect());
        assert_eq!(d.alive_count(), 30);
        assert_eq!(d.spawned_total(), 37);
        assert!(d.is_running());
        // With a rate, the refill is paced.
        c.spawn_rate = 60.0;
        sim.tick(&mut d, &c, DT, 2, |w| w.iter().take(10).copied().collect());
        assert_eq!(d.alive_count(), 21);
        for t in 3..30 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        assert_eq!(d.alive_count(), 30);
    }

    #[test]
    fn maintain_population_of_zero_spawns_nothing_and_says_so() {
        let mut c = cfg(Mode::MaintainPopulation);
        c.max_alive = 0;
        let (c, problems) = c.resolve_mode();
        assert_eq!(problems.len(), 1);
        let mut d = Director::default();
        d.trigger(50);
        let mut sim = Sim::new(100);
        for t in 0..100 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        assert_eq!(d.spawned_total(), 0);
    }

    #[test]
    fn finite_encounter_ends_once_when_all_are_spawned_and_gone() {
        let mut c = cfg(Mode::FiniteEncounter);
        c.initial_batch = 5;
        c.spawn_rate = 30.0;
        c.total_limit = 12;
        let mut d = Director::default();
        d.trigger(c.initial_batch);
        let mut sim = Sim::new(10_000);
        for t in 0..60 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        assert_eq!(d.spawned_total(), 12);
        assert!(d.is_running(), "waits for its agents to go");
        assert!(sim.finished_at.is_none());
        sim.tick(&mut d, &c, DT, 60, |w| w.iter().take(11).copied().collect());
        assert!(sim.finished_at.is_none());
        sim.tick(&mut d, &c, DT, 61, |w| w.iter().copied().collect());
        assert_eq!(sim.finished_at, Some(61));
        assert!(!d.is_running());
        for t in 62..100 {
            sim.tick(&mut d, &c, DT, t, |_| vec![]);
        }
        // A new trigger runs a new encounter.
        d.trigger(c.initial_batch);
        sim.finished_at = None;
        for t in 100..200 {
            sim.tick(&mut d, &c, DT, t, |w| w.iter().copied().collect());
        }
        assert_eq!(d.spawned_total(), 12);
        assert!(sim.finished_at.is_some());
    }

    #[test]
    fn finite_encounter_without_a_size_uses_the_initial_batch() {
        let mut c = cfg(Mode::FiniteEncounter);
        c.initial_batch = 8;
        let (c, problems) = c.resolve_mode();
        assert_eq!(c.total_limit, 8);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("initial_batch (8)"));
        assert!(cfg(Mode::Continuous).resolve_mode().1.is_empty());
    }

    #[test]
    fn a_full_world_holds_spawning_back() {
        let mut c = cfg(Mode::OneShot);
        c.initial_batch = 30;
        let mut d = Director::default();
        d.trigger(30);
        let mut sim = Sim::new(10);
        sim.tick(&mut d, &c, DT, 0, |_| vec![]);
        assert_eq!(d.alive_count(), 10);
        assert!(d.is_running(), "20 still pending");
        sim.tick(&mut d, &c, DT, 1, |w| w.iter().take(4).copied().collect());
        assert_eq!(d.alive_count(), 10);
        assert_eq!(d.spawned_total(), 14);
        assert_eq!(limit_to_room(5, 10, 10), (0, true));
        assert_eq!(limit_to_room(5, 3, 10), (5, false));
        assert_eq!(limit_to_room(5, 12, 10), (-2, true));
    }

    #[test]
    fn bad_time_steps_and_stop() {
        let c = cfg(Mode::Continuous);
        let mut d = Director::default();
        d.trigger(0);
        for dt in [f64::NAN, f64::INFINITY, -5.0] {
            assert_eq!(d.wanted(&c, dt), 0);
            d.record_spawned(&c, []);
            assert!(!d.sweep_due(dt));
            assert!(!d.recycle_due(&c, dt));
        }
        d.stop();
        assert!(!d.is_running());
        let end = d.end_tick(&c);
        assert_eq!(end.population, Some(0));
        assert_eq!(d.end_tick(&c).population, None);
        // Huge or negative batches are clamped.
        d.trigger(-3);
        assert_eq!(d.wanted(&cfg(Mode::OneShot), DT), 0);
        d.trigger(i64::MAX);
        assert_eq!(d.wanted(&cfg(Mode::OneShot), DT), 50);
    }

    #[test]
    fn clocks_fire_at_their_intervals() {
        let c = cfg(Mode::OneShot);
        let mut d = Director::default();
        let fired = (0..100).filter(|_| d.recycle_due(&c, DT)).count();
        assert_eq!(fired, 1);
        // The sweep only asks for a check while there is someone to check.
        assert_eq!((0..120).filter(|_| d.sweep_due(DT)).count(), 0);
        d.record_spawned(&c, [1, 2]);
        assert!((0..31).any(|_| d.sweep_due(DT)));
    }

    #[test]
    fn distribute_rotates_remainders() {
        let mut cursor = 0;
        assert_eq!(distribute(7, 3, &mut cursor), vec![(0, 3), (1, 2), (2, 2)]);
        assert_eq!(cursor, 1);
        assert_eq!(distribute(1, 3, &mut cursor), vec![(1, 1)]);
        assert_eq!(cursor, 2);
        assert_eq!(distribute(2, 3, &mut cursor), vec![(2, 1), (0, 1)]);
        assert_eq!(cursor, 1);
        assert_eq!(distribute(6, 3, &mut cursor), vec![(1, 2), (2, 2), (0, 2)]);
        assert_eq!(cursor, 2, "no remainder: still moves on by one");
        assert!(distribute(5, 0, &mut cursor).is_empty());
        assert!(distribute(0, 2, &mut cursor).is_empty());
    }
}
