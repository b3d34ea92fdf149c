# A manager taken out of the tree and put back (under another parent) keeps its agents and ids,
# does not step while out, resumes stepping when back, and still chases the target; no errors.
extends "res://test_base.gd"

const COUNT := 60


func run() -> bool:
	var manager := make_manager("Nomad")
	var target := SwarmTarget.new()
	target.name = "Player"
	add_child(target)
	target.global_position = Vector3.ZERO
	var archetype := make_archetype()
	var ids: Array[int] = []
	for i in COUNT:
		var a := TAU * i / COUNT
		ids.append(manager.spawn_agent(archetype, Vector3(cos(a) * 25.0, 0, sin(a) * 25.0)))
	check(ids.min() >= 0, "spawn failed")
	await physics_frames(60)
	var ticks_before: int = manager.get_stats().get("ticks", -1)
	var mean_before := _mean_distance(manager, ids)
	check(mean_before < 24.0, "agents did not start chasing: mean distance %.2f" % mean_before)

	# Out of the tree: nothing steps.
	remove_child(manager)
	var frozen := {}
	for id in ids:
		frozen[id] = manager.get_agent_position(id)
	await physics_frames(30)
	check_eq(manager.get_agent_count(), COUNT, "agent count while out of the tree")
	var moved := 0
	for id in ids:
		if not manager.is_agent_alive(id) or manager.get_agent_position(id).distance_to(frozen[id]) > 1e-4:
			moved += 1
	check(moved == 0, "%d agents moved or died while the manager was out of the tree" % moved)
	check_eq(manager.get_stats().get("ticks", -1), ticks_before, "ticks while out of the tree")

	# Back in, under another parent at the same place: stepping and chasing resume.
	var holder := Node3D.new()
	holder.name = "Holder"
	add_child(holder)
	holder.add_child(manager)
	await physics_frames(240)
	var ticks_after: int = manager.get_stats().get("ticks", -1)
	check(ticks_after >= ticks_before + 200, "ticks did not resume: %d -> %d" % [ticks_before, ticks_after])
	check_eq(manager.get_agent_count(), COUNT, "agent count after re-adding")
	var alive := 0
	for id in ids:
		if manager.is_agent_alive(id) and manager.get_agent_position(id).is_finite():
			alive += 1
	check_eq(alive, COUNT, "agents alive with finite positions after re-adding")
	var mean_after := _mean_distance(manager, ids)
	print("reparent: mean distance %.2f before removal, %.2f after 4 s back in the tree" % [mean_before, mean_after])
	check(mean_after < mean_before - 8.0, "agents stopped chasing after re-adding: %.2f -> %.2f m" % [mean_before, mean_after])
	var chasing := 0
	for id in ids:
		if manager.get_agent_target(id) == target:
			chasing += 1
	check(chasing == COUNT, "only %d of %d agents chase the target after re-adding" % [chasing, COUNT])
	var ok := false
	for child in manager.get_children(true):
		if child is MultiMeshInstance3D and child.multimesh != null and child.multimesh.instance_count == COUNT:
			ok = true
	check(ok, "no MultiMeshInstance3D drawing the %d agents after re-adding" % COUNT)
	return passed()


func _mean_distance(manager: SwarmManager, ids: Array[int]) -> float:
	var sum := 0.0
	for id in ids:
		var p := manager.get_agent_position(id)
		sum += Vector2(p.x, p.z).length()
	return sum / ids.size()
