//! Engine voices: a pool of at most `max_voices`, handed only to vehicles that move and are
//! within earshot of the listener, nearest first. A voice keeps its vehicle while it is audible;
//! its volume ramps toward full (audible) or silence (not) over `fade_time`, and a silent voice
//! is released and stops playing. A stopped vehicle is silent however near the listener.

use serde::{Deserialize, Serialize};

use super::lane::Lane;

/// Below this linear volume a voice is silent: it stops playing and is released.
pub const SILENT: f32 = 0.0005;

/// One voice: the vehicle slot it sounds for and its linear volume (0..1 of the profile's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Voice {
    pub vehicle: Option<u32>,
    pub volume: f32,
}

impl Voice {
    /// It should be playing (loud enough to hear).
    pub fn playing(&self) -> bool {
        self.vehicle.is_some() && self.volume > SILENT
    }
}

/// The pool and its scratch.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct VoicePool {
    pub voices: Vec<Voice>,
    /// Per slot: the voice sounding for it.
    #[serde(skip)]
    has_voice: Vec<bool>,
    #[serde(skip)]
    candidates: Vec<(f32, u32)>,
}

impl VoicePool {
    /// Updates the pool for one step. `dist2[slot]` is each vehicle's squared distance to the
    /// listener (`f32::INFINITY` with no listener).
    pub fn update(&mut self, lane: &Lane, dist2: &[f32], dt: f32) {
        let p = lane.profile();
        let n = lane.len().min(dist2.len());
        let max = p.max_voices as usize;
        self.voices.resize(max, Voice::default());
        self.has_voice.clear();
        self.has_voice.resize(n, false);
        let earshot2 = p.earshot * p.earshot;
        let audible = |slot: usize| slot < n && lane.is_moving(slot) && dist2[slot] < earshot2;
        let step = if p.fade_time > 0.0 { dt.max(0.0) / p.fade_time } else { f32::INFINITY };

        for v in &mut self.voices {
            let Some(slot) = v.vehicle.map(|s| s as usize) else { continue };
            let target = if audible(slot) { 1.0 } else { 0.0 };
            v.volume =
                if (target - v.volume).abs() <= step { target } else { v.volume + step.copysign(target - v.volume) };
            if target == 0.0 && v.volume <= SILENT {
                *v = Voice::default();
            } else if slot < n {
                self.has_voice[slot] = true;
            }
        }

        self.candidates.clear();
        self.candidates.extend((0..n).filter(|&i| audible(i) && !self.has_voice[i]).map(|i| (dist2[i], i as u32)));
        if self.candidates.is_empty() {
            return;
        }
        self.candidates.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut next = self.candidates.iter();
        for v in self.voices.iter_mut().filter(|v| v.vehicle.is_none()) {
            let Some(&(_, slot)) = next.next() else { break };
            v.vehicle = Some(slot);
            v.volume = step.min(1.0);
        }
    }

    /// Voices playing now.
    pub fn playing(&self) -> usize {
        self.voices.iter().filter(|v| v.playing()).count()
    }
}
