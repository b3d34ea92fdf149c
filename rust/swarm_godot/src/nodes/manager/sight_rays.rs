//! Sight rays for perception: the core picks which rays to cast this step (at most
//! `sight_rays_per_frame`, round-robin); they are cast here against `sight_collision_mask` and
//! the answers go back to the core for the next step.

use godot::classes::{CollisionObject3D, PhysicsRayQueryParameters3D};
use godot::prelude::*;

use super::SwarmManager;
use crate::convert::to_vector3;

impl SwarmManager {
    /// Casts this step's sight rays (at most [member sight_rays_per_frame], chosen round-robin by
    /// the core) against [member sight_collision_mask] and hands the answers back for the next
    /// step. A hit on the target's own body does not block.
    pub(super) fn cast_sight_rays(&mut self) {
        self.ray_requests.clear();
        if let Some(w) = &self.world {
            self.ray_requests.extend_from_slice(w.sight_ray_requests());
        }
        if self.ray_requests.is_empty() {
            return;
        }
        let Some(mut space) = self.base().get_world_3d().and_then(|w| w.get_direct_space_state()) else {
            return;
        };
        let mut query = match self.ray_query.take() {
            Some(q) => q,
            None => {
                let mut q = PhysicsRayQueryParameters3D::new_gd();
                q.set_collide_with_bodies(true);
                q.set_collide_with_areas(false);
                q
            }
        };
        query.set_collision_mask(self.sight_collision_mask);
        self.ray_answers.clear();
        let mut excluded_for: Option<(u32, Array<Rid>)> = None;
        for r in &self.ray_requests {
            if excluded_for.as_ref().is_none_or(|(t, _)| *t != r.target) {
                let node = self.target_node(r.target);
                excluded_for = Some((r.target, node.map(|n| body_rids(n.upcast())).unwrap_or_default()));
            }
            if let Some((_, ex)) = &excluded_for {
                query.set_exclude(ex);
            }
            query.set_from(to_vector3(r.from));
            query.set_to(to_vector3(r.to));
            let hit = space.intersect_ray(&query);
            self.ray_answers.push(!hit.is_empty());
        }
        self.ray_query = Some(query);
        if let Some(w) = self.world.as_mut() {
            w.answer_sight_rays(&self.ray_answers);
        }
    }
}

/// RIDs of the collision objects at and above `node` (a target's own body), so that sight rays
/// toward the target do not stop at it.
fn body_rids(node: Gd<Node>) -> Array<Rid> {
    let mut out = Array::new();
    let mut cur = Some(node);
    while let Some(n) = cur {
        if let Ok(co) = n.clone().try_cast::<CollisionObject3D>() {
            out.push(co.get_rid());
        }
        cur = n.get_parent();
    }
    out
}
