# Bad input from GDScript is refused or clamped with an error naming the node, method and field;
# nothing crashes and no NaN enters the world.
# expect_error: SwarmManager 'Guarded': spawn_agent: archetype is null
# expect_error: SwarmManager 'Guarded': spawn_agent: position (NaN, 0, 0) is not finite
# expect_error: SwarmManager 'Guarded': spawn_agent: position (0, 0, inf) is not finite
# expect_error: SwarmManager 'Guarded': spawn_agent: capacity reached (settings.max_agents = 10)
# expect_error: SwarmManager 'Guarded': despawn_agent: agent id
# expect_error: SwarmManager 'Guarded': get_agent_position: agent id
# expect_error: SwarmManager 'Guarded': get_agent_velocity: agent id
# expect_error: SwarmManager 'Guarded': get_agent_position: agent id -1 is stale
# expect_error: SwarmManager 'Guarded': set_agent_target: agent id
# expect_error: SwarmAgentArchetype (unsaved): agent_radius = NaN
# expect_error: SwarmAgentArchetype (unsaved): push_resistance = -3
# expect_error: SwarmAgentArchetype (unsaved): max_health = -1
# expect_error: SwarmBehaviorProfile (unsaved): surround_radius = NaN
# expect_error: SwarmBehaviorProfile (unsaved): spacing_radius = -2
# expect_error: SwarmBehaviorProfile (unsaved): approach_weight = inf
# expect_error: SwarmBehaviorProfile (unsaved): spacing_max_samples = -4
# expect_error: SwarmBehaviorProfile (unsaved): idle_period = 0
# expect_error: SwarmBehaviorProfile (unsaved): arrival_distance = -1
# expect_error: SwarmMovementProfile (unsaved): max_speed.x (min) = NaN
# expect_error: SwarmMovementProfile (unsaved): max_speed.y (max) = -5
# expect_error: SwarmMovementProfile (unsaved): max_speed has min
# expect_error: SwarmMovementProfile (unsaved): max_acceleration.x (min) = -1
# expect_error: SwarmMovementProfile (unsaved): max_acceleration.y (max) = inf
# expect_error: SwarmMovementProfile (unsaved): steering_response.x (min) = -1
# expect_error: SwarmMovementProfile (unsaved): steering_response.y (max) = -1
# expect_error: SwarmMovementProfile (unsaved): max_turn_speed.x (min) = NaN
# expect_error: SwarmMovementProfile (unsaved): max_turn_speed.y (max) = NaN
# expect_error: SwarmMovementProfile (unsaved): orientation_mode = 99
# expect_error: SwarmManager 'Misconfigured': SwarmSettings (unsaved): retarget_interval = NaN
# expect_error: SwarmManager 'Misconfigured': SwarmSettings (unsaved): target_stickiness = -1
# expect_error: SwarmManager 'Misconfigured': SwarmSettings (unsaved): body_blocking_iterations = -3
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Guarded", 10)
	check_eq(manager.get_capacity(), 10, "get_capacity with settings.max_agents = 10")
	var archetype := make_archetype()

	# Refused spawns: null archetype, NaN and infinite positions. Nothing is added.
	print("-- expecting: null archetype")
	check_eq(manager.spawn_agent(null, Vector3.ZERO), -1, "spawn_agent(null archetype)")
	print("-- expecting: NaN position")
	check_eq(manager.spawn_agent(archetype, Vector3(NAN, 0, 0)), -1, "spawn_agent(NaN position)")
	print("-- expecting: infinite position")
	check_eq(manager.spawn_agent(archetype, Vector3(0, 0, INF)), -1, "spawn_agent(infinite position)")
	check_eq(manager.get_agent_count(), 0, "agent count after refused spawns")

	# Capacity: 10 fit, the next two return -1 with an error.
	var ids: Array[int] = []
	for i in 10:
		ids.append(manager.spawn_agent(archetype, Vector3(i * 2.0, 0, 5.0)))
	check(ids.min() >= 0, "spawns within capacity failed: %s" % [ids])
	print("-- expecting: capacity x2")
	check_eq(manager.spawn_agent(archetype, Vector3(0, 0, -5)), -1, "11th spawn with max_agents = 10")
	check_eq(manager.spawn_agent(archetype, Vector3(1, 0, -5)), -1, "12th spawn with max_agents = 10")
	check_eq(manager.get_agent_count(), 10, "agent count when full")

	# Stale ids: despawn and getters report an error and return a neutral value.
	var stale: int = ids.pop_back()
	check(manager.despawn_agent(stale), "despawn of a live id")
	check(not manager.is_agent_alive(stale), "is_agent_alive(stale) is false")
	print("-- expecting: stale despawn")
	check(not manager.despawn_agent(stale), "second despawn of the same id returns false")
	print("-- expecting: stale get_agent_position")
	check_eq(manager.get_agent_position(stale), Vector3.ZERO, "get_agent_position(stale)")
	print("-- expecting: stale get_agent_velocity")
	check_eq(manager.get_agent_velocity(stale), Vector3.ZERO, "get_agent_velocity(stale)")
	print("-- expecting: never-issued id")
	check_eq(manager.get_agent_position(-1), Vector3.ZERO, "get_agent_position(-1)")
	print("-- expecting: stale set_agent_target")
	check(not manager.set_agent_target(stale, null), "set_agent_target(stale) returns false")
	check_eq(manager.get_agent_count(), 9, "agent count after the stale calls")
	for i in 4:  # room for the agents below
		check(manager.despawn_agent(ids.pop_back()), "despawn to make room")

	# An archetype without a mesh still simulates (not drawn: no MultiMesh).
	var target := SwarmTarget.new()
	target.name = "Bait"
	manager.add_child(target)  # an ancestor manager: unambiguous once a second manager exists
	target.global_position = Vector3(0, 0, 40)
	var invisible := SwarmAgentArchetype.new()
	print("-- spawning an archetype without a mesh (a warning is fine)")
	var ghost := manager.spawn_agent(invisible, Vector3(0, 0, 20))
	check(ghost >= 0, "spawn with an archetype without mesh returned %d" % ghost)

	# Out-of-range values set on resources from GDScript: clamped, never NaN in the world.
	var wild := make_archetype(BoxMesh.new())
	wild.agent_radius = NAN
	wild.push_resistance = -3.0
	wild.max_health = -1.0
	var behavior := SwarmBehaviorProfile.new()
	behavior.surround_radius = NAN
	behavior.spacing_radius = -2.0
	behavior.approach_weight = INF
	behavior.spacing_max_samples = -4
	behavior.idle_period = 0.0
	behavior.arrival_distance = -1.0
	wild.behavior_profile = behavior
	var movement := SwarmMovementProfile.new()
	movement.max_speed = Vector2(NAN, -5.0)
	movement.max_acceleration = Vector2(-1.0, INF)
	movement.steering_response = Vector2(-1.0, -1.0)
	movement.max_turn_speed = Vector2(NAN, NAN)
	movement.orientation_mode = 99
	wild.movement_profile = movement
	print("-- expecting: clamped archetype fields")
	var wild_ids: Array[int] = []
	for i in 3:
		wild_ids.append(manager.spawn_agent(wild, Vector3(i * 1.0, 0, 30.0)))
	check(wild_ids.min() >= 0, "spawn with clamped archetype failed: %s" % [wild_ids])
	var bad_settings := SwarmSettings.new()
	bad_settings.retarget_interval = NAN
	bad_settings.target_stickiness = -1.0
	bad_settings.body_blocking_iterations = -3
	var other := SwarmManager.new()
	other.name = "Misconfigured"
	other.settings = bad_settings
	print("-- expecting: clamped settings fields")
	add_child(other)
	var other_id := other.spawn_agent(archetype, Vector3(3, 0, 3))
	check(other_id >= 0, "spawn on a manager with clamped settings failed")

	var ghost_start := manager.get_agent_position(ghost)
	var non_finite := 0
	for frame in 180:
		await get_tree().physics_frame
		for id in manager.get_agent_ids():
			if not (manager.get_agent_position(id).is_finite() and manager.get_agent_velocity(id).is_finite()):
				non_finite += 1
		if not other.get_agent_position(other_id).is_finite():
			non_finite += 1
	check(non_finite == 0, "%d non-finite agent positions/velocities while stepping" % non_finite)
	var ghost_end := manager.get_agent_position(ghost)
	check(ghost_end.distance_to(ghost_start) > 1.0,
		"the agent without a mesh did not move toward the target: %s -> %s" % [ghost_start, ghost_end])
	check(manager.get_archetype_multimesh(invisible) == null, "an archetype without mesh got a MultiMesh")
	for id in wild_ids:
		check(manager.is_agent_alive(id), "agent with clamped archetype died")
	print("-- done")
	return passed()
