# SwarmManager.emit_noise: agents whose SwarmPerceptionProfile has search on and
# that see no target walk to the noise and give up after forget_time; agents without search stay.
# A SwarmBreakable's break noise is fed to the manager the same way.
extends "res://test_base.gd"


func mean_distance(manager: SwarmManager, ids: Array[int], at: Vector3) -> float:
	var sum := 0.0
	for id in ids:
		var q := manager.get_agent_position(id)
		sum += Vector2(q.x - at.x, q.z - at.z).length()
	return sum / ids.size()


func run() -> bool:
	var manager := make_manager("Ears")
	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(0, 0, 200)
	var hears := SwarmPerceptionProfile.new()
	hears.sight_occlusion = SwarmPerceptionProfile.NONE
	hears.sight_distance = 10.0
	hears.forget_time = 4.0
	hears.search_enabled = true
	var deaf := hears.duplicate() as SwarmPerceptionProfile
	deaf.search_enabled = false
	var a := make_archetype()
	a.perception_profile = hears
	var b := make_archetype()
	b.perception_profile = deaf
	var searchers: Array[int] = []
	var others: Array[int] = []
	for i in 12:
		searchers.append(manager.spawn_agent(a, Vector3(-12, 0, (i - 6) * 1.2)))
		others.append(manager.spawn_agent(b, Vector3(12, 0, (i - 6) * 1.2)))
	await physics_frames(10)
	var spot := Vector3(0, 0, 0)
	check(manager.emit_noise(spot, 20.0), "emit_noise accepted")
	await physics_frames(2)
	var s: Dictionary = manager.get_stats()
	check_eq(s["perception_investigating"], 12, "agents investigating the noise")
	await physics_frames(180)
	var ds := mean_distance(manager, searchers, spot)
	var do := mean_distance(manager, others, spot)
	print("after the noise: searchers at %.1f m, agents without search at %.1f m" % [ds, do])
	check(ds < 3.5, "searchers walked to the noise: mean %.1f m" % ds)
	check(do > 10.0, "agents without search stayed: mean %.1f m" % do)
	await physics_frames(90)
	s = manager.get_stats()
	check_eq(s["perception_investigating"], 0, "agents still investigating after forget_time")
	check_eq(s["perception_idle"], 24, "idle agents after forget_time")

	# A SwarmBreakable's break noise reaches the same agents through the manager.
	var box := SwarmFlowModifier.new()
	manager.add_child(box)
	box.position = Vector3(0, 0, -6)
	var planks := SwarmBreakable.new()
	planks.break_noise_radius = 30.0
	box.add_child(planks)
	await physics_frames(2)
	planks.break_now()
	await physics_frames(3)
	s = manager.get_stats()
	check_eq(s["perception_investigating"], 12, "searchers investigating the break noise")
	return passed()
