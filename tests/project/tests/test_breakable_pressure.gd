# With strike_damage_scale 0 the agents pressing a door never swing at it, yet crowd pressure
# (crowd_pressure_per_agent per pressing agent per second) wears it down until it breaks:
# health falls with no blow landing, pressure_changed reports the pressing count, and no hit
# noise is made before the break. With agents_attack_it off, the pressure stops too.
extends "res://test_base.gd"

var broken_count := 0
var noises: Array[float] = []
var max_pressure := 0


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Pressure")

	var door := add_doorway_door(manager)
	var breakable := SwarmBreakable.new()
	breakable.max_health = 20.0
	breakable.strike_damage_scale = 0.0
	breakable.crowd_pressure_per_agent = 2.0
	door.add_child(breakable)
	breakable.broken.connect(func() -> void: broken_count += 1)
	breakable.noise_made.connect(func(_p: Vector3, r: float) -> void: noises.append(r))
	breakable.pressure_changed.connect(func(c: int) -> void: max_pressure = maxi(max_pressure, c))

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 50.0
	var a := make_archetype()
	a.attack_profile = attack
	for i in 20:
		manager.spawn_agent(a, Vector3(-3 + (i % 5) * 1.5, 0, -4 - (i / 5) * 1.2))

	# agents_attack_it off first: they press, but nothing wears the door down.
	door.agents_attack_it = false
	await physics_frames(300)
	check(door.get_pressing_agent_count() > 0, "agents press the door")
	check(is_equal_approx(breakable.get_health(), 20.0), "no pressure with agents_attack_it off: %.2f" % breakable.get_health())
	check_eq(breakable.get_pressing_agent_count(), 0, "pressure count with agents_attack_it off")

	door.agents_attack_it = true
	await physics_frames(30)
	var h: float = breakable.get_health()
	check(h < 20.0 and h > 0.0, "pressure wears the door down: %.2f" % h)
	check(max_pressure > 0, "pressure_changed reported pressing agents: %d" % max_pressure)
	check(noises.is_empty(), "no hit noise with strike_damage_scale 0: %s" % [noises])
	# The rate: health per second is the pressing count times crowd_pressure_per_agent.
	var count: int = breakable.get_pressing_agent_count()
	var before: float = breakable.get_health()
	await physics_frames(1)
	var step_loss := before - breakable.get_health()
	check(count == 0 or step_loss <= count * 2.0 / 60.0 * 1.5 + 0.001, "one step's loss %.4f for %d pressing" % [step_loss, count])

	var frames := 0
	while broken_count == 0 and frames < 1800:
		await get_tree().physics_frame
		frames += 1
	await physics_frames(1)
	print("pressure broke the door %d frames after it was turned on (max %d pressing)" % [frames + 31, max_pressure])
	check_eq(broken_count, 1, "broken by crowd pressure alone")
	check(not door.enabled, "the broken door is switched off")
	check_eq(noises, [breakable.break_noise_radius] as Array[float], "only the break made a noise")
	check_eq(breakable.get_pressing_agent_count(), 0, "pressure after the break")
	return passed()
