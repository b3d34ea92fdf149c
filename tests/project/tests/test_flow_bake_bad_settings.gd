# Bad flow field bake settings and misuse of SwarmFlowFieldBaker: each gets a
# clear message naming the node and the field, start() returns an error code, nothing panics, and
# a good bake still works afterwards.
# expect_error: SwarmManager 'Horde': cannot bake the flow field: cell_size = -1 must be above 0
# expect_error: SwarmManager 'Horde': cannot bake the flow field: cell_size = NaN is not a finite number
# expect_error: SwarmManager 'Horde': cannot bake the flow field: agent_height = 0 must be above 0
# expect_error: SwarmManager 'Horde': cannot bake the flow field: clearance_radius = -0.5 must not be negative
# expect_error: SwarmManager 'Horde': cannot bake the flow field: max_step_height = inf is not a finite number
# expect_error: SwarmManager 'Horde': cannot bake the flow field: walkable_mask is 0
# expect_error: SwarmManager 'Horde': cannot bake the flow field: bake_bounds
# expect_error: SwarmManager 'Horde': cannot bake the flow field: bake_bounds size (2000, 2000) at cell_size 0.5
# expect_error: SwarmManager 'Loose': cannot bake the flow field: the node is not in the scene tree
# expect_error: SwarmFlowFieldBaker.start: the manager is null
# expect_error: SwarmFlowFieldBaker.step: call start() first
# expect_error: SwarmFlowFieldBaker.finish: call start() first
# expect_error: SwarmManager 'Horde': the flow field bake stopped: the node left the scene tree
extends "res://test_base.gd"

const Level := preload("res://tests/flow_bake_level.gd")


func _expect_refused(m: Node3D, property: String, value: Variant, what: String) -> void:
	Level.configure(m)
	m.set(property, value)
	var b := SwarmFlowFieldBaker.new()
	var err := b.start(m)
	check_eq(err, ERR_INVALID_PARAMETER, "start() with " + what)
	check(b.is_done(), "is_done() after a refused start (%s)" % what)
	check(b.get_error().contains(property), "error for %s names %s: %s" % [what, property, b.get_error()])
	check_eq(b.finish(), null, "finish() after a refused start (%s)" % what)


func run() -> bool:
	var level := Node3D.new()
	add_child(level)
	Level.build_level(level)
	var m := make_manager("Horde")

	_expect_refused(m, "cell_size", -1.0, "cell_size = -1")
	_expect_refused(m, "cell_size", NAN, "cell_size = NaN")
	_expect_refused(m, "agent_height", 0.0, "agent_height = 0")
	_expect_refused(m, "clearance_radius", -0.5, "clearance_radius = -0.5")
	_expect_refused(m, "max_step_height", INF, "max_step_height = INF")
	_expect_refused(m, "walkable_mask", 0, "walkable_mask = 0")
	_expect_refused(m, "bake_bounds", AABB(Vector3(0, 0, 0), Vector3(0, 5, 10)), "bake_bounds without width")
	_expect_refused(m, "bake_bounds", AABB(Vector3(0, 0, 0), Vector3(2000, 5, 2000)), "bake_bounds of 16M columns")

	# Not in the tree; null; steps and finish before start.
	var loose := SwarmManager.new()
	loose.name = "Loose"
	var b := SwarmFlowFieldBaker.new()
	check_eq(b.start(loose), ERR_UNCONFIGURED, "start() with a manager outside the tree")
	loose.free()
	check_eq(b.start(null), ERR_INVALID_PARAMETER, "start(null)")
	b = SwarmFlowFieldBaker.new()
	check_eq(b.step(100), 0.0, "step() before start()")
	check(not b.is_done(), "is_done() before start()")
	check_eq(b.finish(), null, "finish() before start()")

	# The manager leaves the tree halfway through a bake: the bake stops with a message.
	Level.configure(m)
	b = SwarmFlowFieldBaker.new()
	check_eq(b.start(m), OK, "start() with good settings")
	var p := b.step(1000)
	check(p > 0.0 and p < 1.0, "partial progress %f" % p)
	remove_child(m)
	check_eq(b.step(1000), 1.0, "step() after the manager left the tree")
	check(b.is_done(), "is_done() after the manager left the tree")
	check(b.get_error().contains("left the scene tree"), "error: " + b.get_error())
	add_child(m)

	# Good settings still bake.
	var data := SwarmFlowFieldBaker.new().bake(m)
	check(data != null and data.walkable_cell_count > 6000, "a good bake after the bad ones")
	return passed()
