//! `SwarmSpawnProfile`: a weighted list of archetypes spawners pick from.

use godot::classes::RandomNumberGenerator;
use godot::prelude::*;

use super::archetype::SwarmAgentArchetype;
use swarm_core::bounds::spawner::WEIGHT;

use crate::convert::{finding_message_as, resource_name};

/// Which archetypes a spawner or director spawns, and how often each. Entry `i` of
/// [member archetypes] is picked with probability `weights[i] / sum(weights)`; an archetype
/// without a weight (the list of weights is shorter) weighs 1. Spawners draw the pick from their
/// own seeded generator ([member SwarmRectSpawner.random_seed]), so the same seed gives the same
/// sequence of archetypes.
///
/// Two parallel arrays edit quickly in the inspector (add an archetype, type a number) and read
/// well in a saved [code].tres[/code]; entries are matched by index.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmSpawnProfile {
    /// The archetypes to pick from. An empty entry is skipped (with an error naming its index).
    #[export]
    archetypes: Array<Option<Gd<SwarmAgentArchetype>>>,
    /// Relative weight of each entry of [member archetypes], by index: `[3, 1]` spawns three of
    /// the first for one of the second. Missing weights count as 1; negative or NaN weights count
    /// as 0 (with an error). At least one archetype needs a weight above 0.
    #[export]
    weights: PackedFloat32Array,

    base: Base<Resource>,
}

#[godot_api]
impl SwarmSpawnProfile {
    /// Picks an archetype by weight, drawing one number from [param rng]. Returns null (with an
    /// error) when the profile has nothing to pick: no archetype, or every weight 0.
    #[func]
    fn pick_archetype(&self, rng: Option<Gd<RandomNumberGenerator>>) -> Option<Gd<SwarmAgentArchetype>> {
        let name = self.display_name();
        let Some(mut rng) = rng else {
            godot_error!("{name}: pick_archetype: rng is null; pass a RandomNumberGenerator");
            return None;
        };
        let (picker, problems) = self.picker(&name);
        for p in problems {
            godot_error!("{p}");
        }
        let u = rng.randf();
        picker.map(|p| p.pick(u).clone())
    }

    /// The probability of each entry of [member archetypes] being picked (0 for empty entries),
    /// after the same checks spawning does. All zeros when nothing can be picked.
    #[func]
    fn get_probabilities(&self) -> PackedFloat32Array {
        let (weights, _) = self.checked_weights(&self.display_name());
        let total: f64 = weights.iter().map(|&w| w as f64).sum();
        weights.iter().map(|&w| if total > 0.0 { (w as f64 / total) as f32 } else { 0.0 }).collect()
    }
}

impl SwarmSpawnProfile {
    pub fn display_name(&self) -> String {
        resource_name(&self.base().clone().upcast(), "SwarmSpawnProfile")
    }

    /// Effective weight per entry (0 for empty entries) and the problems found, each prefixed by
    /// `owner` (which names the node using the profile, and the profile).
    fn checked_weights(&self, owner: &str) -> (Vec<f32>, Vec<String>) {
        let n = self.archetypes.len();
        let mut weights = Vec::with_capacity(n);
        let mut problems = Vec::new();
        let mut weight_problems = Vec::new();
        for i in 0..n {
            let w = self.weights.get(i).unwrap_or(1.0);
            let mut found = Vec::new();
            let w = WEIGHT.check(w, &mut found);
            weight_problems.extend(found.iter().map(|f| finding_message_as(owner, &format!("weights[{i}]"), f)));
            if self.archetypes.at(i).is_none() {
                problems
                    .push(format!("{owner}: archetypes[{i}] is empty; it is skipped. Assign a SwarmAgentArchetype"));
                weights.push(0.0);
            } else {
                weights.push(w);
            }
        }
        problems.append(&mut weight_problems);
        if self.weights.len() > n {
            problems.push(format!(
                "{owner}: weights has {} entries but archetypes only {n}; the extra weights are ignored",
                self.weights.len()
            ));
        }
        (weights, problems)
    }

    /// A picker over the archetypes with a positive weight, or `None` when there is none; and the
    /// problems found, each naming `owner`, the profile and the field.
    pub fn picker(&self, owner: &str) -> (Option<Picker>, Vec<String>) {
        let owner =
            if owner == self.display_name() { owner.to_string() } else { format!("{owner}: {}", self.display_name()) };
        let (weights, mut problems) = self.checked_weights(&owner);
        let mut entries = Vec::new();
        let mut cumulative = Vec::new();
        let mut total = 0.0f64;
        for (i, &w) in weights.iter().enumerate() {
            if w > 0.0 {
                if let Some(a) = self.archetypes.at(i) {
                    total += w as f64;
                    entries.push(a);
                    cumulative.push(total);
                }
            }
        }
        if entries.is_empty() {
            if self.archetypes.is_empty() {
                problems.push(format!(
                    "{owner}: archetypes is empty; nothing to spawn. Add at least one SwarmAgentArchetype"
                ));
            } else {
                problems.push(format!(
                    "{owner}: weights are all 0 (no archetype has a weight above 0); nothing to spawn. Give at least one archetype a weight above 0"
                ));
            }
            return (None, problems);
        }
        (Some(Picker { entries, cumulative }), problems)
    }
}

/// A weighted choice among archetypes: `pick(u)` with `u` uniform in `0..1`.
#[derive(Clone)]
pub struct Picker {
    entries: Vec<Gd<SwarmAgentArchetype>>,
    /// Running sum of the weights; the last entry is the total.
    cumulative: Vec<f64>,
}

impl Picker {
    /// A picker that always returns `a`.
    pub fn single(a: Gd<SwarmAgentArchetype>) -> Self {
        Self { entries: vec![a], cumulative: vec![1.0] }
    }

    pub fn pick(&self, u: f32) -> &Gd<SwarmAgentArchetype> {
        &self.entries[pick_index(&self.cumulative, u)]
    }
}

/// Index of the entry whose cumulative interval holds `u * total` (`u` in `0..1`).
fn pick_index(cumulative: &[f64], u: f32) -> usize {
    let total = cumulative.last().copied().unwrap_or(0.0);
    let x = (u.clamp(0.0, 1.0) as f64) * total;
    cumulative.partition_point(|&c| c <= x).min(cumulative.len().saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use swarm_core::spawn::SpawnRng;

    #[test]
    fn pick_index_follows_weights() {
        let cumulative = [3.0, 4.0]; // weights 3 and 1
        let mut rng = SpawnRng::new(7);
        let mut counts = [0usize; 2];
        for _ in 0..40_000 {
            counts[pick_index(&cumulative, rng.next_f32())] += 1;
        }
        let share = counts[0] as f64 / 40_000.0;
        assert!((share - 0.75).abs() < 0.01, "share of the first entry {share}");
        assert_eq!(pick_index(&cumulative, 0.0), 0);
        assert_eq!(pick_index(&cumulative, 1.0), 1);
        assert_eq!(pick_index(&[1.0], 0.99), 0);
    }
}
