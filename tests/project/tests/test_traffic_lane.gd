# A traffic lane on a straight street: vehicles are drawn through a MultiMesh, listed front first
# in driving order without overlap, move (mean speed), recycle around the moving camera's window,
# both directions flow, a closed curve loops, the debugger monitors show the stats, and the
# editor gizmo's window outline covers the window.
extends "res://test_base.gd"

const Common := preload("res://tests/traffic_common.gd")
const KEYS := ["vehicles", "moving", "mean_speed", "voices_playing", "colliders_awake", "recycled", "frozen"]


func check_order(lane: SwarmTrafficLane, reverse: bool, what: String) -> void:
	var offsets := lane.get_vehicle_offsets()
	var speeds := lane.get_vehicle_speeds()
	check_eq(speeds.size(), offsets.size(), what + ": speeds and offsets agree in length")
	var brake: float = lane.profile.brake_gap
	for k in range(1, offsets.size()):
		# Front first: the one ahead has the larger offset (smaller when reversed), 4.4 m bodies.
		var gap: float = (offsets[k - 1] - offsets[k]) if not reverse else (offsets[k] - offsets[k - 1])
		if not check(gap - 4.4 >= brake - 0.01, "%s: vehicle %d is %.3f m behind the one ahead" % [what, k, gap - 4.4]):
			return


func run() -> bool:
	var camera := Camera3D.new()
	add_child(camera)
	camera.current = true
	camera.global_position = Vector3(300, 10, 0)
	var profile := Common.make_profile()
	var forward := Common.make_lane(self, "Forward", Common.make_street(self, "StreetA", 2000.0), profile)
	var backward := Common.make_lane(self, "Backward", Common.make_street(self, "StreetB", 2000.0, 4.0), profile)
	backward.reverse = true
	await physics_frames(2)
	var s := forward.get_stats()
	for key in KEYS:
		check(s.has(key), "get_stats() lacks '%s' (has %s)" % [key, s.keys()])
	check(s["vehicles"] >= 10, "the 120 m window is filled: %s vehicles" % s["vehicles"])
	var monitor := &"Swarm Traffic/Forward vehicles"
	if check(Performance.has_custom_monitor(monitor), "the lane's debugger monitors"):
		check_eq(int(Performance.get_custom_monitor(monitor)), s["vehicles"], "the vehicles monitor")
	var mmi: MultiMeshInstance3D = null
	for c in forward.get_children(true):
		if c is MultiMeshInstance3D:
			mmi = c
	if check(mmi != null, "the lane draws through a MultiMeshInstance3D"):
		check_eq(mmi.multimesh.instance_count, s["vehicles"], "MultiMesh instances")
		# Each row (12 floats) holds one vehicle: its -Z faces +X, its origin on its offset.
		var buf := mmi.multimesh.buffer
		check_eq(buf.size(), 12 * s["vehicles"], "MultiMesh buffer floats")
		var drawn: Array[float] = []
		for i in mmi.multimesh.instance_count:
			var back := Vector3(buf[i * 12 + 2], buf[i * 12 + 6], buf[i * 12 + 10])
			check(back.dot(Vector3(-1, 0, 0)) > 0.99, "a forward vehicle's -Z faces +X: basis.z = %s" % back)
			drawn.append(buf[i * 12 + 3])
		drawn.sort()
		# A fixed custom AABB (the renderer never recomputes one) that holds every vehicle.
		var aabb := mmi.multimesh.custom_aabb
		if check(aabb.size != Vector3.ZERO, "the lane's MultiMesh has no custom AABB"):
			var box := mmi.multimesh.mesh.get_aabb()
			for i in mmi.multimesh.instance_count:
				var k := i * 12
				var basis := Basis(Vector3(buf[k], buf[k + 4], buf[k + 8]), Vector3(buf[k + 1], buf[k + 5], buf[k + 9]),
					Vector3(buf[k + 2], buf[k + 6], buf[k + 10]))
				var seen := Transform3D(basis, Vector3(buf[k + 3], buf[k + 7], buf[k + 11])) * box
				check(aabb.grow(0.001).encloses(seen), "vehicle %d's box %s reaches outside the custom AABB %s" % [i, seen, aabb])
		var listed := Array(forward.get_vehicle_offsets())
		listed.sort()
		for i in mini(drawn.size(), listed.size()):
			check(absf(drawn[i] - listed[i]) < 0.01, "vehicle drawn at x = %.2f, listed at %.2f" % [drawn[i], listed[i]])
	# The editor gizmo's outline: line pairs along the window (240..360 m on the street), lifted.
	var outline := forward.get_window_outline()
	check(outline.size() >= 8 and outline.size() % 2 == 0, "window outline points: %d" % outline.size())
	for p in outline:
		check(p.x >= 240.0 - 0.01 and p.x <= 360.0 + 0.01 and absf(p.y - 0.3) < 0.01, "outline point %s outside the window" % p)
	var offsets := forward.get_vehicle_offsets()
	check(offsets[0] <= 360.0 + 0.1 and offsets[0] > 300.0, "the front is at the window's leading edge: %s" % offsets[0])

	# The camera drives along the street at 6 m/s for 20 s: one lane goes its way, the other meets it.
	var mean_f := 0.0
	var mean_b := 0.0
	for i in 1200:
		camera.global_position.x += 0.1
		await get_tree().physics_frame
		mean_f += forward.get_stats()["mean_speed"] / 1200.0
		mean_b += backward.get_stats()["mean_speed"] / 1200.0
		if i % 100 == 0:
			check_order(forward, false, "forward lane")
			check_order(backward, true, "reverse lane")
	print("mean speed: forward %.2f, reverse %.2f m/s of crawl %.2f" % [mean_f, mean_b, profile.crawl_speed])
	check(mean_f >= 0.3 * profile.crawl_speed, "the forward lane flows: %.2f m/s" % mean_f)
	check(mean_b >= 0.3 * profile.crawl_speed, "the reverse lane flows: %.2f m/s" % mean_b)
	check(forward.get_stats()["recycled"] > 10, "the forward belt recycles: %s" % forward.get_stats()["recycled"])
	check(backward.get_stats()["recycled"] > 10, "the reverse belt recycles: %s" % backward.get_stats()["recycled"])
	var f_off := forward.get_vehicle_offsets()
	check(f_off[0] > 360.0, "the window followed the camera: front at %.1f" % f_off[0])

	# A closed curve with no anchor in range: a loop.
	camera.free()
	await physics_frames(1)
	var ring := Path3D.new()
	ring.name = "Ring"
	var c := Curve3D.new()
	for p in [Vector3(0, 0, 100), Vector3(60, 0, 100), Vector3(60, 0, 160), Vector3(0, 0, 160)]:
		c.add_point(p)
	c.closed = true
	ring.curve = c
	add_child(ring)
	var loop := Common.make_lane(self, "Loop", ring, profile)
	await physics_frames(600)
	var ls := loop.get_stats()
	check(ls["vehicles"] > 5 and ls["recycled"] == 0, "the loop keeps its vehicles without recycling: %s" % ls)
	for o in loop.get_vehicle_offsets():
		check(o >= 0.0 and o <= c.get_baked_length(), "loop offset %s inside the curve" % o)
	check(ls["mean_speed"] > 0.3 * profile.crawl_speed, "the loop flows: %s" % ls["mean_speed"])
	return passed()
