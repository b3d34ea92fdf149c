# Per-agent targets: set_agent_target overrides the automatic choice (get_agent_target reports it)
# and null hands the agent back to the automatic choice; a disabled target is no longer chased.
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Horde")
	var left := _target("Left", Vector3(-20, 0, 0))
	var right := _target("Right", Vector3(20, 0, 0))
	var archetype := make_archetype()
	var ids: Array[int] = []
	for i in 40:
		ids.append(manager.spawn_agent(archetype, Vector3(-14.0 + (i % 8) * 1.5, 0, -3.0 + (i / 8) * 1.5)))
	check(ids.min() >= 0, "spawn failed")
	await physics_frames(30)
	var on_left := ids.filter(func(id): return manager.get_agent_target(id) == left).size()
	check_eq(on_left, 40, "agents chasing the nearer target automatically")

	# Send ten agents to the far target.
	var sent := ids.slice(0, 10)
	for id in sent:
		check(manager.set_agent_target(id, right), "set_agent_target(%d, right) returned false" % id)
		check(manager.get_agent_target(id) == right, "get_agent_target right after set_agent_target")
	await physics_frames(720)
	for id in ids:
		var want := right if id in sent else left
		var got := manager.get_agent_target(id)
		if got != want:
			check(false, "agent %d chases %s, expected %s" % [id, got.name if got else "nothing", want.name])
			continue
		var d := manager.get_agent_position(id).distance_to(want.global_position)
		check(d < 6.0, "agent %d is %.2f m from its target %s after 12 s" % [id, d, want.name])

	# Back to automatic: they stay with a target (now Right is nearest to them).
	for id in sent:
		check(manager.set_agent_target(id, null), "set_agent_target(%d, null) returned false" % id)
	await physics_frames(60)
	for id in sent:
		var got := manager.get_agent_target(id)
		check(got == right or got == left, "agent %d has no target after returning to automatic choice" % id)

	# Disable Left: the automatic agents there switch to Right.
	left.enabled = false
	await physics_frames(120)
	var still_left := 0
	for id in ids:
		if manager.get_agent_target(id) == left:
			still_left += 1
	check(still_left == 0, "%d agents still chase a disabled target after 2 s" % still_left)
	check_eq(manager.get_stats()["active_targets"], 1, "active_targets with one target disabled")
	return passed()


func _target(n: String, at: Vector3) -> SwarmTarget:
	var t := SwarmTarget.new()
	t.name = n
	add_child(t)
	t.global_position = at
	return t
