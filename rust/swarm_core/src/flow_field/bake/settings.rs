//! What to bake (the box, the cell size, the agent's dimensions, which physics layers count),
//! and refusing settings that cannot bake, with a message naming the field.

use std::fmt;

use glam::Vec3;

use crate::flow_field::surface::BakeParams;

/// Most columns one bake may have (2048 x 2048).
pub const MAX_COLUMNS: u64 = 4 * 1024 * 1024;

/// An axis-aligned box: its lowest corner and its size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BakeBounds {
    pub position: Vec3,
    pub size: Vec3,
}

impl fmt::Display for BakeBounds {
    /// As the engine prints a box: `[P: (x, y, z), S: (x, y, z)]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, s) = (self.position, self.size);
        write!(f, "[P: ({}, {}, {}), S: ({}, {}, {})]", p.x, p.y, p.z, s.x, s.y, s.z)
    }
}

/// What to bake: the box, the cell size, the agent's dimensions and which physics layers count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BakeSettings {
    /// World-space box to sample; its x/z extent is divided into columns of `cell_size`.
    pub bounds: BakeBounds,
    pub cell_size: f32,
    pub clearance_radius: f32,
    pub agent_height: f32,
    pub max_step_height: f32,
    /// Layers agents can walk on.
    pub walkable_mask: u32,
    /// Layers that are never walkable (they still block and count as ceilings).
    pub unwalkable_mask: u32,
}

impl Default for BakeSettings {
    fn default() -> Self {
        Self {
            bounds: BakeBounds { position: Vec3::ZERO, size: Vec3::ZERO },
            cell_size: 0.5,
            clearance_radius: 0.3,
            agent_height: 1.8,
            max_step_height: 0.4,
            walkable_mask: 1,
            unwalkable_mask: 0,
        }
    }
}

impl BakeSettings {
    /// Checks every field; the message names the first bad one.
    pub fn validate(&self) -> Result<(u32, u32), String> {
        let finite = |name: &str, v: f32| -> Result<(), String> {
            if v.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} = {v} is not a finite number"))
            }
        };
        finite("cell_size", self.cell_size)?;
        if self.cell_size <= 0.0 {
            return Err(format!("cell_size = {} must be above 0", self.cell_size));
        }
        finite("agent_height", self.agent_height)?;
        if self.agent_height <= 0.0 {
            return Err(format!("agent_height = {} must be above 0", self.agent_height));
        }
        for (name, v) in [("clearance_radius", self.clearance_radius), ("max_step_height", self.max_step_height)] {
            finite(name, v)?;
            if v < 0.0 {
                return Err(format!("{name} = {v} must not be negative"));
            }
        }
        let (p, s) = (self.bounds.position, self.bounds.size);
        if !(p.is_finite() && s.is_finite()) {
            return Err(format!("bake_bounds {} is not finite", self.bounds));
        }
        if s.x < 0.0 || s.y < 0.0 || s.z < 0.0 {
            return Err(format!("bake_bounds {} has a negative size (use a positive size)", self.bounds));
        }
        if s.x <= 0.0 || s.z <= 0.0 {
            return Err(format!(
                "bake_bounds {} is empty: give it the width (x) and depth (z) of the area to bake",
                self.bounds
            ));
        }
        if self.walkable_mask == 0 {
            return Err("walkable_mask is 0, so no collider could be walked on".to_string());
        }
        let dims = |extent: f32| ((extent / self.cell_size) as f64).ceil().max(1.0);
        let (dx, dz) = (dims(s.x), dims(s.z));
        if dx * dz > MAX_COLUMNS as f64 {
            return Err(format!(
                "bake_bounds size ({}, {}) at cell_size {} makes {} x {} columns, more than {}: raise cell_size or shrink bake_bounds",
                s.x, s.z, self.cell_size, dx, dz, MAX_COLUMNS
            ));
        }
        Ok((dx as u32, dz as u32))
    }

    pub fn params(&self) -> BakeParams {
        BakeParams {
            agent_height: self.agent_height,
            max_step_height: self.max_step_height,
            clearance_radius: self.clearance_radius,
        }
    }
}
