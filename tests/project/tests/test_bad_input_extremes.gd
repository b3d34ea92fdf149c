# Finite but absurd values and ids from elsewhere, fed through the public API as a script would:
# positions and sizes of 1e30, a ray 1e30 m long (its sample count would overflow), radii of
# 1e30, a formation destination 1e30 away, a flow modifier box and spawner shapes of 1e30, bake
# bounds of 1e30, and agent ids from another manager. Each is refused or clamped with a message
# naming the node and field (checked by the expect_error lines), nothing panics, and the
# agents stay finite.
# expect_error: SwarmManager 'Alpha': spawn_agent: position (1000000000000000000000000000000, 0, 0) is not finite or beyond 1e9 m; agent not spawned
# expect_error: set_agent_position: position (0, 0, 1000000000000000000000000000000) is not finite or beyond 1e9 m; agent not moved
# expect_error: SwarmTarget 'Bait': global_position (1000000000000000000000000000000, 0, 0) is not finite or beyond 1e9 m
# expect_error: emit_noise: position (1000000000000000000000000000000, 0, 0) must be finite and within 1e9 m
# expect_error: emit_noise: radius 1000000000000000000000000000000 must be a finite number of metres, 0 to 1e9
# expect_error: raycast_agents: from (-1000000000000000000000000000000, 1, -6) and to (1000000000000000000000000000000, 1, -6) must be finite and within 1e9 m
# expect_error: move_in_formation: destination is not a finite position
# expect_error: SwarmFlowModifier 'Door': size (1000000000000000000000000000000, 2, 1000000000000000000000000000000) or centre
# expect_error: SwarmRectSpawner 'HugeRect': size.x = 1000000000000000000000000000000 is outside 0..1000000; using 1000000
# expect_error: SwarmRectSpawner 'HugeRect': size.y = 1000000000000000000000000000000 is outside 0..1000000; using 1000000
# expect_error: SwarmRingSpawner 'HugeRing': outer_radius = 1000000000000000000000000000000 is outside 0..1000000; using 1000000
# expect_error: bake_flow_field: bake_bounds size (2000000000000000000000000000000, 2000000000000000000000000000000) at cell_size 0.5 makes
# expect_error: despawn_agent: agent id
# expect_error: is another manager's
extends "res://test_base.gd"

const HUGE := 1e30


func run() -> bool:
	await make_doorway_level()
	var a := make_flow_manager("Alpha", 200)
	var b := make_manager("Beta", 200)
	var archetype := make_archetype()
	var target := SwarmTarget.new()
	target.name = "Bait"
	a.add_child(target)
	target.position = Vector3(2, 0, 10)
	var ids := spawn_doorway_crowd(a, archetype, 30)
	var b_ids: Array[int] = []
	for i in 5:
		b_ids.append(b.spawn_agent(archetype, Vector3(i, 0, 30)))
	await physics_frames(5)

	# Positions of 1e30.
	check_eq(a.spawn_agent(archetype, Vector3(HUGE, 0, 0)), -1, "spawn_agent at 1e30")
	check(not a.set_agent_position(ids[0], Vector3(0, 0, HUGE)), "set_agent_position to 1e30")
	target.position = Vector3(HUGE, 0, 0)
	await physics_frames(2)
	target.position = Vector3(2, 0, 10)
	check(not a.emit_noise(Vector3(HUGE, 0, 0), 5.0), "emit_noise at 1e30")
	check(not a.emit_noise(Vector3(0, 0, 0), HUGE), "emit_noise radius 1e30")
	# Radii and boxes of 1e30 are legitimate queries: they take in every agent.
	check_eq(a.get_agents_in_radius(Vector3.ZERO, HUGE).size(), 30, "get_agents_in_radius 1e30")
	check_eq(a.damage_agents_in_radius(Vector3.ZERO, HUGE, 0.0), 30, "damage_agents_in_radius 1e30, amount 0")
	check(a.is_any_agent_inside(AABB(Vector3(-HUGE, -HUGE, -HUGE), Vector3(HUGE, HUGE, HUGE) * 2)), "is_any_agent_inside 1e30")
	check_eq(a.get_recyclable_agents(HUGE, 10).size(), 0, "get_recyclable_agents beyond 1e30")
	# Rays: endpoints beyond 1e9 m are refused; a 2e9 m ray (a sample count in the billions) is
	# cut to the agents' grid and finds the agent a 20 m ray finds.
	check(a.raycast_agents(Vector3(-HUGE, 1, -6), Vector3(HUGE, 1, -6)).is_empty(), "raycast_agents over 1e30")
	var row := a.get_agent_position(ids[5])
	var short := a.raycast_agents(Vector3(row.x - 10, 1, row.z), Vector3(row.x + 10, 1, row.z))
	var long := a.raycast_agents(Vector3(-1e9, 1, row.z), Vector3(1e9, 1, row.z))
	check(not short.is_empty() and short == long, "a 2e9 m ray hits as a 20 m one: %s against %s" % [long, short])
	check_eq(a.get_path_length(Vector3.ZERO, Vector3(HUGE, 0, 0)), -1.0, "get_path_length to 1e30")
	var wedge: SwarmFormation = load("res://addons/swarm/formations/wedge.tres")
	check_eq(a.move_in_formation(PackedInt64Array(ids.slice(0, 5)), Vector3(HUGE, 0, 0), wedge), -1, "move_in_formation to 1e30")

	# Sizes of 1e30.
	var door := add_doorway_door(a)
	door.size = Vector3(HUGE, 2, HUGE)
	await physics_frames(3)
	door.size = Vector3(2, 2.5, 1)
	await physics_frames(2)
	var rect := SwarmRectSpawner.new()
	rect.name = "HugeRect"
	rect.archetype = archetype
	rect.size = Vector2(HUGE, HUGE)
	a.add_child(rect)
	check_eq(rect.spawn(3).size(), 3, "a 1e30 rectangle spawns, clamped")
	var ring := SwarmRingSpawner.new()
	ring.name = "HugeRing"
	ring.archetype = archetype
	ring.outer_radius = HUGE
	a.add_child(ring)
	check_eq(ring.spawn(3).size(), 3, "a 1e30 ring spawns, clamped")
	a.bake_bounds = AABB(Vector3(-HUGE, -1, -HUGE), Vector3(HUGE * 2, 4, HUGE * 2))
	check(a.bake_flow_field() != OK, "a bake over 1e30 m")

	# Ids from another manager.
	for id in b_ids:
		check(not a.is_agent_alive(id), "Beta's id %d is alive in Alpha" % id)
	check(not a.despawn_agent(b_ids[0]), "Alpha despawned Beta's id")
	check_eq(b.get_agent_count(), 5, "Beta's agents after Alpha was given their ids")
	check_eq(a.get_agent_position(b_ids[1]), Vector3.ZERO, "Alpha's position of Beta's id")

	await physics_frames(10)
	var all_finite := true
	for id in a.get_agent_ids():
		all_finite = all_finite and finite(a.get_agent_position(id)) and finite(a.get_agent_velocity(id))
	check(all_finite, "agents stay finite")
	return passed()
