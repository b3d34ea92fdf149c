//! Drawing: one `MultiMeshInstance3D` per archetype with a mesh. Each physics frame the agents
//! of an archetype are written, in parallel, straight into one packed float buffer (3x4
//! transform rows per instance) handed over with a single `set_buffer` call. Every instance also
//! carries custom data (`INSTANCE_CUSTOM` in a shader: hit flash 0..1, death 0..1, LOD tier / 2,
//! vertex animation clip and phase); a hit squashes the body for a moment and a death shrinks it
//! into the ground, so both show with any material. An archetype with a `SwarmVertexAnimation`
//! is drawn with the addon's VAT shader (unless it has its own material), each agent playing its
//! clip (`vat_anim.rs`). A debug view adds a per-instance colour for the agent's Importance LOD
//! tier.

use godot::classes::base_material_3d::{Flags, ShadingMode};
use godot::classes::multi_mesh::TransformFormat;
use godot::classes::node::InternalMode;
use std::sync::atomic::{AtomicU32, Ordering};

use godot::classes::{Material, Mesh, MultiMesh, MultiMeshInstance3D, ShaderMaterial, StandardMaterial3D};
use godot::prelude::*;
use rayon::prelude::*;
use swarm_core::agents::{Agents, FLAGS_RESTING, FLAG_DORMANT};
use swarm_core::far_blocks::{self, FAR_BLOCK};
use swarm_core::glam::Vec3;
use swarm_core::lod;
use swarm_core::world::HIT_FLASH_SECONDS;
use swarm_core::{Archetype, World};

use crate::resources::archetype::SwarmAgentArchetype;
use crate::resources::vertex_animation::SwarmVertexAnimation;
use crate::vat_anim::AnimDraw;

const FLOATS: usize = 12;
/// Seconds a dead agent takes to sink away.
pub const DEATH_SECONDS: f32 = 0.6;

/// A dead agent still being drawn while it sinks away (visual only; not in the simulation).
#[derive(Clone, Copy, Debug)]
pub struct Corpse {
    pub archetype: u16,
    pub pos: swarm_core::glam::Vec3,
    pub facing: swarm_core::glam::Vec2,
    pub age: f32,
    /// Seconds it is drawn (`Visuals::corpse_seconds` of its archetype).
    pub lifetime: f32,
}
const CHUNK: usize = 1024;
/// (Whole far blocks per chunk: see `still_blocks`.)
const _: () = assert!(CHUNK.is_multiple_of(FAR_BLOCK));

pub struct ArchetypeVisual {
    pub instance: Gd<MultiMeshInstance3D>,
    pub multimesh: Gd<MultiMesh>,
    buffer: PackedFloat32Array,
    mesh: Gd<Mesh>,
    /// The archetype's own material override (restored when the debug view is switched off).
    material: Option<Gd<Material>>,
    /// Lifts the mesh so its lowest point stands on the ground.
    lift: f32,
    /// How far the mesh reaches from an instance's origin along each axis, at any facing and
    /// squash (see `reach_of`): the instance origins' bounds grown by it hold every instance.
    reach: Vec3,
    /// The archetype's vertex animation, when it has one.
    anim: Option<AnimDraw>,
    /// The VAT material made for it (when it has no material override of its own).
    vat_material: Option<(Gd<SwarmVertexAnimation>, Gd<ShaderMaterial>)>,
    /// By buffer slot: the slot's instance data was written while its agent rested, or on its
    /// far block's turn (after which the block waits, untouched), and still holds (see
    /// `Visuals::update`).
    still: Vec<bool>,
    /// By run of `FAR_BLOCK` buffer slots: the run holds one far block's agents and every slot
    /// of it is still (the fill then passes over the block whole while it waits for its turn,
    /// its bounds those the world's far-block decision read).
    still_blocks: Vec<bool>,
    /// Filled by `Visuals::update` and not yet handed over (`Visuals::upload`): the instance
    /// origins' bounds.
    upload: Option<(Vec3, Vec3)>,
}

/// Metres of extra culling margin for vertex-animated meshes (posed limbs reach past the rest
/// mesh's box).
const VAT_CULL_MARGIN: f32 = 1.0;

#[derive(Default)]
pub struct Visuals {
    /// By core archetype index.
    pub per_archetype: Vec<Option<ArchetypeVisual>>,
    order: Vec<u32>,
    starts: Vec<usize>,
    cursor: Vec<usize>,
    /// Last frame's world layout revision and stride: when unchanged, every buffer slot holds the
    /// same agent as last frame, so distant and off-screen agents may keep last frame's instance
    /// data (visual refresh bands).
    prev_layout: Option<u64>,
    prev_floats: usize,
    frame: u32,
    /// Colour agents by LOD tier (green Full, yellow Reduced, red Cheap, blue dormant).
    debug_tiers: bool,
    debug_material: Option<Gd<StandardMaterial3D>>,
    /// Walk phase (0..1) of each agent by id slot (kept across reorders), for vertex animation.
    walk: Vec<AtomicU32>,
    /// Seconds of visuals updates (the idle clips' clock).
    time: f32,
}

impl Visuals {
    /// Creates, updates or removes the visual of archetype `index` to match its resource (and
    /// `core`, its converted archetype: the swing timing vertex animation follows).
    pub fn sync_archetype(
        &mut self,
        index: usize,
        res: &Gd<SwarmAgentArchetype>,
        core: &Archetype,
        parent: &mut Gd<Node3D>,
    ) {
        if self.per_archetype.len() <= index {
            self.per_archetype.resize_with(index + 1, || None);
        }
        let (mesh, own_material, vat) = {
            let r = res.bind();
            (r.mesh(), r.material_override(), r.vertex_animation())
        };
        let mesh = mesh.or_else(|| vat.as_ref().and_then(|v| v.bind().mesh()));
        let anim = vat.as_ref().map(|v| AnimDraw {
            clips: v.bind().roles(),
            swing: core.attack.as_ref().filter(|a| a.swing_enabled).map(|a| (a.swing_windup, a.swing_recovery)),
        });
        let cached = self.per_archetype[index].as_ref().and_then(|v| v.vat_material.clone());
        let vat_material = vat.filter(|_| own_material.is_none()).map(|v| match cached {
            Some((r, mut m)) if r == v => {
                v.bind().apply_to(&mut m);
                (r, m)
            }
            _ => {
                let m = v.bind().create_material();
                (v, m)
            }
        });
        let material = own_material.or_else(|| vat_material.as_ref().map(|(_, m)| m.clone().upcast::<Material>()));
        let margin = if anim.is_some() { VAT_CULL_MARGIN } else { 0.0 };
        let debug = self.debug_tiers.then(|| self.debug_material().upcast::<Material>());
        let slot = &mut self.per_archetype[index];
        match (mesh, slot.as_mut()) {
            (None, Some(v)) => {
                v.instance.queue_free();
                *slot = None;
            }
            (None, None) => {}
            (Some(mesh), Some(v)) => {
                // (The lift may change: every slot is written again.)
                v.still.clear();
                v.still_blocks.clear();
                if v.mesh != mesh {
                    v.multimesh.set_mesh(&mesh);
                    v.lift = lift_of(&mesh);
                    v.reach = reach_of(&mesh, v.lift);
                    v.mesh = mesh;
                }
                if v.material != material {
                    v.material = material;
                    if debug.is_none() {
                        v.instance.set_material_override(v.material.as_ref());
                    }
                }
                v.anim = anim;
                v.vat_material = vat_material;
                v.instance.set_extra_cull_margin(margin);
            }
            (Some(mesh), None) => {
                let lift = lift_of(&mesh);
                let mut mm = MultiMesh::new_gd();
                mm.set_transform_format(TransformFormat::TRANSFORM_3D);
                mm.set_use_colors(debug.is_some());
                mm.set_use_custom_data(true);
                mm.set_mesh(&mesh);
                let mut mmi = MultiMeshInstance3D::new_alloc();
                mmi.set_name(&format!("SwarmVisual{index}"));
                mmi.set_multimesh(&mm);
                let shown = if debug.is_some() { debug } else { material.clone() };
                mmi.set_material_override(shown.as_ref());
                mmi.set_extra_cull_margin(margin);
                // Agent positions are global: draw them without the manager's transform.
                mmi.set_as_top_level(true);
                parent.add_child_ex(&mmi).internal(InternalMode::FRONT).done();
                mmi.set_global_transform(Transform3D::IDENTITY);
                *slot = Some(ArchetypeVisual {
                    instance: mmi,
                    multimesh: mm,
                    buffer: PackedFloat32Array::new(),
                    lift,
                    reach: reach_of(&mesh, lift),
                    mesh,
                    material,
                    anim,
                    vat_material,
                    still: Vec::new(),
                    still_blocks: Vec::new(),
                    upload: None,
                });
            }
        }
    }

    /// Seconds a dead agent of archetype `index` is drawn: its death clip and sink with vertex
    /// animation, else the plain sink.
    pub fn corpse_seconds(&self, index: usize) -> f32 {
        match self.per_archetype.get(index).and_then(|v| v.as_ref()).and_then(|v| v.anim) {
            Some(a) => a.corpse_seconds(),
            None => DEATH_SECONDS,
        }
    }

    /// Switches the LOD-tier colour view on or off.
    pub fn set_debug_tiers(&mut self, on: bool) {
        if on == self.debug_tiers {
            return;
        }
        self.debug_tiers = on;
        let debug = on.then(|| self.debug_material().upcast::<Material>());
        for v in self.per_archetype.iter_mut().flatten() {
            // The colour format can only change while the MultiMesh is empty.
            v.multimesh.set_instance_count(0);
            v.multimesh.set_use_colors(on);
            let m = if on { debug.clone() } else { v.material.clone() };
            v.instance.set_material_override(m.as_ref());
        }
    }

    fn debug_material(&mut self) -> Gd<StandardMaterial3D> {
        self.debug_material
            .get_or_insert_with(|| {
                let mut m = StandardMaterial3D::new_gd();
                m.set_flag(Flags::ALBEDO_FROM_VERTEX_COLOR, true);
                m.set_shading_mode(ShadingMode::UNSHADED);
                m
            })
            .clone()
    }

    /// Forgets which agent each buffer slot held (a new world): the next update rewrites all.
    pub fn invalidate(&mut self) {
        self.prev_layout = None;
    }

    /// Writes every agent's transform into its archetype's buffer, for `upload` to hand over.
    /// Visual refresh bands: drawn agents are rewritten every frame up close, every
    /// second frame past `distant` metres from the camera, every fourth frame off screen. With no
    /// camera every agent is rewritten every frame. A dormant agent at rest that is not flashing
    /// and has no vertex animation keeps the instance data written since it came to rest (its
    /// position, facing, tier and custom data cannot have changed), so a resting horde costs
    /// the fill nothing; when no slot of an archetype was written (and no corpse sinks and the
    /// count is the same) its buffer is not handed over again at all.
    /// The world's layout revision tells whether each buffer slot holds the same agent as last
    /// frame; `dt` is the seconds since the last update (walk and idle clips advance by it). The
    /// buffers are filled on the world's thread pool.
    pub fn update(&mut self, world: &World, corpses: &[Corpse], distant: f32, dt: f32) {
        let (agents, layout, camera) = (world.agents(), world.layout_revision(), world.camera());
        let (far, far_bounds) = (world.far_block_statuses(), world.far_block_bounds());
        self.frame = self.frame.wrapping_add(1);
        self.time = (self.time + dt) % 3600.0;
        let n_arch = self.per_archetype.len();
        if n_arch == 0 {
            return;
        }
        // Agent indices grouped by archetype (counting sort), redone only when the world's layout
        // changed (an agent's archetype never changes); with every agent of one archetype (the
        // usual case) it is the identity.
        let n = agents.archetype.len();
        let layout_kept = self.prev_layout == Some(layout) && self.starts.len() == n_arch + 1;
        if !layout_kept {
            let counts = agents
                .archetype
                .par_chunks(8192)
                .fold(
                    || vec![0usize; n_arch],
                    |mut c, chunk| {
                        for &a in chunk {
                            if (a as usize) < n_arch {
                                c[a as usize] += 1;
                            }
                        }
                        c
                    },
                )
                .reduce(
                    || vec![0usize; n_arch],
                    |mut a, b| {
                        a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                        a
                    },
                );
            self.starts.clear();
            self.starts.push(0);
            for c in &counts {
                self.starts.push(self.starts.last().unwrap() + c);
            }
            // Walk phases by id slot, for every slot in use.
            let slots = agents.slot.par_iter().copied().max().map_or(0, |m| m as usize + 1);
            if self.walk.len() < slots {
                self.walk.resize_with(slots, || AtomicU32::new(0));
            }
            if counts.contains(&n) {
                self.order.clear();
                self.order.extend(0..n as u32);
            } else {
                self.order.resize(self.starts[n_arch], 0);
                self.cursor.clear();
                self.cursor.extend_from_slice(&self.starts);
                for (i, &a) in agents.archetype.iter().enumerate() {
                    if (a as usize) < n_arch {
                        self.order[self.cursor[a as usize]] = i as u32;
                        self.cursor[a as usize] += 1;
                    }
                }
            }
        }
        // Transform, then colour (debug view only), then custom data.
        let colour = self.debug_tiers;
        let floats = if colour { FLOATS + 8 } else { FLOATS + 4 };
        let same_layout = floats == self.prev_floats && layout_kept;
        let frame = self.frame;
        let (walk, time) = (&self.walk, self.time);
        let due = |i: usize| -> bool {
            let Some(cam) = camera.filter(|_| same_layout) else { return true };
            let p = agents.pos[i];
            let every = if !cam.contains_sphere(p, agents.params[i].radius + 1.0) {
                4
            } else if p.distance_squared(cam.position) > distant * distant {
                2
            } else {
                1
            };
            every == 1 || frame.wrapping_add(i as u32).is_multiple_of(every)
        };

        for (a, vis) in self.per_archetype.iter_mut().enumerate() {
            let Some(v) = vis else { continue };
            let idx = &self.order[self.starts[a]..self.starts[a + 1]];
            let dead = corpses.iter().filter(|c| c.archetype as usize == a).count();
            let count = idx.len() + dead;
            // A new instance count clears the renderer's instances: the buffer must go up again.
            let resized = v.multimesh.get_instance_count() as usize != count;
            if resized {
                v.multimesh.set_instance_count(count as i32);
            }
            if count == 0 {
                continue;
            }
            v.buffer.resize(count * floats);
            if !same_layout {
                v.still.clear();
                v.still_blocks.clear();
            }
            v.still.resize(idx.len(), false);
            let (lift, anim) = (v.lift, v.anim);
            let (live, sinking) = v.buffer.as_mut_slice().split_at_mut(idx.len() * floats);
            v.still_blocks.resize(idx.len().div_ceil(FAR_BLOCK), false);
            let chunks = (
                live.par_chunks_mut(CHUNK * floats),
                idx.par_chunks(CHUNK),
                v.still.par_chunks_mut(CHUNK),
                v.still_blocks.par_chunks_mut(CHUNK / FAR_BLOCK),
            );
            // Writes the slots of `idx` (see `still`); returns their instance origins' bounds and
            // whether any slot was written.
            let fill = |out: &mut [f32], idx: &[u32], still: &mut [bool]| {
                let mut b = EMPTY_BOUNDS;
                let mut wrote = false;
                for ((o, &i), still) in out.chunks_exact_mut(floats).zip(idx).zip(still) {
                    let i = i as usize;
                    b = (b.0.min(agents.pos[i]), b.1.max(agents.pos[i]));
                    // At rest this step (`begin`'s resting path left its facing, and nothing
                    // moved it), not flashing, and drawn without animation: nothing it shows
                    // changed since the slot was written at rest.
                    // Not flashing, and drawn without animation: its slot can only change with it.
                    let quiet = anim.is_none() && agents.flash[i] == 0.0;
                    let status = far_blocks::of(far, i);
                    let rests = quiet
                        && (agents.flags[i] & FLAGS_RESTING == FLAGS_RESTING && agents.vel[i] == Vec3::ZERO
                            // A far block's agent waiting for its turn: untouched this step.
                            || status == far_blocks::WAIT);
                    if rests && *still {
                        continue;
                    }
                    *still = false;
                    // The walk phase advances every frame, drawn or not.
                    let clip = anim.map_or(0.0, |a| {
                        let speed = swarm_core::glam::Vec2::new(agents.vel[i].x, agents.vel[i].z).length();
                        let phase = walk.get(agents.slot[i] as usize).map_or(0.0, |cell| {
                            let p = a.advance_walk(f32::from_bits(cell.load(Ordering::Relaxed)), speed, dt);
                            cell.store(p.to_bits(), Ordering::Relaxed);
                            p
                        });
                        a.live(speed, &agents.attack[i], agents.seed[i], phase, time)
                    });
                    if !due(i) {
                        continue;
                    }
                    // A far block's turn is followed by its wait, when nothing it shows changes:
                    // the slot written on the turn (quiet) already holds the wait's data.
                    *still = rests || quiet && far_blocks::is_turn(status);
                    wrote = true;
                    let flash = (agents.flash[i] / HIT_FLASH_SECONDS).clamp(0.0, 1.0);
                    // A hit squashes the body for a moment.
                    let scale = [1.0 + 0.25 * flash, 1.0 - 0.2 * flash];
                    write_transform(&mut o[..FLOATS], agents.pos[i], agents.facing[i], lift, scale);
                    if colour {
                        o[FLOATS..FLOATS + 4].copy_from_slice(&tier_colour(agents, i));
                    }
                    o[floats - 4..].copy_from_slice(&[flash, 0.0, agents.tier[i] as f32 * 0.5, clip]);
                }
                (b, wrote)
            };
            // The instance origins' bounds come along (see `set_bounds`), and whether any slot
            // was written. A far block waiting for its turn whose slots are all still (and none
            // flashing) is passed over whole, with the bounds its far-block decision read.
            let (mut bounds, wrote) = world.install(|| {
                chunks
                    .into_par_iter()
                    .map(|(out, idx, still, blocks)| {
                        let mut acc = (EMPTY_BOUNDS, false);
                        let parts = out
                            .chunks_mut(FAR_BLOCK * floats)
                            .zip(idx.chunks(FAR_BLOCK))
                            .zip(still.chunks_mut(FAR_BLOCK));
                        for (((out, idx), still), all_still) in parts.zip(blocks) {
                            let whole = whole_block(idx);
                            if let Some(b) = whole.filter(|_| *all_still && anim.is_none()) {
                                let waits = far_blocks::of(far, b * FAR_BLOCK) == far_blocks::WAIT;
                                let quiet =
                                    waits && agents.flash[b * FAR_BLOCK..(b + 1) * FAR_BLOCK].iter().all(|&f| f == 0.0);
                                if let Some(&k) = far_bounds.get(b).filter(|_| quiet) {
                                    acc.0 = union(acc.0, k);
                                    continue;
                                }
                            }
                            let (b, w) = fill(out, idx, still);
                            *all_still = whole.is_some() && still.iter().all(|&s| s);
                            acc = (union(acc.0, b), acc.1 || w);
                        }
                        acc
                    })
                    .reduce(|| (EMPTY_BOUNDS, false), |a, b| (union(a.0, b.0), a.1 || b.1))
            });
            for (o, c) in sinking.chunks_exact_mut(floats).zip(corpses.iter().filter(|c| c.archetype as usize == a)) {
                let t = (c.age / c.lifetime.max(1e-3)).clamp(0.0, 1.0);
                // With vertex animation the death clip plays first, then the body sinks.
                let (clip, sink) = anim.map_or((0.0, t), |a| a.corpse(c.age));
                bounds = (bounds.0.min(c.pos), bounds.1.max(c.pos));
                write_transform(&mut o[..FLOATS], c.pos, c.facing, lift, [1.0 + 0.3 * sink, (1.0 - sink).max(0.01)]);
                if colour {
                    o[FLOATS..FLOATS + 4].copy_from_slice(&[0.3, 0.3, 0.3, 1.0]);
                }
                o[floats - 4..].copy_from_slice(&[0.0, t, 1.0, clip]);
            }
            // Nothing changed (every agent of the archetype rests, no corpse sinks, same count):
            // the renderer still holds this very buffer, so Godot's copy of it is skipped.
            if !wrote && dead == 0 && !resized {
                continue;
            }
            v.upload = Some(bounds);
        }
        self.prev_layout = Some(layout);
        self.prev_floats = floats;
    }

    /// Hands each buffer `update` filled to its MultiMesh (one `set_buffer` copy on the main
    /// thread each), with its custom AABB.
    pub fn upload(&mut self) {
        for v in self.per_archetype.iter_mut().flatten() {
            if let Some(bounds) = v.upload.take() {
                v.multimesh.set_buffer(&v.buffer);
                set_bounds(&mut v.multimesh, bounds, v.reach);
            }
        }
    }
}

/// One instance: rotation about +Y so the mesh's -Z (Godot's forward) points along the facing
/// (`(sin yaw, cos yaw)`), scaled by `[horizontal, vertical]` with the feet kept on the ground,
/// origin at the feet plus the mesh lift. Row-major 3x4 as MultiMesh expects.
#[inline]
fn write_transform(
    o: &mut [f32],
    p: swarm_core::glam::Vec3,
    facing: swarm_core::glam::Vec2,
    lift: f32,
    scale: [f32; 2],
) {
    let (s, c) = (facing.x, facing.y);
    let [h, v] = scale;
    o.copy_from_slice(&[-c * h, 0.0, -s * h, p.x, 0.0, v, 0.0, p.y + lift * v, s * h, 0.0, -c * h, p.z]);
}

/// Debug colour of an agent's LOD tier: green Full, yellow Reduced, red Cheap, blue dormant.
#[inline]
fn tier_colour(agents: &Agents, i: usize) -> [f32; 4] {
    if agents.flags[i] & FLAG_DORMANT != 0 {
        return [0.2, 0.4, 1.0, 1.0];
    }
    match agents.tier[i] {
        lod::FULL => [0.1, 0.9, 0.2, 1.0],
        lod::REDUCED => [1.0, 0.85, 0.1, 1.0],
        _ => [0.95, 0.15, 0.1, 1.0],
    }
}

/// `(min, max)` of no points.
const EMPTY_BOUNDS: (Vec3, Vec3) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));

/// The bounds holding both.
#[inline]
fn union(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> (Vec3, Vec3) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The far block a run of buffer slots holds whole (its agents, in order), if it does.
#[inline]
fn whole_block(idx: &[u32]) -> Option<usize> {
    let first = *idx.first()? as usize;
    // Agent indices rise along an archetype's slots, so the ends tell the run is contiguous.
    (idx.len() == FAR_BLOCK && first.is_multiple_of(FAR_BLOCK) && idx[FAR_BLOCK - 1] as usize == first + FAR_BLOCK - 1)
        .then_some(first / FAR_BLOCK)
}

/// Gives the MultiMesh a custom AABB: the instance origins' bounds grown by the mesh's `reach`.
/// Without one, the renderer recomputes the AABB from every instance's transform on each
/// `set_buffer` (tens of nanoseconds an instance on the main thread, milliseconds a frame for a
/// large horde); the simulation knows the bounds for a few instructions an agent.
fn set_bounds(mm: &mut Gd<MultiMesh>, (lo, hi): (Vec3, Vec3), reach: Vec3) {
    if !(lo.cmple(hi).all() && lo.is_finite() && hi.is_finite()) {
        return;
    }
    let (lo, size) = (lo - reach, hi - lo + reach * 2.0);
    // (A zero AABB means "none" to the renderer; the reach is never zero, so this is not one.)
    mm.set_custom_aabb(Aabb::new(Vector3::new(lo.x, lo.y, lo.z), Vector3::new(size.x, size.y, size.z)));
}

/// How far `mesh` (lifted by `lift`) reaches from an instance's origin along each axis at any
/// yaw, with the hit squash and a corpse's spread (at most 1.3 times wider, never taller):
/// horizontally the farthest corner's ground distance, vertically the larger of the lowest and
/// highest point's height over the feet.
fn reach_of(mesh: &Gd<Mesh>, lift: f32) -> Vec3 {
    let aabb = mesh.get_aabb();
    let (p, e) = (aabb.position, aabb.position + aabb.size);
    let far_x = p.x.abs().max(e.x.abs());
    let far_z = p.z.abs().max(e.z.abs());
    let r = (far_x * far_x + far_z * far_z).sqrt() * 1.3;
    let h = (p.y + lift).abs().max((e.y + lift).abs());
    let reach = Vec3::new(r, h, r);
    // Never zero (a point mesh), and never NaN.
    if reach.is_finite() {
        reach.max(Vec3::splat(0.01))
    } else {
        Vec3::splat(1.0)
    }
}

fn lift_of(mesh: &Gd<Mesh>) -> f32 {
    let aabb = mesh.get_aabb();
    let l = -aabb.position.y;
    if l.is_finite() {
        l
    } else {
        0.0
    }
}
