//! Importance LOD: which agents run every behaviour every step (Full), which run
//! Personal Space and approach steering on a throttled interval with fewer samples (Reduced), and
//! which are throttled hardest (Cheap). The ladder, in order, first match wins:
//!
//! 1. a dormant agent is Cheap;
//! 2. an agent in the near band is Full while a slot under `full_quality_agent_cap` is free
//!    (the nearest get the slots); the overflow drops to the next rung;
//! 3. an agent on camera, or in the mid band, is Reduced;
//! 4. an agent that was Reduced last step stays Reduced a little past the mid band (hysteresis);
//! 5. everything else is Cheap.
//!
//! Then a second pass spends the cap's remaining slots on agents in the near band or on camera,
//! near-band first, nearest first. Distance is to the agent's own target.
//!
//! What a tier costs (`agent_step.rs`): Full runs everything every step. Reduced and Cheap refresh
//! Personal Space (with fewer samples) and approach steering every `reduced_interval` /
//! `cheap_interval` steps, staggered by seed, blend their steering only then (smoothed over the
//! whole interval) and hold it in between; a Reduced agent still moves, turns and is body-blocked
//! every step. A Cheap agent that is awake (off camera, beyond the mid band) coasts between its
//! updates: it keeps its steering and facing, only moves, and body blocking leaves it to its
//! neighbours; on its update it faces where it wants at once (no turn rate: drawn agents are
//! never Cheap, so nobody sees it turn). Whole blocks of Cheap agents far from everything take
//! their update as one step over the whole interval and wait in between, farther out over two
//! and four intervals (`far_blocks`).

use serde::{Deserialize, Serialize};

use crate::bounds::lod as lb;
use crate::sanitize::Finding;

pub const FULL: u8 = 0;
pub const REDUCED: u8 = 1;
pub const CHEAP: u8 = 2;

/// Per-agent inputs of the ladder, computed in parallel before the cap is shared out.
pub const F_NEAR: u8 = 1;
pub const F_MID: u8 = 2;
/// Inside the mid band widened by the hysteresis.
pub const F_MID_HYST: u8 = 4;
pub const F_CAMERA: u8 = 8;
pub const F_DORMANT: u8 = 16;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LodSettings {
    /// Off: every agent is Full (dormancy still applies).
    pub enabled: bool,
    pub near_distance: f32,
    pub mid_distance: f32,
    /// Fraction of the mid distance a Reduced agent may go past before it drops to Cheap.
    pub hysteresis: f32,
    pub full_quality_agent_cap: usize,
    /// Steps between Personal Space / approach updates, and Personal Space sample caps.
    pub reduced_interval: u32,
    pub reduced_sample_cap: u32,
    pub cheap_interval: u32,
    pub cheap_sample_cap: u32,
}

impl Default for LodSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            near_distance: lb::NEAR_DISTANCE.default,
            mid_distance: lb::MID_DISTANCE.default,
            hysteresis: lb::HYSTERESIS.default,
            full_quality_agent_cap: lb::FULL_QUALITY_AGENT_CAP.default as usize,
            reduced_interval: lb::REDUCED_INTERVAL.default as u32,
            reduced_sample_cap: lb::REDUCED_SAMPLE_CAP.default as u32,
            cheap_interval: lb::CHEAP_INTERVAL.default as u32,
            cheap_sample_cap: lb::CHEAP_SAMPLE_CAP.default as u32,
        }
    }
}

impl LodSettings {
    /// Every field within its bound; what had to change goes to `out`. Then, silently, the mid
    /// distance is raised to the near distance.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.near_distance = lb::NEAR_DISTANCE.check(self.near_distance, out);
        self.mid_distance = lb::MID_DISTANCE.check(self.mid_distance, out).max(self.near_distance);
        self.hysteresis = lb::HYSTERESIS.check(self.hysteresis, out);
        self.full_quality_agent_cap = lb::FULL_QUALITY_AGENT_CAP.check(self.full_quality_agent_cap, out);
        self.reduced_interval = lb::REDUCED_INTERVAL.check(self.reduced_interval, out);
        self.reduced_sample_cap = lb::REDUCED_SAMPLE_CAP.check(self.reduced_sample_cap, out);
        self.cheap_interval = lb::CHEAP_INTERVAL.check(self.cheap_interval, out);
        self.cheap_sample_cap = lb::CHEAP_SAMPLE_CAP.check(self.cheap_sample_cap, out);
        self
    }

    /// `checked`, silently.
    pub fn sanitized(self) -> Self {
        self.checked(&mut Vec::new())
    }

    /// Ladder inputs for one agent.
    #[inline]
    pub fn flags(&self, dist: f32, on_camera: bool, dormant: bool) -> u8 {
        let mut f = 0;
        if dist <= self.near_distance {
            f |= F_NEAR;
        }
        if dist <= self.mid_distance {
            f |= F_MID;
        }
        if dist <= self.mid_distance * (1.0 + self.hysteresis) {
            f |= F_MID_HYST;
        }
        if on_camera {
            f |= F_CAMERA;
        }
        if dormant {
            f |= F_DORMANT;
        }
        f
    }

    /// Update interval and Personal Space sample cap of a tier (`full_samples` for Full).
    #[inline]
    pub fn budget(&self, tier: u8, full_samples: u32) -> (u32, u32) {
        match tier {
            FULL => (1, full_samples),
            REDUCED => (self.reduced_interval, self.reduced_sample_cap.min(full_samples)),
            _ => (self.cheap_interval, self.cheap_sample_cap.min(full_samples)),
        }
    }
}

/// Divisibility by a fixed interval without a division (Lemire, "Faster remainder by direct
/// computation"): the Importance LOD gate asks it for every agent every step.
#[derive(Clone, Copy, Debug)]
pub struct Every(u64);

impl Every {
    /// `interval` of at least 1.
    pub fn new(interval: u32) -> Self {
        Self((u64::MAX / interval.max(1) as u64).wrapping_add(1))
    }

    /// Whether `interval` divides `n`.
    #[inline]
    pub fn divides(self, n: u32) -> bool {
        (n as u64).wrapping_mul(self.0) <= self.0.wrapping_sub(1)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TierCounts {
    pub full: usize,
    pub reduced: usize,
    pub cheap: usize,
    pub dormant: usize,
}

/// Reusable buffers of the ladder (candidates for Full, per chunk and gathered).
#[derive(Clone, Debug, Default)]
pub struct TierScratch {
    /// Per chunk: near-band and on-camera candidates.
    chunks: Vec<ChunkCandidates>,
    all: Candidates,
}

/// `(distance to target, agent index)` of agents that may be promoted to Full.
type Candidates = Vec<(f32, u32)>;

/// One chunk's candidates for Full, in index order: near-band ones and on-camera ones.
#[derive(Clone, Debug, Default)]
pub struct ChunkCandidates {
    near: Candidates,
    camera: Candidates,
}

impl TierScratch {
    /// One empty candidate list per chunk of `chunk` agents, for a pass over `n` agents.
    pub fn chunks(&mut self, n: usize, chunk: usize) -> &mut [ChunkCandidates] {
        self.chunks.resize_with(n.div_ceil(chunk), Default::default);
        for c in &mut self.chunks {
            c.near.clear();
            c.camera.clear();
        }
        &mut self.chunks
    }
}

impl std::ops::Add for TierCounts {
    type Output = Self;

    fn add(self, b: Self) -> Self {
        Self {
            full: self.full + b.full,
            reduced: self.reduced + b.reduced,
            cheap: self.cheap + b.cheap,
            dormant: self.dormant + b.dormant,
        }
    }
}

/// Rungs 1, 3, 4 and 5 of the ladder for agent `index` (ladder inputs `f`, last step's tier in
/// `tier`, distance to its target `dist`): sets its tier, counts it, and keeps it as a candidate
/// for Full when it is awake and in the near band or on camera (rung 2 and the second pass are
/// decided over all agents by `share_cap`). Parallel passes call this per agent with their
/// chunk's `counts` and `candidates`.
#[inline]
pub fn rung(f: u8, tier: &mut u8, dist: f32, index: u32, counts: &mut TierCounts, candidates: &mut ChunkCandidates) {
    let dormant = f & F_DORMANT != 0;
    *tier = if dormant {
        CHEAP
    } else if f & (F_CAMERA | F_MID) != 0 || (f & F_MID_HYST != 0 && *tier == REDUCED) {
        REDUCED
    } else {
        CHEAP
    };
    if *tier == REDUCED {
        counts.reduced += 1;
    } else {
        counts.cheap += 1;
    }
    counts.dormant += dormant as usize;
    if !dormant && f & F_NEAR != 0 {
        candidates.near.push((dist, index));
    } else if !dormant && f & F_CAMERA != 0 {
        candidates.camera.push((dist, index));
    }
}

/// Rung 2 and the second pass, after `rung` ran for every agent (`counts` summed over the
/// chunks, candidates in `scratch`): the cap goes to the nearest near-band agents, then what is
/// left of it to the nearest on-camera ones (near-band agents left over only exist when the cap
/// ran out). Ties on distance go to the lower index. Returns the final counts.
pub fn share_cap(s: &LodSettings, mut counts: TierCounts, tiers: &mut [u8], scratch: &mut TierScratch) -> TierCounts {
    // Near-band candidates first.
    let all = &mut scratch.all;
    all.clear();
    for c in &scratch.chunks {
        all.extend_from_slice(&c.near);
    }
    let near = all.len();
    for c in &scratch.chunks {
        all.extend_from_slice(&c.camera);
    }
    let mut left = s.full_quality_agent_cap;
    let (near_c, camera_c) = all.split_at_mut(near);
    for group in [near_c, camera_c] {
        let take = left.min(group.len());
        if take == 0 {
            continue;
        }
        if take < group.len() {
            group.select_nth_unstable_by(take - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        for &(_, i) in &group[..take] {
            let t = &mut tiers[i as usize];
            if *t == REDUCED {
                counts.reduced -= 1;
            } else {
                counts.cheap -= 1;
            }
            *t = FULL;
        }
        counts.full += take;
        left -= take;
    }
    counts
}

/// With the ladder off every agent is Full; those whose `flags` have the `dormant` bit are
/// counted as dormant.
pub fn all_full(flags: &[u8], tiers: &mut [u8], dormant: u8) -> TierCounts {
    let mut counts = TierCounts { full: flags.len(), ..Default::default() };
    for (t, &f) in tiers.iter_mut().zip(flags) {
        *t = FULL;
        counts.dormant += (f & dormant != 0) as usize;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_matches_the_remainder() {
        for d in 1..=64u32 {
            let e = Every::new(d);
            for n in (0..5000u32).chain(u32::MAX - 5000..=u32::MAX) {
                assert_eq!(e.divides(n), n % d == 0, "{n} by {d}");
            }
        }
    }

    fn s(cap: usize) -> LodSettings {
        LodSettings { full_quality_agent_cap: cap, ..Default::default() }
    }

    fn run(s: &LodSettings, agents: &[(f32, bool, bool, u8)]) -> Vec<u8> {
        let flags: Vec<u8> = agents.iter().map(|&(d, cam, dorm, _)| s.flags(d, cam, dorm)).collect();
        let dist: Vec<f32> = agents.iter().map(|a| a.0).collect();
        let mut tiers: Vec<u8> = agents.iter().map(|a| a.3).collect();
        // As the world's classification runs it: `rung` per agent (here in one chunk), then
        // `share_cap`; or everyone Full with the ladder off.
        let c = if s.enabled {
            let mut scratch = TierScratch::default();
            let mut c = TierCounts::default();
            let cand = &mut scratch.chunks(tiers.len(), tiers.len().max(1))[0];
            for (i, (t, (&f, &d))) in tiers.iter_mut().zip(flags.iter().zip(&dist)).enumerate() {
                rung(f, t, d, i as u32, &mut c, cand);
            }
            share_cap(s, c, &mut tiers, &mut scratch)
        } else {
            all_full(&flags, &mut tiers, F_DORMANT)
        };
        // The counts (kept while tiers are assigned) match a recount.
        let count = |t: u8| tiers.iter().filter(|&&x| x == t).count();
        let dormant = flags.iter().filter(|&&f| f & F_DORMANT != 0).count();
        assert_eq!((c.full, c.reduced, c.cheap, c.dormant), (count(FULL), count(REDUCED), count(CHEAP), dormant));
        tiers
    }

    #[test]
    fn the_six_cells_with_room_under_the_cap() {
        // near / mid / far by on-camera / off-camera; cap large enough for everyone who may be Full.
        let near = 5.0;
        let mid = 20.0;
        let far = 100.0;
        let cells = [
            (near, true, false, CHEAP),
            (near, false, false, CHEAP),
            (mid, true, false, CHEAP),
            (mid, false, false, CHEAP),
            (far, true, false, CHEAP),
            (far, false, false, CHEAP),
        ];
        // Second pass promotes on-camera agents with the remaining slots: mid and far on camera
        // become Full too; only mid off camera stays Reduced and far off camera is Cheap.
        assert_eq!(run(&s(100), &cells), vec![FULL, FULL, FULL, REDUCED, FULL, CHEAP]);
    }

    #[test]
    fn the_six_cells_when_the_near_band_exhausts_the_cap() {
        // Two near agents use up a cap of 2: nothing on camera is promoted.
        let cells = [
            (5.0, true, false, CHEAP),
            (5.0, false, false, CHEAP),
            (20.0, true, false, CHEAP),
            (20.0, false, false, CHEAP),
            (100.0, true, false, CHEAP),
            (100.0, false, false, CHEAP),
        ];
        assert_eq!(run(&s(2), &cells), vec![FULL, FULL, REDUCED, REDUCED, REDUCED, CHEAP]);
    }

    #[test]
    fn near_band_overflow_drops_to_reduced_and_the_nearest_win() {
        let agents = [(3.0, false, false, CHEAP), (1.0, false, false, CHEAP), (2.0, false, false, CHEAP)];
        assert_eq!(run(&s(2), &agents), vec![REDUCED, FULL, FULL]);
        // Zero cap: no one is Full.
        assert_eq!(run(&s(0), &agents), vec![REDUCED, REDUCED, REDUCED]);
    }

    #[test]
    fn near_band_wins_ties_over_camera_in_the_second_pass() {
        // Cap 1, near agent off camera beats a nearer... camera agent farther away.
        let agents = [(30.0, true, false, CHEAP), (4.0, false, false, CHEAP)];
        assert_eq!(run(&s(1), &agents), vec![REDUCED, FULL]);
    }

    #[test]
    fn hysteresis_keeps_reduced_agents_reduced_just_past_the_boundary() {
        let st = s(0);
        let just_past = st.mid_distance * 1.05;
        assert_eq!(run(&st, &[(just_past, false, false, REDUCED)]), vec![REDUCED]);
        assert_eq!(run(&st, &[(just_past, false, false, CHEAP)]), vec![CHEAP]);
        let well_past = st.mid_distance * 1.2;
        assert_eq!(run(&st, &[(well_past, false, false, REDUCED)]), vec![CHEAP]);
    }

    #[test]
    fn dormant_agents_are_cheap_wherever_they_stand() {
        assert_eq!(run(&s(10), &[(1.0, true, true, FULL)]), vec![CHEAP]);
    }

    #[test]
    fn lod_off_makes_everyone_full() {
        let st = LodSettings { enabled: false, ..Default::default() };
        assert_eq!(run(&st, &[(1000.0, false, false, CHEAP)]), vec![FULL]);
    }
}
