//! The vehicles' colliders: one kinematic physics-server body per vehicle with a box the size of
//! its mesh, on the profile's layers, created outside any physics space (no broadphase cost).
//! A woken body is put into the world's space at its vehicle's place (kinematic: a moving body,
//! no static-tree rebuild); a sleeping one is taken out again.

use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::classes::PhysicsServer3D;
use godot::prelude::*;

/// The bodies of one lane, per slot, and the box shape of each vehicle kind.
#[derive(Default)]
pub struct Colliders {
    shapes: Vec<Rid>,
    bodies: Vec<Rid>,
    in_space: Vec<bool>,
}

/// A vehicle kind's box: half extents and centre in mesh space.
#[derive(Clone, Copy)]
pub struct KindBox {
    pub half_extents: Vector3,
    pub centre: Vector3,
}

impl Colliders {
    /// One shape per kind and one disabled body per slot (`kinds[slot]`), reporting hits as `owner`.
    pub fn new(boxes: &[KindBox], kinds: &[usize], layer: u32, mask: u32, owner: InstanceId) -> Self {
        let mut ps = PhysicsServer3D::singleton();
        let shapes: Vec<Rid> = boxes
            .iter()
            .map(|b| {
                let s = ps.box_shape_create();
                ps.shape_set_data(s, &b.half_extents.to_variant());
                s
            })
            .collect();
        let bodies = kinds
            .iter()
            .map(|&k| {
                let body = ps.body_create();
                ps.body_set_mode(body, BodyMode::KINEMATIC);
                if let (Some(&shape), Some(b)) = (shapes.get(k), boxes.get(k)) {
                    ps.body_add_shape_ex(body, shape).transform(Transform3D::new(Basis::IDENTITY, b.centre)).done();
                }
                ps.body_set_collision_layer(body, layer);
                ps.body_set_collision_mask(body, mask);
                ps.body_attach_object_instance_id(body, owner.to_i64() as u64);
                body
            })
            .collect::<Vec<_>>();
        let n = bodies.len();
        Colliders { shapes, bodies, in_space: vec![false; n] }
    }

    /// Puts each awake body into `space` at its transform (`transform(slot)`), takes the others out.
    pub fn apply(&mut self, awake: &[bool], space: Rid, transform: impl Fn(usize) -> Transform3D) {
        let mut ps = PhysicsServer3D::singleton();
        for (slot, body) in self.bodies.iter().enumerate() {
            let want = awake.get(slot).copied().unwrap_or(false);
            if want && !self.in_space[slot] {
                ps.body_set_space(*body, space);
                ps.body_set_state(*body, BodyState::TRANSFORM, &transform(slot).to_variant());
                self.in_space[slot] = true;
            } else if !want && self.in_space[slot] {
                ps.body_set_space(*body, Rid::Invalid);
                self.in_space[slot] = false;
            }
        }
    }

    /// Bodies in the space now.
    pub fn awake(&self) -> usize {
        self.in_space.iter().filter(|a| **a).count()
    }

    /// Frees every body and shape.
    pub fn free(&mut self) {
        let mut ps = PhysicsServer3D::singleton();
        for rid in self.bodies.drain(..).chain(self.shapes.drain(..)) {
            ps.free_rid(rid);
        }
        self.in_space.clear();
    }
}
