# spawn_off_screen: with a Camera3D looking down -Z, a ring spawner around the camera places every
# agent where the camera cannot see it (neither the feet nor 2 m above them); without the option
# some land in view. A spawner that lies wholly in view falls back as told: FALLBACK_SKIP spawns
# nothing (a warning says so), FALLBACK_SPAWN_IN_VIEW spawns in view. The manager's
# visibility_camera, when set, is the camera that counts.
extends "res://test_base.gd"


func _in_view(cam: Camera3D, p: Vector3) -> bool:
	return cam.is_position_in_frustum(p) or cam.is_position_in_frustum(p + Vector3.UP * 2.0)


func run() -> bool:
	var m := make_manager("Horde", 5000)
	var cam := Camera3D.new()
	cam.name = "Eye"
	cam.position = Vector3(0, 1.7, 0)
	add_child(cam)
	cam.make_current()
	await physics_frames(1)
	check(get_viewport().get_camera_3d() == cam, "the test camera is not the viewport's camera")

	var ring := SwarmRingSpawner.new()
	ring.name = "Around"
	ring.archetype = make_archetype()
	ring.inner_radius = 5
	ring.outer_radius = 30
	add_child(ring)

	# Without the option a good share lands in view (sanity check of the setup).
	var plain := ring.spawn(300)
	var plain_in_view := 0
	for id in plain:
		if _in_view(cam, m.get_agent_position(id)):
			plain_in_view += 1
	check(plain_in_view > 50, "only %d of 300 unrestricted points are in view: the camera setup is wrong" % plain_in_view)

	ring.spawn_off_screen = true
	var hidden := ring.spawn(300)
	check_eq(hidden.size(), 300, "ids from an off-screen spawn with plenty of room behind the camera")
	var seen := 0
	for id in hidden:
		if _in_view(cam, m.get_agent_position(id)):
			seen += 1
	check_eq(seen, 0, "off-screen agents the camera can see")
	print("off screen: %d of 300 unrestricted points in view, %d of %d off-screen points in view" % [plain_in_view, seen, hidden.size()])

	# A small rectangle straight ahead: no point can be hidden.
	var ahead := SwarmRectSpawner.new()
	ahead.name = "Ahead"
	ahead.archetype = make_archetype()
	ahead.size = Vector2(4, 4)
	ahead.position = Vector3(0, 0, -25)
	ahead.spawn_off_screen = true
	ahead.off_screen_attempts = 8
	add_child(ahead)
	var skipped := ahead.spawn(10)
	check_eq(skipped.size(), 0, "FALLBACK_SKIP spawned agents in view")
	ahead.off_screen_fallback = SwarmRectSpawner.FALLBACK_SPAWN_IN_VIEW
	var forced := ahead.spawn(10)
	check_eq(forced.size(), 10, "FALLBACK_SPAWN_IN_VIEW spawn count")
	check(Array(forced).all(func(id): return _in_view(cam, m.get_agent_position(id))), "FALLBACK_SPAWN_IN_VIEW agents are not where expected")

	# The manager's visibility_camera (a second camera looking +Z) decides instead of the viewport's.
	var back := Camera3D.new()
	back.name = "Rear"
	back.position = Vector3(0, 1.7, 0)
	back.rotation = Vector3(0, PI, 0)
	add_child(back)
	cam.make_current()
	m.visibility_camera = m.get_path_to(back)
	var rear_hidden := ring.spawn(200)
	var rear_seen := 0
	var front_seen := 0
	for id in rear_hidden:
		var p := m.get_agent_position(id)
		if _in_view(back, p):
			rear_seen += 1
		if _in_view(cam, p):
			front_seen += 1
	check_eq(rear_seen, 0, "agents the manager's visibility_camera can see")
	# Off-screen for the viewport camera was 0 of 300 above; now the viewport camera sees many.
	check(front_seen > 20, "with visibility_camera set, only %d of 200 agents are in view of the viewport camera: it still decided" % front_seen)
	return passed()
