# Importance LOD and dormancy through the public API: get_stats() tier counts follow the ladder
# (near band Full up to full_quality_agent_cap, on-camera Reduced, far and unseen Cheap), far
# unseen agents go dormant and wake when the target comes near, and the debug view colours the
# MultiMesh instances by tier.
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Lod")
	var s := SwarmSettings.new()
	s.full_quality_agent_cap = 10
	s.lod_near_distance = 10.0
	s.lod_mid_distance = 30.0
	s.dormancy_distance = 80.0
	s.dormancy_delay = 0.5
	manager.settings = s
	var target := SwarmTarget.new()
	add_child(target)
	# A camera looking straight down at x = 60, seeing a patch of about 40 m around it.
	var cam := Camera3D.new()
	add_child(cam)
	cam.global_position = Vector3(60, 40, 0)
	cam.look_at(Vector3(60, 0, 0.001), Vector3.FORWARD)
	cam.current = true
	manager.visibility_camera = manager.get_path_to(cam)

	var still := SwarmBehaviorProfile.new()
	still.use_approach = false
	still.use_idle_motion = false
	var a := make_archetype()
	a.behavior_profile = still
	for i in 20:  # near band: 10 get Full, 10 overflow to Reduced
		manager.spawn_agent(a, Vector3(cos(i * 0.31) * 5.0, 0, sin(i * 0.31) * 5.0))
	for i in 5:  # on camera, far: Reduced (no Full slot left)
		manager.spawn_agent(a, Vector3(60 + i * 2.0, 0, 0))
	var far_ids: Array[int] = []
	for i in 7:  # far and unseen: Cheap, then dormant
		far_ids.append(manager.spawn_agent(a, Vector3(-150 - i * 2.0, 0, 0)))

	await physics_frames(2)
	var st := manager.get_stats()
	check_eq(st["lod_full"], 10, "lod_full (the cap)")
	check_eq(st["lod_reduced"], 15, "lod_reduced (near overflow + on camera)")
	check_eq(st["lod_cheap"], 7, "lod_cheap (far, off camera)")
	check_eq(st["dormant_count"], 0, "dormant before the delay")

	await physics_frames(45)
	st = manager.get_stats()
	check_eq(st["dormant_count"], 7, "far unseen agents dormant after the delay")

	# Move the target next to the sleepers: they wake.
	target.global_position = Vector3(-140, 0, 0)
	await physics_frames(2)
	check_eq(manager.get_stats()["dormant_count"], 0, "dormant after the target came near")

	# Debug view: per-instance colours; every instance also carries 4 floats of custom data.
	manager.debug_draw_lod_tiers = true
	await physics_frames(1)
	var mm := manager.get_archetype_multimesh(a)
	check(mm.use_colors, "debug view did not switch the MultiMesh to per-instance colours")
	check_eq(mm.buffer.size(), mm.instance_count * 20, "buffer floats with colours and custom data")
	check_eq(mm.instance_count, 32, "instances with the debug view on")
	manager.debug_draw_lod_tiers = false
	await physics_frames(1)
	check(not mm.use_colors, "debug view off still uses colours")
	check_eq(mm.buffer.size(), mm.instance_count * 16, "buffer floats with custom data only")
	return passed()
