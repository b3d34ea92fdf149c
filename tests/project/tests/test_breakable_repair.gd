# The damaged crossing lowers the modifier's route cost once (10 -> 5, not again on later hits);
# break_now switches the modifier off (`enabled`, never the door script's is_open) and disables
# its collider; repair() restores exactly what changed: health, the route cost, `enabled`, the
# collider, and leaves is_open as the door script set it. With agents: a broken door lets them
# through even after its script shut it (is_open = false), a repaired one stops them again. Setup warnings and errors
# name the problem.
# expect_error: Orphan: parent: a SwarmBreakable must be a child of a SwarmFlowModifier
extends "res://test_base.gd"


var states: Array[int] = []
var fractions: Array[float] = []
var broken_count := 0

func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Repair")

	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(2, 2.5, 0.2)
	shape.shape = box
	shape.position = Vector3(0, 1.25, 0)
	body.add_child(shape)
	var door := SwarmFlowModifier.new()
	door.size = Vector3(2, 2.5, 1)
	door.route = SwarmFlowModifier.EXTRA_COST
	door.route_cost = 10.0
	body.add_child(door)
	var breakable := SwarmBreakable.new()
	breakable.max_health = 100.0
	breakable.only_swarm_damage = false
	breakable.strike_damage_scale = 0.0
	breakable.crowd_pressure_per_agent = 0.0
	door.add_child(breakable)
	add_child(body)
	body.global_position = Vector3(2, 0, 0)
	breakable.state_changed.connect(func(s: int) -> void: states.append(s))
	breakable.damaged.connect(func(f: float) -> void: fractions.append(f))
	breakable.broken.connect(func() -> void: broken_count += 1)

	# The damaged crossing, once.
	breakable.apply_damage(40.0, {})
	check_eq(breakable.get_state(), SwarmBreakable.INTACT, "state at 60 percent")
	check(is_equal_approx(door.route_cost, 10.0), "route cost at 60 percent: %.2f" % door.route_cost)
	breakable.apply_damage(10.0, {})
	check_eq(breakable.get_state(), SwarmBreakable.DAMAGED, "state at 50 percent (at or below damaged_below)")
	check(is_equal_approx(door.route_cost, 5.0), "route cost halved at the crossing: %.2f" % door.route_cost)
	breakable.apply_damage(20.0, {})
	breakable.apply_damage(20.0, {})
	check(is_equal_approx(door.route_cost, 5.0), "route cost halved only once: %.2f" % door.route_cost)
	check_eq(states, [SwarmBreakable.DAMAGED] as Array[int], "state_changed once")
	check(is_equal_approx(breakable.get_health(), 10.0), "health 10: %.2f" % breakable.get_health())

	# The break switches `enabled` off and leaves is_open to the door script; repair switches
	# `enabled` back on and leaves is_open alone: a door left open when it broke stays open, one
	# the script shut after the break stays shut.
	door.is_open = true
	breakable.break_now()
	check_eq(broken_count, 1, "break_now breaks")
	check(not door.enabled, "the break switches the modifier off")
	check(door.is_open, "the break leaves is_open as it was")
	check(shape.disabled, "collider disabled by the break")
	breakable.repair()
	check(door.enabled, "repair switches the modifier back on")
	check(door.is_open, "a door left open when it broke stays open after repair")
	breakable.break_now()
	door.is_open = false  # a door script shuts it meanwhile
	breakable.repair()
	check(door.enabled, "repair switches the modifier back on")
	check(not door.is_open, "repair leaves is_open as the door script set it")
	check(not shape.disabled, "repair re-enables the collider")
	check(is_equal_approx(door.route_cost, 10.0), "repair restores the full route cost: %.2f" % door.route_cost)
	check(is_equal_approx(breakable.get_health(), 100.0), "repair restores health")
	check_eq(breakable.get_state(), SwarmBreakable.INTACT, "state after repair")
	check(fractions[-1] == 1.0, "damaged(1.0) on repair")
	door.is_open = false

	# A collider disabled before the break is not re-enabled by repair.
	shape.disabled = true
	breakable.break_now()
	breakable.repair()
	check(shape.disabled, "repair leaves a collider the break did not disable")
	shape.disabled = false
	check_eq(broken_count, 3, "each break fires broken once")

	# With agents: broken, they pass (even after the door script shuts it); repaired, the rest
	# are stopped again.
	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var a := make_archetype()
	var ids := spawn_doorway_crowd(manager, a)
	await physics_frames(400)
	check_eq(count_past_doorway(manager, ids), 0, "agents past the intact door")
	breakable.break_now()
	door.is_open = false  # a door script shuts the broken door: the breach stays open
	await physics_frames(120)
	var n_broken: int = count_past_doorway(manager, ids)
	check(n_broken > 0, "agents pass the broken door: %d" % n_broken)
	breakable.repair()
	check(not door.is_open, "repaired door is shut")
	# Whoever stood in the doorway at the repair is pushed out to one side or the other.
	await physics_frames(60)
	var after_repair: int = count_past_doorway(manager, ids)
	await physics_frames(300)
	check_eq(count_past_doorway(manager, ids), after_repair, "agents that got through after the repair")
	check(door.get_pressing_agent_count() > 0, "the crowd presses the repaired door")
	check(after_repair < 40, "some agents were stopped by the repair: %d through" % after_repair)

	# Setup warnings and the runtime error name the problem.
	door.blocks_agents = false
	var w: PackedStringArray = breakable.get_setup_warnings()
	check(w.size() == 1 and "Blocks Agents" in w[0], "warning with blocks_agents off: %s" % [w])
	door.blocks_agents = true
	var orphan := SwarmBreakable.new()
	orphan.name = "Orphan"
	w = orphan.get_setup_warnings()
	check(w.size() == 1 and "child of a SwarmFlowModifier" in w[0], "warning outside a modifier: %s" % [w])
	add_child(orphan)
	await physics_frames(1)
	return passed()
