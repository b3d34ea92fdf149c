//! "Going somewhere", which decides who presses and strikes a closed cell (read by surface
//! settling's pressing counts, by the attack stage and by `World::is_going_somewhere`).

use glam::Vec3;

use crate::agents::FLAG_DORMANT;
use crate::archetype::ArchetypeRuntime;
use crate::formation::Seat;
use crate::perception::awareness::Awareness;
use crate::perception::memory;
use crate::targets::NO_TARGET;

/// An awake agent with a target when its archetype has no perception profile; with one, an agent
/// chasing a target it sees, or walking to a searched spot or a heard noise it has not reached yet.
pub(crate) struct Going<'a> {
    archetypes: &'a [ArchetypeRuntime],
    arch: &'a [u16],
    target: &'a [u32],
    flags: &'a [u8],
    aware: &'a [Awareness],
    pos: &'a [Vec3],
    seats: &'a [Seat],
}

impl<'a> Going<'a> {
    pub fn new(
        archetypes: &'a [ArchetypeRuntime],
        arch: &'a [u16],
        target: &'a [u32],
        flags: &'a [u8],
        aware: &'a [Awareness],
        pos: &'a [Vec3],
        seats: &'a [Seat],
    ) -> Self {
        Self { archetypes, arch, target, flags, aware, pos, seats }
    }

    #[inline]
    pub fn at(&self, i: usize) -> bool {
        // Dormant agents and agents in a formation order go nowhere of their own.
        if self.flags[i] & FLAG_DORMANT != 0 || self.seats[i].is_ordered() {
            return false;
        }
        match self.archetypes[self.arch[i] as usize].config.perception {
            None => self.target[i] != NO_TARGET,
            Some(_) => memory::is_going(&self.aware[i], self.pos[i]),
        }
    }
}
