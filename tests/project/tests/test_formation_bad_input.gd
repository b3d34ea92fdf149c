# move_in_formation refuses bad input with -1 and an error, and changes nothing: no ids, only stale
# ids, a null formation, a formation without points, a NaN or infinite destination. Stale ids
# among valid ones are skipped: the order runs with the living agents only. Queries about orders
# that do not exist answer -1 / an empty Dictionary / false.
# expect_error: SwarmManager 'Bad': move_in_formation
extends "res://test_base.gd"

const Common := preload("res://tests/formation_common.gd")


func run() -> bool:
	var manager := make_manager("Bad")
	var archetype := make_archetype()
	var ids := Common.spawn_block(manager, archetype, 6, Vector3(0, 0, 10), 3)
	var gone := Common.spawn_block(manager, archetype, 2, Vector3(20, 0, 10), 2)
	for id in gone:
		manager.despawn_agent(id)
	await physics_frames(2)
	var wedge := Common.preset("wedge")
	var valid := Common.packed(ids)

	print("-- expecting: no ids")
	check_eq(manager.move_in_formation(PackedInt64Array(), Vector3.ZERO, wedge), -1, "move_in_formation(no ids)")
	print("-- expecting: only stale ids")
	check_eq(manager.move_in_formation(Common.packed(gone), Vector3.ZERO, wedge), -1, "move_in_formation(only stale ids)")
	print("-- expecting: ids never issued")
	check_eq(manager.move_in_formation(PackedInt64Array([-1, 123456789]), Vector3.ZERO, wedge), -1, "move_in_formation(ids never issued)")
	print("-- expecting: null formation")
	check_eq(manager.move_in_formation(valid, Vector3.ZERO, null), -1, "move_in_formation(null formation)")
	print("-- expecting: formation without points")
	var empty := SwarmFormation.new()  # a new SwarmFormation holds a default shape: clear it
	empty.points = PackedVector3Array()
	check_eq(manager.move_in_formation(valid, Vector3.ZERO, empty), -1, "move_in_formation(formation without points)")
	print("-- expecting: NaN destination")
	check_eq(manager.move_in_formation(valid, Vector3(NAN, 0, 0), wedge), -1, "move_in_formation(NaN destination)")
	print("-- expecting: infinite destination")
	check_eq(manager.move_in_formation(valid, Vector3(0, 0, INF), wedge), -1, "move_in_formation(infinite destination)")
	check(ids.all(func(id: int) -> bool: return manager.get_agent_order(id) == -1), "a refused order was given to an agent")

	# Nothing moved toward the refused destinations.
	var before := Common.positions(manager, ids)
	await physics_frames(60)
	check(Common.max_shift(before, Common.positions(manager, ids)) < 1.0, "agents moved after refused orders")

	# Stale ids among valid ones are skipped.
	var mixed := Common.packed(ids)
	mixed.append(gone[0])
	mixed.append(gone[1])
	var order := manager.move_in_formation(mixed, Vector3(0, 0, -10), wedge)
	check(order >= 1, "move_in_formation(valid ids and stale ids) returned %d" % order)
	check_eq(int(manager.get_formation_progress(order).get("agents", -1)), ids.size(), "progress.agents with the stale ids skipped")
	check(ids.all(func(id: int) -> bool: return manager.get_agent_order(id) == order), "a valid agent of the mixed order does not follow it")
	check_eq(manager.get_agent_order(gone[0]), -1, "get_agent_order of a stale id")

	# Orders that never existed.
	check_eq(manager.get_formation_progress(-1), {}, "get_formation_progress(-1)")
	check_eq(manager.get_formation_progress(order + 1000), {}, "get_formation_progress(unknown order)")
	check_eq(manager.cancel_formation(-1), false, "cancel_formation(-1)")
	check_eq(manager.cancel_formation(order + 1000), false, "cancel_formation(unknown order)")
	check(manager.cancel_formation(order), "cancel_formation of the mixed order")
	return passed()
