//! The lane's rules, checked on runs of thousands of steps.

use super::*;
use crate::config::Range;

const DT: f32 = 1.0 / 60.0;

fn setup(length: f32, reverse: bool, window: Option<(f32, f32)>, anchor: Option<f32>, seed: u64) -> LaneSetup {
    LaneSetup {
        length,
        closed: false,
        reverse,
        vehicle_count: 0,
        window,
        anchor_offset: anchor,
        seed,
        kinds: vec![
            VehicleKind { half_length: 2.2, weight: 3.0 },
            VehicleKind { half_length: 1.8, weight: 1.0 },
            VehicleKind { half_length: 3.5, weight: 0.5 },
        ],
    }
}

/// Bumper-to-bumper gaps from the front back (the loop's front-to-tail gap included).
fn gaps(lane: &Lane) -> Vec<f32> {
    let n = lane.len();
    let mut out: Vec<f32> = (1..n)
        .map(|k| {
            let (a, b) = (lane.slot(k - 1), lane.slot(k));
            lane.travel(a) - lane.half_length(a) - lane.travel(b) - lane.half_length(b)
        })
        .collect();
    if lane.looping && n > 1 {
        let (f, t) = (lane.slot(0), lane.slot(n - 1));
        out.push(lane.travel(t) + lane.curve_length() - lane.half_length(t) - lane.travel(f) - lane.half_length(f));
    }
    out
}

fn assert_no_overlap(lane: &Lane, step: usize) {
    let brake = lane.profile().brake_gap;
    for (k, g) in gaps(lane).into_iter().enumerate() {
        assert!(g >= brake - 1e-3, "step {step}: gap {g} behind vehicle {k} is below the brake gap {brake}");
    }
}

/// Two lanes on one 3 km street under an anchor moving 6 m/s along the curve: the forward lane's
/// window runs past its back, the reverse lane's window eats its front.
fn street(profile: &TrafficProfile, seed: u64) -> (Lane, Lane) {
    let a = Lane::new(profile.clone(), &setup(3000.0, false, Some((60.0, 60.0)), Some(500.0), seed));
    let b = Lane::new(profile.clone(), &setup(3000.0, true, Some((60.0, 60.0)), Some(500.0), seed + 1));
    (a, b)
}

/// Mean speed of each lane over `steps` steps after a warm-up, the anchor moving 6 m/s.
fn street_flow(profile: &TrafficProfile, steps: usize) -> (f32, f32, u64, u64) {
    let (mut a, mut b) = street(profile, 7);
    let (mut sa, mut sb) = (0.0, 0.0);
    for i in 0..steps + 600 {
        let anchor = 500.0 + 6.0 * DT * i as f32;
        a.set_anchor(anchor);
        b.set_anchor(anchor);
        a.step(DT);
        b.step(DT);
        if i >= 600 {
            sa += a.stats().mean_speed;
            sb += b.stats().mean_speed;
        }
    }
    (sa / steps as f32, sb / steps as f32, a.recycled(), b.recycled())
}

#[test]
fn both_directions_flow_when_the_window_consumes_one_lanes_front() {
    let p = TrafficProfile::default();
    let (fwd, rev, rec_a, rec_b) = street_flow(&p, 3600);
    eprintln!(
        "crawl {} mean speed: with the anchor {fwd:.3}, against it {rev:.3}; recycled {rec_a}, {rec_b}",
        p.crawl_speed
    );
    assert!(rec_a > 20 && rec_b > 20, "both belts recycle: {rec_a}, {rec_b}");
    assert!(fwd >= 0.3 * p.crawl_speed, "lane moving with the window: {fwd}");
    assert!(rev >= 0.3 * p.crawl_speed, "lane whose front is consumed: {rev}");

    // The dead lane: with the brake gap at the packing gap a packed line has no headroom.
    let dead = TrafficProfile { brake_gap: p.packing_gap, ..p.clone() };
    assert!(!dead.problems().is_empty());
    let (_, rev_dead, _, _) = street_flow(&dead, 3600);
    eprintln!("brake gap == packing gap: the consumed lane's mean speed {rev_dead:.3}");
    assert!(rev_dead < 0.5 * rev, "equal gaps should starve the consumed lane: {rev_dead} vs {rev}");
}

#[test]
fn no_vehicle_ever_closes_below_the_brake_gap() {
    let p = TrafficProfile::default();
    let mut lanes = [
        Lane::new(p.clone(), &setup(400.0, false, None, None, 1)),
        Lane::new(p.clone(), &setup(400.0, true, None, None, 2)),
        Lane::new(p.clone(), &LaneSetup { closed: true, ..setup(300.0, false, None, None, 3) }),
        Lane::new(p.clone(), &LaneSetup { closed: true, ..setup(300.0, true, Some((40.0, 40.0)), Some(10.0), 4) }),
        Lane::new(p.clone(), &setup(3000.0, false, Some((50.0, 80.0)), Some(100.0), 5)),
        Lane::new(p.clone(), &setup(3000.0, true, Some((50.0, 80.0)), Some(100.0), 6)),
        Lane::new(TrafficProfile { brake_gap: 0.0, ..p.clone() }, &setup(400.0, false, None, None, 7)),
    ];
    for step in 0..6000 {
        for (i, lane) in lanes.iter_mut().enumerate() {
            if i >= 3 {
                lane.set_anchor(100.0 + 4.0 * DT * step as f32);
            }
            lane.step(DT);
            assert_no_overlap(lane, step);
        }
    }
}

#[test]
fn order_is_preserved_across_recycling() {
    let p = TrafficProfile::default();
    for reverse in [false, true] {
        let mut lane = Lane::new(p.clone(), &setup(3000.0, reverse, Some((40.0, 40.0)), Some(200.0), 11));
        let n = lane.len();
        let ring: Vec<usize> = (0..n).map(|k| lane.slot(k)).collect();
        for step in 0..6000 {
            // Back and forth, faster than the traffic, so both edges recycle.
            let t = step as f32 * DT;
            lane.set_anchor(200.0 + 300.0 * (t * 0.05).sin());
            lane.step(DT);
            let at = ring.iter().position(|&s| s == lane.slot(0)).unwrap();
            for k in 0..n {
                assert_eq!(lane.slot(k), ring[(at + k) % n], "step {step}: the ring turned out of order");
            }
            for k in 1..n {
                assert!(lane.travel(lane.slot(k)) < lane.travel(lane.slot(k - 1)), "step {step}: vehicle {k} passed");
            }
        }
        assert!(lane.recycled() > 2 * n as u64, "reverse {reverse}: only {} recycled", lane.recycled());
    }
}

#[test]
fn every_go_phase_covers_its_committed_distance() {
    let p = TrafficProfile::default();
    let mut lane = Lane::new(p.clone(), &setup(600.0, false, None, None, 21));
    let n = lane.len();
    // Per slot: (committed, covered, seconds blocked) of the go phase in progress.
    let mut phase: Vec<Option<(f32, f32, f32)>> = vec![None; n];
    let (mut finished, mut long_blocked) = (0, 0);
    for _ in 0..12_000 {
        let was: Vec<bool> = (0..n).map(|i| lane.rolling(i)).collect();
        lane.step(DT);
        for i in 0..n {
            if !was[i] && lane.rolling(i) {
                phase[i] = Some((lane.budget(i) + lane.moved(i), lane.moved(i), 0.0));
            } else if let Some((_, covered, blocked)) = phase[i].as_mut() {
                *covered += lane.moved(i);
                if lane.moved(i) < 1e-4 {
                    *blocked += DT;
                }
            }
            if was[i] && !lane.rolling(i) {
                if let Some((committed, covered, blocked)) = phase[i].take() {
                    assert!(covered >= committed - 1e-3, "go phase covered {covered} of {committed}");
                    assert!(committed >= p.go_distance.min * 2.0 * lane.half_length(i) - 1e-3);
                    finished += 1;
                    if blocked > 0.5 {
                        long_blocked += 1;
                    }
                }
            }
        }
    }
    eprintln!("{finished} go phases, {long_blocked} of them blocked for over half a second");
    assert!(finished > 500 && long_blocked > 20);
}

/// Stop events `(time, travel coordinate)` per slot: a vehicle's speed falling to `moving_speed`.
fn stop_events(lane: &mut Lane, steps: usize) -> Vec<Vec<(f32, f32)>> {
    let n = lane.len();
    let mut events = vec![Vec::new(); n];
    let mut moving: Vec<bool> = (0..n).map(|i| lane.is_moving(i)).collect();
    for step in 0..steps {
        lane.step(DT);
        for i in 0..n {
            let now = lane.is_moving(i);
            if moving[i] && !now {
                events[i].push((step as f32 * DT, lane.travel(i)));
            }
            moving[i] = now;
        }
    }
    events
}

#[test]
fn stops_travel_backward_along_the_line_as_a_wave() {
    let p = TrafficProfile::default();
    let mut lane = Lane::new(p.clone(), &LaneSetup { closed: true, ..setup(800.0, false, None, None, 31) });
    let n = lane.len();
    let events = stop_events(&mut lane, 20_000);
    // For each stop of a follower, the latest stop of its leader in the 4 s before it: the wave's
    // velocity between them (travel direction positive).
    let mut velocities = Vec::new();
    for k in 1..n {
        let (leader, follower) = (lane.slot(k - 1), lane.slot(k));
        for &(t, s) in &events[follower] {
            if let Some(&(tl, sl)) = events[leader].iter().rev().find(|(tl, _)| *tl <= t && t - *tl < 4.0) {
                if t > tl {
                    velocities.push((s - sl) / (t - tl));
                }
            }
        }
    }
    velocities.sort_by(f32::total_cmp);
    let stops: usize = events.iter().map(Vec::len).sum();
    let median = velocities[velocities.len() / 2];
    let backward = velocities.iter().filter(|v| **v < 0.0).count() as f32 / velocities.len() as f32;
    eprintln!(
        "{stops} stops, {} follow a leader's stop; wave velocity median {median:.2} m/s, {:.0}% backward",
        velocities.len(),
        backward * 100.0
    );
    assert!(velocities.len() * 2 > stops, "most stops follow a stop of the vehicle ahead");
    assert!(median < -1.0 && median > -40.0, "the wave travels backward at a plausible speed: {median}");
    assert!(backward > 0.9);
}

fn fingerprint(lane: &Lane) -> Vec<u32> {
    (0..lane.len()).flat_map(|k| [lane.travel(lane.slot(k)).to_bits(), lane.speed(lane.slot(k)).to_bits()]).collect()
}

#[test]
fn the_same_seed_gives_the_same_traffic() {
    let p = TrafficProfile::default();
    let run = |seed| {
        let mut lane = Lane::new(p.clone(), &setup(3000.0, true, Some((50.0, 70.0)), Some(300.0), seed));
        for i in 0..3000 {
            lane.set_anchor(300.0 + 5.0 * DT * i as f32);
            lane.step(DT);
        }
        (fingerprint(&lane), (0..lane.len()).map(|i| lane.kind(i)).collect::<Vec<_>>(), lane.recycled())
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5).0, run(6).0);
}

#[test]
fn a_closed_curve_loops() {
    let p = TrafficProfile::default();
    let mut lane = Lane::new(p.clone(), &LaneSetup { closed: true, ..setup(200.0, true, None, None, 41) });
    let n = lane.len();
    let first = lane.slot(0);
    let mut travelled = 0.0;
    for step in 0..20_000 {
        lane.step(DT);
        travelled += lane.moved(first);
        assert_no_overlap(&lane, step);
        for i in 0..n {
            let o = lane.offset(i);
            assert!((0.0..200.0).contains(&o) && lane.on_curve(i), "offset {o}");
        }
    }
    assert_eq!(lane.recycled(), 0);
    assert_eq!(lane.slot(0), first);
    assert!(travelled > 400.0, "went round at least twice: {travelled}");
}

#[test]
fn a_reversed_lane_drives_toward_the_start_of_the_curve() {
    let p = TrafficProfile::default();
    let mut lane = Lane::new(p, &setup(400.0, true, None, None, 51));
    let front = lane.slot(0);
    let before = lane.offset(front);
    for _ in 0..120 {
        lane.step(DT);
    }
    assert!(lane.offset(front) <= before && lane.moved(front) >= 0.0);
    assert!(before <= 5.0, "the reverse lane's front starts at the curve's start side: {before}");
}

#[test]
fn bad_settings_are_clamped() {
    let bad = TrafficProfile {
        crawl_speed: f32::NAN,
        acceleration: -3.0,
        braking: 1e9,
        packing_gap: -1.0,
        brake_gap: f32::INFINITY,
        go_distance: Range::new(5.0, -2.0),
        pause_time: Range::new(f32::NAN, 1e6),
        moving_speed: -1.0,
        volume_db: 100.0,
        earshot: f32::NAN,
        fade_time: -1.0,
        max_voices: 100_000,
        wake_radius: -5.0,
    };
    let mut findings = Vec::new();
    let p = bad.checked(&mut findings);
    assert!(findings.len() >= 13, "{findings:?}");
    assert_eq!(p.crawl_speed, 2.5);
    assert_eq!(p.acceleration, 0.01);
    assert_eq!(p.braking, 100.0);
    assert_eq!(p.max_voices, 256);
    assert!(p.go_distance.min <= p.go_distance.max);
    assert!(!p.problems().is_empty(), "brake gap above packing gap is reported");

    let mut lane = Lane::new(
        p.clone(),
        &LaneSetup {
            length: f32::NAN,
            closed: false,
            reverse: false,
            vehicle_count: usize::MAX,
            window: Some((f32::NAN, -1.0)),
            anchor_offset: Some(f32::INFINITY),
            seed: 0,
            kinds: vec![
                VehicleKind { half_length: f32::NAN, weight: f32::NAN },
                VehicleKind { half_length: -1.0, weight: -1.0 },
            ],
        },
    );
    assert!(lane.len() <= crate::bounds::traffic::MAX_VEHICLES as usize);
    for dt in [f32::NAN, -1.0, 1e9, DT] {
        lane.set_anchor(f32::NAN);
        lane.step(dt);
    }
    for i in 0..lane.len() {
        assert!(lane.travel(i).is_finite() && lane.speed(i).is_finite() && lane.half_length(i) > 0.0);
    }
}

#[test]
fn voices_go_only_to_moving_vehicles_in_earshot() {
    let p = TrafficProfile { max_voices: 3, earshot: 25.0, fade_time: 0.0, ..TrafficProfile::default() };
    let mut lane = Lane::new(p.clone(), &setup(400.0, false, None, None, 61));
    let mut pool = VoicePool::default();
    let n = lane.len();
    let mut dist2 = vec![0.0; n];
    let mut most = 0;
    for _ in 0..3000 {
        lane.step(DT);
        // The listener stands beside the curve at offset 200.
        for (i, d) in dist2.iter_mut().enumerate() {
            *d = (lane.offset(i) - 200.0).powi(2) + 9.0;
        }
        pool.update(&lane, &dist2, DT);
        assert!(pool.voices.len() <= 3);
        for v in pool.voices.iter().filter(|v| v.playing()) {
            let slot = v.vehicle.unwrap() as usize;
            assert!(lane.is_moving(slot) && dist2[slot] < 625.0, "a stopped or distant vehicle plays");
        }
        let want = (0..n).filter(|&i| lane.is_moving(i) && dist2[i] < 625.0).count().min(3);
        assert_eq!(pool.playing(), want, "every free voice goes to an audible vehicle");
        most = most.max(pool.playing());
    }
    assert_eq!(most, 3);
}

#[test]
fn voices_fade_over_the_fade_time() {
    let p =
        TrafficProfile { crawl_speed: 2.0, fade_time: 0.5, pause_time: Range::new(100.0, 100.0), ..Default::default() };
    let mut lane = Lane::new(p, &LaneSetup { vehicle_count: 1, ..setup(400.0, false, None, None, 71) });
    lane.rolling[0] = true;
    lane.budget[0] = 20.0;
    lane.speed[0] = 2.0;
    let mut pool = VoicePool::default();
    pool.update(&lane, &[0.0], 0.1);
    assert!((pool.voices[0].volume - 0.2).abs() < 1e-5);
    for _ in 0..4 {
        pool.update(&lane, &[0.0], 0.1);
    }
    assert!((pool.voices[0].volume - 1.0).abs() < 1e-5);
    lane.speed[0] = 0.0;
    pool.update(&lane, &[0.0], 0.25);
    assert!((pool.voices[0].volume - 0.5).abs() < 1e-5 && pool.playing() == 1, "fading out, still playing");
    pool.update(&lane, &[0.0], 0.25);
    assert_eq!(pool.playing(), 0, "silent: stopped and released");
    assert_eq!(pool.voices[0].vehicle, None);
}

#[test]
fn colliders_wake_near_the_actor_freeze_the_lane_and_sleep_after_the_time() {
    let p = TrafficProfile { wake_radius: 8.0, ..TrafficProfile::default() };
    let mut lane = Lane::new(p, &setup(400.0, false, None, None, 81));
    for _ in 0..300 {
        lane.step(DT);
    }
    let mut wake = Wake::default();
    wake.start(&mut lane, 1.0);
    let before = fingerprint(&lane);
    let mut actor = 100.0;
    let mut woken = 0;
    for step in 0..120 {
        let dist2: Vec<f32> = (0..lane.len()).map(|i| (lane.offset(i) - actor).powi(2)).collect();
        let change = wake.update(&mut lane, &dist2, DT);
        woken += change.woken;
        for i in 0..lane.len() {
            if wake.awake[i] && step < 59 {
                // Awake only if it was near the actor at some point (the actor moved 0.5 m/step).
                assert!(lane.offset(i) > 100.0 - 8.0 - 1e-3 && lane.offset(i) < actor + 8.0 + 1e-3);
            }
        }
        lane.step(DT);
        if step < 59 {
            assert!(lane.frozen());
            assert_eq!(lane.stats().moving, 0, "a frozen lane's vehicles stand");
            assert_eq!(fingerprint(&lane), before, "the lane does not move while colliders are awake");
        }
        if change.slept {
            assert_eq!(wake.awake_count(), 0);
            assert!(!lane.frozen());
        }
        actor += 0.2;
    }
    assert!(woken >= 2 && wake.awake_count() == 0 && wake.remaining.is_none());
    assert_ne!(fingerprint(&lane), before, "the lane moves on after the event");
}
