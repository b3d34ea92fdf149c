//! Vertex animation, per agent: which clip an agent of a vertex-animated archetype plays and how
//! far into it, packed into one float of its MultiMesh custom data (`INSTANCE_CUSTOM.w`: the
//! clip's role plus the phase, `role + phase` with the phase in 0..1). Visual only: nothing here
//! feeds back into the simulation. No Godot types.

use swarm_core::combat::{AttackState, RECOVERY, WINDUP};

/// Roles, the whole part of the packed channel (the shader maps each to its clip).
pub const IDLE: f32 = 0.0;
pub const WALK: f32 = 1.0;
pub const SWING: f32 = 2.0;
pub const DEATH: f32 = 3.0;
/// An agent faster than this (metres per second, on the ground plane) walks.
pub const MOVING_SPEED: f32 = 0.2;
/// Seconds a corpse sinks into the ground after its death clip.
pub const SINK_SECONDS: f32 = 0.5;
/// Highest phase written: the channel may be stored as a half float, whose step near 4 is
/// 1/512, so a phase of 0.999 could round up into the next role.
const PHASE_MAX: f32 = 0.995;

/// Frames of one clip in the texture and its rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipSpan {
    pub first: i32,
    pub count: i32,
    /// Frames per second.
    pub rate: f32,
}

impl ClipSpan {
    /// Length in seconds (0 without frames or rate).
    pub fn seconds(&self) -> f32 {
        if self.rate > 0.0 && self.count > 0 {
            self.count as f32 / self.rate
        } else {
            0.0
        }
    }
}

/// The clip of each role, and the walk's stride.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RoleClips {
    pub idle: ClipSpan,
    pub walk: ClipSpan,
    pub swing: ClipSpan,
    pub death: ClipSpan,
    /// Metres walked per walk cycle.
    pub walk_stride: f32,
}

/// What the per-agent fill needs of a vertex-animated archetype.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimDraw {
    pub clips: RoleClips,
    /// The swing's wind-up and recovery seconds (the archetype's attack profile), if it swings.
    pub swing: Option<(f32, f32)>,
}

impl AnimDraw {
    /// Idle cycles per second.
    fn idle_rate(&self) -> f32 {
        let s = self.clips.idle.seconds();
        if s > 0.0 {
            1.0 / s
        } else {
            0.0
        }
    }

    /// The walk phase after moving at `speed` for `dt`: one cycle per stride, so the feet keep
    /// pace with the ground.
    #[inline]
    pub fn advance_walk(&self, phase: f32, speed: f32, dt: f32) -> f32 {
        (phase + speed * dt / self.clips.walk_stride.max(0.05)).fract()
    }

    /// The packed channel of a live agent: swinging while its swing winds up or recovers, else
    /// walking while it moves, else idle. `walk` is its walk phase, `time` the visuals' clock.
    #[inline]
    pub fn live(&self, speed: f32, attack: &AttackState, seed: u32, walk: f32, time: f32) -> f32 {
        if let Some(p) = self.swing_progress(attack) {
            return pack(SWING, p);
        }
        let offset = seed_offset(seed);
        if speed > MOVING_SPEED {
            pack(WALK, (walk + offset).fract())
        } else {
            pack(IDLE, (time * self.idle_rate() + offset).fract())
        }
    }

    /// How far through its swing the agent is (0 at the start of the wind-up, 1 at the end of
    /// the recovery), if it is swinging.
    fn swing_progress(&self, s: &AttackState) -> Option<f32> {
        let (windup, recovery) = self.swing?;
        let total = windup + recovery;
        if total <= 0.0 {
            return None;
        }
        let done = match s.phase {
            WINDUP => windup - s.timer,
            RECOVERY => windup + recovery - s.timer,
            _ => return None,
        };
        Some((done / total).clamp(0.0, 1.0))
    }

    /// Seconds a corpse of this archetype is drawn: its death clip, then the sink.
    pub fn corpse_seconds(&self) -> f32 {
        self.death_seconds() + SINK_SECONDS
    }

    fn death_seconds(&self) -> f32 {
        self.clips.death.seconds().clamp(0.1, 5.0)
    }

    /// A corpse `age` seconds old: the packed channel (the death clip, held on its last frame)
    /// and how far it has sunk (0..1).
    pub fn corpse(&self, age: f32) -> (f32, f32) {
        let d = self.death_seconds();
        (pack(DEATH, age / d), ((age - d) / SINK_SECONDS).clamp(0.0, 1.0))
    }
}

/// `role + phase`, the phase kept below the next role.
#[inline]
pub fn pack(role: f32, phase: f32) -> f32 {
    role + phase.clamp(0.0, PHASE_MAX)
}

/// An agent's own start in looping clips (0..1), from its seed, so a crowd does not step in
/// unison.
#[inline]
pub fn seed_offset(seed: u32) -> f32 {
    let h = seed.wrapping_mul(0x9E37_79B9) ^ (seed >> 15);
    (h >> 8) as f32 / (1u32 << 24) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw() -> AnimDraw {
        let c = |first, count| ClipSpan { first, count, rate: 30.0 };
        AnimDraw {
            clips: RoleClips { idle: c(0, 30), walk: c(30, 24), swing: c(54, 18), death: c(72, 30), walk_stride: 1.5 },
            swing: Some((0.35, 0.3)),
        }
    }

    fn unpack(w: f32) -> (f32, f32) {
        (w.floor(), w.fract())
    }

    #[test]
    fn walk_advances_by_distance() {
        let d = draw();
        // 0.75 m at 1.5 m per cycle: half a cycle, whatever the speed.
        let slow = (0..30).fold(0.0, |p, _| d.advance_walk(p, 1.5, 1.0 / 60.0));
        let fast = (0..10).fold(0.0, |p, _| d.advance_walk(p, 4.5, 1.0 / 60.0));
        assert!((slow - 0.5).abs() < 1e-4, "{slow}");
        assert!((fast - 0.5).abs() < 1e-4, "{fast}");
        assert!(d.advance_walk(0.9, 3.0, 0.1) < 1.0);
    }

    #[test]
    fn roles_follow_speed_and_swing() {
        let d = draw();
        let ready = AttackState::default();
        assert_eq!(unpack(d.live(0.0, &ready, 7, 0.3, 1.0)).0, IDLE);
        assert_eq!(unpack(d.live(0.1, &ready, 7, 0.3, 1.0)).0, IDLE);
        let (role, phase) = unpack(d.live(2.0, &ready, 0, 0.3, 1.0));
        assert_eq!(role, WALK);
        assert!((phase - (0.3 + seed_offset(0)).fract()).abs() < 1e-5);
        let windup = AttackState { phase: WINDUP, timer: 0.35, contact: 0.0 };
        let (role, phase) = unpack(d.live(2.0, &windup, 7, 0.3, 1.0));
        assert_eq!((role, phase), (SWING, 0.0));
        let recovering = AttackState { phase: RECOVERY, timer: 0.15, contact: 0.0 };
        let (role, phase) = unpack(d.live(0.0, &recovering, 7, 0.3, 1.0));
        assert_eq!(role, SWING);
        assert!((phase - 0.5 / 0.65).abs() < 1e-5, "{phase}");
        // Without a swing profile the attack state is ignored.
        let calm = AnimDraw { swing: None, ..d };
        assert_eq!(unpack(calm.live(0.0, &recovering, 7, 0.3, 1.0)).0, IDLE);
    }

    #[test]
    fn idle_loops_in_time_with_per_agent_offsets() {
        let d = draw();
        let ready = AttackState::default();
        let a = d.live(0.0, &ready, 1, 0.0, 0.25);
        let b = d.live(0.0, &ready, 1, 0.0, 1.25);
        assert!((a - b).abs() < 1e-4, "one idle cycle is 1 s: {a} {b}");
        let offsets: Vec<f32> = (0..64).map(seed_offset).collect();
        assert!(offsets.iter().all(|o| (0.0..1.0).contains(o)));
        let spread = offsets.iter().fold(0.0f32, |m, o| m.max(*o)) - offsets.iter().fold(1.0f32, |m, o| m.min(*o));
        assert!(spread > 0.8, "seeds spread the phases: {spread}");
    }

    #[test]
    fn corpse_plays_death_then_sinks() {
        let d = draw();
        assert_eq!(d.corpse(0.0), (DEATH, 0.0));
        let (w, sink) = d.corpse(0.5);
        assert_eq!((unpack(w).0, sink), (DEATH, 0.0));
        assert!((unpack(w).1 - 0.5).abs() < 1e-4);
        let (w, sink) = d.corpse(1.25);
        assert!((w - (DEATH + PHASE_MAX)).abs() < 1e-6);
        assert!((sink - 0.5).abs() < 1e-4);
        assert!((d.corpse_seconds() - 1.5).abs() < 1e-6);
    }

    #[test]
    fn packed_role_survives_half_precision() {
        // Half floats in 2..4 step by 1/512: the largest phase must still round below the next role.
        for role in [IDLE, WALK, SWING, DEATH] {
            let w = pack(role, 1.0);
            let step = if w >= 2.0 { 1.0 / 512.0 } else { 1.0 / 1024.0 };
            let rounded = (w / step).round() * step;
            assert_eq!(rounded.floor(), role, "{w} -> {rounded}");
        }
    }
}
