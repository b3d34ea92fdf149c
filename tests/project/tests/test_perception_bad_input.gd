# Bad perception input: a negative sight distance and an unknown occlusion mode
# on a SwarmPerceptionProfile are clamped with a message naming the resource and field; NaN or
# negative noises are refused with a message. Nothing crashes and no NaN enters the world.
# expect_error: SwarmPerceptionProfile (unsaved): sight_distance = -5 is outside
# expect_error: SwarmPerceptionProfile (unsaved): sight_occlusion = 7 is outside 0..2
# expect_error: emit_noise: position
# expect_error: emit_noise: radius -1
# expect_error: emit_noise: radius inf
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Bad")
	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(0, 0, 5)
	var p := SwarmPerceptionProfile.new()
	p.sight_distance = -5.0
	p.sight_occlusion = 7
	var a := make_archetype()
	a.perception_profile = p
	var ids: Array[int] = []
	for i in 10:
		ids.append(manager.spawn_agent(a, Vector3(i - 5, 0, -5)))
	check(not manager.emit_noise(Vector3(NAN, 0, 0), 5.0), "a NaN noise is refused")
	check(not manager.emit_noise(Vector3(0, 0, 0), -1.0), "a negative radius is refused")
	check(not manager.emit_noise(Vector3(0, 0, 0), INF), "an infinite radius is refused")
	await physics_frames(60)
	# sight_distance clamped to 0: nobody sees anything.
	check_eq(manager.get_stats()["perception_chasing"], 0, "agents seeing with sight_distance 0")
	for id in ids:
		check(finite(manager.get_agent_position(id)), "finite position of agent %d" % id)
	return passed()
