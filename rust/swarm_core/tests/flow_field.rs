//! Surface flow field scenarios: mazes walked by following the field, corner cutting, a
//! two-floor level joined by a ramp, closed cells, the route choice between a door with a route
//! cost and an open entrance farther round (the cost decides which way the field points), the
//! route-cost ceiling, a property test against a reference Dijkstra, time-sliced builds, and a
//! serde round trip.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f32::consts::SQRT_2;

use proptest::prelude::*;
use swarm_core::flow_field::modifiers::{BLOCKS_AGENTS, ROUTE_BLOCKED};
use swarm_core::flow_field::*;
use swarm_core::glam::{Vec2, Vec3};

fn ascii_grid(rows: &[&str], cell: f32) -> SurfaceGrid {
    let s = BakeSamples::from_fn(Vec3::ZERO, cell, rows[0].len() as u32, rows.len() as u32, |x, z, o| {
        if rows[z as usize].as_bytes()[x as usize] != b'#' {
            o.push(SurfaceSample::walkable(0.0));
        }
    });
    SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
}

fn center(g: &SurfaceGrid, x: u32, z: u32, y: f32) -> Vec3 {
    let cs = g.cell_size();
    Vec3::new((x as f32 + 0.5) * cs, y, (z as f32 + 0.5) * cs)
}

fn at(g: &SurfaceGrid, x: u32, z: u32) -> CellId {
    g.locate(center(g, x, z, 0.0)).unwrap()
}

fn flow(g: &SurfaceGrid, m: &ModifierLayer, target: CellId) -> FlowField {
    let mut f = FlowField::new();
    f.rebuild(g, m, target, &mut IntegrationJob::new());
    f
}

/// Walks a point from `start` along per-cell headings in steps of a fifth of a cell, tracking
/// its cell through links. Returns the cells visited, or panics when it enters a cell it may not
/// or takes too long.
fn walk(g: &SurfaceGrid, m: &ModifierLayer, f: &FlowField, start: Vec3) -> Vec<CellId> {
    let mut pos = start;
    let mut cell = g.locate(pos).unwrap();
    let mut visited = vec![cell];
    let step = g.cell_size() * 0.2;
    for _ in 0..100_000 {
        if cell == f.target() {
            return visited;
        }
        let d = f.direction(cell);
        assert_ne!(d, Vec2::ZERO, "no heading in cell {cell}");
        pos += Vec3::new(d.x, 0.0, d.y) * step;
        let next = g.step_cell(cell, pos).unwrap_or_else(|| panic!("walked off cell {cell} into a wall at {pos}"));
        assert!(g.is_walkable(next));
        assert!(!m.route_blocked(next), "entered closed cell {next}");
        if next != cell {
            visited.push(next);
            cell = next;
            pos.y = g.ground_height(cell, pos);
        }
    }
    panic!("did not reach the target");
}

/// Like `walk` with the bilinear sample, moved by `constrain_move` (which slides along blocked
/// cells), as an agent would be.
fn walk_blended(g: &SurfaceGrid, m: &ModifierLayer, f: &FlowField, start: Vec3) -> usize {
    let mut pos = start;
    let mut cell = g.locate(pos).unwrap();
    let step = g.cell_size() * 0.2;
    for i in 0..100_000 {
        if cell == f.target() {
            return i;
        }
        let d = f.sample(g, cell, pos);
        let r = constrain_move(g, m, cell, pos, pos + Vec3::new(d.x, 0.0, d.y) * step);
        assert!(g.is_walkable(r.cell) && !m.blocks_agents(r.cell));
        pos = r.pos;
        cell = r.cell;
    }
    panic!("did not reach the target");
}

const MAZE: [&str; 11] = [
    "...#.......#...",
    ".#.#.#####.#.#.",
    ".#...#...#...#.",
    ".#####.#.#####.",
    ".....#.#.....#.",
    "####.#.#####.#.",
    "...#.#.....#...",
    ".#.#.#####.###.",
    ".#...#...#.....",
    ".#####.#.#####.",
    ".......#.......",
];

#[test]
fn maze_is_solved_by_following_the_field() {
    let g = ascii_grid(&MAZE, 0.5);
    let m = ModifierLayer::new(&g);
    let target = at(&g, 8, 2);
    let f = flow(&g, &m, target);
    let starts = [(0, 0), (14, 0), (0, 10), (14, 10), (4, 4), (6, 6), (2, 6)];
    for (x, z) in starts {
        let s = at(&g, x, z);
        assert!(f.distance(s).is_finite(), "start ({x}, {z}) has no route");
        let visited = walk(&g, &m, &f, center(&g, x, z, 0.0));
        assert_eq!(*visited.last().unwrap(), target);
        // Never longer than the route: each new cell is at most one diagonal step further.
        let walked = (visited.len() - 1) as f32 * 0.5 * SQRT_2;
        assert!(walked + 1e-4 >= f.distance(s));
        assert!(walk_blended(&g, &m, &f, center(&g, x, z, 0.0)) > 0);
    }
}

#[test]
fn diagonal_corner_cutting_refused() {
    let mut sc = PathScratch::new();
    let g = ascii_grid(&["...", "...", "..."], 1.0);
    let m = ModifierLayer::new(&g);
    let f = flow(&g, &m, at(&g, 0, 1));
    assert!((f.distance(at(&g, 1, 0)) - SQRT_2).abs() < 1e-6);
    assert!((f.distance(at(&g, 2, 1)) - 2.0).abs() < 1e-6);
    // A hole in the middle: every diagonal past it would cut its corner.
    let g = ascii_grid(&["...", ".#.", "..."], 1.0);
    let m = ModifierLayer::new(&g);
    let f = flow(&g, &m, at(&g, 0, 1));
    assert_eq!(f.distance(at(&g, 1, 0)), 2.0);
    assert_eq!(f.distance(at(&g, 2, 0)), 3.0);
    assert_eq!(f.distance(at(&g, 2, 1)), 4.0);
    assert_eq!(path_length(&g, &m, at(&g, 2, 1), at(&g, 0, 1), f32::INFINITY, &mut sc), Some(4.0));
    // The same with a closed (route-blocked) modifier cell instead of a hole.
    let g = ascii_grid(&["...", "...", "..."], 1.0);
    let mut m = ModifierLayer::new(&g);
    m.stamp_box(
        &g,
        &ModifierBox::aligned(Vec3::new(1.5, 1.0, 1.5), Vec3::new(0.2, 2.0, 0.2), true, RouteMode::Blocked),
    );
    let f = flow(&g, &m, at(&g, 0, 1));
    assert_eq!(f.distance(at(&g, 1, 0)), 2.0);
    assert_eq!(f.distance(at(&g, 2, 1)), 4.0);
    assert_eq!(path_length(&g, &m, at(&g, 2, 1), at(&g, 0, 1), f32::INFINITY, &mut sc), Some(4.0));
}

/// Ground floor 20 x 10 at y = 0; a solid ramp at x 2..12, z 0..2 rising 0.3 a cell to 3.0; an
/// upper floor at y = 3 over x 12..20 with the ground floor continuing below it.
fn two_floors() -> SurfaceGrid {
    let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 20, 10, |x, z, o| {
        if (2..12).contains(&x) && z < 2 {
            o.push(SurfaceSample::walkable(0.3 * (x as f32 - 1.0)));
        } else {
            o.push(SurfaceSample::walkable(0.0));
            if x >= 12 {
                o.push(SurfaceSample::walkable(3.0));
            }
        }
    });
    SurfaceGrid::bake(&s, BakeParams { agent_height: 1.8, max_step_height: 0.4, clearance_radius: 0.0 }).unwrap()
}

#[test]
fn two_floors_joined_by_a_ramp() {
    let g = two_floors();
    let m = ModifierLayer::new(&g);
    let below = g.locate(center(&g, 16, 6, 0.0)).unwrap();
    let above = g.locate(center(&g, 16, 6, 3.0)).unwrap();
    assert_ne!(below, above);
    assert_eq!(g.column_of(below), g.column_of(above));
    assert_eq!(g.surface_height(above), 3.0);
    // Straight up is not a step.
    assert!(g.links(below).iter().all(|&l| l == NONE || g.surface_height(l) == 0.0));

    let f = flow(&g, &m, above);
    // Ground (16,6) -> (2,2): 10 straight + 4 diagonal; onto the ramp at (2,1); 9 up the ramp;
    // onto the floor at (12,1); (12,1) -> (16,6): 1 straight + 4 diagonal.
    let want = 22.0 + 8.0 * SQRT_2;
    assert!((f.distance(below) - want).abs() < 1e-4, "{} vs {want}", f.distance(below));
    let mut sc = PathScratch::new();
    let p = path_length(&g, &m, below, above, f32::INFINITY, &mut sc).unwrap();
    assert!((p - want).abs() < 1e-4);

    let visited = walk(&g, &m, &f, center(&g, 16, 6, 0.0));
    let on_ramp = visited.iter().filter(|&&c| {
        let (x, z) = g.column_xz(g.column_of(c));
        (2..12).contains(&x) && z < 2
    });
    assert_eq!(on_ramp.count(), 10, "the route climbs every ramp cell");
    assert_eq!(*visited.last().unwrap(), above);
    assert!(walk_blended(&g, &m, &f, center(&g, 16, 6, 0.0)) > 0);
    // Back down: a target on the ground floor reached from upstairs.
    let f = flow(&g, &m, below);
    assert!((f.distance(above) - want).abs() < 1e-4);
}

#[test]
fn closed_cells_are_never_entered() {
    let rows = [".................", "................."];
    let rows: Vec<&str> = rows.iter().cycle().take(16).copied().collect();
    let g = ascii_grid(&rows, 0.5);
    let mut m = ModifierLayer::new(&g);
    // A closed wall across the room at z = 4 m with a gap at the right end, and a closed pillar.
    m.stamp_box(
        &g,
        &ModifierBox::aligned(Vec3::new(3.5, 1.0, 4.25), Vec3::new(7.0, 2.0, 0.5), true, RouteMode::Blocked),
    );
    m.stamp_box(
        &g,
        &ModifierBox::aligned(Vec3::new(4.0, 1.0, 2.0), Vec3::new(1.0, 2.0, 1.0), true, RouteMode::Blocked),
    );
    let target = at(&g, 1, 14);
    let f = flow(&g, &m, target);
    for x in 0..17 {
        for z in 0..3 {
            let visited = walk(&g, &m, &f, center(&g, x, z, 0.0));
            assert!(visited.iter().all(|&c| !m.route_blocked(c)));
            assert!(visited.iter().any(|&c| g.column_xz(g.column_of(c)).0 >= 14), "went through the gap");
            assert!(walk_blended(&g, &m, &f, center(&g, x, z, 0.0)) > 0);
        }
    }
    // A cell inside a closed box points back out.
    let inside = at(&g, 2, 8);
    assert!(m.route_blocked(inside));
    assert_ne!(f.direction(inside), Vec2::ZERO);
}

/// Corridors (cell 1 m): from S = (0,0) straight up through a door at (0,5) to T = (0,6): 6 m
/// plus the door's cost; or right along z = 0 to x = k, up, and back left along z = 6: 2k + 6 m.
fn door_or_entrance(k: u32, door_cost: f32) -> (SurfaceGrid, ModifierLayer, FlowField) {
    let rows: Vec<String> = (0..7)
        .map(|z| (0..=k).map(|x| if z == 0 || z == 6 || x == 0 || x == k { '.' } else { '#' }).collect())
        .collect();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let g = ascii_grid(&rows, 1.0);
    let mut m = ModifierLayer::new(&g);
    // A door leaf thinner than a cell: still closes its centre cell.
    let r = m.stamp_box(
        &g,
        &ModifierBox::aligned(
            Vec3::new(0.5, 1.0, 5.5),
            Vec3::new(1.0, 2.0, 0.1),
            false,
            RouteMode::ExtraCost(door_cost),
        ),
    );
    assert_eq!(r.cells, 1);
    let f = flow(&g, &m, at(&g, 0, 6));
    (g, m, f)
}

#[test]
fn extra_cost_changes_the_chosen_route() {
    let mut sc = PathScratch::new();
    // Door 6 + 10 = 16 against an entrance route of 14: the crowd files through the entrance.
    let (g, m, f) = door_or_entrance(4, 10.0);
    let s = at(&g, 0, 0);
    assert_eq!(f.distance(s), 14.0);
    assert_eq!(path_length(&g, &m, s, f.target(), f32::INFINITY, &mut sc), Some(14.0));
    assert_eq!(f.direction(s), Vec2::X);
    let visited = walk(&g, &m, &f, center(&g, 0, 0, 0.0));
    assert!(visited.contains(&at(&g, 4, 3)) && !visited.contains(&at(&g, 0, 5)));

    // Entrance moved out to 22: the door's 16 is shorter, the crowd goes for the door.
    let (g, m, f) = door_or_entrance(8, 10.0);
    let s = at(&g, 0, 0);
    assert_eq!(f.distance(s), 16.0);
    assert_eq!(path_length(&g, &m, s, f.target(), f32::INFINITY, &mut sc), Some(16.0));
    assert_eq!(f.direction(s), Vec2::Y);
    let visited = walk(&g, &m, &f, center(&g, 0, 0, 0.0));
    assert!(visited.contains(&at(&g, 0, 5)));

    // Damaged: cost halves to 5, 6 + 5 = 11 beats the 14 entrance too.
    let (g, _, f) = door_or_entrance(4, 5.0);
    assert_eq!(f.distance(at(&g, 0, 0)), 11.0);
    assert_eq!(f.direction(at(&g, 0, 0)), Vec2::Y);
}

#[test]
fn route_cost_ceiling_is_1024_cells_per_cell_entered() {
    // A 1-cell-deep door at cell size 0.5 in a 1-wide corridor: any cost acts as at most 512.
    let g = ascii_grid(&["...................."], 0.5);
    let mut m = ModifierLayer::new(&g);
    let r = m.stamp_box(
        &g,
        &ModifierBox::aligned(Vec3::new(5.25, 1.0, 0.25), Vec3::new(0.5, 2.0, 0.5), true, RouteMode::ExtraCost(1e9)),
    );
    assert!(r.clamped);
    assert_eq!(r.route_cost, 512.0);
    let f = flow(&g, &m, at(&g, 19, 0));
    assert_eq!(f.distance(at(&g, 0, 0)), 19.0 * 0.5 + 512.0);
    // Below the ceiling the cost is used as given.
    m.clear();
    let r = m.stamp_box(
        &g,
        &ModifierBox::aligned(Vec3::new(5.25, 1.0, 0.25), Vec3::new(0.5, 2.0, 0.5), true, RouteMode::ExtraCost(300.0)),
    );
    assert!(!r.clamped);
    assert_eq!(flow(&g, &m, at(&g, 19, 0)).distance(at(&g, 0, 0)), 9.5 + 300.0);
    // Blocking agents only: routes pass at no cost.
    m.clear();
    m.stamp_box(&g, &ModifierBox::aligned(Vec3::new(5.25, 1.0, 0.25), Vec3::new(0.5, 2.0, 0.5), true, RouteMode::Free));
    assert!(m.blocks_agents(at(&g, 10, 0)));
    assert_eq!(flow(&g, &m, at(&g, 19, 0)).distance(at(&g, 0, 0)), 9.5);
}

/// Plain Dijkstra straight from the rules, for comparison.
fn reference(g: &SurfaceGrid, m: &ModifierLayer, target: CellId) -> Vec<f32> {
    let n = g.cell_count();
    let mut dist = vec![f32::INFINITY; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    dist[target as usize] = 0.0;
    heap.push(Reverse((0u32, target)));
    while let Some(Reverse((_, c))) = heap.pop() {
        if done[c as usize] {
            continue;
        }
        done[c as usize] = true;
        for (d, &nb) in g.links(c).iter().enumerate() {
            if nb == NONE || m.route_blocked(nb) {
                continue;
            }
            let step = if d % 2 == 0 {
                g.cell_size()
            } else {
                let o1 = g.link(c, d - 1);
                let o2 = g.link(c, (d + 1) % 8);
                if o1 == NONE || o2 == NONE || m.route_blocked(o1) || m.route_blocked(o2) {
                    continue;
                }
                g.cell_size() * SQRT_2
            };
            let nd = dist[c as usize] + (step + m.entry_cost(nb, c));
            if nd < dist[nb as usize] {
                dist[nb as usize] = nd;
                heap.push(Reverse((nd.to_bits(), nb)));
            }
        }
    }
    dist
}

/// A random level: per column up to two surfaces from a few heights, some unwalkable.
fn random_level(dx: u32, dz: u32, seed: &[u8]) -> SurfaceGrid {
    let mut i = 0;
    let mut next = || {
        i += 1;
        seed[i % seed.len()] as u32 ^ (i as u32).wrapping_mul(2654435761) >> 24
    };
    let s = BakeSamples::from_fn(Vec3::new(-1.0, 0.0, 2.0), 0.5, dx, dz, |_, _, o| {
        let r = next();
        if r % 7 != 0 {
            o.push(SurfaceSample { height: [0.0, 0.3, 0.6, 0.2][(r as usize / 7) % 4], walkable: r % 13 != 0 });
        }
        if r % 5 == 0 {
            o.push(SurfaceSample::walkable(2.5 + (r % 3) as f32 * 0.3));
        }
    });
    SurfaceGrid::bake(&s, BakeParams { agent_height: 1.8, max_step_height: 0.35, clearance_radius: 0.0 }).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn integration_matches_reference_dijkstra(
        dx in 2u32..14,
        dz in 2u32..14,
        seed in proptest::collection::vec(any::<u8>(), 8..32),
        blocked in proptest::collection::vec(any::<u16>(), 0..12),
        costs in proptest::collection::vec((any::<u16>(), 0.0f32..20.0), 0..8),
        boxes in proptest::collection::vec((0.0f32..7.0, 0.0f32..7.0, 0.3f32..2.5, 0.3f32..2.5, 0.0f32..30.0), 0..3),
        target in any::<u16>(),
        budget in 1usize..40,
    ) {
        let g = random_level(dx, dz, &seed);
        let n = g.cell_count();
        prop_assume!(n > 0);
        let mut m = ModifierLayer::new(&g);
        for b in &blocked {
            m.stamp_cell(*b as u32 % n as u32, ROUTE_BLOCKED, 0.0);
        }
        for (c, cost) in &costs {
            m.stamp_cell(*c as u32 % n as u32, BLOCKS_AGENTS, *cost);
        }
        for (x, z, sx, sz, cost) in &boxes {
            m.stamp_box(&g, &ModifierBox::aligned(
                Vec3::new(*x - 1.0, 0.5, *z + 2.0), Vec3::new(*sx, 3.0, *sz), false, RouteMode::ExtraCost(*cost)));
        }
        let target = target as u32 % n as u32;
        let want = reference(&g, &m, target);

        let mut field = DistanceField::new();
        let mut job = IntegrationJob::new();
        integrate(&g, &m, target, &mut job, &mut field);
        for (c, (got, want)) in field.distances().zip(&want).enumerate() {
            prop_assert_eq!(got.to_bits(), want.to_bits(), "cell {}", c);
        }

        // Time-sliced: exactly the one-shot result, smooth distances included.
        let mut sliced = DistanceField::new();
        job.start(&g, target);
        let mut calls = 0;
        while !job.run(&g, &m, budget) {
            calls += 1;
            prop_assert!(calls <= n + 2);
        }
        prop_assert!(job.finish(&mut sliced));
        prop_assert_eq!(&sliced, &field);

        // Point-to-point lengths agree with the field.
        let mut sc = PathScratch::new();
        for from in (0..n as u32).step_by(3) {
            match path_length(&g, &m, from, target, f32::INFINITY, &mut sc) {
                Some(p) => prop_assert!((p - want[from as usize]).abs() <= 1e-4 * (1.0 + p), "{} vs {}", p, want[from as usize]),
                None => prop_assert!(!want[from as usize].is_finite() || m.route_blocked(from)),
            }
        }

        // Headings: unit or zero, zero exactly where there is no route (outside closed cells).
        let mut dir = DirectionField::new();
        dir.build(&g, &m, &field);
        for c in 0..n as u32 {
            let h = dir.direction(c);
            prop_assert!(h == Vec2::ZERO || (h.length() - 1.0).abs() < 1e-4);
            if !m.route_blocked(c) && c != target && g.is_walkable(c) {
                prop_assert_eq!(h != Vec2::ZERO, want[c as usize].is_finite());
            }
        }
    }
}

#[test]
fn time_sliced_build_equals_one_shot_on_a_large_grid() {
    let g = ascii_grid(&MAZE, 0.25);
    let mut m = ModifierLayer::new(&g);
    m.stamp_cell(at(&g, 4, 4), 0, 7.5);
    let target = at(&g, 0, 10);
    let mut one = DistanceField::new();
    let mut job = IntegrationJob::new();
    integrate(&g, &m, target, &mut job, &mut one);
    for budget in [1, 2, 7, 50] {
        let mut f = DistanceField::new();
        job.start(&g, target);
        while !job.run(&g, &m, budget) {}
        assert!(job.finish(&mut f));
        assert_eq!(f, one);
    }
}

// A minimal self-describing-free serde format (values in order, lengths before sequences), so
// the round trip goes through serde's derive and glam's impls without another crate.
mod tokens {
    use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
    use serde::ser::{self, Serialize};
    use std::fmt;

    #[derive(Clone, Debug, PartialEq)]
    pub enum Tok {
        Bool(bool),
        U32(u32),
        U64(u64),
        F32(f32),
        Len(usize),
    }

    #[derive(Debug)]
    pub struct Error(String);
    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }
    impl std::error::Error for Error {}
    impl ser::Error for Error {
        fn custom<T: fmt::Display>(m: T) -> Self {
            Error(m.to_string())
        }
    }
    impl de::Error for Error {
        fn custom<T: fmt::Display>(m: T) -> Self {
            Error(m.to_string())
        }
    }

    pub struct Ser(pub Vec<Tok>);

    macro_rules! unsupported {
        ($($name:ident($($t:ty),*) -> $r:ty;)*) => {
            $(fn $name(self, $(_: $t),*) -> Result<$r, Error> { Err(Error(stringify!($name).into())) })*
        };
    }

    impl ser::Serializer for &mut Ser {
        type Ok = ();
        type Error = Error;
        type SerializeSeq = Self;
        type SerializeTuple = Self;
        type SerializeTupleStruct = Self;
        type SerializeTupleVariant = ser::Impossible<(), Error>;
        type SerializeMap = ser::Impossible<(), Error>;
        type SerializeStruct = Self;
        type SerializeStructVariant = ser::Impossible<(), Error>;

        fn serialize_bool(self, v: bool) -> Result<(), Error> {
            self.0.push(Tok::Bool(v));
            Ok(())
        }
        fn serialize_u32(self, v: u32) -> Result<(), Error> {
            self.0.push(Tok::U32(v));
            Ok(())
        }
        fn serialize_u64(self, v: u64) -> Result<(), Error> {
            self.0.push(Tok::U64(v));
            Ok(())
        }
        fn serialize_f32(self, v: f32) -> Result<(), Error> {
            self.0.push(Tok::F32(v));
            Ok(())
        }
        fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
            self.0.push(Tok::Len(len.ok_or(Error("unsized seq".into()))?));
            Ok(self)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self, Error> {
            Ok(self)
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
            Ok(self)
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
            Ok(self)
        }
        unsupported! {
            serialize_i8(i8) -> (); serialize_i16(i16) -> (); serialize_i32(i32) -> (); serialize_i64(i64) -> ();
            serialize_u8(u8) -> (); serialize_u16(u16) -> (); serialize_f64(f64) -> (); serialize_char(char) -> ();
            serialize_str(&str) -> (); serialize_bytes(&[u8]) -> (); serialize_none() -> (); serialize_unit() -> ();
            serialize_unit_struct(&'static str) -> ();
            serialize_unit_variant(&'static str, u32, &'static str) -> ();
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> ser::Impossible<(), Error>;
            serialize_map(Option<usize>) -> ser::Impossible<(), Error>;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> ser::Impossible<(), Error>;
        }
        fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Error> {
            Err(Error("some".into()))
        }
        fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> Result<(), Error> {
            v.serialize(self)
        }
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Error> {
            Err(Error("variant".into()))
        }
    }

    macro_rules! compound {
        ($tr:ident, $m:ident $(, $key:ty)?) => {
            impl<'a> ser::$tr for &'a mut Ser {
                type Ok = ();
                type Error = Error;
                fn $m<T: ?Sized + Serialize>(&mut self, $(_: $key,)? v: &T) -> Result<(), Error> {
                    v.serialize(&mut **self)
                }
                fn end(self) -> Result<(), Error> {
                    Ok(())
                }
            }
        };
    }
    compound!(SerializeSeq, serialize_element);
    compound!(SerializeTuple, serialize_element);
    compound!(SerializeTupleStruct, serialize_field);
    compound!(SerializeStruct, serialize_field, &'static str);

    pub struct De(pub std::vec::IntoIter<Tok>);

    impl De {
        fn next(&mut self) -> Result<Tok, Error> {
            self.0.next().ok_or(Error("end of input".into()))
        }
    }

    struct Items<'a> {
        de: &'a mut De,
        left: usize,
    }

    impl<'de, 'a> SeqAccess<'de> for Items<'a> {
        type Error = Error;
        fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
            if self.left == 0 {
                return Ok(None);
            }
            self.left -= 1;
            seed.deserialize(&mut *self.de).map(Some)
        }
        fn size_hint(&self) -> Option<usize> {
            Some(self.left)
        }
    }

    impl<'de> de::Deserializer<'de> for &mut De {
        type Error = Error;

        fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            match self.next()? {
                Tok::Bool(b) => v.visit_bool(b),
                Tok::U32(x) => v.visit_u32(x),
                Tok::U64(x) => v.visit_u64(x),
                Tok::F32(x) => v.visit_f32(x),
                Tok::Len(n) => v.visit_seq(Items { de: self, left: n }),
            }
        }
        fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            self.deserialize_any(v)
        }
        fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
            v.visit_seq(Items { de: self, left: len })
        }
        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            len: usize,
            v: V,
        ) -> Result<V::Value, Error> {
            v.visit_seq(Items { de: self, left: len })
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            v: V,
        ) -> Result<V::Value, Error> {
            v.visit_seq(Items { de: self, left: fields.len() })
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct map enum identifier ignored_any
        }
    }
}

#[test]
fn serde_round_trip() {
    use serde::{Deserialize, Serialize};
    let g = two_floors();
    let mut ser = tokens::Ser(Vec::new());
    g.serialize(&mut ser).unwrap();
    // Links are derived on load, not stored: a handful of tokens per cell.
    assert!(ser.0.len() < g.cell_count() * 3 + g.column_count() + 64);
    let mut de = tokens::De(ser.0.clone().into_iter());
    let back = SurfaceGrid::deserialize(&mut de).unwrap();
    assert_eq!(back, g);
    // Inconsistent data is an error, not a panic.
    let mut bad = ser.0.clone();
    let i = bad.iter().position(|t| *t == tokens::Tok::Len(g.column_count() + 1)).unwrap();
    bad[i + 3] = tokens::Tok::U32(u32::MAX);
    assert!(SurfaceGrid::deserialize(&mut tokens::De(bad.into_iter())).is_err());
    // The compact byte form round-trips too.
    assert_eq!(SurfaceGrid::from_bytes(&g.to_bytes()).unwrap(), g);
}

#[test]
fn bake_and_fields_do_not_depend_on_thread_count() {
    let build = || {
        let s = BakeSamples::from_fn(Vec3::ZERO, 0.25, 300, 40, |x, z, o| {
            let wall = (x % 37 == 5 && z % 13 != 3) || (z % 11 == 7 && x % 29 > 3);
            if !wall {
                o.push(SurfaceSample::walkable(((x / 50) as f32) * 0.2));
            }
        });
        let g = SurfaceGrid::bake(&s, BakeParams { agent_height: 1.8, max_step_height: 0.3, clearance_radius: 0.3 })
            .unwrap();
        let mut m = ModifierLayer::new(&g);
        m.stamp_box(
            &g,
            &ModifierBox::aligned(Vec3::new(20.0, 1.0, 5.0), Vec3::new(1.0, 2.0, 3.0), true, RouteMode::ExtraCost(4.0)),
        );
        let t = g.nearest_walkable(Vec3::new(70.0, 0.0, 9.0), 8).unwrap();
        let f = flow(&g, &m, t);
        (g, f.distance, f.direction)
    };
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(build);
    let many = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap().install(build);
    assert_eq!(one.0, many.0);
    assert_eq!(one.1, many.1);
    assert_eq!(one.2, many.2);
    assert!(one.0.walkable_count() > 5_000, "{}", one.0.walkable_count());
}
