# Bad values set on the NODES from GDScript (every bad value gets a clear message
# naming the node and field, and is clamped or refused; no NaN enters the world):
# SwarmManager.max_active_target_count outside 1..1024, SwarmTarget.priority = NaN, and a
# SwarmTarget moved to a NaN position. The simulation must carry on with clamped values.
# expect_error: SwarmManager 'Horde': max_active_target_count = -5 is outside 1..1024
# expect_error: SwarmManager 'Horde': max_active_target_count = 5000 is outside 1..1024
# expect_error: SwarmTarget 'Bait': priority = NaN
# expect_error: SwarmTarget 'Bait': global_position (NaN, 0, 0) is not finite
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Horde")
	var bait := SwarmTarget.new()
	bait.name = "Bait"
	add_child(bait)
	bait.global_position = Vector3(0, 0, 0)
	var decoy := SwarmTarget.new()
	decoy.name = "Decoy"
	add_child(decoy)
	decoy.global_position = Vector3(0, 0, 60)
	var archetype := make_archetype()
	var ids: Array[int] = []
	for i in 30:
		ids.append(manager.spawn_agent(archetype, Vector3(15, 0, i - 15.0)))

	print("-- max_active_target_count = -5 (clamped to 1, with a message)")
	manager.max_active_target_count = -5
	await physics_frames(30)
	check_eq(manager.get_stats()["active_targets"], 1, "active_targets with max_active_target_count = -5")
	print("-- max_active_target_count = 5000 (clamped to 1024, with a message)")
	manager.max_active_target_count = 5000
	await physics_frames(30)
	check_eq(manager.get_stats()["active_targets"], 2, "active_targets with max_active_target_count = 5000 and 2 targets")
	manager.max_active_target_count = 10

	print("-- Bait.priority = NaN (with a message)")
	bait.priority = NAN
	await physics_frames(30)
	check(_all_finite(manager, ids), "non-finite agent after priority = NaN")
	bait.priority = 1.0

	print("-- Bait moved to a NaN position (with a message naming it)")
	bait.global_position = Vector3(NAN, 0, 0)
	await physics_frames(30)
	check(_all_finite(manager, ids), "non-finite agent after the target moved to NaN")
	bait.global_position = Vector3(0, 0, 0)
	await physics_frames(300)
	check(_all_finite(manager, ids), "non-finite agent at the end")
	var sum := 0.0
	for id in ids:
		sum += manager.get_agent_position(id).distance_to(bait.global_position)
	check(sum / ids.size() < 6.0, "agents no longer chase Bait after the bad values: mean distance %.2f" % (sum / ids.size()))
	return passed()


func _all_finite(m: SwarmManager, ids: Array[int]) -> bool:
	for id in ids:
		if not (m.get_agent_position(id).is_finite() and m.get_agent_velocity(id).is_finite()):
			return false
	return true
