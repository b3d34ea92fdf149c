//! A running lane: the core lane on the path's baked curve, its vehicles drawn through one
//! MultiMesh per vehicle mesh (one buffer upload each per frame), its voices and colliders.

use godot::classes::multi_mesh::TransformFormat;
use godot::classes::node::InternalMode;
use godot::classes::{Curve3D, Mesh, MultiMesh, MultiMeshInstance3D};
use godot::prelude::*;
use swarm_core::glam::Vec3;
use swarm_core::traffic::{Lane, LaneSetup, Polyline, TrafficProfile, VehicleKind, Wake};

use super::audio::Voices;
use super::colliders::{Colliders, KindBox};
use crate::convert::{to_vec3, to_vector3};

/// One vehicle mesh's drawing.
struct KindVisual {
    instance: Gd<MultiMeshInstance3D>,
    multimesh: Gd<MultiMesh>,
    buffer: PackedFloat32Array,
    /// The mesh's centre along its length (mesh space Z).
    centre_z: f32,
}

/// Everything that, when it changes, rebuilds the lane.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildKey {
    pub curve: InstanceId,
    pub baked_length: u32,
    pub point_count: i32,
    pub closed: bool,
    pub reverse: bool,
    pub vehicle_count: usize,
    pub seed: u64,
    pub window: Option<(u32, u32)>,
    pub meshes: Vec<Option<InstanceId>>,
    pub weights: Vec<u32>,
    pub stream: Option<InstanceId>,
    pub max_voices: u32,
    pub layers: (u32, u32),
}

/// What a build needs besides the key.
pub struct BuildInput<'a> {
    pub curve: &'a Gd<Curve3D>,
    pub meshes: &'a [Option<Gd<Mesh>>],
    pub weights: &'a [f32],
    pub profile: TrafficProfile,
    pub stream: Option<Gd<godot::classes::AudioStream>>,
    /// The anchor's position in the path's space.
    pub anchor_local: Option<Vector3>,
}

pub struct Running {
    pub key: BuildKey,
    pub lane: Lane,
    line: Polyline,
    /// Per vehicle mesh: the slots it draws, in instance order.
    kind_slots: Vec<Vec<u32>>,
    visuals: Vec<Option<KindVisual>>,
    /// Per slot: the vehicle's global position (when voices or colliders need it).
    pub global: Vec<Vec3>,
    dist2: Vec<f32>,
    pub voices: Voices,
    pub colliders: Colliders,
    pub wake: Wake,
    /// The anchor's last closest offset (where the next search starts).
    anchor_offset: Option<f32>,
}

impl Running {
    pub fn build(key: BuildKey, input: BuildInput, parent: &mut Gd<Node3D>) -> Running {
        let c = input.curve;
        let points: Vec<Vec3> = c.get_baked_points().as_slice().iter().map(|p| to_vec3(*p)).collect();
        let ups: Vec<Vec3> = if c.is_up_vector_enabled() {
            c.get_baked_up_vectors().as_slice().iter().map(|p| to_vec3(*p)).collect()
        } else {
            Vec::new()
        };
        let line = Polyline::new(&points, &ups, key.closed);
        let aabbs: Vec<Option<Aabb>> = input.meshes.iter().map(|m| m.as_ref().map(|m| m.get_aabb())).collect();
        let default_half = swarm_core::bounds::traffic::HALF_LENGTH.default;
        let mut kinds: Vec<VehicleKind> = aabbs
            .iter()
            .enumerate()
            .map(|(i, a)| VehicleKind {
                half_length: a.map_or(default_half, |a| 0.5 * a.size.z.abs()),
                weight: if a.is_some() { input.weights.get(i).copied().unwrap_or(1.0) } else { 0.0 },
            })
            .collect();
        if kinds.iter().all(|k| k.weight <= 0.0) {
            kinds.clear();
        }
        let setup = LaneSetup {
            length: line.length(),
            closed: key.closed,
            reverse: key.reverse,
            vehicle_count: key.vehicle_count,
            window: key.window.map(|(b, a)| (f32::from_bits(b), f32::from_bits(a))),
            anchor_offset: input.anchor_local.map(|a| line.closest_offset(to_vec3(a), None)),
            seed: key.seed,
            kinds: kinds.clone(),
        };
        let lane = Lane::new(input.profile, &setup);
        let n = lane.len();
        let nk = kinds.len().max(1);
        let mut kind_slots = vec![Vec::new(); nk];
        for slot in 0..n {
            kind_slots[lane.kind(slot).min(nk - 1)].push(slot as u32);
        }
        let counts: Vec<usize> = kind_slots.iter().map(Vec::len).collect();
        let boxes: Vec<KindBox> = (0..nk)
            .map(|k| match aabbs.get(k).copied().flatten() {
                Some(a) if !kinds.is_empty() => KindBox {
                    half_extents: (a.size.abs() * 0.5).coord_max(Vector3::splat(0.05)),
                    centre: a.position + a.size * 0.5,
                },
                _ => KindBox {
                    half_extents: Vector3::new(0.9, 0.75, default_half),
                    centre: Vector3::new(0.0, 0.75, 0.0),
                },
            })
            .collect();
        let visuals = (0..nk)
            .map(|k| {
                let mesh = input.meshes.get(k).cloned().flatten().filter(|_| !kinds.is_empty())?;
                let mut mm = MultiMesh::new_gd();
                mm.set_transform_format(TransformFormat::TRANSFORM_3D);
                mm.set_mesh(&mesh);
                mm.set_instance_count(counts[k] as i32);
                let mut mmi = MultiMeshInstance3D::new_alloc();
                mmi.set_name(&format!("SwarmTrafficVehicles{k}"));
                mmi.set_multimesh(&mm);
                mmi.set_as_top_level(true);
                parent.add_child_ex(&mmi).internal(InternalMode::FRONT).done();
                let mut buffer = PackedFloat32Array::new();
                buffer.resize(counts[k] * 12);
                let centre_z = aabbs[k].map_or(0.0, |a| a.position.z + 0.5 * a.size.z);
                if let Some(aabb) = aabbs[k].and_then(|mesh_box| lane_aabb(&points, mesh_box, centre_z)) {
                    // Fixed for the lane: Godot then never recomputes it from the instances.
                    mm.set_custom_aabb(aabb);
                }
                Some(KindVisual { instance: mmi, multimesh: mm, buffer, centre_z })
            })
            .collect();
        let kinds_of_slots: Vec<usize> = (0..n).map(|slot| lane.kind(slot).min(nk - 1)).collect();
        let colliders = Colliders::new(&boxes, &kinds_of_slots, key.layers.0, key.layers.1, parent.instance_id());
        let voices = Voices::new(parent, input.stream, key.max_voices as usize);
        Running {
            key,
            lane,
            line,
            kind_slots,
            visuals,
            global: vec![Vec3::ZERO; n],
            dist2: vec![0.0; n],
            voices,
            colliders,
            wake: Wake::default(),
            anchor_offset: None,
        }
    }

    /// The anchor's last closest offset on the curve.
    pub fn anchor_offset(&self) -> Option<f32> {
        self.anchor_offset
    }

    /// Moves the lane's window to the closest point of the curve to the anchor (given in the
    /// path's space), searching near the last one.
    pub fn follow_anchor(&mut self, local: Vector3) {
        let o = self.line.closest_offset(to_vec3(local), self.anchor_offset);
        self.anchor_offset = Some(o);
        self.lane.set_anchor(o);
    }

    /// Draws every vehicle: its frame on the curve into its mesh's MultiMesh row, then one
    /// `set_buffer` per vehicle mesh. With `positions`, also each vehicle's global position
    /// (for the voices and the colliders).
    pub fn draw(&mut self, path_xform: Transform3D, positions: bool) {
        let sign = if self.lane.reverse() { -1.0 } else { 1.0 };
        let (lane, line) = (&self.lane, &self.line);
        for (v, slots) in self.visuals.iter_mut().zip(&self.kind_slots) {
            let Some(v) = v else { continue };
            let rows = v.buffer.as_mut_slice();
            for (row, &slot) in rows.chunks_exact_mut(12).zip(slots) {
                let slot = slot as usize;
                let shown = if lane.on_curve(slot) { 1.0 } else { 0.0 };
                line.sample(lane.offset(slot)).write_instance(sign, v.centre_z, shown, row);
            }
            v.instance.set_global_transform(path_xform);
            v.multimesh.set_buffer(&v.buffer);
        }
        if positions {
            self.refresh_positions(path_xform);
        }
    }

    /// Each vehicle's global position.
    pub fn refresh_positions(&mut self, path_xform: Transform3D) {
        let (lane, line) = (&self.lane, &self.line);
        for (slot, g) in self.global.iter_mut().enumerate() {
            *g = to_vec3(path_xform * to_vector3(line.sample(lane.offset(slot)).pos));
        }
    }

    /// A vehicle's transform in the path's space (its collider's place).
    fn local_transform(&self, slot: usize) -> Transform3D {
        let sign = if self.lane.reverse() { -1.0 } else { 1.0 };
        let mut m = [0.0f32; 12];
        self.line.sample(self.lane.offset(slot)).write_instance(sign, 0.0, 1.0, &mut m);
        let basis = Basis::from_rows(
            Vector3::new(m[0], m[1], m[2]),
            Vector3::new(m[4], m[5], m[6]),
            Vector3::new(m[8], m[9], m[10]),
        );
        Transform3D::new(basis, Vector3::new(m[3], m[7], m[11]))
    }

    /// Voices or colliders need the vehicles' global positions this frame.
    pub fn needs_positions(&self) -> bool {
        self.voices.has_players() || self.wake.remaining.is_some()
    }

    /// Squared distances from every vehicle to `point` (infinite with none).
    pub fn distances_to(&mut self, point: Option<Vec3>) -> &[f32] {
        for (d, p) in self.dist2.iter_mut().zip(&self.global) {
            *d = point.map_or(f32::INFINITY, |q| q.distance_squared(*p));
        }
        &self.dist2
    }

    /// The voices for this frame, the listener at `listener`.
    pub fn update_voices(&mut self, listener: Option<Vec3>, dt: f32) {
        self.distances_to(listener);
        self.voices.update(&self.lane, &self.dist2, &self.global, dt);
    }

    /// The colliders' wake step around `actor`; `(woken, slept)`.
    pub fn update_wake(&mut self, actor: Vec3, dt: f32, path_xform: Transform3D, space: Rid) -> (usize, bool) {
        self.distances_to(Some(actor));
        let change = self.wake.update(&mut self.lane, &self.dist2, dt);
        let transforms: Vec<Transform3D> = if change.woken > 0 {
            (0..self.lane.len()).map(|slot| path_xform * self.local_transform(slot)).collect()
        } else {
            Vec::new()
        };
        self.colliders.apply(&self.wake.awake, space, |slot| transforms.get(slot).copied().unwrap_or_default());
        (change.woken, change.slept)
    }

    /// Starts an event of `seconds` (the lane freezes).
    pub fn start_wake(&mut self, seconds: f32) {
        self.wake.start(&mut self.lane, seconds);
    }

    /// Frees the drawing, the voices and the colliders.
    pub fn free(&mut self) {
        for v in self.visuals.iter_mut().flatten() {
            if v.instance.is_instance_valid() {
                v.instance.queue_free();
            }
        }
        self.visuals.clear();
        self.voices.free();
        self.colliders.free();
    }
}

/// The box every vehicle of a mesh with `mesh_box` (centred on the curve at `centre_z`) stays
/// in, in the path's space, at any offset and orientation: the curve's points' bounds grown by
/// the mesh's farthest corner from that centre. `None` for no points (or non-finite ones).
fn lane_aabb(points: &[Vec3], mesh_box: Aabb, centre_z: f32) -> Option<Aabb> {
    let (lo, hi) =
        points.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    if !(lo.cmple(hi).all() && lo.is_finite() && hi.is_finite()) {
        return None;
    }
    let (a, b) = (to_vec3(mesh_box.position), to_vec3(mesh_box.position + mesh_box.size));
    let shift = Vec3::new(0.0, 0.0, centre_z);
    let corner = (a - shift).abs().max((b - shift).abs());
    let reach = corner.length().max(0.01);
    if !reach.is_finite() {
        return None;
    }
    let size = hi - lo + Vec3::splat(2.0 * reach);
    Some(Aabb::new(to_vector3(lo - Vec3::splat(reach)), to_vector3(size)))
}
