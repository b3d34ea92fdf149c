# A line order around a wall, over the baked surface flow field: an 80 x 80 m floor with a wall
# across z = 0 from x = 4 to the east edge; 32 agents in a blob at z = 28 (x = -1..9) get
# move_in_formation with the shipped line preset (spacing 1.5, two ranks of 16) to a destination
# at z = -22 whose line reaches x = 15, so about half of them (slots east of x = 4) must go around
# the wall's end while the others walk straight. Checks: no agent is ever inside the wall
# (sampled every frame); formation_arrived fires once; the arrival spread (first to last arrival
# counted by get_formation_progress, the API's own definition) is at most 10% of the planned
# travel time; the plan is measured on the routes around the wall (time_to_arrive x base_speed is
# the longest route's length as get_path_length measures it, not the straight distance); the
# straight paths of the agents whose line to their final position is clear of the wall do not
# cross one another (the slots are assigned so that paths do not cross; a crossing counts when it
# survives moving any end by less than the arrival radius, so agents walking one behind the other
# in a file do not count).
extends "res://test_base.gd"

const Common := preload("res://tests/formation_common.gd")

const COUNT := 32
const START := Vector3(4, 0, 28)
const DESTINATION := Vector3(4, 0, -22)
const WALL_X0 := 4.0
const WALL_X1 := 40.0
const WALL_HALF_Z := 0.5

var arrived_orders: Array[int] = []
var frame := 0
var arrived_frame := -1


func _on_arrived(order_id: int) -> void:
	arrived_orders.append(order_id)
	if arrived_frame < 0:
		arrived_frame = frame


func run() -> bool:
	var level := Node3D.new()
	add_child(level)
	add_static_box(level, Vector3(0, -0.5, 0), Vector3(80, 1, 80))
	add_static_box(level, Vector3((WALL_X0 + WALL_X1) * 0.5, 1.5, 0), Vector3(WALL_X1 - WALL_X0, 3, 2.0 * WALL_HALF_Z))
	await physics_frames(2)

	var manager := make_manager("Around")
	manager.bake_bounds = AABB(Vector3(-40, -1, -40), Vector3(80, 6, 80))
	manager.cell_size = 0.5
	if not check_eq(manager.bake_flow_field(), OK, "bake_flow_field"):
		return false
	manager.surface_flow_field_enabled = true
	manager.formation_arrived.connect(_on_arrived)

	var ids := Common.spawn_block(manager, make_archetype(), COUNT, START)
	var formation := Common.preset("line")
	formation.spacing = 1.5
	await physics_frames(2)
	var starts := Common.positions(manager, ids)

	var order := manager.move_in_formation(Common.packed(ids), DESTINATION, formation)
	if not check(order >= 1, "move_in_formation returned %d" % order):
		return false
	var planned: float = manager.get_formation_progress(order).get("time_to_arrive", 0.0)
	if not check(planned > 1.0 and planned < 120.0, "time_to_arrive %.2f s is implausible" % planned):
		return false

	var inside := 0
	var first_inside := ""
	var first_arrival := -1
	var all_arrived := -1
	var limit := int((planned * 1.5 + 10.0) * 60.0)
	while arrived_frame < 0 and frame < limit:
		await get_tree().physics_frame
		frame += 1
		for id in ids:
			var p := manager.get_agent_position(id)
			if p.x > WALL_X0 and p.x < WALL_X1 and absf(p.z) < WALL_HALF_Z:
				inside += 1
				if first_inside.is_empty():
					first_inside = "frame %d agent %d at %s" % [frame, id, p]
		var n: int = manager.get_formation_progress(order).get("arrived", 0)
		if n >= 1 and first_arrival < 0:
			first_arrival = frame
		if n >= COUNT and all_arrived < 0:
			all_arrived = frame
	await physics_frames(1)
	check(inside == 0, "%d agent samples inside the wall, first: %s" % [inside, first_inside])
	if not check(arrived_frame >= 0, "formation_arrived did not fire within %d frames (%.1f s planned); progress %s" % [limit, planned, manager.get_formation_progress(order)]):
		return false

	var ends := Common.positions(manager, ids)
	var longest_route := 0.0
	var longest_straight := 0.0
	var around := 0
	var clear_starts := PackedVector3Array()
	var clear_ends := PackedVector3Array()
	for i in COUNT:
		longest_route = maxf(longest_route, manager.get_path_length(starts[i], ends[i]))
		longest_straight = maxf(longest_straight, Common.flat(starts[i]).distance_to(Common.flat(ends[i])))
		# A straight path that would cross the wall (at z = 0, x within the wall).
		var t := starts[i].z / (starts[i].z - ends[i].z)
		if starts[i].lerp(ends[i], t).x > WALL_X0 - 0.4:
			around += 1
		else:
			clear_starts.append(starts[i])
			clear_ends.append(ends[i])
	var crossings := Common.crossing_pairs(clear_starts, clear_ends, formation.arrival_radius)
	print("wall: %d pairs of the %d straight walkers' paths cross" % [crossings.size(), clear_starts.size()])
	for c in crossings.slice(0, 4):
		print("wall:   crossing: %s -> %s and %s -> %s" % [clear_starts[c.x], clear_ends[c.x], clear_starts[c.y], clear_ends[c.y]])
	check(crossings.is_empty(), "%d pairs of straight paths (of the %d agents whose line is clear of the wall) cross" % [crossings.size(), clear_starts.size()])
	var spread_s := (all_arrived - first_arrival) / 60.0 if first_arrival >= 0 and all_arrived >= 0 else INF
	print("wall: %d of %d agents had to go around; planned %.2f s (x %.1f m/s = %.1f m; longest route %.1f m, longest straight %.1f m); formation_arrived at %.2f s; arrival spread %.2f s (%.1f%%)" % [
		around, COUNT, planned, formation.base_speed, planned * formation.base_speed, longest_route, longest_straight,
		arrived_frame / 60.0, spread_s, 100.0 * spread_s / planned])
	check(around >= COUNT / 4 and around <= COUNT * 3 / 4, "premise: %d of %d agents go around the wall (expected about half)" % [around, COUNT])
	check(spread_s <= 0.10 * planned, "arrival spread %.2f s is over 10%% of the travel time %.2f s" % [spread_s, planned])
	var plan_m := planned * formation.base_speed
	check(plan_m >= 0.9 * longest_route and plan_m <= 1.15 * longest_route + 1.0,
		"time_to_arrive x base_speed = %.1f m, the longest route around the wall is %.1f m" % [plan_m, longest_route])
	check(arrived_frame / 60.0 <= planned * 1.25 + 1.0, "formation_arrived at %.2f s, the plan was %.2f s" % [arrived_frame / 60.0, planned])
	await physics_frames(30)
	check(arrived_orders == [order], "formation_arrived fired with %s, expected once with %d" % [str(arrived_orders), order])
	return passed()
