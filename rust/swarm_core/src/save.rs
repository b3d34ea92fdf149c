//! A world as bytes: a versioned, checksummed frame around the postcard form of its `SimState`.
//!
//! Layout (little-endian): 4-byte magic `SWSV`, format version (u32), payload length (u32),
//! CRC-32 of the payload (u32), then the payload: the state and the host's names for its target
//! slots and archetypes with the state it keeps beside the world (`HostNames`, `HostPart`; an
//! engine layer stores node and resource paths there). Formats 3 (agents with three columns of
//! cached steering pulls, `save_v3`) and 2 (those and no host parts) still read. Reading never trusts a number it has not checked: the frame's length must match
//! the bytes present and stay under `MAX_PAYLOAD`, every length postcard reads is bounded by the
//! bytes left (it allocates no more than it has read), and the decoded state and host parts are
//! validated as a whole (`SimState::validate`, `HostNames::validate`) before a world is built on
//! it. Every failure is a `LoadError` saying what was wrong; none panics.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::host_parts::{HostPart, MAX_PARTS};
use crate::save_v3::SimStateV3;
use crate::state::SimState;
use crate::world::World;

/// First four bytes of every save.
pub const MAGIC: [u8; 4] = *b"SWSV";
/// The format this build writes. Bump it whenever the serde form of the payload changes.
pub const VERSION: u32 = 4;
/// The oldest format this build still reads: 2, format 3's world without host parts.
pub const OLDEST_VERSION: u32 = 2;
/// Magic, version, length, checksum.
pub const HEADER_LEN: usize = 16;
/// Largest payload read (a world of the largest capacity with its flow fields fits easily).
pub const MAX_PAYLOAD: usize = 1 << 30;

/// Why bytes could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No bytes at all.
    Empty,
    /// Not a Swarm save (the magic is wrong).
    NotASave,
    /// Written by a newer build of Swarm.
    FutureVersion { found: u32 },
    /// A version this build does not read (older than any it knows, or zero).
    UnknownVersion { found: u32 },
    /// Fewer bytes than the header announces.
    Truncated { expected: usize, found: usize },
    /// More bytes than the header announces.
    TrailingBytes { expected: usize, found: usize },
    /// The announced payload is larger than any save may be.
    TooLarge { length: usize },
    /// The payload does not match its checksum (damaged in storage or transit).
    ChecksumMismatch,
    /// The checksum matched but the payload does not decode as a world.
    Malformed(String),
    /// The payload decodes but describes an impossible world.
    Invalid(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Empty => write!(f, "the data is empty"),
            LoadError::NotASave => write!(f, "the data is not a Swarm save (wrong magic bytes)"),
            LoadError::FutureVersion { found } => {
                write!(f, "the save has format version {found}, newer than this build reads ({VERSION})")
            }
            LoadError::UnknownVersion { found } => write!(f, "the save has unknown format version {found}"),
            LoadError::Truncated { expected, found } => {
                write!(f, "the save is truncated: {found} bytes where {expected} were written")
            }
            LoadError::TrailingBytes { expected, found } => {
                write!(f, "the save has {found} bytes where {expected} were written (extra data after it)")
            }
            LoadError::TooLarge { length } => {
                write!(f, "the save announces {length} bytes of payload, more than the limit of {MAX_PAYLOAD}")
            }
            LoadError::ChecksumMismatch => write!(f, "the save is damaged (checksum mismatch)"),
            LoadError::Malformed(why) => write!(f, "the save does not decode: {why}"),
            LoadError::Invalid(why) => write!(f, "the save describes an invalid world: {why}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Longest name a save may hold, in bytes.
pub const MAX_NAME_LEN: usize = 4096;

/// What the host calls the state's target slots and archetypes (a node path per target slot, a
/// resource path per archetype), so it can bind them to its own objects again after a load.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostNames {
    /// `(target slot, name)` for each named target.
    pub targets: Vec<(u32, String)>,
    /// One name per archetype, in index order (empty when the host names none).
    pub archetypes: Vec<String>,
    /// State the host keeps beside the world (doors, breakables, spawners, lanes), by name.
    pub parts: Vec<HostPart>,
}

/// `HostNames` as format 2 wrote them (no parts).
#[derive(Deserialize)]
struct HostNamesV2 {
    targets: Vec<(u32, String)>,
    archetypes: Vec<String>,
}

impl HostNames {
    /// Names must fit `MAX_NAME_LEN`, name registered target slots once each, and name every
    /// archetype (or none).
    fn validate(&self, state: &SimState) -> Result<(), String> {
        if self.parts.len() > MAX_PARTS {
            return Err(format!("{} host parts, more than {MAX_PARTS}", self.parts.len()));
        }
        let names = self.targets.iter().map(|t| &t.1).chain(&self.archetypes).chain(self.parts.iter().map(|p| &p.name));
        if names.into_iter().any(|n| n.len() > MAX_NAME_LEN) {
            return Err(format!("a name is longer than {MAX_NAME_LEN} bytes"));
        }
        let mut seen = std::collections::HashSet::new();
        for (slot, name) in &self.targets {
            if state.targets.get(*slot).is_none() || !seen.insert(*slot) {
                return Err(format!(
                    "target '{name}' names slot {slot}, which is not a registered target or named twice"
                ));
            }
        }
        if !self.archetypes.is_empty() && self.archetypes.len() != state.archetypes.len() {
            return Err(format!("{} archetype names for {} archetypes", self.archetypes.len(), state.archetypes.len()));
        }
        let mut parts = std::collections::HashSet::new();
        for p in &self.parts {
            p.validate()?;
            if !parts.insert((p.state.kind(), p.name.as_str())) {
                return Err(format!("{} '{}' is saved twice", p.state.kind(), p.name));
            }
        }
        Ok(())
    }
}

/// The framed bytes of a state (with no host names).
pub fn encode(state: &SimState) -> Vec<u8> {
    encode_named(state, &HostNames::default())
}

/// The framed bytes of a state and the host's names for its parts.
pub fn encode_named(state: &SimState, names: &HostNames) -> Vec<u8> {
    let payload = postcard::to_stdvec(&(state, names)).expect("a Vec grows as needed");
    frame(&payload)
}

/// Frames a payload: header (magic, version, length, checksum) and the payload. Public so that
/// tests and the fuzzer can frame payloads of their own.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload inside a frame, once magic, version, length and checksum are checked.
pub fn unframe(bytes: &[u8]) -> Result<&[u8], LoadError> {
    unframe_versioned(bytes).map(|(_, payload)| payload)
}

/// The format version and the payload inside a frame, once all four header fields are checked.
pub fn unframe_versioned(bytes: &[u8]) -> Result<(u32, &[u8]), LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::Empty);
    }
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(LoadError::NotASave);
    }
    if bytes.len() < HEADER_LEN {
        return Err(LoadError::Truncated { expected: HEADER_LEN, found: bytes.len() });
    }
    let word = |k: usize| u32::from_le_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]);
    let version = word(4);
    if version > VERSION {
        return Err(LoadError::FutureVersion { found: version });
    }
    if version < OLDEST_VERSION {
        return Err(LoadError::UnknownVersion { found: version });
    }
    let length = word(8) as usize;
    if length > MAX_PAYLOAD {
        return Err(LoadError::TooLarge { length });
    }
    let expected = HEADER_LEN + length;
    if bytes.len() < expected {
        return Err(LoadError::Truncated { expected, found: bytes.len() });
    }
    if bytes.len() > expected {
        return Err(LoadError::TrailingBytes { expected, found: bytes.len() });
    }
    let payload = &bytes[HEADER_LEN..];
    if crc32fast::hash(payload) != word(12) {
        return Err(LoadError::ChecksumMismatch);
    }
    Ok((version, payload))
}

/// A validated state and its host names from a payload of this build's format (the unframed
/// postcard bytes).
pub fn decode_payload(payload: &[u8]) -> Result<(SimState, HostNames), LoadError> {
    decode_payload_of(VERSION, payload)
}

/// A validated state and its host names from a payload of format `version`.
fn decode_payload_of(version: u32, payload: &[u8]) -> Result<(SimState, HostNames), LoadError> {
    let malformed = |e: postcard::Error| LoadError::Malformed(e.to_string());
    let ((mut state, names), rest): ((SimState, HostNames), &[u8]) = match version {
        2 => {
            let ((state, v2), rest): ((SimStateV3, HostNamesV2), &[u8]) =
                postcard::take_from_bytes(payload).map_err(malformed)?;
            ((state.into(), HostNames { targets: v2.targets, archetypes: v2.archetypes, parts: Vec::new() }), rest)
        }
        3 => {
            let ((state, names), rest): ((SimStateV3, HostNames), &[u8]) =
                postcard::take_from_bytes(payload).map_err(malformed)?;
            ((state.into(), names), rest)
        }
        _ => postcard::take_from_bytes(payload).map_err(malformed)?,
    };
    if !rest.is_empty() {
        return Err(LoadError::Malformed(format!("{} bytes left after the world", rest.len())));
    }
    state.validate().map_err(LoadError::Invalid)?;
    names.validate(&state).map_err(LoadError::Invalid)?;
    state.reserve();
    Ok((state, names))
}

/// A validated state and its host names from framed bytes.
pub fn decode_named(bytes: &[u8]) -> Result<(SimState, HostNames), LoadError> {
    let (version, payload) = unframe_versioned(bytes)?;
    decode_payload_of(version, payload)
}

/// A validated state from framed bytes (host names dropped).
pub fn decode(bytes: &[u8]) -> Result<SimState, LoadError> {
    decode_named(bytes).map(|(s, _)| s)
}

impl World {
    /// The world as framed bytes (see the module comment); `World::load` reads them back.
    pub fn save(&self) -> Vec<u8> {
        encode(self.state())
    }

    /// A world from `save` bytes, stepping on bit-identically to the one saved. Damaged,
    /// truncated, foreign, future-version or inconsistent bytes give an error, never a panic.
    pub fn load(bytes: &[u8]) -> Result<World, LoadError> {
        decode(bytes).map(World::from_state)
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::config::{Archetype, WorldSettings};
    use crate::host_parts::PartState;

    fn world() -> World {
        let mut w = World::new(WorldSettings { max_agents: 16, worker_threads: 1, ..Default::default() });
        let a = w.add_archetype(Archetype::default());
        w.register_target(Vec3::new(5.0, 0.0, 5.0), 1.0);
        for i in 0..6 {
            w.spawn(a, Vec3::new(i as f32, 0.0, 0.0)).unwrap();
        }
        w.step(1.0 / 60.0);
        w
    }

    /// The message loading `state` gives (it must fail validation).
    fn invalid(state: &SimState) -> String {
        match decode(&encode(state)) {
            Err(LoadError::Invalid(msg)) => msg,
            other => panic!("expected an invalid-world error, got {other:?}"),
        }
    }

    #[test]
    fn inconsistent_states_are_refused_with_the_field_named() {
        let base = world().state().clone();
        let mut s = base.clone();
        s.agents.pos[2].x = f32::NAN;
        assert!(invalid(&s).contains("agent index 2: position"));
        let mut s = base.clone();
        s.agents.steer[1].x = -2.9e38;
        assert!(invalid(&s).contains("agent index 1: facing or steering"), "finite but absurd steering");
        let mut s = base.clone();
        s.agents.pos[0].z = 1e30;
        assert!(invalid(&s).contains("agent index 0: position"), "finite but absurd position");
        let mut s = base.clone();
        s.agents.health.pop();
        assert!(invalid(&s).contains("columns differ in length"));
        let mut s = base.clone();
        s.agents.archetype[0] = 7;
        assert!(invalid(&s).contains("archetype"));
        let mut s = base.clone();
        s.agents.target[1] = 40;
        assert!(invalid(&s).contains("target"));
        let mut s = base.clone();
        s.agents.cell[1] = 3;
        assert!(invalid(&s).contains("cell"), "a cell without a flow field");
        let mut s = base.clone();
        s.ids.relocate(0, 5);
        assert!(invalid(&s).contains("id slot 0"));
        let mut s = base.clone();
        s.settings.max_agents = 0;
        assert!(invalid(&s).contains("max_agents"));
        let mut s = base.clone();
        s.settings.max_agents = 4;
        assert!(invalid(&s).contains("more than max_agents"));
        let mut s = base.clone();
        s.time = f64::NAN;
        assert!(invalid(&s).contains("time"));
        let mut s = base.clone();
        s.reordered_at = s.ticks + 1;
        assert!(invalid(&s).contains("layout counters"));
        let mut s = base.clone();
        s.archetypes[0].config.agent_radius = -1.0;
        assert!(invalid(&s).contains("archetype 0"));
        let mut s = base.clone();
        s.perception.ray_budget = usize::MAX;
        assert!(invalid(&s).contains("sight rays"));
    }

    /// Found by the `ops` fuzz target: a spawn at x = -1e30 was accepted and its save then
    /// refused to load. Positions beyond the load limit are refused where they come in.
    #[test]
    fn absurd_positions_are_refused_at_the_door_so_every_save_loads() {
        let mut w = world();
        let far = Vec3::new(-1e30, 0.0, 0.0);
        assert_eq!(w.spawn(0, far), Err(crate::world::SpawnError::InvalidPosition));
        assert!(!w.set_target_position(0, far));
        assert!(!w.emit_noise(far, 5.0));
        let id = w.id_at(0);
        assert!(!w.set_position(id, far));
        assert!(World::load(&w.save()).is_ok());
    }

    /// Found by the `ops` fuzz target: a target slot made before any step has a spare field
    /// whose default target is cell 0 with no cells; such a save must load.
    #[test]
    fn a_target_registered_and_dropped_before_building_saves_and_loads() {
        use crate::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 8, 8, |_, _, o| o.push(SurfaceSample::walkable(0.0)));
        let grid = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let mut w = World::new(WorldSettings { max_agents: 8, worker_threads: 1, ..Default::default() });
        w.set_surface(Some(grid));
        w.add_archetype(Archetype::default());
        let t = w.register_target(Vec3::new(3.0, 0.0, 3.0), 1.0);
        w.spawn(0, Vec3::new(1.0, 0.0, 1.0)).unwrap();
        w = World::load(&w.save()).unwrap();
        w.unregister_target(t);
        for _ in 0..4 {
            w.step(0.19);
        }
        assert!(World::load(&w.save()).is_ok());
    }

    #[test]
    fn host_names_round_trip_and_are_checked() {
        let w = world();
        let door = |route_cost: f32| HostPart {
            name: "../Door".into(),
            state: PartState::Modifier { open: true, enabled: false, route_cost },
        };
        let names = HostNames {
            targets: vec![(0, "../Player".into())],
            archetypes: vec!["res://zombie.tres".into()],
            parts: vec![door(3.0)],
        };
        let (_, back) = decode_named(&encode_named(w.state(), &names)).unwrap();
        assert_eq!(back, names);
        let bad = HostNames { targets: vec![(3, "../Ghost".into())], ..Default::default() };
        let err = decode_named(&encode_named(w.state(), &bad)).unwrap_err().to_string();
        assert!(err.contains("../Ghost"), "{err}");
        let bad = HostNames { archetypes: vec!["a".into(), "b".into()], ..Default::default() };
        assert!(decode_named(&encode_named(w.state(), &bad)).is_err());
        let bad = HostNames { parts: vec![door(f32::NAN)], ..Default::default() };
        let err = decode_named(&encode_named(w.state(), &bad)).unwrap_err().to_string();
        assert!(err.contains("modifier '../Door': route cost NaN"), "{err}");
        let bad = HostNames { parts: vec![door(1.0), door(2.0)], ..Default::default() };
        let err = decode_named(&encode_named(w.state(), &bad)).unwrap_err().to_string();
        assert!(err.contains("saved twice"), "{err}");
    }

    /// Format 3 (three columns of cached pulls per agent) still loads, and steps on as the world
    /// saved does.
    #[test]
    fn format_3_saves_still_load() {
        let mut w = world();
        let names = HostNames { targets: vec![(0, "../Player".into())], ..Default::default() };
        let payload = postcard::to_stdvec(&(crate::save_v3::as_v3(w.state()), &names)).unwrap();
        let mut bytes = frame(&payload);
        bytes[4..8].copy_from_slice(&3u32.to_le_bytes());
        let (state, back) = decode_named(&bytes).unwrap();
        assert_eq!(back, names);
        let mut loaded = World::from_state(state);
        assert_eq!(loaded.save(), w.save());
        for _ in 0..30 {
            w.step(1.0 / 60.0);
            loaded.step(1.0 / 60.0);
        }
        assert_eq!(loaded.save(), w.save());
        // A column of another length is refused, as in any save.
        let mut short = crate::save_v3::as_v3(w.state());
        short.truncate_goals();
        let mut bytes = frame(&postcard::to_stdvec(&(short, &names)).unwrap());
        bytes[4..8].copy_from_slice(&3u32.to_le_bytes());
        assert!(decode_named(&bytes).unwrap_err().to_string().contains("columns differ in length"));
    }

    /// Format 2 (format 3 without host parts) still loads, with no parts.
    #[test]
    fn format_2_saves_still_load() {
        #[derive(Serialize)]
        struct V2<'a> {
            targets: &'a [(u32, String)],
            archetypes: &'a [String],
        }
        let w = world();
        let targets = vec![(0, "../Player".to_string())];
        let v3 = crate::save_v3::as_v3(w.state());
        let payload = postcard::to_stdvec(&(v3, V2 { targets: &targets, archetypes: &[] })).unwrap();
        let mut bytes = frame(&payload);
        bytes[4..8].copy_from_slice(&2u32.to_le_bytes());
        let (state, names) = decode_named(&bytes).unwrap();
        assert_eq!(names.targets, targets);
        assert!(names.parts.is_empty());
        assert_eq!(World::from_state(state).save(), w.save());
        bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
        assert_eq!(decode_named(&bytes).unwrap_err(), LoadError::UnknownVersion { found: 1 });
    }
}
