//! Slot assignment: which agent takes which slot so that the summed route length is least. Up
//! to `EXACT_MAX` agents the assignment is exact (Jonker-Volgenant, the `lapjv` crate, on costs
//! in f64); above, agents and slots are split alike by recursive bisection along the axis
//! on which the slots spread most (the same count of agents and slots on each side), down to
//! blocks of at most `BLOCK`, and each block is solved exactly, blocks in parallel; then agents
//! standing near each other across block borders exchange slots where that shortens their
//! summed route (bounded passes). Minimising
//! the summed length leaves no two straight paths crossing (uncrossing two crossing paths
//! always shortens their sum), so the exact form gives crossing-free moves on open ground.

use glam::Vec2;
use rayon::prelude::*;

/// Largest group assigned exactly in one piece.
pub const EXACT_MAX: usize = 256;
/// Largest block of the split method.
pub const BLOCK: usize = 64;
/// Longest route length compared (metres).
const MAX_COST: f64 = 1e7;

/// Assigns `agents.len()` agents to as many slots (`slots.len() == agents.len()`); returns each
/// agent's slot index. `cost(a, s)` is the route length of agent `a` to slot `s` (metres).
/// Deterministic: the same input gives the same assignment on any thread count.
pub fn assign(agents: &[Vec2], slots: &[Vec2], cost: &(dyn Fn(usize, usize) -> f32 + Sync)) -> Vec<u32> {
    let n = agents.len();
    assert_eq!(n, slots.len(), "one slot per agent");
    if n <= EXACT_MAX {
        // Slots are numbered as the block's entries, so the picks are the slot indices.
        let all: Vec<u32> = (0..n as u32).collect();
        return exact_block(&all, &all, cost);
    }
    let mut blocks = Vec::new();
    let a: Vec<u32> = (0..n as u32).collect();
    let s: Vec<u32> = (0..n as u32).collect();
    split(agents, slots, a, s, &mut blocks);
    let solved: Vec<(Vec<u32>, Vec<u32>)> = blocks
        .par_iter()
        .map(|(a, s)| {
            let picks = exact_block(a, s, cost);
            (a.clone(), picks.into_iter().map(|k| s[k as usize]).collect())
        })
        .collect();
    let mut out = vec![0u32; n];
    for (a, s) in solved {
        for (&ai, &si) in a.iter().zip(&s) {
            out[ai as usize] = si;
        }
    }
    exchange_neighbours(agents, &mut out, cost);
    out
}

/// Agents compared with each neighbour in the window of `EXCHANGE_WINDOW` on either side, in
/// each of two orders (by x, by z), for `EXCHANGE_PASSES` passes.
const EXCHANGE_WINDOW: usize = 16;
const EXCHANGE_PASSES: usize = 3;

/// Pairwise improvement of a split assignment across its block borders: two agents standing near
/// each other exchange slots when that shortens their summed route (which uncrosses crossing
/// paths). Bounded: `EXCHANGE_PASSES` passes over each agent's `EXCHANGE_WINDOW` neighbours in
/// two orders; sequential, so the result does not depend on the thread count.
fn exchange_neighbours(agents: &[Vec2], out: &mut [u32], cost: &(dyn Fn(usize, usize) -> f32 + Sync)) {
    let n = agents.len();
    let mut orders = [(0..n as u32).collect::<Vec<u32>>(), (0..n as u32).collect::<Vec<u32>>()];
    orders[0].sort_unstable_by(|&a, &b| agents[a as usize].x.total_cmp(&agents[b as usize].x).then(a.cmp(&b)));
    orders[1].sort_unstable_by(|&a, &b| agents[a as usize].y.total_cmp(&agents[b as usize].y).then(a.cmp(&b)));
    for _ in 0..EXCHANGE_PASSES {
        let mut swapped = 0;
        for order in &orders {
            for x in 0..n {
                let a = order[x] as usize;
                for &b in &order[x + 1..(x + 1 + EXCHANGE_WINDOW).min(n)] {
                    let b = b as usize;
                    let (sa, sb) = (out[a] as usize, out[b] as usize);
                    if cost(a, sb) + cost(b, sa) + 1e-4 < cost(a, sa) + cost(b, sb) {
                        out.swap(a, b);
                        swapped += 1;
                    }
                }
            }
        }
        if swapped == 0 {
            break;
        }
    }
}

/// Exact assignment of the agents `a` to the slots `s` (global indices, equal counts); returns,
/// per entry of `a`, the index into `s` it takes.
fn exact_block(a: &[u32], s: &[u32], cost: &(dyn Fn(usize, usize) -> f32 + Sync)) -> Vec<u32> {
    let n = a.len();
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![0];
    }
    let mut m = ndarray::Array2::from_shape_fn((n, n), |(r, c)| {
        // Unreachable or absurd routes still compare (as very long) without overflowing sums.
        f64::from(cost(a[r] as usize, s[c] as usize)).clamp(0.0, MAX_COST)
    });
    // Each agent's cheapest slot taken off its row: the same optimum, but a group that walks
    // far (every row nearly the same up to its distance) no longer looks alike column by column
    // to the solver's first reduction, which spares it most of its augmentations.
    for mut row in m.rows_mut() {
        let least = row.iter().copied().fold(f64::INFINITY, f64::min);
        row.mapv_inplace(|v| v - least);
    }
    match lapjv::lapjv(&m) {
        Ok((rows, _)) => rows.into_iter().map(|k| k as u32).collect(),
        // Only a non-finite cost fails, and costs are clamped; keep the order rather than panic.
        Err(_) => (0..n as u32).collect(),
    }
}

/// Splits agents and slots alike in halves until every block holds at most `BLOCK`.
fn split(agents: &[Vec2], slots: &[Vec2], mut a: Vec<u32>, mut s: Vec<u32>, out: &mut Vec<(Vec<u32>, Vec<u32>)>) {
    if a.len() <= BLOCK {
        out.push((a, s));
        return;
    }
    let axis = widest_axis(slots, &s);
    let key = |p: Vec2| p.dot(axis);
    // Ties broken by index, so the split is a total order (deterministic).
    a.sort_unstable_by(|&x, &y| key(agents[x as usize]).total_cmp(&key(agents[y as usize])).then(x.cmp(&y)));
    s.sort_unstable_by(|&x, &y| key(slots[x as usize]).total_cmp(&key(slots[y as usize])).then(x.cmp(&y)));
    let half = a.len() / 2;
    let (a2, s2) = (a.split_off(half), s.split_off(half));
    split(agents, slots, a, s, out);
    split(agents, slots, a2, s2, out);
}

/// The direction (of the two principal axes of the slots' spread) along which they spread most.
fn widest_axis(slots: &[Vec2], s: &[u32]) -> Vec2 {
    let n = s.len() as f32;
    let mean = s.iter().map(|&k| slots[k as usize]).sum::<Vec2>() / n;
    let (mut xx, mut xy, mut yy) = (0.0f32, 0.0f32, 0.0f32);
    for &k in s {
        let d = slots[k as usize] - mean;
        xx += d.x * d.x;
        xy += d.x * d.y;
        yy += d.y * d.y;
    }
    // Principal direction of the 2x2 covariance.
    let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
    let axis = Vec2::from_angle(angle);
    if axis.is_finite() {
        axis
    } else {
        Vec2::X
    }
}

/// Summed cost of an assignment.
pub fn total(assigned: &[u32], cost: &dyn Fn(usize, usize) -> f32) -> f64 {
    assigned.iter().enumerate().map(|(a, &s)| cost(a, s as usize) as f64).sum()
}

/// Whether the straight paths `a0 -> a1` and `b0 -> b1` cross (touching ends do not count).
pub fn paths_cross(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(b0, b1, a0), side(b0, b1, a1));
    let (d3, d4) = (side(a0, a1, b0), side(a0, a1, b1));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// `paths_cross`, and still so with any end moved by less than `tolerance` (every end lies
/// further than that from the other path's line): two agents walking one behind the other in a
/// file, whose nearly collinear paths end a rank apart, do not count.
pub fn paths_cross_clearly(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2, tolerance: f32) -> bool {
    let off = |p: Vec2, q0: Vec2, q1: Vec2| ((q1 - q0).perp_dot(p - q0) / q0.distance(q1).max(1e-6)).abs();
    paths_cross(a0, a1, b0, b1)
        && [off(a0, b0, b1), off(a1, b0, b1), off(b0, a0, a1), off(b1, a0, a1)].iter().all(|&d| d > tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    fn blob(rng: &mut Pcg32, n: usize, center: Vec2, r: f32) -> Vec<Vec2> {
        (0..n).map(|_| center + Vec2::new(rng.random_range(-r..r), rng.random_range(-r..r))).collect()
    }

    fn grid_slots(n: usize, origin: Vec2, spacing: f32) -> Vec<Vec2> {
        let w = (n as f32).sqrt().ceil() as usize;
        (0..n).map(|k| origin + Vec2::new((k % w) as f32, (k / w) as f32) * spacing).collect()
    }

    /// The seed's `i % n` assignment crosses paths and walks further; ours crosses none.
    #[test]
    fn exact_assignment_beats_modulo_and_crosses_no_paths() {
        let mut rng = Pcg32::seed_from_u64(7);
        let agents = blob(&mut rng, 60, Vec2::ZERO, 8.0);
        let slots = grid_slots(60, Vec2::new(20.0, 5.0), 2.0);
        let cost = |a: usize, s: usize| agents[a].distance(slots[s]);
        let ours = assign(&agents, &slots, &cost);
        let modulo: Vec<u32> = (0..60).collect();
        let (t_ours, t_mod) = (total(&ours, &cost), total(&modulo, &cost));
        assert!(t_ours < t_mod, "{t_ours} vs {t_mod}");
        let crossings = |asg: &[u32]| {
            let mut c = 0;
            for i in 0..asg.len() {
                for j in i + 1..asg.len() {
                    let (si, sj) = (slots[asg[i] as usize], slots[asg[j] as usize]);
                    c += paths_cross(agents[i], si, agents[j], sj) as usize;
                }
            }
            c
        };
        assert_eq!(crossings(&ours), 0);
        assert!(crossings(&modulo) > 0);
        // Every slot taken once.
        let mut seen = ours.clone();
        seen.sort_unstable();
        assert_eq!(seen, modulo);
    }

    /// Above `EXACT_MAX` the split method stays within 5 % of the exact total, for groups
    /// walking far, rearranging in place, and walking sideways.
    #[test]
    fn split_assignment_is_within_five_percent_of_exact() {
        let mut rng = Pcg32::seed_from_u64(11);
        for (k, dest) in [Vec2::new(60.0, 0.0), Vec2::new(0.0, 0.0), Vec2::new(5.0, 30.0)].into_iter().enumerate() {
            let n = 400;
            let agents = blob(&mut rng, n, Vec2::ZERO, 15.0);
            let slots = grid_slots(n, dest - Vec2::splat(20.0), 2.0);
            let cost = |a: usize, s: usize| agents[a].distance(slots[s]);
            let ours = assign(&agents, &slots, &cost);
            let all: Vec<u32> = (0..n as u32).collect();
            let exact: Vec<u32> = exact_block(&all, &all, &cost);
            let (t_ours, t_exact) = (total(&ours, &cost), total(&exact, &cost));
            let mut seen = ours.clone();
            seen.sort_unstable();
            assert_eq!(seen, all, "case {k}: every slot once");
            assert!(t_ours <= t_exact * 1.05, "case {k}: {t_ours} vs exact {t_exact}");
        }
    }
}
