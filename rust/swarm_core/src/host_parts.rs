//! The parts of a game's simulation that live beside the world rather than in it, saved with it:
//! a door's open and enabled switches and route cost, a breakable's health and state, a
//! spawner's random generator, a director's schedule, a traffic lane's vehicles. The host names
//! each part (an engine layer: the node's path) and hands it back to the same-named object after
//! a load. Every part is checked as a whole before anything is restored (`HostPart::validate`),
//! so a damaged or crafted save is refused with a message rather than restored half-way; each
//! kind checks its own invariants where it is defined (`BreakableState::validate`,
//! `Director::validate`, `Lane::validate`).

use serde::{Deserialize, Serialize};

use crate::breakable::BreakableState;
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
