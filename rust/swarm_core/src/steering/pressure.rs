//! Close-Range Pressure (turn-taking): at most `max_active_attackers` agents press a target at a
//! time, inside the strike distance; the rest queue just outside it and circle. Each agent may
//! press only during its own window of the turn-taking cycle (a phase from its seed), so the
//! pressing agents change over time. `select_pressing` picks, per target, the nearest eligible
//! agents; it is sequential and deterministic.

use crate::noise::hash01;

/// Whether an agent's press window is open at `time`.
#[inline]
pub fn window_open(time: f64, seed: u32, cycle: f32, window: f32) -> bool {
    let phase = hash01(seed, 0x9e55) as f64 * cycle as f64;
    ((time + phase) % cycle as f64) < window as f64
}

/// One candidate: (target, distance to it, agent index, that agent's attacker limit).
pub type Candidate = (u32, f32, u32, u32);

/// Sorts candidates by target, then distance, then index, and returns in `pressing` the indices
/// of those that press: per target, the first ones while fewer than each one's limit press.
pub fn select_pressing(candidates: &mut [Candidate], pressing: &mut Vec<u32>) {
    candidates.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    pressing.clear();
    let mut current = u32::MAX;
    let mut count = 0u32;
    for &(t, _, i, limit) in candidates.iter() {
        if t != current {
            current = t;
            count = 0;
        }
        if count < limit {
            pressing.push(i);
            count += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_the_limit_press_each_target_nearest_first() {
        let mut c = vec![(0, 3.0, 10, 2), (0, 1.0, 11, 2), (1, 5.0, 12, 1), (0, 2.0, 13, 2), (1, 4.0, 14, 1)];
        let mut p = Vec::new();
        select_pressing(&mut c, &mut p);
        assert_eq!(p, vec![11, 13, 14]);
    }

    #[test]
    fn windows_open_for_the_stated_fraction_of_the_cycle() {
        let open = (0..4000).filter(|&k| window_open(k as f64 * 0.01, 77, 4.0, 1.0)).count();
        assert!((950..=1050).contains(&open), "{open}");
    }
}
