# A horde on the surface flow field, through the public API as a game would: a level of
# StaticBody3D boxes (floor, a long wall with one door), bake_flow_field(), agents spawned on one
# side chase a target on the other; they go around through the door, never stand inside the
# wall, and get_path_length() measures the route through the door. The baked resource saves and
# loads back into a working manager.
extends "res://test_base.gd"


func run() -> bool:
	var level := Node3D.new()
	add_child(level)
	add_static_box(level, Vector3(0, -0.5, 0), Vector3(40, 1, 40))          # floor, top at y = 0
	add_static_box(level, Vector3(-3, 1.5, 0), Vector3(34, 3, 1))          # wall along x, z in -0.5..0.5, from x = -20 to 14
	await physics_frames(2)

	var manager := make_manager("Flow")
	manager.bake_bounds = AABB(Vector3(-20, -1, -20), Vector3(40, 6, 40))
	manager.cell_size = 0.5
	check_eq(manager.bake_flow_field(), OK, "bake_flow_field")
	var data: SwarmFlowFieldData = manager.flow_field_data
	if not check(data != null and data.is_valid(), "no valid flow_field_data after baking"):
		return false
	manager.surface_flow_field_enabled = true

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(-10, 0, 8)
	var a := make_archetype()
	var ids: Array[int] = []
	for i in 40:
		ids.append(manager.spawn_agent(a, Vector3(-14 + (i % 10), 0, -6 - (i / 10))))

	# Route from the agents' side to the target goes through the door at x in 14..20.
	var route := manager.get_path_length(Vector3(-10, 0, -8), Vector3(-10, 0, 8))
	check(route > 30.0 and route < 60.0, "route through the door: %.1f m (straight: 16 m)" % route)

	var inside_wall := 0
	for f in 900:
		await get_tree().physics_frame
		if f % 15 == 0:
			for id in ids:
				var p := manager.get_agent_position(id)
				if p.x > -20.0 and p.x < 14.0 and absf(p.z) < 0.5:
					inside_wall += 1
	await physics_frames(1)
	check_eq(inside_wall, 0, "agent samples inside the wall")
	var near := count_within(manager, ids, target.global_position, 6.0)
	check(near >= 30, "%d of 40 agents reached the target behind the wall" % near)
	check(manager.get_stats()["flow_field_rebakes"] >= 1, "no field was built")

	# Save and load the baked field; a fresh manager follows it too.
	var path := "user://test_flow_chase_field.res"
	check_eq(ResourceSaver.save(data, path), OK, "ResourceSaver.save")
	var loaded: SwarmFlowFieldData = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	check(loaded != null and loaded.is_valid(), "loaded field is not valid")
	var m2 := make_manager("Loaded")
	m2.flow_field_data = loaded
	m2.surface_flow_field_enabled = true
	await physics_frames(1)
	var route2 := m2.get_path_length(Vector3(-10, 0, -8), Vector3(-10, 0, 8))
	check(is_equal_approx(route, route2), "route on the reloaded field %.2f vs %.2f" % [route2, route])
	return passed()
