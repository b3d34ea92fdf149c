# The setup fixes the inspector shows as buttons beside the matching warnings, through
# get_setup_fixes() on a SwarmFlowModifier and a SwarmBreakable: "Enable Surface Flow Field"
# (on the manager), "Enforce Cell Boundaries" (on its SwarmSettings), "Turn Blocks Agents On" (on
# the modifier); applying each as the button does (object.set(property, value)) clears it. And
# route_cost is only shown in the inspector while route is EXTRA_COST.
# expect_error: flow_field_data is empty
extends "res://test_base.gd"


func labels(fixes: Array) -> Array:
	return fixes.map(func(f: Dictionary) -> String: return f.label)


func apply(fixes: Array, label: String) -> Object:
	for f: Dictionary in fixes:
		if f.label == label:
			f.object.set(f.property, f.value)
			return f.object
	check(false, "no fix '%s' in %s" % [label, labels(fixes)])
	return null


func route_cost_shown(m: SwarmFlowModifier) -> bool:
	for p in m.get_property_list():
		if p.name == "route_cost":
			return p.usage & PROPERTY_USAGE_EDITOR != 0
	return false


func run() -> bool:
	var manager := make_manager("Fixes")
	var settings := SwarmSettings.new()
	settings.surface_flow_enforce_cell_boundaries = false
	manager.settings = settings
	var door := SwarmFlowModifier.new()
	manager.add_child(door)
	var breakable := SwarmBreakable.new()
	door.add_child(breakable)
	await physics_frames(1)

	check_eq(labels(door.get_setup_fixes()), ["Enable Surface Flow Field"], "fixes with the field off")
	check_eq(labels(breakable.get_setup_fixes()), ["Enable Surface Flow Field"], "the breakable's fixes")
	check(apply(door.get_setup_fixes(), "Enable Surface Flow Field") == manager, "the fix is on the manager")
	check(manager.surface_flow_field_enabled, "the fix turned the field on")
	await physics_frames(1)
	check_eq(labels(door.get_setup_fixes()), ["Enforce Cell Boundaries"], "fixes with cell boundaries off")
	check(apply(door.get_setup_fixes(), "Enforce Cell Boundaries") == settings, "the fix is on the settings")
	await physics_frames(1)
	check_eq(labels(door.get_setup_fixes()), [], "fixes once both are on")

	door.blocks_agents = false
	check_eq(labels(breakable.get_setup_fixes()), ["Turn Blocks Agents On"], "the breakable's fixes with blocks_agents off")
	var w: PackedStringArray = door.get_setup_warnings()
	check(w.size() == 1 and "Blocks Agents" in w[0], "the modifier warns too: %s" % [w])
	check(apply(door.get_setup_fixes(), "Turn Blocks Agents On") == door, "the fix is on the modifier")
	check(door.blocks_agents, "the fix turned blocks_agents on")
	check_eq(labels(breakable.get_setup_fixes()), [], "no fixes left")
	# A plain modifier (no breakable or pushable under it) may let agents through.
	var fence := SwarmFlowModifier.new()
	fence.blocks_agents = false
	manager.add_child(fence)
	await physics_frames(1)
	check_eq(labels(fence.get_setup_fixes()), [], "fixes of a walk-through box")

	# route_cost is shown only for EXTRA_COST.
	check(route_cost_shown(door), "route_cost shown for EXTRA_COST")
	door.route = SwarmFlowModifier.FREE
	check(not route_cost_shown(door), "route_cost hidden for FREE")
	door.route = SwarmFlowModifier.BLOCKED
	check(not route_cost_shown(door), "route_cost hidden for BLOCKED")
	door.route = SwarmFlowModifier.EXTRA_COST
	check(route_cost_shown(door), "route_cost shown again")
	return passed()
