# SwarmSpawnProfile: a weighted pick. Archetypes [A, B, C, D] with weights [3, 1, 0] (D has no
# weight, so it weighs 1): over 3000 spawns from a spawner, A ~ 3/5, B ~ 1/5, C never, D ~ 1/5,
# counted through each archetype's MultiMesh. get_probabilities() says the same; pick_archetype()
# with a seeded RandomNumberGenerator is deterministic.
extends "res://test_base.gd"

const N := 3000


func run() -> bool:
	var manager := make_manager("Horde", 10000)
	var a := make_archetype(BoxMesh.new())
	var b := make_archetype(SphereMesh.new())
	var c := make_archetype(CylinderMesh.new())
	var d := make_archetype(PrismMesh.new())
	var profile := SwarmSpawnProfile.new()
	profile.archetypes = [a, b, c, d]
	profile.weights = PackedFloat32Array([3.0, 1.0, 0.0])

	var probs := profile.get_probabilities()
	check_eq(probs.size(), 4, "get_probabilities size")
	var want := [0.6, 0.2, 0.0, 0.2]
	for i in 4:
		check(is_equal_approx(probs[i], want[i]), "probability %d: expected %.2f, got %.4f" % [i, want[i], probs[i]])

	var spawner := SwarmRectSpawner.new()
	spawner.name = "Mix"
	spawner.spawn_profile = profile
	spawner.archetype = c  # ignored: the profile takes precedence
	spawner.size = Vector2(80, 80)
	add_child(spawner)
	var ids := spawner.spawn(N)
	check_eq(ids.size(), N, "ids from spawn(%d)" % N)
	await physics_frames(1)

	var counts := []
	for arch in [a, b, c, d]:
		var mm := manager.get_archetype_multimesh(arch)
		counts.append(0 if mm == null else mm.instance_count)
	print("spawn profile: counts A=%d B=%d C=%d D=%d of %d" % [counts[0], counts[1], counts[2], counts[3], N])
	check_eq(counts[0] + counts[1] + counts[2] + counts[3], N, "sum of the archetypes' instance counts")
	check_eq(counts[2], 0, "agents of C (weight 0)")
	for i in [0, 1, 3]:
		var share: float = counts[i] / float(N)
		# 3 standard deviations of a binomial share over 3000 draws is under 0.027.
		check(absf(share - want[i]) < 0.03, "share of archetype %d is %.3f, expected %.2f" % [i, share, want[i]])

	# pick_archetype with a seeded RandomNumberGenerator: deterministic and weighted.
	var r1 := RandomNumberGenerator.new()
	var r2 := RandomNumberGenerator.new()
	r1.seed = 1234
	r2.seed = 1234
	var same := true
	var picked_a := 0
	for i in 2000:
		var p1 := profile.pick_archetype(r1)
		var p2 := profile.pick_archetype(r2)
		same = same and p1 == p2
		if p1 == a:
			picked_a += 1
		check(p1 != c, "pick_archetype returned the weight-0 archetype")
	check(same, "pick_archetype differs between two generators with the same seed")
	check(absf(picked_a / 2000.0 - 0.6) < 0.05, "pick_archetype picked A %d times of 2000 (expected ~1200)" % picked_a)

	# The same spawner seed gives the same sequence of archetypes: two fresh spawners, same seed.
	var seq := []
	for k in 2:
		var s := SwarmRingSpawner.new()
		s.name = "Seq%d" % k
		s.spawn_profile = profile
		s.random_seed = 99
		add_child(s)
		var got := s.spawn(200)
		await physics_frames(1)
		var after := []
		for arch in [a, b, c, d]:
			var mm := manager.get_archetype_multimesh(arch)
			after.append(0 if mm == null else mm.instance_count)
		seq.append(after)
		for id in got:
			manager.despawn_agent(id)
		await physics_frames(1)
	check(seq[0] == seq[1], "two spawners with the same seed spawned different archetype mixes: %s vs %s" % [seq[0], seq[1]])
	return passed()
