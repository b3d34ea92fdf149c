//! One lane's state: vehicles as flat columns indexed by slot, kept in driving order by a ring
//! (`head` is the front's slot; the k-th vehicle from the front is slot `(head + k) % n`), so
//! recycling the front to the back or the back to the front moves `head` and nothing else.
//!
//! Positions are travel coordinates `s` (metres, increasing in the direction of travel). On an
//! open curve `s` runs 0..length; a reversed lane drives from the curve's end, so its curve offset
//! is `length - s`. On a closed curve `s` is unbounded and the offset wraps.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use super::profile::TrafficProfile;
use super::setup::{LaneSetup, VehicleKind};
use super::window::Window;
use crate::bounds::traffic as tb;
use crate::sanitize::finite_clamp;

/// One lane of traffic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lane {
    pub(crate) profile: TrafficProfile,
    pub(crate) length: f32,
    pub(crate) closed: bool,
    pub(crate) reverse: bool,
    /// Travel coordinate, per slot.
    pub(crate) s: Vec<f32>,
    pub(crate) speed: Vec<f32>,
    pub(crate) half: Vec<f32>,
    pub(crate) kind: Vec<u16>,
    /// In a go phase (else paused).
    pub(crate) rolling: Vec<bool>,
    /// Distance still owed in the current go phase.
    pub(crate) budget: Vec<f32>,
    /// Seconds left in the current pause.
    pub(crate) timer: Vec<f32>,
    /// Distance actually moved in the last step (recycling excluded).
    pub(crate) moved: Vec<f32>,
    pub(crate) head: usize,
    pub(crate) window: Option<Window>,
    /// Loops without recycling (a closed curve whose window, if any, spans it).
    pub(crate) looping: bool,
    pub(crate) rng: Pcg32,
    pub(crate) recycled: u64,
    pub(crate) frozen: bool,
}

/// What `stats` reports.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaneStats {
    pub vehicles: usize,
    pub moving: usize,
    pub mean_speed: f32,
    pub recycled: u64,
    pub frozen: bool,
}

impl Lane {
    /// A lane packed at the packing gap from the window's leading edge backward, each vehicle's
    /// kind drawn by weight, go/pause phases and their lengths drawn from the seeded generator.
    pub fn new(profile: TrafficProfile, setup: &LaneSetup) -> Self {
        let length = finite_clamp(setup.length, 0.0, 1e7, 0.0);
        let mut rng = Pcg32::seed_from_u64(setup.seed);
        let kinds: Vec<VehicleKind> = if setup.kinds.is_empty() {
            vec![VehicleKind { half_length: tb::HALF_LENGTH.default, weight: 1.0 }]
        } else {
            setup
                .kinds
                .iter()
                .map(|k| VehicleKind {
                    half_length: finite_clamp(
                        k.half_length,
                        tb::HALF_LENGTH.lo,
                        tb::HALF_LENGTH.hi,
                        tb::HALF_LENGTH.default,
                    ),
                    weight: finite_clamp(k.weight, 0.0, tb::VEHICLE_WEIGHT.hi, 0.0),
                })
                .collect()
        };
        let total: f32 = kinds.iter().map(|k| k.weight).sum();
        let mean_half = if total > 0.0 {
            kinds.iter().map(|k| k.half_length * k.weight).sum::<f32>() / total
        } else {
            kinds.iter().map(|k| k.half_length).sum::<f32>() / kinds.len() as f32
        };
        let (window, looping) = Window::initial(setup, length);
        // A window at the curve's end is clamped now but will not be later: fill the whole span.
        let span =
            window.map_or(length, |w| if w.anchored { (w.behind + w.ahead).min(length) } else { w.lead - w.trail });
        let n = if setup.vehicle_count > 0 {
            setup.vehicle_count
        } else {
            (span / (2.0 * mean_half + profile.packing_gap)).floor() as usize
        }
        .clamp(1, tb::MAX_VEHICLES as usize);

        let mut lane = Lane {
            length,
            closed: setup.closed,
            reverse: setup.reverse,
            s: Vec::with_capacity(n),
            speed: vec![0.0; n],
            half: Vec::with_capacity(n),
            kind: Vec::with_capacity(n),
            rolling: vec![false; n],
            budget: vec![0.0; n],
            timer: vec![0.0; n],
            moved: vec![0.0; n],
            head: 0,
            window,
            looping,
            rng: Pcg32::seed_from_u64(0),
            recycled: 0,
            frozen: false,
            profile,
        };
        let lead = window.map_or(length, |w| w.lead);
        let mut front_edge = lead;
        // A loop holds only what fits with the packing gap between its tail and its front.
        let rear_limit = if looping { lead - length } else { f32::NEG_INFINITY };
        for _ in 0..n {
            let k = pick_kind(&kinds, total, &mut rng);
            let h = kinds[k].half_length;
            if front_edge - 2.0 * h - lane.profile.packing_gap < rear_limit && !lane.s.is_empty() {
                break;
            }
            lane.s.push(front_edge - h);
            front_edge -= 2.0 * h + lane.profile.packing_gap;
            lane.half.push(h);
            lane.kind.push(k as u16);
        }
        let n = lane.s.len();
        lane.speed.truncate(n);
        lane.rolling.truncate(n);
        lane.budget.truncate(n);
        lane.timer.truncate(n);
        lane.moved.truncate(n);
        for i in 0..n {
            if rng.random::<f32>() < 0.5 {
                lane.rolling[i] = true;
                lane.budget[i] = lane.profile.go_distance.at(rng.random()) * 2.0 * lane.half[i];
            } else {
                lane.timer[i] = lane.profile.pause_time.at(rng.random());
            }
        }
        lane.rng = rng;
        lane
    }

    /// Whether a saved lane keeps the bounds of one built by [`Lane::new`]: one column entry
    /// per vehicle, finite numbers, the head among the vehicles, a profile within its bounds.
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

    /// A new profile for a running lane (vehicles stay where they are).
    pub fn set_profile(&mut self, profile: TrafficProfile) {
        self.profile = profile;
    }

    pub fn profile(&self) -> &TrafficProfile {
        &self.profile
    }

    /// Number of vehicles.
    pub fn len(&self) -> usize {
        self.s.len()
    }

    pub fn is_empty(&self) -> bool {
        self.s.is_empty()
    }

    /// The slot of the k-th vehicle from the front.
    #[inline]
    pub fn slot(&self, k: usize) -> usize {
        (self.head + k) % self.s.len()
    }

    /// Travel coordinate of a slot.
    #[inline]
    pub fn travel(&self, slot: usize) -> f32 {
        self.s[slot]
    }

    /// The curve offset of a slot (wrapped on a closed curve).
    #[inline]
    pub fn offset(&self, slot: usize) -> f32 {
        let t = if self.reverse { -self.s[slot] } else { self.s[slot] };
        if self.closed {
            if self.length > 0.0 {
                t.rem_euclid(self.length)
            } else {
                0.0
            }
        } else if self.reverse {
            self.length + t
        } else {
            t
        }
    }

    /// On the curve: an open curve's vehicles driven off either end are not drawn.
    #[inline]
    pub fn on_curve(&self, slot: usize) -> bool {
        self.closed || (self.s[slot] >= 0.0 && self.s[slot] <= self.length)
    }

    #[inline]
    pub fn speed(&self, slot: usize) -> f32 {
        self.speed[slot]
    }

    #[inline]
    pub fn half_length(&self, slot: usize) -> f32 {
        self.half[slot]
    }

    /// Index of the slot's vehicle kind (its mesh).
    #[inline]
    pub fn kind(&self, slot: usize) -> usize {
        self.kind[slot] as usize
    }

    #[inline]
    pub fn rolling(&self, slot: usize) -> bool {
        self.rolling[slot]
    }

    /// Distance still owed in the slot's go phase.
    #[inline]
    pub fn budget(&self, slot: usize) -> f32 {
        self.budget[slot]
    }

    /// Distance the slot moved in the last step.
    #[inline]
    pub fn moved(&self, slot: usize) -> f32 {
        self.moved[slot]
    }

    /// The slot moves (its speed is above `moving_speed`).
    #[inline]
    pub fn is_moving(&self, slot: usize) -> bool {
        self.speed[slot] > self.profile.moving_speed
    }

    pub fn reverse(&self) -> bool {
        self.reverse
    }

    pub fn closed(&self) -> bool {
        self.closed
    }

    pub fn curve_length(&self) -> f32 {
        self.length
    }

    /// Vehicles recycled so far.
    pub fn recycled(&self) -> u64 {
        self.recycled
    }

    /// A frozen lane does not move (colliders are awake): its vehicles stand (speed 0, so they
    /// are silent and not counted as moving) and pull away again from rest when it thaws.
    pub fn set_frozen(&mut self, frozen: bool) {
        self.frozen = frozen;
        if frozen {
            self.speed.fill(0.0);
            self.moved.fill(0.0);
        }
    }

    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// The window in travel coordinates `(trailing edge, leading edge)`, if the lane has one.
    pub fn window(&self) -> Option<(f32, f32)> {
        self.window.map(|w| (w.trail, w.lead))
    }

    pub fn stats(&self) -> LaneStats {
        let n = self.len();
        let moving = (0..n).filter(|&i| self.is_moving(i)).count();
        let sum: f32 = self.speed.iter().sum();
        LaneStats {
            vehicles: n,
            moving,
            mean_speed: if n > 0 { sum / n as f32 } else { 0.0 },
            recycled: self.recycled,
            frozen: self.frozen,
        }
    }
}

/// A kind index drawn by weight (uniform when no weight is positive).
fn pick_kind(kinds: &[VehicleKind], total: f32, rng: &mut Pcg32) -> usize {
    if kinds.len() == 1 {
        return 0;
    }
    if total <= 0.0 {
        return rng.random_range(0..kinds.len());
    }
    let mut x = rng.random::<f32>() * total;
    for (i, k) in kinds.iter().enumerate() {
        if x < k.weight {
            return i;
        }
        x -= k.weight;
    }
    kinds.iter().rposition(|k| k.weight > 0.0).unwrap_or(0)
}
