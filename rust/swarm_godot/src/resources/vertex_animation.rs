//! `SwarmVertexAnimation`: a vertex animation texture (the posed vertices of one mesh's clips,
//! baked into two textures) that the manager plays per agent with the addon's VAT shader.

use godot::classes::{Mesh, ResourceLoader, Shader, ShaderMaterial, Texture2D};
use godot::prelude::*;

use crate::vat_anim::{ClipSpan, RoleClips};

/// Where the addon keeps the shader that plays these textures.
pub const SHADER_PATH: &str = "res://addons/swarm/shaders/vertex_animation.gdshader";
/// The same shader, built into the library (used when the addon file cannot be loaded).
const SHADER_CODE: &str = include_str!("../../../../addons/swarm/shaders/vertex_animation.gdshader");

/// A vertex animation texture: every clip of one mesh baked frame by frame into [member positions]
/// (and [member normals]), one row per frame and one texel per vertex. Set it on
/// [member SwarmAgentArchetype.vertex_animation] and the manager draws that archetype's agents
/// with the addon's VAT shader, each playing its own clip: [member walk_clip] while it moves (the
/// cycle advances with the distance walked), [member idle_clip] while it stands, [member swing_clip]
/// while its swing winds up and recovers, [member death_clip] while its corpse sinks away.
/// Bake one from a skinned character with the addon's VAT baker (`addons/swarm/vat_baker.gd`,
/// Project > Tools > Bake Swarm Vertex Animation).
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmVertexAnimation {
    /// The rest mesh: one surface whose vertices are in the order of the texture's columns (the
    /// shader finds a vertex's column by its index, `VERTEX_ID`). Drawn for the archetype when its
    /// own [member SwarmAgentArchetype.mesh] is empty.
    #[export_group(name = "Textures")]
    #[export]
    mesh: Option<Gd<Mesh>>,
    /// Vertex positions in mesh space: row `f` holds frame `f`, texel `v` vertex `v` (RGBAF or
    /// RGBAH; with [member positions_normalized], 0..1 between [member bounds_min] and
    /// [member bounds_max]).
    #[export]
    positions: Option<Gd<Texture2D>>,
    /// Vertex normals, in the same layout as [member positions] (components -1..1). Empty: the
    /// rest mesh's normals are used.
    #[export]
    normals: Option<Gd<Texture2D>>,
    /// Vertices per frame (texture columns used).
    #[export(range = (0.0, 16384.0, 1.0, or_greater))]
    vertex_count: i32,
    /// Frames of all clips together (texture rows used).
    #[export(range = (0.0, 16384.0, 1.0, or_greater))]
    frame_count: i32,
    /// Positions are stored 0..1 between [member bounds_min] and [member bounds_max] (for 8-bit
    /// or other fixed-point textures); off: they are mesh-space coordinates.
    #[export]
    positions_normalized: bool,
    /// Lowest corner of the positions' range (only with [member positions_normalized]).
    #[export]
    bounds_min: Vector3,
    /// Highest corner of the positions' range (only with [member positions_normalized]).
    #[export]
    bounds_max: Vector3,

    /// Name of every clip baked, in texture order.
    #[export_group(name = "Clips")]
    #[export]
    clip_names: PackedStringArray,
    /// First frame and frame count of each clip, in pairs: `[first0, count0, first1, count1, ...]`.
    #[export]
    clip_ranges: PackedInt32Array,
    /// Frames per second each clip was baked at (its playback rate).
    #[export]
    clip_rates: PackedFloat32Array,
    /// Clip played, looping, by an agent that stands.
    #[export]
    #[init(val = StringName::from("idle"))]
    idle_clip: StringName,
    /// Clip played, looping, by an agent that moves: one cycle per [member walk_stride] walked.
    #[export]
    #[init(val = StringName::from("walk"))]
    walk_clip: StringName,
    /// Clip played once over an agent's swing (wind-up and recovery of its
    /// [SwarmAttackProfile]).
    #[export]
    #[init(val = StringName::from("swing"))]
    swing_clip: StringName,
    /// Clip played once while a dead agent's body sinks away.
    #[export]
    #[init(val = StringName::from("death"))]
    death_clip: StringName,
    /// Metres an agent walks during one cycle of [member walk_clip]: the clip's playback follows
    /// the agent's speed, so the feet do not slide.
    #[export(range = (0.05, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.4)]
    walk_stride: f32,

    /// Colour multiplied with the mesh's vertex colours by the addon's VAT shader.
    #[export_group(name = "Look")]
    #[export]
    #[init(val = Color::from_rgb(0.8, 0.8, 0.8))]
    albedo_color: Color,
    /// Texture (on the mesh's UV) multiplied with [member albedo_color] by the VAT shader.
    #[export]
    albedo_texture: Option<Gd<Texture2D>>,

    base: Base<Resource>,
}

#[godot_api]
impl SwarmVertexAnimation {
    /// Index of the clip named `name` in [member clip_names], or -1.
    #[func]
    pub fn get_clip_index(&self, name: StringName) -> i32 {
        let s = GString::from(&name);
        self.clip_names.as_slice().iter().position(|n| *n == s).map_or(-1, |i| i as i32)
    }

    /// Length of the clip named `name` in seconds (frames over rate), or 0 when there is none.
    #[func]
    pub fn get_clip_length(&self, name: StringName) -> f32 {
        let i = self.get_clip_index(name);
        self.span(i).map_or(0.0, |c| c.seconds())
    }

    /// A new ShaderMaterial with the addon's VAT shader playing these textures (what the manager
    /// draws an archetype with when it has no material override).
    #[func]
    pub fn create_material(&self) -> Gd<ShaderMaterial> {
        let mut m = ShaderMaterial::new_gd();
        m.set_shader(&vat_shader());
        self.apply_to(&mut m);
        m
    }

    /// Problems that keep these textures from playing, one line each (empty when it plays).
    #[func]
    pub fn get_problems(&self) -> PackedStringArray {
        let mut out = PackedStringArray::new();
        if self.positions.is_none() {
            out.push("positions is empty: bake the vertex animation");
        }
        if self.vertex_count <= 0 || self.frame_count <= 0 {
            out.push("vertex_count and frame_count must be above 0");
        }
        if let Some(t) = &self.positions {
            if t.get_width() < self.vertex_count || t.get_height() < self.frame_count {
                out.push("positions is smaller than vertex_count x frame_count");
            }
        }
        let n = self.clip_names.len();
        if self.clip_ranges.len() != 2 * n || self.clip_rates.len() != n {
            out.push("clip_ranges needs two numbers and clip_rates one per clip name");
        }
        for i in 0..n as i32 {
            if let Some(c) = self.span(i) {
                if c.first < 0 || c.count <= 0 || c.first + c.count > self.frame_count {
                    out.push(&format!("clip {} lies outside the frames", self.clip_names.as_slice()[i as usize]));
                }
            }
        }
        for role in [&self.idle_clip, &self.walk_clip] {
            if self.get_clip_index(role.clone()) < 0 {
                out.push(&format!("there is no clip named '{role}'"));
            }
        }
        out
    }
}

impl SwarmVertexAnimation {
    pub fn mesh(&self) -> Option<Gd<Mesh>> {
        self.mesh.clone()
    }

    fn span(&self, i: i32) -> Option<ClipSpan> {
        if i < 0 {
            return None;
        }
        let i = i as usize;
        let r = self.clip_ranges.as_slice();
        let (first, count) = (*r.get(2 * i)?, *r.get(2 * i + 1)?);
        let rate = self.clip_rates.as_slice().get(i).copied().unwrap_or(30.0);
        Some(ClipSpan { first, count, rate })
    }

    fn role_span(&self, name: &StringName) -> Option<ClipSpan> {
        self.span(self.get_clip_index(name.clone()))
    }

    /// The clips each role plays (a missing swing or death clip falls back to idle).
    pub fn roles(&self) -> RoleClips {
        let idle = self.role_span(&self.idle_clip).unwrap_or_default();
        RoleClips {
            idle,
            walk: self.role_span(&self.walk_clip).unwrap_or(idle),
            swing: self.role_span(&self.swing_clip).unwrap_or(idle),
            death: self.role_span(&self.death_clip).unwrap_or(idle),
            walk_stride: self.walk_stride.max(0.05),
        }
    }

    /// Writes the textures and the clip table into `m`'s shader parameters.
    pub fn apply_to(&self, m: &mut Gd<ShaderMaterial>) {
        let roles = self.roles();
        m.set_shader_parameter("vat_positions", &self.positions.to_variant());
        m.set_shader_parameter("vat_normals", &self.normals.to_variant());
        m.set_shader_parameter("use_normals", &self.normals.is_some().to_variant());
        m.set_shader_parameter("normalized", &self.positions_normalized.to_variant());
        m.set_shader_parameter("bounds_min", &self.bounds_min.to_variant());
        m.set_shader_parameter("bounds_max", &self.bounds_max.to_variant());
        for (name, c) in [
            ("clip_idle", roles.idle),
            ("clip_walk", roles.walk),
            ("clip_swing", roles.swing),
            ("clip_death", roles.death),
        ] {
            m.set_shader_parameter(name, &Vector2i::new(c.first, c.count.max(1)).to_variant());
        }
        m.set_shader_parameter("albedo_color", &self.albedo_color.to_variant());
        m.set_shader_parameter("albedo_texture", &self.albedo_texture.to_variant());
        m.set_shader_parameter("use_albedo_texture", &self.albedo_texture.is_some().to_variant());
    }
}

/// The addon's VAT shader: the file when it loads, else the copy built into the library.
fn vat_shader() -> Gd<Shader> {
    let mut loader = ResourceLoader::singleton();
    if loader.exists(SHADER_PATH) {
        if let Some(s) = loader.load(SHADER_PATH).and_then(|r| r.try_cast::<Shader>().ok()) {
            return s;
        }
    }
    let mut s = Shader::new_gd();
    s.set_code(SHADER_CODE);
    s
}

#[godot_api]
impl godot::classes::IResource for SwarmVertexAnimation {
    /// Every property edit is announced with `changed`: a manager drawing with these textures
    /// updates its material on its next frame.
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
