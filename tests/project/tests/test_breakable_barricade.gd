# A barricade (a StaticBody3D in the doorway with a SwarmFlowModifier and a SwarmBreakable under
# it) is battered down by the crowd's blows: it turns DAMAGED, then BROKEN, `broken` fires exactly
# once, its collider is disabled, the leaf hides and the rubble shows, and the agents then pass
# through; a `broken` handler can call into the manager. Game damage is ignored while only_swarm_damage is on; bad damage is refused by name.
# expect_error: apply_swarm_damage: amount must be a finite number at or above 0, got NaN
# expect_error: apply_damage: amount must be a finite number at or above 0, got -5
extends "res://test_base.gd"


var broken_count := 0
var states: Array[int] = []
var noises := 0
var fractions: Array[float] = []

func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Barricades")

	# The barricade goes in after the bake, as a placed prop would.
	var body := StaticBody3D.new()
	body.name = "Barricade"
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(2, 2.5, 0.3)
	shape.shape = box
	shape.position = Vector3(0, 1.25, 0)
	body.add_child(shape)
	var leaf := MeshInstance3D.new()
	leaf.name = "Leaf"
	body.add_child(leaf)
	var rubble := MeshInstance3D.new()
	rubble.name = "Rubble"
	body.add_child(rubble)
	var door := SwarmFlowModifier.new()
	door.name = "Door"
	door.size = Vector3(2, 2.5, 1)
	door.route = SwarmFlowModifier.EXTRA_COST
	door.route_cost = 10.0
	body.add_child(door)
	var breakable := SwarmBreakable.new()
	breakable.name = "Breakable"
	breakable.max_health = 60.0
	breakable.crowd_pressure_per_agent = 0.0
	breakable.hide_on_break = [NodePath("../../Leaf")]
	breakable.show_on_break = [NodePath("../../Rubble")]
	door.add_child(breakable)
	add_child(body)
	body.global_position = Vector3(2, 0, 0)
	# Game code may call back into the manager from the breakable's signals (blows are applied
	# outside the manager's step).
	breakable.broken.connect(func() -> void:
		broken_count += 1
		check(manager.get_agent_count() == 20, "manager readable from broken"))
	breakable.state_changed.connect(func(s: int) -> void: states.append(s))
	breakable.noise_made.connect(func(_p: Vector3, _r: float) -> void: noises += 1)
	breakable.damaged.connect(func(f: float) -> void: fractions.append(f))

	check(breakable.get_setup_warnings().is_empty(), "warnings with everything set up: %s" % [breakable.get_setup_warnings()])
	check(leaf.visible and not rubble.visible, "at start the leaf shows and the rubble is hidden")
	check_eq(breakable.get_state(), SwarmBreakable.INTACT, "state at start")
	check(is_equal_approx(breakable.get_health(), 60.0), "health at start")

	# Game damage is ignored while only_swarm_damage is on; bad amounts are refused.
	breakable.apply_damage(30.0, {})
	check(is_equal_approx(breakable.get_health(), 60.0), "game damage ignored with only_swarm_damage: %.1f" % breakable.get_health())
	breakable.apply_swarm_damage(NAN, {})
	breakable.apply_damage(-5.0, {})
	check(is_equal_approx(breakable.get_health(), 60.0), "bad damage changes nothing")

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 10.0
	var a := make_archetype()
	a.attack_profile = attack
	var ids: Array[int] = []
	for i in 20:
		ids.append(manager.spawn_agent(a, Vector3(-3 + (i % 5) * 1.5, 0, -4 - (i / 5) * 1.2)))

	var frames := 0
	while broken_count == 0 and frames < 1800:
		await get_tree().physics_frame
		frames += 1
		if broken_count == 0:
			check(count_past_doorway(manager, ids) == 0, "an agent got past the standing barricade") or frames == 1800
	await physics_frames(1)
	check_eq(broken_count, 1, "broken fired after %d frames" % frames)
	check_eq(breakable.get_state(), SwarmBreakable.BROKEN, "state after the break")
	check_eq(states, [SwarmBreakable.DAMAGED, SwarmBreakable.BROKEN] as Array[int], "state_changed sequence")
	check(noises >= 2, "noise from hits and the break: %d" % noises)
	check(fractions.size() >= 6 and fractions[-1] == 0.0, "damaged fractions down to 0: %s" % [fractions])
	check(not door.enabled and not door.is_open, "the break switches the modifier off and leaves is_open alone")
	check(shape.disabled, "the barricade's collider is disabled")
	check(not leaf.visible and rubble.visible, "the leaf hides and the rubble shows")
	check(is_equal_approx(breakable.get_health(), 0.0), "health after the break")

	await physics_frames(600)
	var n: int = count_past_doorway(manager, ids)
	print("barricade broke after %d frames; %d of 20 through 600 frames later" % [frames, n])
	check(n >= 15, "%d of 20 went through the broken barricade" % n)
	breakable.break_now()
	breakable.apply_swarm_damage(10.0, {})
	await physics_frames(2)
	check_eq(broken_count, 1, "broken fires once whatever happens after")
	return passed()
