//! The pressure recycler's choices: which player a spawner serves, which direction a player
//! heads, and the best off-screen point ahead of them for a far, unseen agent.

use glam::Vec3;

use crate::camera::Frustum;
use crate::spawn::shapes::{SpawnArea, SpawnRng};

/// Spawn points must be closer to the player than this share of the recycle distance, so a
/// recycled agent is not recycled again at once.
pub const RECYCLE_MARGIN: f32 = 0.95;

/// `v` flat on the ground (y = 0).
pub fn flat(v: Vec3) -> Vec3 {
    Vec3::new(v.x, 0.0, v.z)
}

/// The direction a player heads, flat: where it moved since the last pass (more than 5 cm),
/// else where it faces (`facing`, the way its -Z axis points), else -Z.
pub fn heading(moved: Vec3, facing: Vec3) -> Vec3 {
    let (moved, facing) = (flat(moved), flat(facing));
    if moved.length() > 0.05 {
        moved.normalize()
    } else if facing.length() > 1e-3 {
        facing.normalize()
    } else {
        Vec3::NEG_Z
    }
}

/// The player nearest to `origin` on the ground, as `(position, heading)`; `None` when there is
/// none. The first wins ties.
pub fn nearest_player(players: &[(Vec3, Vec3)], origin: Vec3) -> Option<(Vec3, Vec3)> {
    players
        .iter()
        .min_by(|a, b| flat(a.0 - origin).length_squared().total_cmp(&flat(b.0 - origin).length_squared()))
        .copied()
}

/// Where to move one far agent: of `area.attempts` points drawn (at least one), those the view
/// cannot see and closer than [`RECYCLE_MARGIN`] × `recycle_distance` to `player`, the one most
/// ahead of the player (largest cosine between `forward` and the way to the point; a point right
/// at the player scores 0). `None` when every draw failed.
pub fn best_point(
    area: &SpawnArea,
    rng: &mut SpawnRng,
    view: Option<&Frustum>,
    player: Vec3,
    forward: Vec3,
    recycle_distance: f32,
) -> Option<Vec3> {
    let mut best: Option<(f32, Vec3)> = None;
    for _ in 0..area.attempts.max(1) {
        let q = area.world_point(rng);
        if area.seen(view, q) {
            continue;
        }
        let to = flat(q - player);
        let d = to.length();
        if d >= recycle_distance * RECYCLE_MARGIN {
            continue;
        }
        let score = if d > 1e-3 { to.dot(forward) / d } else { 0.0 };
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, q));
        }
    }
    best.map(|(_, q)| q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spawn::shapes::Shape;
    use glam::{Affine3A, Vec2, Vec4};

    fn ring_around_origin() -> SpawnArea {
        SpawnArea {
            shape: Shape::Ring { inner: 20.0, outer: 30.0 },
            xform: Affine3A::IDENTITY,
            ground_y: 0.0,
            off_screen: true,
            margin: 1.0,
            attempts: 16,
        }
    }

    #[test]
    fn picks_points_ahead_of_the_player() {
        let area = ring_around_origin();
        let mut rng = SpawnRng::new(2);
        let forward = Vec3::X;
        let mut ahead = 0;
        for _ in 0..100 {
            let q = best_point(&area, &mut rng, None, Vec3::ZERO, forward, 60.0).unwrap();
            assert!(q.x > 0.0, "{q}");
            if q.x / flat(q).length() > 0.9 {
                ahead += 1;
            }
        }
        assert!(ahead > 80, "{ahead} of 100 well ahead");
    }

    #[test]
    fn skips_points_in_view_and_too_far() {
        let area = ring_around_origin();
        let mut rng = SpawnRng::new(8);
        // The view covers x > 0: the best unseen point is behind even though forward is +X.
        let view = Frustum { planes: vec![Vec4::new(-1.0, 0.0, 0.0, 0.0)], position: Vec3::ZERO };
        for _ in 0..50 {
            let q = best_point(&area, &mut rng, Some(&view), Vec3::ZERO, Vec3::X, 60.0).unwrap();
            assert!(q.x < -1.0, "{q}");
        }
        // Every point of the ring is beyond 0.95 × 20 m: nothing qualifies.
        assert_eq!(best_point(&area, &mut rng, None, Vec3::ZERO, Vec3::X, 20.0), None);
        // Zero attempts still draw once.
        let mut one = area;
        one.attempts = 0;
        assert!(best_point(&one, &mut rng, None, Vec3::ZERO, Vec3::X, 60.0).is_some());
    }

    #[test]
    fn a_point_on_the_player_scores_zero() {
        let area = SpawnArea {
            shape: Shape::Rect { size: Vec2::ZERO },
            xform: Affine3A::IDENTITY,
            ground_y: 0.0,
            off_screen: false,
            margin: 0.0,
            attempts: 4,
        };
        let q = best_point(&area, &mut SpawnRng::new(1), None, Vec3::ZERO, Vec3::X, 10.0);
        assert_eq!(q, Some(Vec3::ZERO));
    }

    #[test]
    fn heading_and_nearest_player() {
        assert_eq!(heading(Vec3::new(3.0, 9.0, 0.0), Vec3::Z), Vec3::X);
        assert_eq!(heading(Vec3::new(0.01, 0.0, 0.0), Vec3::new(0.0, 0.0, 2.0)), Vec3::Z);
        assert_eq!(heading(Vec3::ZERO, Vec3::Y), Vec3::NEG_Z, "facing straight up: the default");
        assert!(heading(Vec3::ZERO, Vec3::ZERO).is_finite());
        let players = [(Vec3::new(10.0, 0.0, 0.0), Vec3::X), (Vec3::new(-3.0, 50.0, 0.0), Vec3::Z)];
        assert_eq!(nearest_player(&players, Vec3::ZERO).unwrap().1, Vec3::Z, "height does not count");
        assert_eq!(nearest_player(&[], Vec3::ZERO), None);
    }
}
