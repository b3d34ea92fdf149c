# SwarmRectSpawner and SwarmRingSpawner with auto_spawn place `count` agents when the scene starts,
# every one inside its shape (the node's local XZ plane, moved and rotated with the node) and on
# the manager's ground plane. spawn(n) returns n live ids; the same random_seed gives the same
# points; get_shape_outline() (what the editor gizmo draws) lies on the shape's edges.
extends "res://test_base.gd"

const GROUND_Y := 0.5

var positions := {}  # id -> position at the moment it was spawned
var manager: SwarmManager


func _on_spawned(id: int) -> void:
	positions[id] = manager.get_agent_position(id)


func run() -> bool:
	manager = make_manager("Horde")
	manager.position = Vector3(0, GROUND_Y, 0)
	manager.agent_spawned.connect(_on_spawned)
	var archetype := make_archetype()

	var rect := SwarmRectSpawner.new()
	rect.name = "Rect"
	rect.archetype = archetype
	rect.size = Vector2(20, 6)
	rect.count = 150
	rect.auto_spawn = true
	rect.position = Vector3(40, 3, -10)  # its height does not matter: agents stand on the ground
	rect.rotation = Vector3(0, PI / 2, 0)  # local X now runs along world -Z
	add_child(rect)

	var ring := SwarmRingSpawner.new()
	ring.name = "Ring"
	ring.archetype = archetype
	ring.inner_radius = 8
	ring.outer_radius = 12
	ring.count = 250
	ring.auto_spawn = true
	ring.position = Vector3(-30, 0, 20)
	add_child(ring)

	check_eq(manager.get_agent_count(), 0, "agents before the deferred auto_spawn")
	await physics_frames(1)
	check_eq(manager.get_agent_count(), 400, "agents after auto_spawn of both spawners")
	check_eq(positions.size(), 400, "agent_spawned emissions")

	var outside_rect := 0
	var outside_ring := 0
	var off_ground := 0
	var ring_inner_half := 0
	for id in positions:
		var p: Vector3 = positions[id]
		if absf(p.y - GROUND_Y) > 1e-3:
			off_ground += 1
		if p.x > 10:
			# Rect at (40, -10) turned 90 degrees: 6 m along world X, 20 m along world Z.
			if absf(p.x - 40) > 3.001 or absf(p.z + 10) > 10.001:
				outside_rect += 1
		else:
			var d := Vector2(p.x + 30, p.z - 20).length()
			if d < 8 - 1e-3 or d > 12 + 1e-3:
				outside_ring += 1
			if d < 10:
				ring_inner_half += 1
	check_eq(outside_rect, 0, "rect agents outside the rotated 20 x 6 rectangle")
	check_eq(outside_ring, 0, "ring agents outside radius 8..12")
	check_eq(off_ground, 0, "agents off the manager's ground plane")
	# Uniform by area: (10² - 8²) / (12² - 8²) = 45% of the ring lies inside radius 10.
	var share := ring_inner_half / 250.0
	check(share > 0.33 and share < 0.57, "ring points are not spread by area: %.2f inside r = 10 (expected ~0.45)" % share)
	print("spawner shapes: %d rect + %d ring agents inside their shapes, %.2f of the ring inside r = 10" % [150, 250, share])

	# spawn(n) returns n live ids, inside the shape.
	positions.clear()
	var ids := ring.spawn(40)
	check_eq(ids.size(), 40, "ids returned by ring.spawn(40)")
	check(Array(ids).all(func(id): return manager.is_agent_alive(id)), "spawn returned an id that is not alive")
	check(Array(ids).all(func(id): return positions.has(id)), "spawn returned an id agent_spawned did not announce")
	check_eq(rect.spawn(0).size(), 0, "rect.spawn(0)")

	# The same seed gives the same points (relative to each spawner).
	var a := _seeded_points("SeedA", 7, Vector3(0, 0, 100))
	var b := _seeded_points("SeedB", 7, Vector3(100, 0, 100))
	var c := _seeded_points("SeedC", 8, Vector3(-100, 0, 100))
	check(a.size() == 20 and a == b, "two spawners with random_seed 7 gave different points")
	check(a != c, "random_seed 7 and 8 gave the same points")

	# The outline the gizmo draws: segment pairs on the rectangle's edges / the two circles.
	var rect_lines := rect.get_shape_outline()
	check(rect_lines.size() >= 8 and rect_lines.size() % 2 == 0, "rect outline has %d points" % rect_lines.size())
	for i in 8:
		var q := rect_lines[i]
		check(is_equal_approx(absf(q.x), 10.0) and is_equal_approx(absf(q.z), 3.0), "rect outline corner %s is not on the 20 x 6 rectangle" % q)
	var ring_lines := ring.get_shape_outline()
	var off_circle := 0
	for q in ring_lines:
		var r := Vector2(q.x, q.z).length()
		if not (is_equal_approx(r, 8.0) or is_equal_approx(r, 12.0)):
			off_circle += 1
	check(ring_lines.size() > 64 and off_circle == 0, "ring outline: %d points, %d off both circles" % [ring_lines.size(), off_circle])
	return passed()


## Positions (relative to the spawner) of 20 agents from a fresh ring spawner with `seed`.
func _seeded_points(n: String, seed: int, at: Vector3) -> Array:
	var s := SwarmRingSpawner.new()
	s.name = n
	s.archetype = make_archetype()
	s.random_seed = seed
	s.inner_radius = 2
	s.outer_radius = 6
	s.position = at
	add_child(s)
	var out := []
	for id in s.spawn(20):
		var p := manager.get_agent_position(id) - at
		out.append(Vector2(snappedf(p.x, 0.001), snappedf(p.z, 0.001)))
	return out
