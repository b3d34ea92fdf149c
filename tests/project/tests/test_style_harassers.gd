# Horde style "harassers" (godot_project/demo/styles/harassers.tres: Orbit Style and Retreat, a
# quick long swing: hit and run), driven through the public API: 12 agents go for a still
# player. After 3 s every agent's distance to the target swings between the retreat distances:
# in below retreat_start_distance (plus 0.5 m), out past retreat_stop_distance (less 0.5 m),
# at least twice per agent in 15 s, never mobbing the target (closer than 1.5 m) nor wandering
# off (farther than the stop distance plus 1.5 m). Meanwhile they circle: each agent's bearing
# around the target advances at least 180 degrees, one way (its net turn is 70% or more of all
# the turning it did). Their swings land (target_attacked).
extends "res://test_base.gd"

const Util := preload("res://styles/style_util.gd")
const COUNT := 12
const SECONDS := 15.0
const SETTLE_FRAMES := 180

var hits := 0


func run() -> bool:
	check(Util.sync_problem("harassers").is_empty(), Util.sync_problem("harassers"))
	var style := Util.load_style("harassers")
	check(style != null, "harassers.tres did not load")
	if style == null:
		return passed()
	var b := style.behavior_profile
	check(b.use_orbit and b.use_retreat, "harassers: Orbit Style and Retreat are on")
	check(b.retreat_start_distance < b.retreat_stop_distance, "retreat starts inside where it stops")

	var manager := make_manager("Harassers")
	var target := SwarmTarget.new()
	add_child(target)
	manager.target_attacked.connect(func(_t: SwarmTarget, _amount: float, _id: int) -> void: hits += 1)
	var ids: Array[int] = []
	for p in Util.grid_points(Vector3(14, 0, 0), COUNT, 1.5, 0.15, 3):
		ids.append(manager.spawn_agent(style, p))

	var t := target.global_position
	var low := b.retreat_start_distance + 0.5
	var high := b.retreat_stop_distance - 0.5
	var prev := {}
	var net := {}
	var travelled := {}
	var nearest := {}
	var farthest := {}
	var cycles := {}
	var inside := {}
	for id in ids:
		prev[id] = Util.bearing(t, manager.get_agent_position(id))
		net[id] = 0.0
		travelled[id] = 0.0
		nearest[id] = INF
		farthest[id] = 0.0
		cycles[id] = 0
		inside[id] = false
	for f in int(SECONDS * 60):
		await get_tree().physics_frame
		for id in ids:
			var p := manager.get_agent_position(id)
			var a := Util.bearing(t, p)
			var step := wrapf(a - prev[id], -PI, PI)
			prev[id] = a
			net[id] += step
			travelled[id] += absf(step)
			var d := Util.flat_distance(p, t)
			if f >= SETTLE_FRAMES:
				nearest[id] = minf(nearest[id], d)
				farthest[id] = maxf(farthest[id], d)
			# One cycle: in below `low`, then back out past `high`.
			if not inside[id] and d < low:
				inside[id] = true
			elif inside[id] and d > high:
				inside[id] = false
				cycles[id] += 1
	await physics_frames(1)

	var cycling := 0
	var circling := 0
	for id in ids:
		print("harasser %d: distance %.1f..%.1f m after 3 s, %d in-and-out cycles, bearing advanced %+.0f degrees (%.0f turned in all)"
				% [id, nearest[id], farthest[id], cycles[id], rad_to_deg(net[id]), rad_to_deg(travelled[id])])
		check(nearest[id] > 1.5, "harasser %d came within %.2f m of the target" % [id, nearest[id]])
		check(farthest[id] < b.retreat_stop_distance + 1.5, "harasser %d went %.2f m away" % [id, farthest[id]])
		if cycles[id] >= 2:
			cycling += 1
		if absf(net[id]) >= PI and absf(net[id]) >= 0.7 * travelled[id]:
			circling += 1
	print("harassers: %d of %d went in and out at least twice, %d circled, %d hits" % [cycling, COUNT, circling, hits])
	check(cycling == COUNT, "only %d of %d harassers went in below %.1f m and back out past %.1f m twice" % [cycling, COUNT, low, high])
	check(circling == COUNT, "only %d of %d harassers circled the target (180 degrees or more, one way)" % [circling, COUNT])
	check(hits >= COUNT, "only %d hits landed: hit and run without the hit" % hits)
	return passed()
