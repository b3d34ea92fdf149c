//! Storing a `SurfaceGrid`: serde (through `SurfaceGridData`, links and span columns derived
//! again on load, every inconsistency an error) and compact little-endian bytes.

use glam::Vec3;
use serde::{Deserialize, Deserializer, Serialize};

use crate::flow_field::surface::{BakeError, BakeParams, SurfaceGrid};
use crate::flow_field::surface_bake::check_layout;

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
    /// Compact little-endian bytes for storage (links are derived again on load).
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.height.len();
        let mut out = Vec::with_capacity(64 + self.column_start.len() * 4 + n * 5);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for v in [self.origin.x, self.origin.y, self.origin.z, self.cell_size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.dims_x.to_le_bytes());
        out.extend_from_slice(&self.dims_z.to_le_bytes());
        for v in [self.params.agent_height, self.params.max_step_height, self.params.clearance_radius] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(n as u32).to_le_bytes());
        for v in &self.column_start {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.height {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend(self.walkable.iter().map(|&w| w as u8));
        out
    }

    /// Reads `to_bytes` output; any inconsistency is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BakeError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC || r.u32()? != VERSION {
            return Err(BakeError::BadBytes);
        }
        let origin = Vec3::new(r.f32()?, r.f32()?, r.f32()?);
        let cell_size = r.f32()?;
        let dims_x = r.u32()?;
        let dims_z = r.u32()?;
        let params = BakeParams { agent_height: r.f32()?, max_step_height: r.f32()?, clearance_radius: r.f32()? };
        let n = r.u32()? as usize;
        let cols = check_layout(cell_size, dims_x, dims_z, &params)?;
        // Sizes are checked against the bytes present before anything is allocated.
        if r.remaining() != (cols + 1) * 4 + n * 5 {
            return Err(BakeError::BadBytes);
        }
        let column_start = (0..=cols).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        let height = (0..n).map(|_| r.f32()).collect::<Result<Vec<_>, _>>()?;
        let walkable = r.take(n)?.iter().map(|&b| b != 0).collect();
        Self::from_parts(origin, cell_size, dims_x, dims_z, params, column_start, height, walkable)
    }
}

const MAGIC: &[u8; 4] = b"SWSG";
const VERSION: u32 = 1;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BakeError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(BakeError::BadBytes)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn u32(&mut self) -> Result<u32, BakeError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }

    fn f32(&mut self) -> Result<f32, BakeError> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
}
