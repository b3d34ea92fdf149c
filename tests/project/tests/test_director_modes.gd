# SwarmSpawnerDirector modes, counted frame by frame (60 physics frames per second):
# ONE_SHOT spawns initial_batch over frames of at most max_per_frame, then stops;
# CONTINUOUS spawns initial_batch then spawn_rate per second, never more than max_alive alive,
# and stops at total_limit; MAINTAIN_POPULATION keeps max_alive alive and refills after despawns;
# auto_start = false waits for trigger(); spawning is spread over the director's spawner children.
extends "res://test_base.gd"

var waves := []


func _on_wave(count: int) -> void:
	waves.append(count)


func _director(n: String, manager: SwarmManager, mode: int) -> SwarmSpawnerDirector:
	var d := SwarmSpawnerDirector.new()
	d.name = n
	d.mode = mode
	d.auto_start = false
	for k in 2:
		var s := SwarmRingSpawner.new()
		s.name = "Ring%d" % k
		s.archetype = make_archetype()
		s.inner_radius = 5
		s.outer_radius = 10
		s.position = Vector3(k * 40, 0, 0)
		s.random_seed = k
		d.add_child(s)
	manager.add_child(d)
	return d


func run() -> bool:
	await _one_shot()
	await _continuous()
	await _maintain()
	return passed()


func _one_shot() -> void:
	var m := make_manager("OneShotSwarm")
	var d := _director("OneShot", m, SwarmSpawnerDirector.ONE_SHOT)
	d.initial_batch = 120
	d.max_per_frame = 50
	d.max_alive = 0
	d.wave_spawned.connect(_on_wave)
	waves.clear()
	await physics_frames(5)
	check_eq(m.get_agent_count(), 0, "ONE_SHOT with auto_start off: agents before trigger()")
	check(not d.is_running(), "ONE_SHOT is running before trigger()")
	d.trigger()
	check(d.is_running(), "ONE_SHOT not running after trigger()")
	var per_frame := []
	for i in 6:
		await physics_frames(1)
		per_frame.append(m.get_agent_count())
	print("ONE_SHOT counts per frame: %s, waves %s" % [per_frame, waves])
	check_eq(per_frame, [50, 100, 120, 120, 120, 120], "ONE_SHOT agent count per frame")
	check_eq(waves, [50, 50, 20], "ONE_SHOT wave_spawned counts")
	check_eq(d.get_spawned_total(), 120, "ONE_SHOT get_spawned_total")
	check_eq(d.get_alive_count(), 120, "ONE_SHOT get_alive_count")
	check(not d.is_running(), "ONE_SHOT still running after its batch")
	# Both spawners got work: agents around x = 0 and around x = 40.
	var near_second := 0
	for id in m.get_agent_ids():
		if m.get_agent_position(id).x > 20:
			near_second += 1
	check(near_second >= 50 and near_second <= 70, "ONE_SHOT: %d of 120 agents came from the second spawner (expected ~60)" % near_second)
	# trigger() restarts: another batch.
	waves.clear()
	d.trigger()
	await physics_frames(4)
	check_eq(m.get_agent_count(), 240, "ONE_SHOT agent count after a second trigger()")
	m.queue_free()
	await physics_frames(1)


func _continuous() -> void:
	var m := make_manager("ContinuousSwarm")
	var d := _director("Continuous", m, SwarmSpawnerDirector.CONTINUOUS)
	d.initial_batch = 10
	d.spawn_rate = 30.0
	d.max_per_frame = 4
	d.max_alive = 25
	d.total_limit = 0
	waves.clear()
	d.wave_spawned.connect(_on_wave)
	d.trigger()
	var counts := []
	var over_frame := 0
	var over_alive := 0
	var last := 0
	for i in 90:
		await physics_frames(1)
		var n := m.get_agent_count()
		if n - last > 4:
			over_frame += 1
		if n > 25:
			over_alive += 1
		last = n
		counts.append(n)
	print("CONTINUOUS counts at frames 1, 3, 10, 30, 60, 90: %d %d %d %d %d %d" % [counts[0], counts[2], counts[9], counts[29], counts[59], counts[89]])
	check_eq(over_frame, 0, "CONTINUOUS frames that spawned more than max_per_frame = 4")
	check_eq(over_alive, 0, "CONTINUOUS frames with more than max_alive = 25 alive")
	check_eq(counts[0], 4, "CONTINUOUS count after frame 1 (initial batch, max_per_frame 4)")
	check_eq(counts[2], 10 + 1, "CONTINUOUS count after frame 3 (initial 10 + rate 30/s for 3 frames, rounded down)")
	# 10 initial + 30/s: 25 reached after (25 - 10) / 30 = 0.5 s = 30 frames (give or take one).
	check(counts[27] < 25 and counts[31] == 25, "CONTINUOUS reached max_alive too early or late: %s" % [counts.slice(25, 33)])
	check(waves.reduce(func(s, x): return s + x, 0) == 25, "CONTINUOUS wave_spawned counts add up to %s, expected 25" % waves.reduce(func(s, x): return s + x, 0))
	# Despawning frees room: the rate refills it (30/s: 10 agents in ~1/3 s).
	var ids := d.get_alive_ids()
	for i in 10:
		m.despawn_agent(ids[i])
	check_eq(d.get_alive_count(), 15, "CONTINUOUS get_alive_count right after 10 despawns")
	await physics_frames(30)
	check_eq(m.get_agent_count(), 25, "CONTINUOUS count refilled to max_alive")
	# total_limit stops it.
	d.max_alive = 0
	d.total_limit = 60
	await physics_frames(120)
	check_eq(d.get_spawned_total(), 60, "CONTINUOUS get_spawned_total at total_limit = 60")
	check_eq(m.get_agent_count(), 50, "CONTINUOUS count at total_limit (60 spawned, 10 despawned)")
	check(not d.is_running(), "CONTINUOUS still running after total_limit")
	m.queue_free()
	await physics_frames(1)


func _maintain() -> void:
	var m := make_manager("MaintainSwarm")
	var d := _director("Maintain", m, SwarmSpawnerDirector.MAINTAIN_POPULATION)
	d.max_alive = 25
	d.spawn_rate = 0.0  # refill as fast as max_per_frame allows
	d.max_per_frame = 10
	d.initial_batch = 1000  # not used by MAINTAIN_POPULATION
	var population := []
	d.population_changed.connect(func(n): population.append(n))
	d.trigger()
	var counts := []
	for i in 4:
		await physics_frames(1)
		counts.append(m.get_agent_count())
	check_eq(counts, [10, 20, 25, 25], "MAINTAIN_POPULATION count per frame")
	check_eq(population, [10, 20, 25], "MAINTAIN_POPULATION population_changed")
	# Despawn 12 of its agents plus one foreign agent: only its own are replaced.
	var foreign := m.spawn_agent(make_archetype(), Vector3(0, 0, -50))
	var ids := d.get_alive_ids()
	for i in 12:
		m.despawn_agent(ids[i])
	await physics_frames(1)
	check_eq(d.get_alive_count(), 23, "MAINTAIN_POPULATION alive one frame after despawning 12 (refilled 10)")
	await physics_frames(1)
	check_eq(d.get_alive_count(), 25, "MAINTAIN_POPULATION alive two frames after despawning 12")
	check_eq(m.get_agent_count(), 26, "MAINTAIN_POPULATION manager count (25 own + 1 foreign)")
	check(m.is_agent_alive(foreign), "the foreign agent was touched")
	# A slower refill with spawn_rate: 6/s -> 3 agents in half a second.
	d.spawn_rate = 6.0
	ids = d.get_alive_ids()
	for i in 5:
		m.despawn_agent(ids[i])
	await physics_frames(30)
	var refilled := d.get_alive_count() - 20
	check(refilled >= 2 and refilled <= 4, "MAINTAIN_POPULATION at 6/s refilled %d in 0.5 s (expected ~3)" % refilled)
	d.stop()
	ids = d.get_alive_ids()
	for id in ids:
		m.despawn_agent(id)
	await physics_frames(10)
	check_eq(d.get_alive_count(), 0, "MAINTAIN_POPULATION refilled after stop()")
	m.queue_free()
	await physics_frames(1)
