//! Registered targets, the active-set selection (distance from the swarm centroid bent by
//! priority and stickiness) and the per-agent choice among active targets (cooldown plus
//! hysteresis). Target handles are slot indices; a removed target's agents are released at once.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// Marks "no target" in per-agent target storage.
pub const NO_TARGET: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    pub position: Vec3,
    /// Estimated each step from the position change.
    pub velocity: Vec3,
    /// Scores the target as though it were `priority` times closer.
    pub priority: f32,
    /// Disabled targets are registered but never chosen.
    pub enabled: bool,
    /// In the active set this step.
    pub active: bool,
    prev_position: Vec3,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Targets {
    slots: Vec<Option<Target>>,
    free: Vec<u32>,
    /// Slots of the active targets, in ascending score order.
    active: Vec<u32>,
    scratch: Vec<(f32, u32)>,
}

impl Targets {
    pub fn register(&mut self, position: Vec3, priority: f32) -> u32 {
        let t = Target {
            position,
            velocity: Vec3::ZERO,
            priority: sanitize_priority(priority),
            enabled: true,
            active: false,
            prev_position: position,
        };
        match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Some(t);
                s
            }
            None => {
                self.slots.push(Some(t));
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// Removes a target; returns false for an unknown handle.
    pub fn unregister(&mut self, handle: u32) -> bool {
        match self.slots.get_mut(handle as usize) {
            Some(s @ Some(_)) => {
                *s = None;
                self.free.push(handle);
                self.active.retain(|&a| a != handle);
                true
            }
            _ => false,
        }
    }

    pub fn get(&self, handle: u32) -> Option<&Target> {
        self.slots.get(handle as usize).and_then(|s| s.as_ref())
    }

    pub fn get_mut(&mut self, handle: u32) -> Option<&mut Target> {
        self.slots.get_mut(handle as usize).and_then(|s| s.as_mut())
    }

    pub fn set_priority(&mut self, handle: u32, priority: f32) {
        if let Some(t) = self.get_mut(handle) {
            t.priority = sanitize_priority(priority);
        }
    }

    /// Number of target slots (registered or free); handles are below this.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Every registered target, active or not.
    pub fn registered(&self) -> impl Iterator<Item = &Target> + '_ {
        self.slots.iter().flatten()
    }

    pub fn active(&self) -> &[u32] {
        &self.active
    }

    /// Whether the ground-plane rectangle `lo..=hi` lies farther than `distance` from every
    /// registered target (active or not).
    #[inline]
    pub fn all_farther_than(&self, lo: Vec2, hi: Vec2, distance: f32) -> bool {
        self.registered().all(|t| {
            let c = flat(t.position);
            (c.clamp(lo, hi) - c).length_squared() > distance * distance
        })
    }

    pub fn registered_count(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Updates velocity estimates and picks up to `max_active` targets by score
    /// (distance to `centroid` / priority, times `stickiness` for those already active).
    pub fn select_active(&mut self, centroid: Vec3, dt: f32, max_active: usize, stickiness: f32) {
        self.scratch.clear();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(t) = slot else { continue };
            t.velocity = (t.position - t.prev_position) / dt;
            t.prev_position = t.position;
            if !t.enabled {
                t.active = false;
                continue;
            }
            let mut score = flat(t.position).distance(flat(centroid)) / t.priority;
            if t.active {
                score *= stickiness;
            }
            self.scratch.push((score, i as u32));
        }
        self.scratch.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.active.clear();
        for (rank, &(_, s)) in self.scratch.iter().enumerate() {
            let on = rank < max_active;
            self.slots[s as usize].as_mut().unwrap().active = on;
            if on {
                self.active.push(s);
            }
        }
    }
}

/// Most target slots a loaded world may hold.
pub const MAX_TARGET_SLOTS: usize = 1 << 16;

impl Targets {
    /// Checks loaded targets: finite positions, priorities in range, the free list naming each
    /// empty slot once, the active list naming distinct registered targets marked active.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let n = self.slots.len();
        if n > MAX_TARGET_SLOTS {
            return Err(format!("{n} target slots, more than {MAX_TARGET_SLOTS}"));
        }
        for (k, t) in self.slots.iter().enumerate() {
            let Some(t) = t else { continue };
            let coord = |v: Vec3| v.is_finite() && v.abs().max_element() <= crate::bounds::load::MAX_COORD;
            let finite = coord(t.position) && coord(t.velocity) && coord(t.prev_position);
            if !finite || t.priority != sanitize_priority(t.priority) {
                return Err(format!("target {k}: position or priority is not a usable number"));
            }
        }
        let mut seen = vec![false; n];
        for &f in &self.free {
            if !matches!(self.slots.get(f as usize), Some(None)) || std::mem::replace(&mut seen[f as usize], true) {
                return Err(format!("target free list names slot {f}, which is in use, repeated or unknown"));
            }
        }
        if self.free.len() != self.slots.iter().filter(|s| s.is_none()).count() {
            return Err("target free list misses an empty slot".into());
        }
        let mut seen = vec![false; n];
        for &a in &self.active {
            let ok = self.get(a).is_some_and(|t| t.active) && !std::mem::replace(&mut seen[a as usize], true);
            if !ok {
                return Err(format!("active target list names slot {a}, which is not an active target"));
            }
        }
        if self.active.len() != self.slots.iter().flatten().filter(|t| t.active).count() {
            return Err("a target marked active is missing from the active list".into());
        }
        Ok(())
    }
}

/// Chooses an agent's target among the active ones: the lowest distance / priority, but a current
/// active target is kept unless the best is better by more than `hysteresis` (a fraction).
pub fn choose_target(targets: &Targets, pos: Vec3, current: u32, hysteresis: f32) -> u32 {
    let score = |h: u32| {
        let t = targets.get(h).unwrap();
        flat(t.position).distance(flat(pos)) / t.priority
    };
    let mut best = NO_TARGET;
    let mut best_score = f32::MAX;
    for &h in targets.active() {
        let s = score(h);
        if s < best_score {
            best_score = s;
            best = h;
        }
    }
    let current_active = targets.get(current).is_some_and(|t| t.active);
    if current_active && best != current && best_score > score(current) * (1.0 - hysteresis) {
        return current;
    }
    best
}

fn sanitize_priority(p: f32) -> f32 {
    if p.is_finite() {
        p.clamp(0.01, 1000.0)
    } else {
        1.0
    }
}

/// The ground-plane part of a position.
#[inline]
pub(crate) fn flat(v: Vec3) -> Vec2 {
    Vec2::new(v.x, v.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_counts_as_closeness_and_active_set_is_capped() {
        let mut t = Targets::default();
        let near = t.register(Vec3::new(10.0, 0.0, 0.0), 1.0);
        let far_important = t.register(Vec3::new(15.0, 0.0, 0.0), 2.0);
        let farthest = t.register(Vec3::new(40.0, 0.0, 0.0), 1.0);
        t.select_active(Vec3::ZERO, 1.0 / 60.0, 2, 0.8);
        assert_eq!(t.active(), &[far_important, near]);
        assert!(!t.get(farthest).unwrap().active);
    }

    #[test]
    fn stickiness_keeps_an_active_target_near_the_boundary() {
        let mut t = Targets::default();
        let a = t.register(Vec3::new(10.0, 0.0, 0.0), 1.0);
        let b = t.register(Vec3::new(11.0, 0.0, 0.0), 1.0);
        t.select_active(Vec3::ZERO, 1.0, 1, 0.8);
        assert_eq!(t.active(), &[a]);
        // b becomes slightly closer, but not by enough to beat the stickiness bonus.
        t.get_mut(b).unwrap().position = Vec3::new(9.5, 0.0, 0.0);
        t.select_active(Vec3::ZERO, 1.0, 1, 0.8);
        assert_eq!(t.active(), &[a]);
        t.get_mut(b).unwrap().position = Vec3::new(5.0, 0.0, 0.0);
        t.select_active(Vec3::ZERO, 1.0, 1, 0.8);
        assert_eq!(t.active(), &[b]);
    }

    #[test]
    fn agent_choice_has_hysteresis() {
        let mut t = Targets::default();
        let a = t.register(Vec3::new(-10.0, 0.0, 0.0), 1.0);
        let b = t.register(Vec3::new(10.5, 0.0, 0.0), 1.0);
        t.select_active(Vec3::ZERO, 1.0, 10, 0.8);
        let p = Vec3::ZERO;
        assert_eq!(choose_target(&t, p, NO_TARGET, 0.15), a);
        // b is now marginally closer: the agent keeps a.
        t.get_mut(b).unwrap().position = Vec3::new(9.5, 0.0, 0.0);
        assert_eq!(choose_target(&t, p, a, 0.15), a);
        // b is clearly closer: the agent switches.
        t.get_mut(b).unwrap().position = Vec3::new(5.0, 0.0, 0.0);
        assert_eq!(choose_target(&t, p, a, 0.15), b);
    }

    #[test]
    fn unregister_frees_the_slot_and_drops_it_from_the_active_set() {
        let mut t = Targets::default();
        let a = t.register(Vec3::ZERO, 1.0);
        t.select_active(Vec3::ZERO, 1.0, 10, 0.8);
        assert!(t.unregister(a));
        assert!(!t.unregister(a));
        assert!(t.active().is_empty());
        assert!(t.get(a).is_none());
    }
}
