# Orders changing while they run:
# - agents despawned mid-order leave it: the order still completes for the others (progress
#   counts only the living) and formation_arrived fires once for it;
# - a new order given from inside the formation_arrived handler works: it returns a new id, the
#   agents follow it, and it completes in turn (its own formation_arrived);
# - re-ordering some agents of a running order moves them to the new one: get_agent_order names
#   the new order, the old order's progress counts only those left, both complete, each agent
#   ends at its own order's destination.
extends "res://test_base.gd"

const Common := preload("res://tests/formation_common.gd")

var manager: SwarmManager
var arrived: Array[int] = []
var first_order := -1
var follow_up := -1
var follow_up_members: Array[int] = []
var line: SwarmFormation


func _on_arrived(order_id: int) -> void:
	arrived.append(order_id)
	if order_id == first_order and follow_up < 0:
		# Back where they came from, given from inside the signal.
		follow_up = manager.move_in_formation(Common.packed(follow_up_members), Vector3(0, 0, 12), line)


func run() -> bool:
	manager = make_manager("Orders")
	manager.formation_arrived.connect(_on_arrived)
	var archetype := make_archetype()
	line = Common.preset("line")
	line.spacing = 1.5

	# Despawned mid-order; then a follow-up from the handler.
	var group := Common.spawn_block(manager, archetype, 12, Vector3(0, 0, 12), 6)
	first_order = manager.move_in_formation(Common.packed(group), Vector3(0, 0, -12), line)
	if not check(first_order >= 1, "move_in_formation returned %d" % first_order):
		return false
	await physics_frames(60)
	var dropped := group.slice(0, 4)
	for id in dropped:
		manager.despawn_agent(id)
	var kept := group.slice(4)
	follow_up_members.assign(kept)
	await physics_frames(1)
	var p := manager.get_formation_progress(first_order)
	check_eq(int(p.get("agents", -1)), kept.size(), "progress.agents after despawning 4 of 12")
	var planned: float = p.get("time_to_arrive", 0.0)
	await _wait_for(first_order, planned)
	check(arrived.count(first_order) == 1, "formation_arrived for the first order: %s" % [arrived])
	check(follow_up >= 1 and follow_up != first_order, "the order given in the handler returned %d (first was %d)" % [follow_up, first_order])
	if follow_up >= 1:
		check(kept.all(func(id: int) -> bool: return manager.get_agent_order(id) == follow_up), "the agents do not follow the order given in the handler")
		await physics_frames(2)
		await _wait_for(follow_up, manager.get_formation_progress(follow_up).get("time_to_arrive", 0.0))
		check(arrived.count(follow_up) == 1, "formation_arrived for the follow-up order: %s" % [arrived])
		check(count_within(manager, kept, Vector3(0, 0, 12), 12.0) == kept.size(), "the follow-up order did not bring the agents back")
	check(arrived.count(first_order) == 1, "formation_arrived fired again for the first order: %s" % [arrived])

	# Re-ordering part of a running order.
	var squad := Common.spawn_block(manager, archetype, 10, Vector3(60, 0, 12), 5)
	var whole := manager.move_in_formation(Common.packed(squad), Vector3(60, 0, -12), line)
	await physics_frames(30)
	var moved := squad.slice(0, 4)
	var stay := squad.slice(4)
	var part := manager.move_in_formation(Common.packed(moved), Vector3(80, 0, 0), line)
	check(whole >= 1 and part >= 1 and part != whole, "orders %d and %d" % [whole, part])
	check(moved.all(func(id: int) -> bool: return manager.get_agent_order(id) == part), "re-ordered agents do not follow the new order")
	check(stay.all(func(id: int) -> bool: return manager.get_agent_order(id) == whole), "the others left the old order")
	check_eq(int(manager.get_formation_progress(whole).get("agents", -1)), stay.size(), "old order's progress.agents right after re-ordering 4 of 10")
	check_eq(int(manager.get_formation_progress(part).get("agents", -1)), moved.size(), "new order's progress.agents")
	await physics_frames(1)
	check_eq(int(manager.get_formation_progress(whole).get("agents", -1)), stay.size(), "old order's progress.agents a frame after re-ordering 4 of 10")
	var longest := maxf(manager.get_formation_progress(whole).get("time_to_arrive", 0.0), manager.get_formation_progress(part).get("time_to_arrive", 0.0))
	await _wait_for(whole, longest)
	await _wait_for(part, longest)
	check(arrived.count(whole) == 1 and arrived.count(part) == 1, "formation_arrived for the split orders: %s (whole %d, part %d)" % [arrived, whole, part])
	check_eq(count_within(manager, stay, Vector3(60, 0, -12), 12.0), stay.size(), "agents of the old order at its destination")
	check_eq(count_within(manager, moved, Vector3(80, 0, 0), 12.0), moved.size(), "re-ordered agents at the new destination")
	return passed()


## Waits until formation_arrived fired for `order`, at most the planned time x 1.5 + 10 s.
func _wait_for(order: int, planned: float) -> void:
	var limit := int((planned * 1.5 + 10.0) * 60.0)
	for f in limit:
		if order in arrived:
			return
		await get_tree().physics_frame
	await physics_frames(1)
	check(order in arrived, "formation_arrived for order %d did not come within %d frames" % [order, limit])
