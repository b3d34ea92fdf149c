# Perception with a door: a NAVIGATION_PATH archetype does not see a target behind
# a closed door whose EXTRA_COST route cost is far above its occlusion_detour_tolerance, so nobody
# chases and nobody presses the door (only agents that are going somewhere press). Once the door
# opens (is_open) the same agents see the target and reach it.
extends "res://test_base.gd"


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Sight")
	var door := add_doorway_door(manager, SwarmFlowModifier.EXTRA_COST, 40.0)

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 6)
	var p := SwarmPerceptionProfile.new()
	p.sight_occlusion = SwarmPerceptionProfile.NAVIGATION_PATH
	p.sight_distance = 30.0
	p.occlusion_detour_tolerance = 4.0
	p.forget_time = 3.0
	var a := make_archetype()
	a.perception_profile = p
	var ids: Array[int] = []
	for i in 20:
		ids.append(manager.spawn_agent(a, Vector3(-2 + (i % 5) * 1.5, 0, -4 - (i / 5) * 1.2)))

	var pressed_max := 0
	for f in 300:
		await physics_frames(1)
		pressed_max = maxi(pressed_max, door.get_pressing_agent_count())
	var s: Dictionary = manager.get_stats()
	print("closed door: ", s["perception_chasing"], " chasing, ", s["perception_idle"], " idle, pressed at most ", pressed_max)
	check_eq(s["perception_chasing"], 0, "agents chasing a target hidden by a 40 m door")
	check_eq(s["perception_idle"], 20, "idle agents behind the closed door")
	check_eq(pressed_max, 0, "agents pressing the door while the target is hidden")
	var beyond := 0
	for id in ids:
		if manager.get_agent_position(id).z > 0.0:
			beyond += 1
	check_eq(beyond, 0, "agents past the closed door")

	door.is_open = true
	await physics_frames(60)
	s = manager.get_stats()
	check(s["perception_chasing"] >= 18, "agents that see the target through the open door: %d" % s["perception_chasing"])
	await physics_frames(420)
	var near := count_within(manager, ids, target.global_position, 4.0)
	print("open door: ", near, " of 20 reached the target")
	check(near >= 15, "agents that reached the target after the door opened: %d" % near)
	return passed()
