# Agents chasing a target that is queue_free()d keep running without errors or NaN and forget it
# (get_agent_target returns null, never a freed object); a target added later is chased.
extends "res://test_base.gd"

const COUNT := 100


func run() -> bool:
	var manager := make_manager("Horde")
	var first := SwarmTarget.new()
	first.name = "First"
	add_child(first)
	first.global_position = Vector3.ZERO
	var archetype := make_archetype()
	var ids: Array[int] = []
	for i in COUNT:
		var a := TAU * i / COUNT
		ids.append(manager.spawn_agent(archetype, Vector3(cos(a) * 15.0, 0, sin(a) * 15.0)))
	check(ids.min() >= 0, "spawn failed")

	await physics_frames(120)
	var chasing := 0
	for id in ids:
		if manager.get_agent_target(id) == first:
			chasing += 1
	check(chasing == COUNT, "only %d of %d agents chase the only target" % [chasing, COUNT])
	var before := _mean_distance(manager, ids, Vector3.ZERO)
	check(before < 12.0, "agents did not approach the first target: mean distance %.2f" % before)

	first.queue_free()
	var non_finite := 0
	for frame in 120:
		await get_tree().physics_frame
		for id in ids:
			if not (manager.get_agent_position(id).is_finite() and manager.get_agent_velocity(id).is_finite()):
				non_finite += 1
	check(non_finite == 0, "%d non-finite positions/velocities after the target was freed" % non_finite)
	check_eq(manager.get_agent_count(), COUNT, "agent count after the target was freed")
	var dangling := 0
	for id in ids:
		var t = manager.get_agent_target(id)
		if t != null or is_instance_valid(t):
			dangling += 1
	check(dangling == 0, "%d agents still report a target after it was freed" % dangling)
	var stats := manager.get_stats()
	check_eq(stats.get("registered_targets"), 0, "registered_targets after the only target was freed")

	# A new target, 25 m away: the swarm goes there.
	var second := SwarmTarget.new()
	second.name = "Second"
	add_child(second)
	second.global_position = Vector3(25, 0, 0)
	var start := _mean_distance(manager, ids, second.global_position)
	await physics_frames(480)
	var end := _mean_distance(manager, ids, second.global_position)
	print("target_freed: mean distance to the second target %.2f -> %.2f m" % [start, end])
	check(end < 1.5 + 5.0, "agents did not gather at the second target: mean distance %.2f -> %.2f m" % [start, end])
	chasing = 0
	for id in ids:
		if manager.get_agent_target(id) == second:
			chasing += 1
	check(chasing == COUNT, "only %d of %d agents chase the second target" % [chasing, COUNT])
	for id in ids:
		if not manager.get_agent_position(id).is_finite():
			check(false, "agent %d has a non-finite position at the end" % id)
			break
	return passed()


func _mean_distance(manager: SwarmManager, ids: Array[int], to: Vector3) -> float:
	var sum := 0.0
	for id in ids:
		var p := manager.get_agent_position(id)
		sum += Vector2(p.x - to.x, p.z - to.z).length()
	return sum / ids.size()
