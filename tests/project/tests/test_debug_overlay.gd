# SwarmDebugOverlay: over a manager with a target and agents and a traffic lane, the panel shows the
# agent count, the step time (with a graph) and the lane's line; it takes no mouse input and sits
# in its corner; F3 (a key event through Input.parse_input_event) hides it, and hidden it stops
# refreshing (its text stays while agents spawn) and stops processing; F3 again shows it refreshed;
# an InputMap action toggles it too; one hidden from the start stays idle until shown, and shows the
# manager and lane named in its lists.
extends "res://test_base.gd"

const Common := preload("res://tests/traffic_common.gd")


func press_key(key: Key) -> void:
	for pressed in [true, false]:
		var ev := InputEventKey.new()
		ev.keycode = key
		ev.physical_keycode = key
		ev.pressed = pressed
		Input.parse_input_event(ev)


## Every Control under the overlay's panel (the overlay's children are internal).
func controls_of(overlay: SwarmDebugOverlay) -> Array[Control]:
	var out: Array[Control] = []
	var stack: Array[Node] = overlay.get_children(true)
	while not stack.is_empty():
		var n: Node = stack.pop_back()
		if n is Control:
			out.append(n as Control)
		stack.append_array(n.get_children(true))
	return out


func run() -> bool:
	var camera := Camera3D.new()
	add_child(camera)
	camera.current = true
	camera.global_position = Vector3(0, 30, 30)
	var manager := make_manager("Horde", 500)
	var target := SwarmTarget.new()
	target.name = "Target"
	manager.add_child(target)
	target.global_position = Vector3(0, 0, 12)
	var archetype := make_archetype()
	for i in 25:
		manager.spawn_agent(archetype, Vector3(i % 5 * 2.0, 0, i / 5 * 2.0))
	Common.make_lane(self, "Street", Common.make_street(self, "StreetPath", 400.0, -20.0), Common.make_profile())

	var overlay := SwarmDebugOverlay.new()
	overlay.name = "Overlay"
	add_child(overlay)
	await physics_frames(20)

	check(overlay.visible, "the overlay is visible on start")
	var text := overlay.get_text()
	print("overlay text:\n", text)
	check("Horde   agents 25 / 500" in text, "the text names the manager with its agent count: %s" % text)
	check("step " in text and " ms" in text, "the text has the step time")
	check("   sync " in text, "the text has the visual sync time")
	check("LOD full" in text and "dormant" in text and "far, waiting" in text, "the text has the LOD tiers")
	check("perception: chasing" in text, "the text has the perception counts")
	check("formations: 0 orders, 0 agents" in text, "the text has the formation counts")
	check("flow field rebuilds" in text, "the text has the flow-field rebuilds")
	check("lane Street: vehicles " in text and "colliders awake 0" in text, "the text has the lane's line: %s" % text)
	check(not "lane Street: vehicles 0 " in text, "the lane has vehicles")

	var controls := controls_of(overlay)
	var panel: PanelContainer = null
	var graphs := 0
	for c in controls:
		check_eq(c.mouse_filter, Control.MOUSE_FILTER_IGNORE, "mouse filter of %s" % c.get_class())
		if c is PanelContainer:
			panel = c
		elif not (c is Label or c is Container):
			graphs += 1
	check_eq(graphs, 1, "graph controls (one per manager)")
	if check(panel != null, "the overlay has a PanelContainer"):
		var style := panel.get_theme_stylebox("panel") as StyleBoxFlat
		check(style != null and style.bg_color.a < 1.0, "the panel's background is a semi-transparent StyleBoxFlat")
		var view := get_viewport().get_visible_rect().size
		var r := panel.get_global_rect()
		check(absf(r.end.x - (view.x - 8.0)) < 1.0 and absf(r.position.y - 8.0) < 1.0,
				"top-right panel at %s in a %s view" % [r, view])
		overlay.corner = SwarmDebugOverlay.ScreenCorner.BOTTOM_LEFT
		await physics_frames(1)
		r = panel.get_global_rect()
		check(absf(r.position.x - 8.0) < 1.0 and absf(r.end.y - (view.y - 8.0)) < 1.0,
				"bottom-left panel at %s in a %s view" % [r, view])

	# F3 hides it: no processing, and the text stays while the crowd grows.
	press_key(KEY_F3)
	await physics_frames(2)
	check(not overlay.visible, "F3 hides the overlay")
	check(not overlay.is_processing() and not overlay.is_physics_processing(), "hidden, the overlay does not process")
	var hidden_text := overlay.get_text()
	for i in 10:
		manager.spawn_agent(archetype, Vector3(-4, 0, i * 1.5))
	await physics_frames(30)
	check_eq(manager.get_agent_count(), 35, "agents after spawning 10 more")
	check_eq(overlay.get_text(), hidden_text, "the hidden overlay's text after 30 frames")

	# F3 again shows it, refreshed at once.
	press_key(KEY_F3)
	await physics_frames(2)
	check(overlay.visible, "F3 shows the overlay again")
	check(overlay.is_processing() and overlay.is_physics_processing(), "shown, the overlay processes")
	check("Horde   agents 35 / 500" in overlay.get_text(), "the shown overlay is refreshed: %s" % overlay.get_text())

	# An InputMap action toggles it as well.
	InputMap.add_action(&"swarm_overlay_test")
	overlay.toggle_action = &"swarm_overlay_test"
	var action := InputEventAction.new()
	action.action = &"swarm_overlay_test"
	action.pressed = true
	Input.parse_input_event(action)
	await physics_frames(2)
	check(not overlay.visible, "the toggle action hides the overlay")
	overlay.toggle()
	check(overlay.visible, "toggle() shows it")
	InputMap.erase_action(&"swarm_overlay_test")

	# Hidden from the start, naming its manager by path and no lanes of the scene's.
	var named := SwarmDebugOverlay.new()
	named.visible_on_start = false
	named.toggle_key = KEY_NONE
	named.lanes = [NodePath("../Street")]
	add_child(named)
	named.managers = [named.get_path_to(manager)]
	await physics_frames(2)
	check(not named.visible and not named.is_processing(), "visible_on_start = false: hidden and idle")
	check_eq(named.get_text(), "", "the text of an overlay never shown")
	named.show()
	await physics_frames(1)
	check("Horde   agents 35 / 500" in named.get_text() and "lane Street: " in named.get_text(),
			"shown, the overlay names its manager and lane: %s" % named.get_text())
	return passed()
