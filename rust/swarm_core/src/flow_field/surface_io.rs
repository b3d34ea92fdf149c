//! Storing a `SurfaceGrid`, in one format: its serde form (through `SurfaceGridData`: links and
//! span columns are derived again on load, every inconsistency an error), which a saved world
//! holds, and which `to_bytes` writes with a magic and version for the flow-field resource.

use glam::Vec3;
use serde::{Deserialize, Deserializer, Serialize};

use crate::flow_field::surface::{BakeError, BakeParams, SurfaceGrid};

/// What is stored: links and span columns are derived again on load.
#[derive(Serialize, Deserialize)]
struct SurfaceGridData {
    origin: Vec3,
    cell_size: f32,
    dims_x: u32,
    dims_z: u32,
    params: BakeParams,
    column_start: Vec<u32>,
    height: Vec<f32>,
    walkable: Vec<bool>,
}

#[derive(Serialize)]
struct SurfaceGridRef<'a> {
    origin: Vec3,
    cell_size: f32,
    dims_x: u32,
    dims_z: u32,
    params: BakeParams,
    column_start: &'a [u32],
    height: &'a [f32],
    walkable: &'a [bool],
}

impl Serialize for SurfaceGrid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SurfaceGridRef {
            origin: self.origin,
            cell_size: self.cell_size,
            dims_x: self.dims_x,
            dims_z: self.dims_z,
            params: self.params,
            column_start: &self.column_start,
            height: &self.height,
            walkable: &self.walkable,
        }
        .serialize(s)
    }
}

impl TryFrom<SurfaceGridData> for SurfaceGrid {
    type Error = BakeError;

    fn try_from(d: SurfaceGridData) -> Result<Self, BakeError> {
        SurfaceGrid::from_parts(
            d.origin,
            d.cell_size,
            d.dims_x,
            d.dims_z,
            d.params,
            d.column_start,
            d.height,
            d.walkable,
        )
    }
}

impl<'de> Deserialize<'de> for SurfaceGrid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let data = SurfaceGridData::deserialize(d)?;
        SurfaceGrid::try_from(data).map_err(serde::de::Error::custom)
    }
}

impl SurfaceGrid {
    /// The grid as stored in a `SwarmFlowFieldData` resource: a 4-byte magic and a format
    /// version, then the grid's serde form (the same one a saved world holds) in postcard.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.column_start.len() * 3 + self.height.len() * 5);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        postcard::to_extend(self, out).expect("a Vec grows as needed")
    }

    /// Reads `to_bytes` output. Damaged, truncated, foreign or other-version bytes (and
    /// anything left after the grid) are an error, never a panic; every length read is bounded
    /// by the bytes actually present before anything is allocated for it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BakeError> {
        let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or(BakeError::BadBytes)?;
        let (version, rest) = rest.split_first_chunk::<4>().ok_or(BakeError::BadBytes)?;
        if u32::from_le_bytes(*version) != VERSION {
            return Err(BakeError::BadBytes);
        }
        let (data, left): (SurfaceGridData, &[u8]) =
            postcard::take_from_bytes(rest).map_err(|_| BakeError::BadBytes)?;
        if !left.is_empty() {
            return Err(BakeError::BadBytes);
        }
        SurfaceGrid::try_from(data)
    }
}

const MAGIC: &[u8; 4] = b"SWSG";
/// 1 was a hand-written layout; 2 is the serde form.
const VERSION: u32 = 2;
