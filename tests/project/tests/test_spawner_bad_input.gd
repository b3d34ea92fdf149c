# Bad input to spawners, spawn profiles and the director: each gets a message
# naming the node (and resource) and the field, the value is clamped or the spawn refused, and
# nothing crashes or spawns where it should not.
# expect_error: SwarmRectSpawner 'Empty': spawn_profile and archetype are both empty; nothing to spawn
# expect_error: SwarmRingSpawner 'Zero': SwarmSpawnProfile (unsaved): weights are all 0
# expect_error: SwarmRingSpawner 'NoEntries': SwarmSpawnProfile (unsaved): archetypes is empty
# expect_error: SwarmRectSpawner 'Negative': SwarmSpawnProfile (unsaved): weights[0] = -1 is outside 0..1000000000; using 0
# expect_error: SwarmRectSpawner 'Negative': SwarmSpawnProfile (unsaved): weights[1] = NaN is not a number; using 0
# expect_error: SwarmRectSpawner 'Negative': SwarmSpawnProfile (unsaved): archetypes[3] is empty; it is skipped
# expect_error: SwarmRectSpawner 'Empty': spawn: count = -3 is outside 0..1000000; nothing spawned
# expect_error: SwarmRectSpawner 'Auto': count = -5 is outside 0..1000000; using 0
# expect_error: SwarmRingSpawner 'Inverted': inner_radius 30 is larger than outer_radius 10; swapping them
# expect_error: SwarmRectSpawner 'Flat': size.x = NaN is not a number; using 20
# expect_error: SwarmSpawnProfile (unsaved): pick_archetype: rng is null
# expect_error: SwarmSpawnerDirector 'Director': spawn_rate = -4 is outside 0..1000000; using 0
# expect_error: SwarmSpawnerDirector 'Director': max_per_frame = 0 is outside 1..1000000; using 1
# expect_error: SwarmSpawnerDirector 'Director': spawners[1] = "Nowhere" does not lead to a node; it is ignored
# expect_error: SwarmSpawnerDirector 'Director': spawners[2] = "Cam" is not a SwarmRectSpawner or SwarmRingSpawner
# expect_error: SwarmSpawnerDirector 'Finite': total_limit = 0 in FINITE_ENCOUNTER mode
# expect_error: SwarmSpawnerDirector 'Maintain': max_alive = 0 in MAINTAIN_POPULATION mode
extends "res://test_base.gd"


func run() -> bool:
	var m := make_manager("Horde")
	var good := make_archetype()

	print("-- a spawner with neither profile nor archetype")
	var empty := SwarmRectSpawner.new()
	empty.name = "Empty"
	add_child(empty)
	check_eq(empty.spawn(5).size(), 0, "spawn(5) with nothing to spawn")
	print("-- spawn(-3)")
	empty.archetype = good
	check_eq(empty.spawn(-3).size(), 0, "spawn(-3)")
	check_eq(m.get_agent_count(), 0, "agents after the refused spawns")

	print("-- a profile whose weights are all 0")
	var zero := SwarmSpawnProfile.new()
	zero.archetypes = [good, make_archetype()]
	zero.weights = PackedFloat32Array([0.0, 0.0])
	var z := SwarmRingSpawner.new()
	z.name = "Zero"
	z.spawn_profile = zero
	add_child(z)
	check_eq(z.spawn(5).size(), 0, "spawn with all weights 0")
	check_eq(zero.get_probabilities(), PackedFloat32Array([0.0, 0.0]), "get_probabilities with all weights 0")

	print("-- a profile with no archetypes")
	var none := SwarmSpawnProfile.new()
	var n := SwarmRingSpawner.new()
	n.name = "NoEntries"
	n.spawn_profile = none
	add_child(n)
	check_eq(n.spawn(5).size(), 0, "spawn with an empty profile")

	print("-- negative and NaN weights, an empty entry: only the good entry spawns")
	var only := make_archetype(BoxMesh.new())
	var mixed := SwarmSpawnProfile.new()
	mixed.archetypes = [make_archetype(SphereMesh.new()), make_archetype(PrismMesh.new()), only, null]
	mixed.weights = PackedFloat32Array([-1.0, NAN, 2.0, 5.0])
	var neg := SwarmRectSpawner.new()
	neg.name = "Negative"
	neg.spawn_profile = mixed
	add_child(neg)
	check_eq(neg.spawn(20).size(), 20, "spawn with one usable entry")
	await physics_frames(1)
	var mm := m.get_archetype_multimesh(only)
	check(mm != null and mm.instance_count == 20, "agents of the only usable archetype: %s" % (mm.instance_count if mm else "none"))
	check_eq(m.get_agent_count(), 20, "agents after the mixed profile spawn")

	print("-- count = -5 with auto_spawn")
	var auto := SwarmRectSpawner.new()
	auto.name = "Auto"
	auto.archetype = good
	auto.count = -5
	auto.auto_spawn = true
	add_child(auto)
	await physics_frames(1)
	check_eq(m.get_agent_count(), 20, "agents after auto_spawn with count = -5")

	print("-- ring with inner_radius > outer_radius: swapped")
	var inv := SwarmRingSpawner.new()
	inv.name = "Inverted"
	inv.archetype = good
	inv.inner_radius = 30
	inv.outer_radius = 10
	inv.position = Vector3(200, 0, 0)
	add_child(inv)
	var inv_ids := inv.spawn(30)
	check_eq(inv_ids.size(), 30, "spawn from the inverted ring")
	for id in inv_ids:
		var p := m.get_agent_position(id) - inv.position
		var r := Vector2(p.x, p.z).length()
		check(r >= 10 - 0.01 and r <= 30 + 0.01, "inverted ring point at radius %.2f, outside 10..30" % r)

	print("-- rect with a NaN size: default used, positions finite")
	var flat := SwarmRectSpawner.new()
	flat.name = "Flat"
	flat.archetype = good
	flat.size = Vector2(NAN, 5)
	add_child(flat)
	var flat_ids := flat.spawn(5)
	check_eq(flat_ids.size(), 5, "spawn from the NaN-sized rect")
	check(Array(flat_ids).all(func(id): return m.get_agent_position(id).is_finite()), "non-finite agent from the NaN-sized rect")

	print("-- pick_archetype(null)")
	check(mixed.pick_archetype(null) == null, "pick_archetype(null) is not null")

	print("-- director: negative rate, zero max_per_frame, bad spawner paths")
	var cam := Camera3D.new()
	cam.name = "Cam"
	var d := SwarmSpawnerDirector.new()
	d.name = "Director"
	d.auto_start = false
	d.mode = SwarmSpawnerDirector.CONTINUOUS
	d.initial_batch = 3
	d.spawn_rate = -4.0
	d.max_per_frame = 0
	add_child(d)
	d.add_child(cam)
	var ok := SwarmRectSpawner.new()
	ok.name = "Ok"
	ok.archetype = good
	d.add_child(ok)
	d.spawners = [NodePath("Ok"), NodePath("Nowhere"), NodePath("Cam")]
	var before := m.get_agent_count()
	d.trigger()
	await physics_frames(10)
	# max_per_frame clamped to 1, rate to 0: the 3 of the initial batch, one per frame.
	check_eq(m.get_agent_count() - before, 3, "agents from the director with clamped values")
	d.stop()

	print("-- FINITE_ENCOUNTER with total_limit 0, MAINTAIN_POPULATION with max_alive 0")
	var fin := _director("Finite", SwarmSpawnerDirector.FINITE_ENCOUNTER, good)
	fin.initial_batch = 4
	fin.total_limit = 0
	var fin_done := [0]
	fin.encounter_finished.connect(func(): fin_done[0] += 1)
	var keep := _director("Maintain", SwarmSpawnerDirector.MAINTAIN_POPULATION, good)
	keep.max_alive = 0
	before = m.get_agent_count()
	fin.trigger()
	keep.trigger()
	await physics_frames(5)
	check_eq(fin.get_spawned_total(), 4, "FINITE_ENCOUNTER with total_limit 0 uses initial_batch")
	check_eq(keep.get_spawned_total(), 0, "MAINTAIN_POPULATION with max_alive 0 spawned")
	for id in fin.get_alive_ids():
		m.despawn_agent(id)
	await physics_frames(2)
	check_eq(fin_done[0], 1, "encounter_finished of the total_limit 0 encounter")
	return passed()


func _director(n: String, mode: int, archetype: SwarmAgentArchetype) -> SwarmSpawnerDirector:
	var d := SwarmSpawnerDirector.new()
	d.name = n
	d.mode = mode
	d.auto_start = false
	var s := SwarmRectSpawner.new()
	s.name = "Spawner"
	s.archetype = archetype
	d.add_child(s)
	add_child(d)
	return d
