# PHYSICS_RAY sight: the manager casts a bounded number of sight rays per frame
# against sight_collision_mask. A wall between agents and the target hides it; agents with a clear
# line see it (the target's own body does not block); removing the wall reveals it.
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Eyes")
	manager.sight_rays_per_frame = 8
	var body := CharacterBody3D.new()
	var shape := CollisionShape3D.new()
	var capsule := CapsuleShape3D.new()
	shape.shape = capsule
	shape.position = Vector3(0, 1, 0)
	body.add_child(shape)
	add_child(body)
	body.global_position = Vector3(0, 0, 10)
	var target := SwarmTarget.new()
	body.add_child(target)
	# A wall between the left group and the target.
	var wall := add_static_box(self, Vector3(-6, 1.5, 5), Vector3(12, 3, 1))
	await physics_frames(2)

	var p := SwarmPerceptionProfile.new()
	p.sight_occlusion = SwarmPerceptionProfile.PHYSICS_RAY
	p.sight_distance = 30.0
	p.alert_spread_radius = 0.0
	p.search_enabled = false
	var a := make_archetype()
	a.perception_profile = p
	var hidden: Array[int] = []
	var clear: Array[int] = []
	for i in 5:
		hidden.append(manager.spawn_agent(a, Vector3(-10 + i, 0, 0)))
		clear.append(manager.spawn_agent(a, Vector3(7 + i, 0, 0)))
	var pos0 := manager.get_agent_position(hidden[2])
	await physics_frames(20)
	var s: Dictionary = manager.get_stats()
	print("wall: ", s["perception_chasing"], " chasing, ", s["perception_idle"], " idle")
	check_eq(s["perception_chasing"], 5, "agents with a clear line that see the target (its own body does not block)")
	var moved := manager.get_agent_position(hidden[2]).distance_to(pos0)
	check(moved < 1.5, "an agent behind the wall does not chase: moved %.2f m" % moved)

	wall.queue_free()
	await physics_frames(20)
	s = manager.get_stats()
	check(s["perception_chasing"] >= 9, "agents that see the target once the wall is gone: %d" % s["perception_chasing"])
	return passed()
