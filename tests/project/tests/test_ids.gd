# Generational ids: a despawned id is stale for good (is_agent_alive false, no error), a reused slot
# gets a new id, get_agent_ids matches the live set and count, other agents keep their id and
# position when records move, and agent_despawned fires once per despawn with the id.
extends "res://test_base.gd"

var despawned: Array[int] = []


func _on_despawned(id: int) -> void:
	despawned.append(id)


func run() -> bool:
	var manager := make_manager("Ids", 8)  # small capacity: slots get reused quickly
	manager.agent_despawned.connect(_on_despawned)
	var still := SwarmBehaviorProfile.new()
	still.use_idle_motion = false
	var archetype := make_archetype()
	archetype.behavior_profile = still
	check_eq(manager.get_capacity(), 8, "get_capacity")

	# Five agents far apart, standing still (no target, no wander).
	var live: Array[int] = []
	for i in 5:
		live.append(manager.spawn_agent(archetype, Vector3(i * 10.0, 0, 0)))
	check(live.min() >= 0, "spawn failed: %s" % [live])
	await physics_frames(3)
	var where := {}
	for id in live:
		where[id] = manager.get_agent_position(id)

	# Despawn the first: records may move (swap-remove) but every other id keeps its agent.
	var gone: int = live[0]
	check(manager.despawn_agent(gone), "despawn_agent(live id) returned false")
	live.remove_at(0)
	check(not manager.is_agent_alive(gone), "despawned id still alive")
	check_eq(manager.get_agent_count(), 4, "get_agent_count right after despawn")
	for id in live:
		check(manager.is_agent_alive(id), "id %d not alive after another agent's despawn" % id)
		check(manager.get_agent_position(id).distance_to(where[id]) < 0.01,
			"agent %d moved from %s to %s when agent %d was despawned" % [id, where[id], manager.get_agent_position(id), gone])

	# Churn: spawn and despawn many times through 8 slots; every id ever returned is unique, and
	# every despawned one stays stale.
	var ever := {}
	for id in live:
		ever[id] = true
	ever[gone] = true
	var stale: Array[int] = [gone]
	var expected_despawns: Array[int] = [gone]
	for r in 40:
		var id := manager.spawn_agent(archetype, Vector3(r % 7 * 3.0, 0, 30.0 + r % 5 * 3.0))
		if not check(id >= 0, "spawn in r %d returned %d (count %d of 8)" % [r, id, manager.get_agent_count()]):
			break
		check(not ever.has(id), "round %d: spawn_agent returned id %d that was used before" % [r, id])
		ever[id] = true
		live.append(id)
		# Despawn the oldest live agent each r once four are live.
		if live.size() > 4:
			var victim: int = live.pop_front()
			check(manager.despawn_agent(victim), "round %d: despawn %d failed" % [r, victim])
			stale.append(victim)
			expected_despawns.append(victim)
		if r % 10 == 9:
			await get_tree().physics_frame
	for id in stale:
		check(not manager.is_agent_alive(id), "stale id %d reads alive" % id)
	for id in live:
		check(manager.is_agent_alive(id), "live id %d reads dead" % id)

	var listed := manager.get_agent_ids()
	check_eq(listed.size(), manager.get_agent_count(), "get_agent_ids().size() vs get_agent_count()")
	check_eq(manager.get_agent_count(), live.size(), "get_agent_count vs the test's live set")
	var a := Array(listed)
	a.sort()
	var b := live.duplicate()
	b.sort()
	check(a == b, "get_agent_ids %s differs from the live set %s" % [a, b])

	# Ids that never existed read as not alive, without an error.
	for bogus in [-1, 0x7fffffffffff, 1 << 40, 999999]:
		if not ever.has(bogus):
			check(not manager.is_agent_alive(bogus), "never-issued id %d reads alive" % bogus)

	await physics_frames(1)
	despawned.sort()
	expected_despawns.sort()
	check(despawned == expected_despawns,
		"agent_despawned fired for %s, expected %s" % [despawned, expected_despawns])
	return passed()
