# Changing capacity (a fresh simulation world) while the manager has no agents keeps the surface
# flow field and its modifiers: routes still go through the door, and a closed door still stops.
extends "res://test_base.gd"


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Rebuilt", 100)
	var door := add_doorway_door(manager, SwarmFlowModifier.BLOCKED)
	await physics_frames(2)
	check_eq(manager.get_path_length(Vector3(-5, 0, -5), Vector3(-5, 0, 5)), -1.0, "route with the only door blocked")
	# A new capacity while empty makes a new world.
	manager.settings.max_agents = 200
	await physics_frames(2)
	check_eq(manager.get_capacity(), 200, "capacity after the change")
	check_eq(manager.get_path_length(Vector3(-5, 0, -5), Vector3(-5, 0, 5)), -1.0, "route with the door blocked, after the new world")
	door.is_open = true
	await physics_frames(2)
	var route := manager.get_path_length(Vector3(-5, 0, -5), Vector3(-5, 0, 5))
	check(route > 10.0 and route < 30.0, "route through the opened door after the new world: %.1f" % route)
	return passed()
