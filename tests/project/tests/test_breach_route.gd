# The README's route choice ("How the Crowd Decides: Go Around or Break Through") in a real level:
# a wall with a door (SwarmFlowModifier EXTRA_COST, route_cost 10, blocks_agents, with a
# SwarmBreakable child, damaged_route_cost_scale 0.5) and an open entrance farther along. The
# entrance route is shorter than door + 10 but longer than door + 5, so the first wave files
# through the entrance and nobody presses the door; once the breakable crosses into DAMAGED the
# route cost halves and the second wave piles onto the door instead.
extends "res://test_base.gd"

const WALL_Z := 0.0
const ENTRANCE_X := 9.0
var crossings_entrance := 0
var crossings_door := 0
var last_z := {}
var states: Array[int] = []


func spawn_wave(manager: SwarmManager, a: SwarmAgentArchetype, n: int) -> Array[int]:
	var ids: Array[int] = []
	for i in n:
		var id := manager.spawn_agent(a, Vector3(-2.0 + (i % 5) * 1.0, 0, -8.0 - (i / 5) * 1.0))
		ids.append(id)
		last_z[id] = manager.get_agent_position(id).z
	return ids


## Records, for every agent, through which opening it crossed the wall line.
func track(manager: SwarmManager, ids: Array[int]) -> void:
	for id in ids:
		var p := manager.get_agent_position(id)
		var z0: float = last_z.get(id, p.z)
		if z0 < WALL_Z and p.z >= WALL_Z:
			if absf(p.x - ENTRANCE_X) < 2.0:
				crossings_entrance += 1
			elif absf(p.x) < 2.0:
				crossings_door += 1
		last_z[id] = p.z


func run() -> bool:
	var level := Node3D.new()
	add_child(level)
	add_static_box(level, Vector3(0, -0.5, 0), Vector3(60, 1, 40))
	# Wall along z = 0: door opening x in -1..1, entrance x in 8..10.
	add_static_box(level, Vector3(-15.5, 1.5, 0), Vector3(29, 3, 1))
	add_static_box(level, Vector3(4.5, 1.5, 0), Vector3(7, 3, 1))
	add_static_box(level, Vector3(20, 1.5, 0), Vector3(20, 3, 1))
	await physics_frames(2)

	var manager := make_manager("Breach")
	manager.bake_bounds = AABB(Vector3(-30, -1, -20), Vector3(60, 6, 40))
	check_eq(manager.bake_flow_field(), OK, "bake_flow_field")
	manager.surface_flow_field_enabled = true

	var door := SwarmFlowModifier.new()
	door.name = "Door"
	door.size = Vector3(2, 2.5, 1)
	door.route = SwarmFlowModifier.EXTRA_COST
	door.route_cost = 10.0
	door.blocks_agents = true
	manager.add_child(door)
	door.position = Vector3(0, 0, WALL_Z)
	var breakable := SwarmBreakable.new()
	breakable.max_health = 1000.0
	breakable.damaged_below = 0.5
	breakable.damaged_route_cost_scale = 0.5
	breakable.crowd_pressure_per_agent = 0.5
	breakable.strike_damage_scale = 0.1
	door.add_child(breakable)
	breakable.state_changed.connect(func(s: int) -> void: states.append(s))

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(0, 0, 10)
	await physics_frames(2)

	# The numbers: route through the open door, and with the door shut (closed = +10) the way
	# around through the entrance.
	var from := Vector3(0, 0, -8)
	var to := Vector3(0, 0, 10)
	door.is_open = true
	await physics_frames(1)
	var door_len := manager.get_path_length(from, to)
	door.is_open = false
	await physics_frames(1)
	var closed_len := manager.get_path_length(from, to)
	# With the door at +10 the shortest route is the one through the entrance.
	var entrance_len := closed_len
	var via_entrance := manager.get_path_length(from, Vector3(ENTRANCE_X, 0, WALL_Z)) + manager.get_path_length(Vector3(ENTRANCE_X, 0, WALL_Z), to)
	print("door %.2f, door + 10 = %.2f, door + 5 = %.2f, entrance route %.2f (via its centre %.2f)" % [door_len, door_len + 10.0, door_len + 5.0, entrance_len, via_entrance])
	check(door_len > 0.0 and entrance_len > 0.0, "routes measured")
	check(door_len + 10.0 > entrance_len, "door + 10 (%.2f) is longer than the entrance (%.2f)" % [door_len + 10.0, entrance_len])
	check(door_len + 5.0 < entrance_len, "door + 5 (%.2f) is shorter than the entrance (%.2f)" % [door_len + 5.0, entrance_len])
	check(closed_len < door_len + 9.0 and absf(closed_len - via_entrance) < 1.5, "with the door shut the shortest route is the entrance: %.2f" % closed_len)

	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 10.0
	var a := make_archetype()
	a.attack_profile = attack

	# Wave 1: intact door, the crowd goes around.
	var wave1 := spawn_wave(manager, a, 30)
	var press_max1 := 0
	for f in 480:
		await get_tree().physics_frame
		track(manager, wave1)
		press_max1 = maxi(press_max1, door.get_pressing_agent_count())
	await physics_frames(1)
	var entrance1 := crossings_entrance
	var door1 := crossings_door
	print("wave 1 (intact): %d through the entrance, %d through the door, at most %d pressing, health %.1f" % [entrance1, door1, press_max1, breakable.get_health()])
	check(entrance1 >= 25, "wave 1 files through the entrance: %d of 30" % entrance1)
	check_eq(door1, 0, "wave 1 through the door")
	check_eq(press_max1, 0, "agents pressing the intact door")
	check(is_equal_approx(breakable.get_health(), 1000.0), "nobody hit the intact door: %.1f" % breakable.get_health())

	# Damage it into DAMAGED: route cost halves to 5.
	breakable.apply_damage(550.0, {"source": manager})
	check_eq(breakable.get_state(), SwarmBreakable.DAMAGED, "state after 550 damage")
	check_eq(states, [SwarmBreakable.DAMAGED] as Array[int], "state_changed")
	check(is_equal_approx(door.route_cost, 5.0), "route cost once damaged: %.2f" % door.route_cost)
	await physics_frames(2)
	var damaged_len := manager.get_path_length(from, to)
	print("route once damaged %.2f (door %.2f + 5), entrance %.2f" % [damaged_len, door_len, entrance_len])
	check(damaged_len < entrance_len - 1.0, "the damaged door is now the shorter route: %.2f < %.2f" % [damaged_len, entrance_len])

	# Wave 2: same spawn, the crowd goes for the door.
	crossings_entrance = 0
	crossings_door = 0
	var health_before := breakable.get_health()
	var wave2 := spawn_wave(manager, a, 30)
	var press_max2 := 0
	for f in 480:
		await get_tree().physics_frame
		track(manager, wave2)
		press_max2 = maxi(press_max2, door.get_pressing_agent_count())
	await physics_frames(1)
	var entrance2 := crossings_entrance
	var at_door := 0
	for id in wave2:
		var p := manager.get_agent_position(id)
		if p.z < WALL_Z and p.z > -5.0 and absf(p.x) < 3.5:
			at_door += 1
	var taken := health_before - breakable.get_health()
	print("wave 2 (damaged): %d through the entrance, %d through the door, %d queued at the door, at most %d pressing, door took %.1f (health %.1f)" % [entrance2, crossings_door, at_door, press_max2, taken, breakable.get_health()])
	check(press_max2 >= 3, "the crowd presses the damaged door: at most %d at once" % press_max2)
	check(taken > 0.0, "the crowd wears the damaged door down: %.1f" % taken)
	check(entrance2 <= entrance1 / 3, "entrance use drops: %d -> %d of 30" % [entrance1, entrance2])
	check(at_door >= 15, "most of wave 2 piles onto the door: %d of 30" % at_door)
	return passed()
