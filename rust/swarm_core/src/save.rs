//! A world as bytes: a versioned, checksummed frame around the postcard form of its `SimState`.
//!
//! Layout (little-endian): 4-byte magic `SWSV`, format version (u32), payload length (u32),
//! CRC-32 of the payload (u32), then the payload. Reading never trusts a number it has not
//! checked: the frame's length must match the bytes present and stay under `MAX_PAYLOAD`,
//! every length postcard reads is bounded by the bytes left (it allocates no more than it has
//! read), and the decoded state is validated as a whole (`SimState::validate`) before a world
//! is built on it. Every failure is a `LoadError` saying what was wrong; none panics.

use std::fmt;

use crate::state::SimState;
use crate::world::World;

/// First four bytes of every save.
pub const MAGIC: [u8; 4] = *b"SWSV";
/// The format this build writes and reads. Bump it whenever `SimState`'s serde form changes.
pub const VERSION: u32 = 1;
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

/// The framed bytes of a state.
pub fn encode(state: &SimState) -> Vec<u8> {
    let payload = postcard::to_stdvec(state).expect("a Vec grows as needed");
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
    if version != VERSION {
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
    Ok(payload)
}

/// A validated state from a payload (the unframed postcard bytes).
pub fn decode_payload(payload: &[u8]) -> Result<SimState, LoadError> {
    let (mut state, rest): (SimState, &[u8]) =
        postcard::take_from_bytes(payload).map_err(|e| LoadError::Malformed(e.to_string()))?;
    if !rest.is_empty() {
        return Err(LoadError::Malformed(format!("{} bytes left after the world", rest.len())));
    }
    state.validate().map_err(LoadError::Invalid)?;
    state.reserve();
    Ok(state)
}

/// A validated state from framed bytes.
pub fn decode(bytes: &[u8]) -> Result<SimState, LoadError> {
    decode_payload(unframe(bytes)?)
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
}
