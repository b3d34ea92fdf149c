# Spatial queries against brute force in GDScript: get_agents_in_radius and is_any_agent_inside,
# compared with the agents' own positions from get_agent_position. An agent whose centre lies within
# one body radius (plus a margin) of the query boundary may go either way, since an implementation
# may count bodies rather than centres; every other agent must be classified exactly.
extends "res://test_base.gd"

const COUNT := 300
const BAND := 0.45  # agent_radius 0.4 + 5 cm


func run() -> bool:
	var manager := make_manager("Queries")
	manager.random_seed = 7
	var archetype := make_archetype()
	var rng := RandomNumberGenerator.new()
	rng.seed = 12345
	for i in COUNT:
		var id := manager.spawn_agent(archetype, Vector3(rng.randf_range(-30, 30), 0, rng.randf_range(-30, 30)))
		check(id >= 0, "spawn %d failed" % i)
	# Let them settle and wander (idle motion, spacing) for a second.
	await physics_frames(60)

	var ids := manager.get_agent_ids()
	check_eq(ids.size(), COUNT, "get_agent_ids size")
	var pos := {}
	for id in ids:
		pos[id] = manager.get_agent_position(id)

	# Radius queries, including ones that reach past the crowd and an empty one.
	var radius_cases := 0
	for q in 60:
		var center := Vector3(rng.randf_range(-35, 35), 0, rng.randf_range(-35, 35))
		var radius := rng.randf_range(0.5, 15.0)
		if q == 0:
			center = Vector3(200, 0, 200)
		var got := {}
		for id in manager.get_agents_in_radius(center, radius):
			if not check(not got.has(id), "get_agents_in_radius returned id %d twice" % id):
				continue
			got[id] = true
			check(pos.has(id), "get_agents_in_radius returned unknown id %d" % id)
		for id in ids:
			var d := (pos[id] as Vector3).distance_to(center)
			if d < radius - BAND and not got.has(id):
				check(false, "query %d (c=%s r=%.2f): agent %d at distance %.2f missing" % [q, center, radius, id, d])
			elif d > radius + BAND and got.has(id):
				check(false, "query %d (c=%s r=%.2f): agent %d at distance %.2f included" % [q, center, radius, id, d])
		radius_cases += 1
		if failures.size() > 20:
			break
	print("queries: %d radius queries checked" % radius_cases)
	check_eq(manager.get_agents_in_radius(Vector3(200, 0, 200), 5.0).size(), 0, "agents in radius far outside the crowd")
	check_eq(manager.get_agents_in_radius(Vector3.ZERO, 1000.0).size(), COUNT, "agents in a radius covering all")

	# AABB queries: only boxes whose answer does not depend on body radius are compared.
	var inside_true := 0
	var inside_false := 0
	var tries := 0
	while (inside_true < 25 or inside_false < 25) and tries < 2000:
		tries += 1
		var size := Vector3(rng.randf_range(0.3, 6.0), 2.0, rng.randf_range(0.3, 6.0))
		var box := AABB(Vector3(rng.randf_range(-35, 35), -1.0, rng.randf_range(-35, 35)), size)
		var grown := box.grow(BAND)
		var strict := false  # a centre clearly inside
		var near := false    # a centre close enough to the boundary to be ambiguous
		for id in ids:
			var p: Vector3 = pos[id]
			if _inside_by(box, p, BAND):
				strict = true
			elif grown.has_point(p):
				near = true
		if near and not strict:
			continue
		var got := manager.is_any_agent_inside(box)
		if strict:
			inside_true += 1
		else:
			inside_false += 1
		check(got == strict, "is_any_agent_inside(%s) = %s, brute force says %s" % [box, got, strict])
		if failures.size() > 20:
			break
	print("queries: %d boxes with agents, %d empty boxes checked" % [inside_true, inside_false])
	check(inside_true >= 10 and inside_false >= 10, "too few unambiguous boxes (%d, %d)" % [inside_true, inside_false])
	check(manager.is_any_agent_inside(AABB(Vector3(-40, -1, -40), Vector3(80, 2, 80))), "box around the whole crowd")
	check(not manager.is_any_agent_inside(AABB(Vector3(-40, 5, -40), Vector3(80, 2, 80))), "box above the ground plane")
	check(not manager.is_any_agent_inside(AABB(Vector3(100, -1, 100), Vector3(10, 2, 10))), "box far from the crowd")
	return passed()


## Whether p lies inside box with at least `margin` to spare on x and z (a box smaller than twice
## the margin has no such point; AABB.grow(-margin) would make a negative, invalid box).
func _inside_by(box: AABB, p: Vector3, margin: float) -> bool:
	return (p.x > box.position.x + margin and p.x < box.end.x - margin
		and p.z > box.position.z + margin and p.z < box.end.z - margin
		and p.y >= box.position.y and p.y <= box.end.y)
