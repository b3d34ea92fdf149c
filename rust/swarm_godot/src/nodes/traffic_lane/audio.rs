//! The lane's engine voices: one `AudioStreamPlayer3D` per voice of the core's pool, moved to its
//! vehicle, its volume set from the pool's ramp, playing only while the pool says it is audible.

use godot::classes::node::InternalMode;
use godot::classes::{AudioStream, AudioStreamPlayer3D};
use godot::global::linear_to_db;
use godot::prelude::*;
use swarm_core::glam::Vec3;
use swarm_core::traffic::{Lane, VoicePool};

use crate::convert::to_vector3;

/// The players and the pool that drives them.
#[derive(Default)]
pub struct Voices {
    pub pool: VoicePool,
    players: Vec<Gd<AudioStreamPlayer3D>>,
}

impl Voices {
    /// `count` players of `stream` as internal children of `parent` (none without a stream).
    pub fn new(parent: &mut Gd<Node3D>, stream: Option<Gd<AudioStream>>, count: usize) -> Self {
        let mut v = Voices::default();
        let Some(stream) = stream else { return v };
        for i in 0..count {
            let mut p = AudioStreamPlayer3D::new_alloc();
            p.set_name(&format!("SwarmTrafficVoice{i}"));
            p.set_stream(&stream);
            p.set_as_top_level(true);
            parent.add_child_ex(&p).internal(InternalMode::BACK).done();
            v.players.push(p);
        }
        v
    }

    /// One frame: the pool updated from the vehicles' squared distances to the listener, then each
    /// player moved, set and started or stopped.
    pub fn update(&mut self, lane: &Lane, dist2: &[f32], positions: &[Vec3], dt: f32) {
        if self.players.is_empty() {
            return;
        }
        self.pool.update(lane, dist2, dt);
        let base_db = lane.profile().volume_db;
        for (p, v) in self.players.iter_mut().zip(&self.pool.voices) {
            if !p.is_instance_valid() {
                continue;
            }
            match v.vehicle.filter(|_| v.playing()) {
                Some(slot) => {
                    if let Some(pos) = positions.get(slot as usize) {
                        p.set_global_position(to_vector3(*pos));
                    }
                    p.set_volume_db(base_db + linear_to_db(v.volume as f64) as f32);
                    if !p.is_playing() {
                        p.play();
                    }
                }
                None => {
                    if p.is_playing() {
                        p.stop();
                    }
                }
            }
        }
    }

    pub fn has_players(&self) -> bool {
        !self.players.is_empty()
    }

    /// Voices playing now (as the pool counts them).
    pub fn playing(&self) -> usize {
        if self.players.is_empty() {
            0
        } else {
            self.pool.playing()
        }
    }

    /// Stops and frees the players (stopped first: a playing voice's playback would otherwise
    /// outlive a tree that is being torn down).
    pub fn free(&mut self) {
        for mut p in self.players.drain(..) {
            if p.is_instance_valid() {
                p.stop();
                p.queue_free();
            }
        }
    }
}
