# SwarmFlowModifier through the public API as a door script uses it: a level with one doorway,
# a modifier box closing it. Closed, no agent gets through and the crowd presses it
# (get_pressing_agent_count); a door script flips is_open and the horde pours through; shutting
# it again stops the rest. Configuration warnings name the fix.
extends "res://test_base.gd"


func run() -> bool:
	await make_doorway_level()

	var manager := make_manager("Doors")
	manager.bake_bounds = AABB(Vector3(-20, -1, -20), Vector3(40, 6, 40))
	check_eq(manager.bake_flow_field(), OK, "bake_flow_field")

	var door := add_doorway_door(manager, SwarmFlowModifier.EXTRA_COST, 10.0)
	# Surface flow field still off: the warning names the fix.
	var warnings: PackedStringArray = door.get_setup_warnings()
	check(warnings.size() == 1 and "Surface Flow Field Enabled" in warnings[0], "warning with the field off: %s" % [warnings])
	manager.surface_flow_field_enabled = true
	warnings = door.get_setup_warnings()
	check(warnings.is_empty(), "warnings with everything set up: %s" % [warnings])
	door.route_cost = 100000.0
	warnings = door.get_setup_warnings()
	check(warnings.size() == 1 and "ceiling" in warnings[0], "warning past the route-cost ceiling: %s" % [warnings])
	door.route_cost = 10.0

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var a := make_archetype()
	var ids := spawn_doorway_crowd(manager, a)

	var pressing_max := 0
	for f in 600:
		await get_tree().physics_frame
		pressing_max = maxi(pressing_max, door.get_pressing_agent_count())
	await physics_frames(1)
	check_eq(count_past_doorway(manager, ids), 0, "agents past the closed door")
	check(pressing_max >= 3, "the crowd presses the closed door: at most %d at once" % pressing_max)

	door.is_open = true
	await physics_frames(600)
	var passed_open: int = count_past_doorway(manager, ids)
	check(passed_open >= 30, "%d of 40 went through the open door" % passed_open)
	check_eq(door.get_pressing_agent_count(), 0, "pressing an open door")

	# Shut it again on the stragglers: whoever is on this side stays.
	door.is_open = false
	await physics_frames(2)
	var after_shut: int = count_past_doorway(manager, ids)
	await physics_frames(300)
	check_eq(count_past_doorway(manager, ids), after_shut, "agents that got through after the door shut")
	door.force_update()
	await physics_frames(2)
	return passed()
