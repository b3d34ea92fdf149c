# Targets and managers in the orders a game's scenes produce: a target entering the tree before its
# manager (sibling order), a target added while no manager exists, a manager freed before its
# target, agents spawned on a manager before it enters the tree. All chase, none errs.
extends "res://test_base.gd"


func run() -> bool:
	var archetype := make_archetype()

	# 1. One scene added at once, the target (player) before the manager.
	var level := Node3D.new()
	level.name = "Level"
	var player := SwarmTarget.new()
	player.name = "Player"
	player.position = Vector3(0, 0, 0)
	level.add_child(player)
	var horde := SwarmManager.new()
	horde.name = "Horde"
	level.add_child(horde)
	add_child(level)
	var ids: Array[int] = []
	for i in 20:
		ids.append(horde.spawn_agent(archetype, Vector3(15, 0, i - 10.0)))
	await physics_frames(240)
	_expect_gathered(horde, ids, player, "target entered the tree before its manager")

	# 2. Manager freed while its target lives; then the target is freed too.
	horde.queue_free()
	await physics_frames(5)
	player.queue_free()
	await physics_frames(5)

	# 3. A target added while no manager exists; a manager (with agents spawned before it entered
	#    the tree) added later.
	var lonely := SwarmTarget.new()
	lonely.name = "Lonely"
	add_child(lonely)
	lonely.global_position = Vector3(-5, 0, 5)
	await physics_frames(5)
	var late := SwarmManager.new()
	late.name = "Late"
	var early_ids: Array[int] = []
	for i in 20:
		early_ids.append(late.spawn_agent(archetype, Vector3(-20, 0, i - 5.0)))
	check(early_ids.min() >= 0, "spawn_agent on a manager outside the tree failed: %s" % [early_ids])
	add_child(late)
	await physics_frames(240)
	check_eq(late.get_agent_count(), 20, "agent count of a manager that spawned before entering the tree")
	_expect_gathered(late, early_ids, lonely, "target added before any manager existed")
	return passed()


func _expect_gathered(m: SwarmManager, ids: Array[int], t: SwarmTarget, what: String) -> void:
	var chasing := 0
	var sum := 0.0
	for id in ids:
		if m.get_agent_target(id) == t:
			chasing += 1
		sum += m.get_agent_position(id).distance_to(t.global_position)
	var mean := sum / ids.size()
	print("scene_order: %s: %d/%d chase, mean distance %.2f m" % [what, chasing, ids.size(), mean])
	check(chasing == ids.size(), "%s: only %d of %d agents chase the target" % [what, chasing, ids.size()])
	check(mean < 5.0, "%s: mean distance to the target %.2f m after 4 s" % [what, mean])
