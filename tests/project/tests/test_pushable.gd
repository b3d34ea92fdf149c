# SwarmPushable: a RigidBody3D bin (on physics layer 2, outside the manager's walkable_mask, so
# the bake ignores it) stands in the only doorway with a SwarmFlowModifier (route FREE,
# blocks_agents on) and a SwarmPushable under it. The crowd heading for a target behind it shoves
# the bin through; the force never exceeds max_crowd_force (checked with consume_crowd_push over a
# known time); with force_per_agent 0 the bin stays put. Setup warnings name the fix; bad values
# are clamped with an error.
# expect_error: force_per_agent = -5 must be a finite number
# expect_error: max_crowd_force = NaN must be a finite number
extends "res://test_base.gd"

const BIN_START := Vector3(2, 0.5, 0)


## A 1.6 x 1 x 0.8 m, 20 kg box (friction 0.3: about 60 N to slide it) on layer 2 (collides with layer 1: floor and walls) carrying a
## SwarmFlowModifier (box a little larger than the bin) and a SwarmPushable.
func make_bin(manager: SwarmManager, force_per_agent: float, max_force: float) -> Array:
	var bin := RigidBody3D.new()
	bin.name = "Bin"
	bin.mass = 20.0
	bin.collision_layer = 2
	bin.collision_mask = 1 | 2
	bin.axis_lock_angular_x = true
	bin.axis_lock_angular_z = true
	bin.physics_material_override = PhysicsMaterial.new()
	bin.physics_material_override.friction = 0.3
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1.6, 1.0, 0.8)
	shape.shape = box
	bin.add_child(shape)
	var modifier := SwarmFlowModifier.new()
	modifier.name = "Box"
	modifier.center = Vector3.ZERO
	modifier.size = Vector3(1.8, 1.2, 1.0)
	modifier.route = SwarmFlowModifier.FREE
	modifier.blocks_agents = true
	bin.add_child(modifier)
	var pushable := SwarmPushable.new()
	pushable.name = "Pushable"
	pushable.force_per_agent = force_per_agent
	pushable.max_crowd_force = max_force
	modifier.add_child(pushable)
	manager.add_child(bin)
	bin.global_position = BIN_START
	return [bin, modifier, pushable]


func run() -> bool:
	await make_doorway_level()
	var manager := make_manager("Push")
	manager.bake_bounds = AABB(Vector3(-20, -1, -20), Vector3(40, 6, 40))
	check_eq(manager.walkable_mask & 2, 0, "layer 2 outside walkable_mask")
	check_eq(manager.bake_flow_field(), OK, "bake_flow_field")
	manager.surface_flow_field_enabled = true

	# Setup warnings.
	var lone := SwarmPushable.new()
	add_child(lone)
	var w: PackedStringArray = lone.get_setup_warnings()
	check(w.size() == 1 and "child of a SwarmFlowModifier" in w[0], "warning without a modifier: %s" % [w])
	var loose_modifier := SwarmFlowModifier.new()
	manager.add_child(loose_modifier)
	loose_modifier.position = Vector3(-15, 0, 15)
	lone.reparent(loose_modifier)
	w = lone.get_setup_warnings()
	check(w.size() == 1 and "RigidBody3D" in w[0], "warning without a RigidBody3D: %s" % [w])
	loose_modifier.blocks_agents = false
	w = lone.get_setup_warnings()
	check(w.size() == 2 and "Blocks Agents" in w[1], "warning with blocks_agents off: %s" % [w])
	loose_modifier.queue_free()

	# Bad values: clamped to 0 with an error naming node and field.
	var bad := SwarmPushable.new()
	bad.name = "Bad"
	bad.force_per_agent = -5.0
	check_eq(bad.force_per_agent, 0.0, "negative force_per_agent clamped")
	bad.max_crowd_force = NAN
	check_eq(bad.max_crowd_force, 0.0, "NaN max_crowd_force clamped")
	bad.free()

	var parts := make_bin(manager, 0.0, 100.0)
	var bin: RigidBody3D = parts[0]
	var modifier: SwarmFlowModifier = parts[1]
	var pushable: SwarmPushable = parts[2]
	w = pushable.get_setup_warnings()
	check(w.size() == 1 and "Force Per Agent" in w[0], "warning with force_per_agent 0: %s" % [w])
	bin.collision_layer = 1 | 2
	w = pushable.get_setup_warnings()
	check(w.size() == 2 and "layer(s) 1 of the manager's Walkable Mask" in w[0], "warning with the bin on a walkable layer: %s" % [w])
	bin.collision_layer = 2

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 12)
	var a := make_archetype()
	for i in 30:
		manager.spawn_agent(a, Vector3(-3 + (i % 6) * 1.2, 0, -5 - (i / 6) * 1.2))

	# force_per_agent 0: the crowd presses the bin but it stays put.
	var pressing_max := 0
	for f in 360:
		await get_tree().physics_frame
		pressing_max = maxi(pressing_max, modifier.get_pressing_agent_count())
	await physics_frames(1)
	var moved_still := bin.global_position.distance_to(BIN_START)
	print("PUSH zero: up to %d pressing, bin moved %.3f m, push %s" % [pressing_max, moved_still, pushable.consume_crowd_push()])
	check(pressing_max >= 2, "agents press the bin: at most %d at once" % pressing_max)
	check(moved_still < 0.05, "with force_per_agent 0 the bin stays: moved %.3f m" % moved_still)

	# 40 N per agent, capped at 100 N: measured over a known time.
	pushable.force_per_agent = 40.0
	w = pushable.get_setup_warnings()
	check(w.is_empty(), "warnings with the bin set up: %s" % [w])
	pushable.consume_crowd_push()
	var frames := 0
	var max_force := 0.0
	var max_count := 0
	var capped_frames := 0
	var start_z := bin.global_position.z
	for f in 600:
		await get_tree().physics_frame
		frames += 1
		var force := pushable.get_crowd_force().length()
		max_force = maxf(max_force, force)
		if force > 99.9:
			capped_frames += 1
		max_count = maxi(max_count, pushable.get_pressing_agent_count())
	await physics_frames(1)
	frames += 1
	var push: Vector3 = pushable.consume_crowd_push()
	var seconds := frames / 60.0
	var mean_force := push.length() / seconds
	print("PUSH: %.1f N s over %.2f s (mean %.1f N, peak %.1f N, %d frames at the cap, up to %d pressing), bin z %.2f -> %.2f" % [push.length(), seconds, mean_force, max_force, capped_frames, max_count, start_z, bin.global_position.z])
	check(push.z > 0.0, "the crowd pushes toward the target: %s" % push)
	check(max_force <= 100.0 + 0.01, "peak force within max_crowd_force 100: %.2f" % max_force)
	check(push.length() <= 100.0 * seconds + 0.01, "push within max_crowd_force over %.2f s: %.1f" % [seconds, push.length()])
	check(bin.global_position.z > BIN_START.z + 1.0, "the crowd shoved the bin through the doorway: z %.2f" % bin.global_position.z)
	check(pushable.consume_crowd_push() == Vector3.ZERO, "consume_crowd_push resets")
	return passed()
