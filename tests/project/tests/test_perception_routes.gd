# Hearing and searching follow routes on the surface flow field: a noise 5 m away across a wall
# (about 17 m by the route through the doorway) with a radius of 8 m is not heard; one of 30 m
# is, and the agent walks to it round the wall through the doorway instead of standing at the
# wall on the straight line.
extends "res://test_base.gd"


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Routes")
	var a := make_archetype()
	var p := SwarmPerceptionProfile.new()
	p.search_enabled = true
	p.forget_time = 60.0
	a.perception_profile = p
	var id := manager.spawn_agent(a, Vector3(-6, 0, -2.5))
	await physics_frames(2)
	var noise := Vector3(-6, 0, 2.5)

	check(manager.emit_noise(noise, 8.0), "emit_noise 8 m")
	await physics_frames(2)
	check_eq(manager.get_stats().get("perception_investigating", -1), 0, "agents investigating a noise the wall stops")

	check(manager.emit_noise(noise, 30.0), "emit_noise 30 m")
	await physics_frames(2)
	check_eq(manager.get_stats().get("perception_investigating", -1), 1, "agents investigating the 30 m noise")
	var closest := INF
	for f in 900:
		await get_tree().physics_frame
		closest = minf(closest, manager.get_agent_position(id).distance_to(noise))
	check(closest < 1.5, "the agent reached the noise through the doorway: closest %.2f m" % closest)
	return passed()
