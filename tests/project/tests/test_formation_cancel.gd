# cancel_formation: 20 agents ordered away from the SwarmTarget they were chasing ignore it while
# the order runs (they move away from it); after cancel_formation(order) returns true their
# get_agent_order is -1, get_formation_progress(order) is an empty Dictionary, a second cancel of
# the same order and a cancel of an order that never existed return false, and the agents chase
# the target again (their mean distance to it shrinks by metres within 3 s).
extends "res://test_base.gd"

const Common := preload("res://tests/formation_common.gd")

const COUNT := 20


func run() -> bool:
	var manager := make_manager("Cancel")
	var target := SwarmTarget.new()
	target.name = "Player"
	add_child(target)
	target.global_position = Vector3(0, 0, 30)
	var ids := Common.spawn_block(manager, make_archetype(), COUNT, Vector3(0, 0, 10), 5)
	await physics_frames(30)
	var before := _mean_distance(manager, ids, target.global_position)
	check(ids.all(func(id: int) -> bool: return manager.get_agent_order(id) == -1), "get_agent_order is not -1 before any order")

	var formation := Common.preset("square")
	var order := manager.move_in_formation(Common.packed(ids), Vector3(0, 0, -30), formation)
	if not check(order >= 1, "move_in_formation returned %d" % order):
		return false
	await physics_frames(180)
	var during := _mean_distance(manager, ids, target.global_position)
	check(during > before + 2.0, "ordered agents did not move away from the target: mean distance %.1f -> %.1f m" % [before, during])
	check(ids.all(func(id: int) -> bool: return manager.get_agent_order(id) == order), "get_agent_order is not the order while it runs")

	check_eq(manager.cancel_formation(order), true, "cancel_formation(order)")
	check(ids.all(func(id: int) -> bool: return manager.get_agent_order(id) == -1), "get_agent_order is not -1 after cancel_formation")
	check_eq(manager.get_formation_progress(order), {}, "get_formation_progress after cancel_formation")
	check_eq(manager.cancel_formation(order), false, "cancel_formation of an order already cancelled")
	check_eq(manager.cancel_formation(order + 1000), false, "cancel_formation of an order that never existed")
	check_eq(manager.get_formation_progress(order + 1000), {}, "get_formation_progress of an order that never existed")

	var released := _mean_distance(manager, ids, target.global_position)
	await physics_frames(180)
	var after := _mean_distance(manager, ids, target.global_position)
	print("cancel: mean distance to the target %.1f m before the order, %.1f m after 3 s of it, %.1f m at the cancel, %.1f m 3 s later" % [before, during, released, after])
	check(after < released - 4.0, "released agents do not chase the target again: mean distance %.1f -> %.1f m" % [released, after])
	check(ids.all(func(id: int) -> bool: return manager.get_agent_order(id) == -1), "an agent follows an order again after the cancel")
	return passed()


func _mean_distance(manager: SwarmManager, ids: Array[int], to: Vector3) -> float:
	var sum := 0.0
	for id in ids:
		sum += Common.flat(manager.get_agent_position(id)).distance_to(Common.flat(to))
	return sum / ids.size()
