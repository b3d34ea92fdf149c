//! The per-agent step: target choice, every steering behaviour blended, movement and turning,
//! for one agent, from read-only views of the step's start. Pure with respect to other agents,
//! so the world runs it in parallel over chunks.

use glam::{Vec2, Vec3, Vec4};

use crate::agents::{
    AgentParams, FLAG_COASTING, FLAG_DORMANT, FLAG_HOLDING, FLAG_ISOLATED, FLAG_PINNED, FLAG_PRESSING, FLAG_RETREATING,
    FLAG_WAITING,
};
use crate::archetype::ArchetypeRuntime;
use crate::config::{BehaviorProfile, OrientationMode};
use crate::contact_list::{self, ContactWriter};
use crate::formation::routes::RouteField;
use crate::formation::steer::{seat_move, SeatMove, LINE_CHECK_INTERVAL};
use crate::formation::{Formations, Order, Seat};
use crate::lod::{Every, LodSettings, CHEAP, FULL, REDUCED};
use crate::movement::{accelerate, desired_facing, turn};
use crate::movement_lanes::{move4, MoveIn4};
use crate::noise::hash01;
use crate::perception::{memory::spot_steer, Awareness, INVESTIGATING, SEARCHING};
use crate::spatial_grid::SpatialGrid;
use crate::steering::{
    approach::{approach, slot_dir},
    blend,
    hold_nearby::hold_nearby,
    idle::idle_wander,
    orbit::orbit,
    out_of_sight::follow_seers,
    personal_space::personal_space,
    predictive::predictive,
    retreat::retreat,
    surround_shape,
};
use crate::surface_nav::SurfaceNav;
use crate::targets::{choose_target, Targets};

/// Whether an agent outside any formation order takes `begin`'s resting path: dormant, with no
/// steering and no ground-plane velocity left (a dormant agent stops steering and brakes).
#[inline]
pub(crate) fn at_rest(flags: u8, steer: Vec2, vel: Vec3) -> bool {
    flags & FLAG_DORMANT != 0 && steer == Vec2::ZERO && vel.x == 0.0 && vel.z == 0.0
}

/// Read-only inputs of the per-agent step.
#[derive(Clone, Copy)]
pub(crate) struct StepCtx<'a> {
    /// Seconds this step covers (a far block's turn: its whole interval).
    pub dt: f32,
    /// The agents stepped with this context are a far block's on its turn (`far_blocks`): each
    /// takes its full (due) update and is marked waiting.
    pub far_turn: bool,
    pub time: f64,
    /// Height of the open ground, or NaN on a surface flow field (agents then keep their height
    /// until the field settles them).
    pub ground: f32,
    /// An agent of radius `r` whose Personal Space radius is at least `r + isolation_reach` and
    /// whose scan finds nobody within `r + isolation_reach` cannot touch anyone after this step's
    /// movement (the largest body radius plus both agents' largest step): see `FLAG_ISOLATED`.
    pub isolation_reach: f32,
    /// Where a Personal Space scan lists the records within that reach by the agent's grid
    /// rank, for body blocking (`contact_list`).
    pub contacts: &'a ContactWriter<'a>,
    pub tick: u32,
    pub retarget_interval: f32,
    pub hysteresis: f32,
    pub archetypes: &'a [ArchetypeRuntime],
    pub targets: &'a Targets,
    pub grid: &'a SpatialGrid,
    pub lod: &'a LodSettings,
    /// Each tier's update interval (by tier index), for the gate's divisibility test.
    pub every: [Every; 3],
    /// Agents chasing each target slot (for Surround Shape).
    pub target_counts: &'a [u32],
    /// Whether each agent sees its target (for Out-of-Sight Fallback).
    pub sees: &'a [bool],
    /// The surface flow field, if any: approach follows the target's field.
    pub nav: Option<&'a SurfaceNav>,
    /// Formation orders (agents with a seat follow theirs instead of their target).
    pub formations: &'a Formations,
}

/// Shared, read-only views of the agent arrays at the start of the step.
pub(crate) struct AgentIn<'a> {
    pub i: usize,
    pub pos: &'a [Vec3],
    pub vel: &'a [Vec3],
    pub params: &'a [AgentParams],
    pub arch: &'a [u16],
    pub seeds: &'a [u32],
    pub tiers: &'a [u8],
    pub cells: &'a [u32],
    pub aware: &'a [Awareness],
}

/// Per-agent fields the step reads and writes in place (only this agent reads them).
pub(crate) struct AgentState {
    pub target: u32,
    pub flags: u8,
    /// This step's Personal Space pull (Surround Shape's lane slide reads it).
    pub spacing: Vec2,
    /// The goal direction of the agent's last approach: a Reduced agent holding its steering
    /// faces it (the steering pass reads it from storage only for a holding step).
    pub goal: Vec2,
    /// Whether this step's approach set `goal` (the steering pass then stores it).
    pub approached: bool,
    /// Place in a formation order.
    pub seat: Seat,
}

/// Weight of an ordered agent's pull to its slot (Personal Space keeps its own weight).
const FORMATION_WEIGHT: f32 = 2.0;
/// Below this strength of everything else an agent counts as idle for Idle Motion.
const IDLE_BELOW: f32 = 0.3;
/// Slot radius of a pressing agent, as a fraction of the strike distance.
const PRESS_DEPTH: f32 = 0.7;

/// The blend of one step, accumulated as behaviours add their pulls (see `steering::blend`).
#[derive(Default)]
struct Contributions(blend::Blend);

impl Contributions {
    #[inline]
    fn add(&mut self, w: f32, v: Vec2) {
        self.0.add(w, v);
    }
}

/// What the Importance LOD gate decided for an agent that runs its full step.
#[derive(Clone, Copy)]
pub(crate) struct Gate {
    /// The agent updates its steering this step: every pull it blends is computed afresh. (An
    /// agent that is not due holds its steering or coasts: no step blends an old pull.)
    due: bool,
    /// Between its updates a Reduced agent holds its steering: it moves and turns, facing the
    /// goal of its last update, but blends nothing (its pulls would give nearly the same blend).
    hold: bool,
    /// Seconds this step's steering smoothing covers (a throttled agent's whole interval).
    dt: f32,
}

impl Gate {
    /// Whether the agent holds its steering this step (it then faces its stored goal).
    #[inline]
    pub fn holds(self) -> bool {
        self.hold
    }
}

/// What an agent's steering does this step (`StepCtx::advance`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Steering {
    /// Smoothed toward this step's blend.
    Smooths,
    /// Kept as it is (a Reduced agent between its updates).
    Holds,
    /// Dropped at once (a dormant agent brakes to a halt).
    Stops,
}

/// What the deciding half of an agent's step (`StepCtx::decide`) hands to its moving half
/// (`StepCtx::advance`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Intent {
    /// The blended steering (unit length at most; zero where nothing was blended).
    raw: Vec2,
    /// The goal direction the agent faces (by its orientation mode), or zero.
    goal: Vec2,
    /// The speed its steering is scaled by.
    speed: f32,
    /// Seconds its steering smoothing covers (`Gate`).
    dt: f32,
    /// The facing a formation seat asks for, overriding the orientation mode.
    facing: Option<Vec2>,
    steering: Steering,
    mode: OrientationMode,
}

impl<'a> StepCtx<'a> {
    /// The update interval of each tier, for `every`.
    pub fn intervals(lod: &LodSettings) -> [Every; 3] {
        [FULL, REDUCED, CHEAP].map(|t| Every::new(lod.budget(t, 1).0))
    }

    /// Target choice, then the Importance LOD gate. Reduced and Cheap agents refresh their
    /// neighbour-based and approach pulls every `interval` steps (staggered by seed) and blend
    /// their steering only then, smoothing it over the whole interval. Between its updates an
    /// awake Cheap agent (off camera, beyond the mid band) coasts: it keeps its steering and
    /// facing and only moves, and this returns its new position (`Err`) having touched nothing
    /// else. A Reduced agent between its updates holds its steering but still moves, turns and
    /// takes part in body blocking. A dormant agent at rest coasts in place (before any target
    /// choice: it keeps its target until it wakes).
    #[inline]
    pub fn begin(
        &self,
        a: &AgentIn,
        target: &mut u32,
        timer: &mut f32,
        flags: &mut u8,
        steer: Vec2,
        seat: &Seat,
    ) -> Result<Gate, Vec3> {
        let i = a.i;
        let seed = a.seeds[i];
        self.mark(flags);
        if seat.is_ordered() {
            // An agent in a formation order keeps its target for later, never dozes and takes
            // its full step every step (an order is a few agents the player watches).
            *flags &= !(FLAG_COASTING | FLAG_ISOLATED | FLAG_DORMANT);
            if seat.arrived {
                *flags |= FLAG_HOLDING;
            }
            return Ok(Gate { due: true, hold: false, dt: self.dt });
        }
        if at_rest(*flags, steer, a.vel[i]) {
            // It keeps its target (and its retarget countdown) until it wakes.
            return Err(self.rest(flags, a.pos[i]));
        }
        // Pinned agents keep their target; others re-evaluate on their cooldown or as soon as
        // their target leaves the active set.
        *timer -= self.dt;
        if *flags & FLAG_PINNED == 0 && (*timer <= 0.0 || !self.targets.get(*target).is_some_and(|t| t.active)) {
            *target = choose_target(self.targets, a.pos[i], *target, self.hysteresis);
            *timer = self.retarget_interval * (0.5 + hash01(seed, self.tick));
        }
        let tier = a.tiers[i];
        let (interval, _) = self.lod.budget(tier, 1);
        let due = interval <= 1 || self.far_turn || self.every[tier as usize].divides(self.tick.wrapping_add(seed));
        let dormant = *flags & FLAG_DORMANT != 0;
        let coasting = tier == CHEAP && !dormant;
        *flags &= !(FLAG_COASTING | FLAG_ISOLATED);
        if coasting && !due {
            *flags |= FLAG_COASTING;
            let (p3, prm) = (a.pos[i], &a.params[i]);
            let v = Vec2::new(a.vel[i].x, a.vel[i].z);
            return Err(self.moved(p3, accelerate(v, steer * prm.max_speed, prm, self.dt)));
        }
        let throttled = (coasting || tier == REDUCED) && !dormant && !self.far_turn;
        Ok(Gate { due, hold: throttled && !due, dt: if throttled { self.dt * interval as f32 } else { self.dt } })
    }

    /// The marks every step starts from: not holding a slot (an order marks it again), and
    /// waiting exactly when this is a far block's turn.
    #[inline]
    pub(crate) fn mark(&self, flags: &mut u8) {
        *flags = (*flags & !(FLAG_HOLDING | FLAG_WAITING)) | if self.far_turn { FLAG_WAITING } else { 0 };
    }

    /// The resting path of `begin` for an agent `at_rest` (already `mark`ed):
    /// it stays put at no cost until it wakes. Marks it coasting and returns its position.
    #[inline]
    pub(crate) fn rest(&self, flags: &mut u8, p: Vec3) -> Vec3 {
        *flags = (*flags & !FLAG_ISOLATED) | FLAG_COASTING;
        Vec3::new(p.x, self.height(p), p.z)
    }

    /// The deciding half of the step of an agent that `begin` let through: target pursuit and
    /// every steering behaviour blended (or the held goal), nothing of its motion. Writes its
    /// flags, Personal Space pull, stored goal and seat; its facing, turn rate and steering are
    /// `advance`'s to change.
    #[inline]
    pub fn decide(&self, a: &AgentIn, st: &mut AgentState, gate: Gate) -> Intent {
        let i = a.i;
        let rt = &self.archetypes[a.arch[i] as usize];
        let b = &rt.config.behavior;
        let prm = &a.params[i];
        let seed = a.seeds[i];
        let Gate { due, hold, dt } = gate;
        let samples = self.lod.budget(a.tiers[i], b.spacing_max_samples).1;

        let mut c = Contributions::default();
        let mut intent = Intent {
            raw: Vec2::ZERO,
            goal: Vec2::ZERO,
            speed: prm.max_speed,
            dt,
            facing: None,
            steering: if hold { Steering::Holds } else { Steering::Smooths },
            mode: rt.config.movement.orientation_mode,
        };
        if let Some(order) = self.order_of(&st.seat) {
            let mv = self.seat_step(a, st, order, &mut c, samples);
            // Personal Space turns an ordered agent aside but does not slow it: it keeps the
            // pace its seat asks for (its pull's length), or it would fall behind in a crowd.
            intent.raw = c.0.result().normalize_or_zero() * mv.pull.length();
            intent.goal = mv.pull.normalize_or_zero();
            intent.speed = mv.speed;
            intent.facing = mv.facing;
        } else if hold {
            // Facing still follows the stored goal, unless the agent is not chasing it.
            if rt.acts_on_target(&a.aware[i]) {
                intent.goal = st.goal;
            }
        } else if st.flags & FLAG_DORMANT == 0 {
            // (Only a due agent gets here: one between its updates holds or coasts.)
            debug_assert!(due);
            intent.goal = self.behaviours(a, st, rt, &mut c, samples);
            intent.raw = c.0.result();
            // Idle Motion fills in only when nothing else moves the agent.
            if b.use_idle_motion {
                let others = intent.raw.length();
                if others < IDLE_BELOW {
                    let fade = 1.0 - others / IDLE_BELOW;
                    c.add(b.idle_weight, idle_wander(seed, self.time, b.idle_period, b.idle_strength) * fade);
                    intent.raw = c.0.result();
                }
            }
        }
        if st.flags & FLAG_DORMANT != 0 {
            intent.steering = Steering::Stops;
        }
        intent
    }

    /// The moving half of an agent's step (after `decide`): its steering smoothed toward the
    /// blend, its velocity accelerated, its turn toward the facing it wants; returns its new
    /// position. Reads only the agent's own columns and `intent`, so a run of agents can decide
    /// first and move after (the short moving loop then overlaps one agent's chain of square
    /// roots and divisions with the next one's).
    #[inline]
    pub fn advance(
        &self,
        a: &AgentIn,
        intent: &Intent,
        steer: &mut Vec2,
        facing: &mut Vec2,
        yaw_rate: &mut f32,
    ) -> Vec3 {
        let i = a.i;
        let prm = &a.params[i];
        let p3 = a.pos[i];
        let v = Vec2::new(a.vel[i].x, a.vel[i].z);
        match intent.steering {
            // A dormant agent stops steering at once and brakes to a halt (in a fraction of a
            // second at its braking acceleration), after which it rests at no cost; smoothing
            // its steering to zero would keep it creeping, and paying, for seconds.
            Steering::Stops => *steer = Vec2::ZERO,
            Steering::Smooths => *steer = blend::smooth(*steer, intent.raw, prm.steering_response, intent.dt),
            Steering::Holds => {}
        }
        let new_v = accelerate(v, *steer * intent.speed, prm, self.dt);

        let wanted = intent.facing.or_else(|| {
            desired_facing(intent.mode, new_v, intent.goal, prm.goal_facing_weight, prm.velocity_facing_weight)
        });
        match wanted {
            // Nobody sees a Cheap agent turn (drawn agents are never Cheap): it faces where it
            // wants at once, so it already does when it walks into view.
            Some(f) if a.tiers[i] == CHEAP => (*facing, *yaw_rate) = (f.normalize_or(*facing), 0.0),
            Some(f) => (*facing, *yaw_rate) = turn(*facing, *yaw_rate, f, prm, self.dt),
            None => *yaw_rate = 0.0,
        }
        self.moved(p3, new_v)
    }

    /// `advance` for four agents at once (indices `is`; their own columns at `ks` in `steer`,
    /// `facing` and `yaw_rate`), lane by lane with the same float operations (`movement_lanes`):
    /// their new positions, or `None` (nothing moved) unless each smooths its steering toward
    /// its blend, no seat sets its facing, none is Cheap (each turns as it goes) and all share
    /// an orientation mode.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn advance4(
        &self,
        a: &AgentIn,
        is: [usize; 4],
        intents: [&Intent; 4],
        ks: [usize; 4],
        steer: &mut [Vec2],
        facing: &mut [Vec2],
        yaw_rate: &mut [f32],
    ) -> Option<[Vec3; 4]> {
        let mode = intents[0].mode;
        let lanes_take = |(t, &i): (&&Intent, &usize)| {
            t.steering == Steering::Smooths && t.facing.is_none() && a.tiers[i] != CHEAP && t.mode == mode
        };
        if !intents.iter().zip(&is).all(lanes_take) {
            return None;
        }
        let prm = is.map(|i| &a.params[i]);
        let lanes = |f: &dyn Fn(usize) -> f32| Vec4::new(f(0), f(1), f(2), f(3));
        let vel = is.map(|i| a.vel[i]);
        let m = MoveIn4 {
            steer: [lanes(&|l| steer[ks[l]].x), lanes(&|l| steer[ks[l]].y)],
            raw: [lanes(&|l| intents[l].raw.x), lanes(&|l| intents[l].raw.y)],
            response: lanes(&|l| prm[l].steering_response),
            smooth_dt: lanes(&|l| intents[l].dt),
            speed: lanes(&|l| intents[l].speed),
            vel: [lanes(&|l| vel[l].x), lanes(&|l| vel[l].z)],
            braking: lanes(&|l| prm[l].braking_acceleration),
            max_accel: lanes(&|l| prm[l].max_acceleration),
            goal: [lanes(&|l| intents[l].goal.x), lanes(&|l| intents[l].goal.y)],
            goal_w: lanes(&|l| prm[l].goal_facing_weight),
            vel_w: lanes(&|l| prm[l].velocity_facing_weight),
            facing: [lanes(&|l| facing[ks[l]].x), lanes(&|l| facing[ks[l]].y)],
            rate: lanes(&|l| yaw_rate[ks[l]]),
            max_turn_speed: lanes(&|l| prm[l].max_turn_speed),
            max_turn_accel: lanes(&|l| prm[l].max_turn_acceleration),
        };
        let out = move4(&m, mode, self.dt);
        Some(std::array::from_fn(|l| {
            let k = ks[l];
            steer[k] = Vec2::new(out.steer[0][l], out.steer[1][l]);
            facing[k] = Vec2::new(out.facing[0][l], out.facing[1][l]);
            yaw_rate[k] = out.rate[l];
            self.moved(a.pos[is[l]], Vec2::new(out.vel[0][l], out.vel[1][l]))
        }))
    }

    /// Where an agent at `p` ends the step at ground-plane velocity `v`, before settling.
    #[inline]
    fn moved(&self, p: Vec3, v: Vec2) -> Vec3 {
        let np = Vec2::new(p.x, p.z) + v * self.dt;
        Vec3::new(np.x, self.height(p), np.y)
    }

    /// The formation order an agent follows, if any.
    #[inline]
    fn order_of(&self, seat: &Seat) -> Option<&'a Order> {
        seat.is_ordered().then(|| self.formations.get(seat.order)).flatten()
    }

    /// An ordered agent's step: its seat's pull (see `formation::steer`) and Personal Space;
    /// nothing of its target, no idle motion, no holding near others.
    #[inline]
    fn seat_step(
        &self,
        a: &AgentIn,
        st: &mut AgentState,
        order: &Order,
        c: &mut Contributions,
        samples: u32,
    ) -> SeatMove {
        let i = a.i;
        let b = &self.archetypes[a.arch[i] as usize].config.behavior;
        let field = self.nav.and_then(|n| {
            let field = n.formation_field(order.field).filter(|f| f.target() == order.dest_cell)?;
            Some(RouteField { grid: &n.grid, mods: &n.mods, field })
        });
        let check = LINE_CHECK_INTERVAL.max(1);
        let check_line = self.tick.wrapping_add(a.seeds[i]).is_multiple_of(check);
        let (p, cell, speed) = (a.pos[i], a.cells[i], a.params[i].max_speed);
        let mv = seat_move(order, &mut st.seat, p, cell, speed, self.time, check_line, field);
        c.add(FORMATION_WEIGHT, mv.pull);
        if b.use_personal_space {
            c.add(b.spacing_strength, self.spacing(a, st, b, samples));
        }
        mv
    }

    /// Height of a moved agent before settling: the open ground, or where it stood.
    #[inline]
    fn height(&self, p: Vec3) -> f32 {
        if self.ground.is_nan() {
            p.y
        } else {
            self.ground
        }
    }

    /// Adds every enabled behaviour's pull (except Idle Motion), the neighbour-based ones from at
    /// most `samples` neighbours; returns the goal direction.
    #[inline]
    fn behaviours(
        &self,
        a: &AgentIn,
        st: &mut AgentState,
        rt: &ArchetypeRuntime,
        c: &mut Contributions,
        samples: u32,
    ) -> Vec2 {
        let i = a.i;
        let b = &rt.config.behavior;
        let seed = a.seeds[i];
        let p = Vec2::new(a.pos[i].x, a.pos[i].z);
        let y = a.pos[i].y;
        // A perceiving agent acts on its target only while it sees it; otherwise it may walk to
        // the spot it searches (last seen, alerted) or the noise it investigates.
        let aware = rt.config.perception.as_ref().map(|_| a.aware[i]);
        let target = self.targets.get(st.target).filter(|_| rt.acts_on_target(&a.aware[i]));
        let sees = self.sees[i];
        let mut goal = Vec2::ZERO;

        if let Some(t) = target {
            let tp = Vec2::new(t.position.x, t.position.z);
            let tv = Vec2::new(t.velocity.x, t.velocity.z);
            let dist = p.distance(tp);
            let mut retreating = false;
            if b.use_retreat {
                let (push, on) =
                    retreat(p, tp, b.retreat_start_distance, b.retreat_stop_distance, st.flags & FLAG_RETREATING != 0);
                retreating = on;
                st.flags = if on { st.flags | FLAG_RETREATING } else { st.flags & !FLAG_RETREATING };
                c.add(b.retreat_weight, push);
            }
            if sees && !retreating {
                if b.use_approach {
                    let mut radius = if b.use_surround_shape {
                        let count = self.target_counts.get(st.target as usize).copied().unwrap_or(0);
                        surround_shape::slot_radius(b, count, seed)
                    } else {
                        b.surround_radius
                    };
                    let mut queued = false;
                    if b.use_pressure {
                        if st.flags & FLAG_PRESSING != 0 {
                            radius = b.strike_distance * PRESS_DEPTH;
                        } else if dist <= b.strike_distance + b.queue_gap + b.arrival_distance {
                            radius = radius.max(b.strike_distance + b.queue_gap);
                            queued = true;
                        }
                    }
                    // Around walls the target's flow field leads; with a clear run the slot.
                    let field =
                        self.nav.and_then(|n| n.steer(st.target, a.cells[i], a.pos[i], dist, b.surround_near_band));
                    let [s, g] = match field {
                        Some(dir) => [dir, dir],
                        None => {
                            let ap = approach(p, tp, tv, dist, slot_dir(seed), radius, b);
                            [ap.steer, ap.goal_dir]
                        }
                    };
                    c.add(b.approach_weight, s);
                    goal = g;
                    (st.goal, st.approached) = (g, true);
                    if queued {
                        // Queued agents circle, waiting for their turn.
                        c.add(b.approach_weight * b.queue_circle_strength, orbit(p, tp, radius, 0, seed));
                    }
                }
                if b.use_predictive {
                    let lead = predictive(
                        p,
                        tp,
                        tv,
                        a.params[i].max_speed,
                        b.look_ahead_time,
                        b.max_prediction_distance,
                        b.surround_near_band,
                    );
                    c.add(b.predictive_weight, lead);
                }
                if b.use_orbit {
                    c.add(b.orbit_weight, orbit(p, tp, b.orbit_radius, b.orbit_direction, seed));
                    if goal == Vec2::ZERO {
                        goal = (tp - p).normalize_or_zero();
                    }
                }
            }
            if b.use_personal_space {
                c.add(b.spacing_strength, self.spacing(a, st, b, samples));
                if b.use_surround_shape && dist < b.surround_near_band {
                    c.add(b.spacing_strength, surround_shape::lane_slide(p, tp, st.spacing, b.lane_slide_strength));
                }
            }
            if b.use_out_of_sight && !sees {
                c.add(b.approach_weight, self.follow(a, b, samples));
            }
        } else {
            if let Some(w) = aware.filter(|w| w.mode == SEARCHING || w.mode == INVESTIGATING) {
                let s = spot_steer(
                    self.nav,
                    st.target,
                    a.cells[i],
                    a.pos[i],
                    w.spot,
                    b.arrival_distance,
                    b.surround_near_band,
                );
                c.add(b.approach_weight, s);
                goal = s.normalize_or_zero();
            }
            if b.use_personal_space {
                c.add(b.spacing_strength, self.spacing(a, st, b, samples));
            }
            if aware.is_some() && b.use_out_of_sight {
                c.add(b.approach_weight, self.follow(a, b, samples));
            }
        }
        if b.use_hold_nearby {
            let n = b.hold_max_samples.min(samples.max(2));
            c.add(b.hold_strength, hold_nearby(i as u32, p, y, b.hold_radius, n, self.grid));
        }
        goal
    }

    /// Personal Space, from at most `samples` neighbours.
    #[inline]
    fn spacing(&self, a: &AgentIn, st: &mut AgentState, b: &BehaviorProfile, samples: u32) -> Vec2 {
        let p = a.pos[a.i];
        let xz = Vec2::new(p.x, p.z);
        let seed = a.seeds[a.i];
        // Which way the capped walk goes, by a coin per update (see `personal_space`).
        let backward = crate::noise::hash2(seed, self.tick) & 1 == 1;
        // Alone within the reach of any contact this step's movement could make: body
        // blocking can skip the agent (`FLAG_ISOLATED`).
        let contact = a.params[a.i].radius + self.isolation_reach;
        let (r, grid) = (b.spacing_radius, self.grid);
        let alone;
        if a.tiers[a.i] == FULL {
            // A Full agent's scan lists its contacts for body blocking (`contact_list`).
            let rank = self.grid.rank()[a.i] as usize;
            // SAFETY: the agent's rank is its own (ranks are a permutation of the agents).
            let slots = unsafe { self.contacts.slots(rank) };
            let listed;
            (st.spacing, alone, listed) =
                personal_space::<true>(a.i as u32, seed, backward, xz, p.y, r, samples, contact, grid, slots);
            // SAFETY: as above.
            unsafe { self.contacts.finish(rank, self.tick, listed) };
        } else {
            // The others' capped scans stop early too often for a list to pay.
            let mut unused = [0; contact_list::CAP + 1];
            (st.spacing, alone, _) =
                personal_space::<false>(a.i as u32, seed, backward, xz, p.y, r, samples, contact, grid, &mut unused);
        }
        if alone {
            st.flags |= FLAG_ISOLATED;
        }
        st.spacing
    }

    /// Out-of-Sight Fallback: toward allies that see the target, from at most `samples` of them.
    #[inline]
    fn follow(&self, a: &AgentIn, b: &BehaviorProfile, samples: u32) -> Vec2 {
        let p = a.pos[a.i];
        let n = b.follow_max_samples.min(samples.max(2));
        follow_seers(a.i as u32, Vec2::new(p.x, p.z), p.y, b.follow_radius, n, self.grid, self.sees)
    }
}
