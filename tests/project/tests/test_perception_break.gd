# Perception with a locked door ("Hiding What's Behind It"): a breakable door on
# EXTRA_COST with a high route cost hides the target from a NAVIGATION_PATH archetype until it
# breaks; then the agents see the target and reach it. The break noise reaches the manager too.
extends "res://test_base.gd"

var noises := 0


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Locked")
	var door := add_doorway_door(manager, SwarmFlowModifier.EXTRA_COST, 60.0)
	var lock := SwarmBreakable.new()
	lock.max_health = 500.0
	door.add_child(lock)
	lock.noise_made.connect(func(_at: Vector3, _r: float) -> void: noises += 1)

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 8)
	var p := SwarmPerceptionProfile.new()
	p.sight_occlusion = SwarmPerceptionProfile.NAVIGATION_PATH
	var attack := SwarmAttackProfile.new()
	var a := make_archetype()
	a.perception_profile = p
	a.attack_profile = attack
	var ids: Array[int] = []
	for i in 15:
		ids.append(manager.spawn_agent(a, Vector3(-1 + (i % 5) * 1.2, 0, -3 - (i / 5) * 1.2)))

	await physics_frames(240)
	var s: Dictionary = manager.get_stats()
	check_eq(s["perception_chasing"], 0, "agents that see through the locked door")
	check(is_equal_approx(lock.get_health(), 500.0), "nobody batters a door hiding nothing they know of: health %.1f" % lock.get_health())

	lock.break_now()
	await physics_frames(30)
	check(noises >= 1, "the break made a noise")
	s = manager.get_stats()
	check(s["perception_chasing"] >= 13, "agents that see the target once the door broke: %d" % s["perception_chasing"])
	await physics_frames(480)
	var near := count_within(manager, ids, target.global_position, 4.0)
	print("broken door: ", near, " of 15 reached the target")
	check(near >= 11, "agents that reached the target through the broken door: %d" % near)
	return passed()
