//! Golden hashes: a few scenarios stepped 300 times on 1, 2 and 8 threads hash every agent's
//! position, velocity, facing and health bits (and every attack event) to constants recorded
//! from the code before the state / workspace split. A refactor that changes any bit of the
//! simulation's behaviour fails here.

use swarm_core::glam::Vec3;
use swarm_core::{Archetype, AttackProfile, World, WorldSettings};

mod common;
use common::{ascii, close_rooms_door, perceiving_archetype, DT, ROOMS};

const STEPS: usize = 300;

/// FNV-1a over 32-bit words.
struct Hash(u64);

impl Hash {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    fn u32(&mut self, v: u32) {
        for b in v.to_le_bytes() {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn v3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
}

fn hash_agents(w: &World, h: &mut Hash) {
    let a = w.agents();
    h.u32(a.len() as u32);
    for i in 0..a.len() {
        h.v3(a.pos[i]);
        h.v3(a.vel[i]);
        h.f32(a.facing[i].x);
        h.f32(a.facing[i].y);
        h.f32(a.health[i]);
    }
}

fn hash_events(w: &World, h: &mut Hash) -> usize {
    h.u32(w.attack_events().len() as u32);
    for e in w.attack_events() {
        h.u32(e.agent);
        h.u32(e.agent_id.slot);
        h.u32(e.agent_id.generation);
        h.u32(e.target);
        h.f32(e.damage);
        h.v3(e.point);
        h.v3(e.direction);
        h.f32(e.pushback);
        h.u32(e.obstacle.unwrap_or(u32::MAX));
    }
    w.attack_events().len()
}

/// ~2,000 default agents on open ground, two moving targets.
fn open_horde(threads: usize) -> u64 {
    let mut w = World::new(WorldSettings { max_agents: 2000, worker_threads: threads, seed: 7, ..Default::default() });
    let a = w.add_archetype(Archetype::default());
    let t0 = w.register_target(Vec3::ZERO, 1.0);
    let t1 = w.register_target(Vec3::new(30.0, 0.0, 20.0), 1.5);
    for i in 0..2000 {
        w.spawn(a, Vec3::new((i % 45) as f32 * 1.1 - 25.0, 0.0, (i / 45) as f32 * 1.1 - 25.0)).unwrap();
    }
    let mut h = Hash::new();
    for s in 0..STEPS {
        let ang = s as f32 * 0.02;
        w.set_target_position(t0, Vec3::new(ang.cos() * 8.0, 0.0, ang.sin() * 8.0));
        w.set_target_position(t1, Vec3::new(30.0 - s as f32 * 0.05, 0.0, 20.0));
        w.step(DT);
    }
    hash_agents(&w, &mut h);
    h.0
}

/// The two-room level with a costly door, perceiving agents (noises, alerts), plain attackers
/// pressing the door.
fn flow_rooms(threads: usize) -> u64 {
    let mut w = World::new(WorldSettings {
        max_agents: 600,
        worker_threads: threads,
        seed: 11,
        dormancy_enabled: false,
        ..Default::default()
    });
    w.set_surface(Some(ascii(&ROOMS)));
    let p = perceiving_archetype();
    let p = w.add_archetype(p);
    let mut k = Archetype::default();
    k.agent_radius = 0.3;
    k.attack = Some(AttackProfile::default());
    let k = w.add_archetype(k);
    close_rooms_door(&mut w);
    w.register_target(Vec3::new(15.0, 0.0, 15.0), 1.0);
    for i in 0..500 {
        let pos = Vec3::new(1.0 + (i % 28) as f32, 0.0, 0.5 + (i / 28) as f32 * 0.45);
        w.spawn(if i % 3 == 0 { k } else { p }, pos).unwrap();
    }
    let mut h = Hash::new();
    let (mut events, mut obstacle, mut pressing) = (0, 0, 0);
    for s in 0..STEPS {
        if s % 40 == 5 {
            w.emit_noise(Vec3::new(5.0 + s as f32 * 0.05, 0.0, 4.0), 10.0);
        }
        w.step(DT);
        events += hash_events(&w, &mut h);
        obstacle += w.attack_events().iter().filter(|e| e.obstacle.is_some()).count();
        pressing += w.surface().unwrap().pressing_count(0);
        h.u32(w.surface().unwrap().pressing_count(0));
    }
    eprintln!("flow_rooms: {events} events, {obstacle} on the door, {pressing} pressing");
    assert!(events > 0, "the scenario should see attacks");
    hash_agents(&w, &mut h);
    h.0
}

/// Attackers with Close-Range Pressure around one target on open ground.
fn attackers(threads: usize) -> u64 {
    let mut w = World::new(WorldSettings { max_agents: 1500, worker_threads: threads, seed: 3, ..Default::default() });
    let mut a = Archetype::default();
    a.attack = Some(AttackProfile { swing_cooldown: 0.5, ..Default::default() });
    a.behavior.use_pressure = true;
    let a = w.add_archetype(a);
    let mut b = Archetype::default();
    b.attack = Some(AttackProfile::default());
    b.agent_radius = 0.6;
    let b = w.add_archetype(b);
    w.register_target(Vec3::ZERO, 1.0);
    for i in 0..1200 {
        let pos = Vec3::new((i % 40) as f32 * 0.8 - 16.0, 0.0, (i / 40) as f32 * 0.8 + 6.0);
        w.spawn(if i % 4 == 0 { b } else { a }, pos).unwrap();
    }
    let mut h = Hash::new();
    let mut events = 0;
    for s in 0..STEPS {
        if s == 150 {
            let id = w.id_at(17);
            w.despawn(id);
        }
        w.step(DT);
        events += hash_events(&w, &mut h);
    }
    assert!(events > 0, "the scenario should see attacks");
    hash_agents(&w, &mut h);
    h.0
}

// All three re-recorded when the spatial grid's cells became half as wide and twice as deep
// (neighbours are met in another order); OPEN and ATTACK again when storage came to be reordered
// tile by tile (agents are hashed, and neighbours met, in another order). All three again when
// the grid's frame came to be whole tiles of a lattice fixed in space (other cells). OPEN and
// ATTACK again when body blocking came to test the contacts Personal Space listed (in its
// walk's order, which may run backward) instead of walking the grid. All three again when a
// listing Personal Space scan came to list past its sample cap (body blocking then tests the
// list where it walked the grid) and body blocking's share and unit offset came to be one
// division (rounded otherwise).
const OPEN: u64 = 0x66ad0b04a8450299;
// Re-recorded when searches started walking routes (spot fields) and hearing started measuring
// routes: the perceiving agents of this scenario search a last-seen spot along its own field; and
// again when a slot's first flow field came to be built in one step (distances and headings
// together, where the headings used to follow a step later).
const FLOW: u64 = 0xe6527f6bf5ba9241;
const ATTACK: u64 = 0x2745b4fa64a1d323;

#[test]
fn golden_open_horde() {
    for t in [1, 2, 8] {
        assert_eq!(open_horde(t), OPEN, "{t} threads: {:#x}", open_horde(t));
    }
}

#[test]
fn golden_flow_rooms() {
    for t in [1, 2, 8] {
        assert_eq!(flow_rooms(t), FLOW, "{t} threads: {:#x}", flow_rooms(t));
    }
}

#[test]
fn golden_attackers() {
    for t in [1, 2, 8] {
        assert_eq!(attackers(t), ATTACK, "{t} threads: {:#x}", attackers(t));
    }
}
