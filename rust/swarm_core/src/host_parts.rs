//! The parts of a game's simulation that live beside the world rather than in it, saved with it:
//! a door's open and enabled switches and route cost, a breakable's health and state, a
//! spawner's random generator, a director's schedule, a traffic lane's vehicles. The host names
//! each part (an engine layer: the node's path) and hands it back to the same-named object after
//! a load. Every part is checked as a whole before anything is restored (`HostPart::validate`),
//! so a damaged or crafted save is refused with a message rather than restored half-way.

use serde::{Deserialize, Serialize};

use crate::breakable::{BreakState, BreakableState};
use crate::spawn::{Director, SpawnRng};
use crate::traffic::Lane;

/// Most parts one save may hold.
pub const MAX_PARTS: usize = 65_536;

/// One named part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostPart {
    /// The host's name for it (an engine layer: the node path relative to the manager).
    pub name: String,
    pub state: PartState,
}

/// What a part holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PartState {
    /// A flow modifier's runtime switches and its route cost (a breakable scales it).
    Modifier { open: bool, enabled: bool, route_cost: f32 },
    /// A breakable: health and state, whether its break switched the modifier off, and the
    /// route cost to restore at repair (when its damaged crossing scaled it).
    Breakable { core: BreakableState, switched_off: bool, saved_route_cost: Option<f32> },
    /// A spawner's generator and the seed it was made from (a changed seed restarts it).
    Spawner { seed: i64, rng: SpawnRng },
    /// A spawn director's schedule and which spawner it uses next.
    Director { schedule: Director, cursor: u32 },
    /// A traffic lane's vehicles, generator and window.
    Lane(Box<Lane>),
}

impl PartState {
    /// The kind, as named in messages.
    pub fn kind(&self) -> &'static str {
        match self {
            PartState::Modifier { .. } => "modifier",
            PartState::Breakable { .. } => "breakable",
            PartState::Spawner { .. } => "spawner",
            PartState::Director { .. } => "director",
            PartState::Lane(_) => "traffic lane",
        }
    }
}

impl HostPart {
    /// Whether the part could have been saved by a running game: finite numbers in range,
    /// consistent lengths. Says what is wrong otherwise.
    pub fn validate(&self) -> Result<(), String> {
        let why = match &self.state {
            PartState::Modifier { route_cost, .. } => {
                (!(route_cost.is_finite() && *route_cost >= 0.0)).then(|| format!("route cost {route_cost}"))
            }
            PartState::Breakable { core, saved_route_cost, .. } => core.validate().err().or_else(|| {
                saved_route_cost.filter(|c| !(c.is_finite() && *c >= 0.0)).map(|c| format!("saved route cost {c}"))
            }),
            PartState::Spawner { .. } => None,
            PartState::Director { schedule, .. } => schedule.validate().err(),
            PartState::Lane(lane) => lane.validate().err(),
        };
        match why {
            Some(why) => Err(format!("{} '{}': {why}", self.state.kind(), self.name)),
            None => Ok(()),
        }
    }
}

impl BreakableState {
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
        let clock = self.since_hit_noise();
        if clock.is_nan() || clock < 0.0 {
            return Err(format!("hit-noise clock {clock}"));
        }
        Ok(())
    }
}

/// Bounds a saved lane must keep (those of a lane built by `Lane::new`).
impl Lane {
    pub fn validate(&self) -> Result<(), String> {
        let n = self.s.len();
        if n == 0 || n > crate::bounds::traffic::MAX_VEHICLES as usize {
            return Err(format!("{n} vehicles"));
        }
        let columns = [
            self.speed.len(),
            self.half.len(),
            self.kind.len(),
            self.rolling.len(),
            self.budget.len(),
            self.timer.len(),
            self.moved.len(),
        ];
        if columns.iter().any(|&len| len != n) {
            return Err(format!("columns of lengths {columns:?} for {n} vehicles"));
        }
        if !(self.length.is_finite() && (0.0..=1e7).contains(&self.length)) {
            return Err(format!("length {}", self.length));
        }
        if self.head >= n {
            return Err(format!("head {} of {n} vehicles", self.head));
        }
        let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
        if ![&self.s, &self.speed, &self.moved, &self.budget, &self.timer].iter().all(|v| finite(v)) {
            return Err("a vehicle's travel, speed or pause is not a number".into());
        }
        if !self.half.iter().all(|h| h.is_finite() && *h > 0.0) {
            return Err("a vehicle's length is not a positive number".into());
        }
        if let Some(w) = &self.window {
            if ![w.trail, w.lead, w.behind, w.ahead, w.anchor].iter().all(|x| x.is_finite()) || w.trail > w.lead {
                return Err(format!("window {:?}", (w.trail, w.lead, w.behind, w.ahead, w.anchor)));
            }
        }
        let mut findings = Vec::new();
        if self.profile.clone().checked(&mut findings) != self.profile {
            return Err(format!("profile out of bounds ({})", findings.len()));
        }
        Ok(())
    }

    /// Whether `saved` can take this lane's place: the same curve length, closure, direction and
    /// the same vehicle of each slot (a lane built from the same settings and seed).
    pub fn matches(&self, saved: &Lane) -> Result<(), String> {
        if (self.length - saved.length).abs() > 1e-3 * self.length.max(1.0) {
            return Err(format!("the saved curve is {} m long, this one {} m", saved.length, self.length));
        }
        if self.closed != saved.closed || self.reverse != saved.reverse {
            return Err("the saved lane differs in closure or direction".into());
        }
        if self.kind != saved.kind {
            return Err(format!(
                "the saved lane has {} vehicles of other kinds than this one's {}",
                saved.len(),
                self.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakable::BreakableConfig;
    use crate::traffic::{LaneSetup, TrafficProfile};

    fn lane() -> Lane {
        let setup = LaneSetup {
            length: 100.0,
            closed: false,
            reverse: false,
            vehicle_count: 0,
            window: None,
            anchor_offset: None,
            seed: 3,
            kinds: Vec::new(),
        };
        Lane::new(TrafficProfile::default(), &setup)
    }

    fn part(state: PartState) -> HostPart {
        HostPart { name: "n".into(), state }
    }

    #[test]
    fn parts_a_game_saves_are_valid() {
        let cfg = BreakableConfig { max_health: 10.0, ..Default::default() };
        let mut core = BreakableState::new(&cfg);
        assert!(part(PartState::Breakable { core, switched_off: false, saved_route_cost: None }).validate().is_ok());
        core.break_now(&cfg);
        assert!(part(PartState::Breakable { core, switched_off: true, saved_route_cost: Some(4.0) })
            .validate()
            .is_ok());
        assert!(part(PartState::Lane(Box::new(lane()))).validate().is_ok());
        assert!(part(PartState::Director { schedule: Director::default(), cursor: 2 }).validate().is_ok());
        assert!(part(PartState::Modifier { open: true, enabled: false, route_cost: 3.0 }).validate().is_ok());
    }

    #[test]
    fn impossible_parts_are_refused_with_the_reason() {
        let e = part(PartState::Modifier { open: true, enabled: true, route_cost: f32::NAN }).validate().unwrap_err();
        assert!(e.contains("modifier 'n'") && e.contains("route cost NaN"), "{e}");
        let mut l = lane();
        l.speed[0] = f32::NAN;
        assert!(part(PartState::Lane(Box::new(l))).validate().unwrap_err().contains("speed"), "NaN speed");
        let mut l = lane();
        l.kind.pop();
        assert!(part(PartState::Lane(Box::new(l))).validate().unwrap_err().contains("columns"));
        let mut l = lane();
        l.head = 10_000;
        assert!(part(PartState::Lane(Box::new(l))).validate().unwrap_err().contains("head"));
    }

    #[test]
    fn a_lane_matches_one_built_alike_only() {
        let a = lane();
        assert!(a.matches(&a.clone()).is_ok());
        let mut b = lane();
        b.length = 50.0;
        assert!(a.matches(&b).unwrap_err().contains("long"));
    }
}
