# A SwarmFlowModifier under a hidden or disabled node stamps nothing until it is shown: rubble
# listed in a breakable's show_on_break (left visible in the editor, hidden at start) carries its
# own blocking box. While hidden it neither blocks nor is pressed (the crowd walks through the
# opened door); the break shows it and its box stops the rest; a process_mode of DISABLED on the
# rubble lifts its box again, and pausing the tree does not.
extends "res://test_base.gd"


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Hidden")
	var door := add_doorway_door(manager)
	var breakable := SwarmBreakable.new()
	breakable.strike_damage_scale = 0.0
	breakable.crowd_pressure_per_agent = 0.0
	breakable.disable_colliders_on_break = false

	# Rubble left visible "in the editor": the breakable hides it at start.
	var rubble := Node3D.new()
	rubble.name = "Rubble"
	var rubble_box := SwarmFlowModifier.new()
	rubble_box.size = Vector3(2, 2.5, 1)
	rubble.add_child(rubble_box)
	manager.add_child(rubble)
	rubble.position = Vector3(2, 0, 0)
	breakable.show_on_break = [NodePath("../../Rubble")]
	door.add_child(breakable)
	await physics_frames(1)
	check(not rubble.visible, "show_on_break rubble hidden at start")

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var ids := spawn_doorway_crowd(manager, make_archetype())
	await physics_frames(300)
	check_eq(count_past_doorway(manager, ids), 0, "agents past the shut door")

	# The door script opens the door: the hidden rubble's box does not stop anyone.
	door.is_open = true
	var rubble_pressed := 0
	for f in 90:
		await get_tree().physics_frame
		rubble_pressed = maxi(rubble_pressed, rubble_box.get_pressing_agent_count())
	await physics_frames(1)
	var through_open: int = count_past_doorway(manager, ids)
	check(through_open > 0, "agents through the open door past the hidden rubble: %d" % through_open)
	check_eq(rubble_pressed, 0, "agents pressing the hidden rubble's box")

	# The break shows the rubble: its box now stops the rest.
	breakable.break_now()
	check(rubble.visible, "the break shows the rubble")
	# Whoever stood in the doorway at the break is pushed out to one side or the other.
	await physics_frames(60)
	var after_break: int = count_past_doorway(manager, ids)
	check(after_break < ids.size(), "agents left on this side: %d through" % after_break)
	await physics_frames(240)
	check_eq(count_past_doorway(manager, ids), after_break, "agents through the shown rubble")
	check(rubble_box.get_pressing_agent_count() > 0, "the crowd presses the shown rubble")

	# Pausing the tree does not lift the box (the manager keeps running while paused here).
	manager.process_mode = Node.PROCESS_MODE_ALWAYS
	get_tree().paused = true
	await physics_frames(30)
	check(rubble_box.get_pressing_agent_count() > 0, "the rubble still blocks while the tree is paused")
	get_tree().paused = false
	manager.process_mode = Node.PROCESS_MODE_INHERIT

	# Disabled by its parent's process mode: the box lifts and the crowd walks on.
	rubble.process_mode = Node.PROCESS_MODE_DISABLED
	await physics_frames(240)
	var through_disabled: int = count_past_doorway(manager, ids)
	check(through_disabled > after_break, "agents through the disabled rubble: %d (were %d)" % [through_disabled, after_break])
	check_eq(rubble_box.get_pressing_agent_count(), 0, "agents pressing the disabled rubble")
	return passed()
