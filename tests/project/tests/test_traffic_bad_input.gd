# A traffic lane's bad setups and calls: each gets one clear error naming the lane, the field and
# the fix (the sentences its configuration warnings show in the editor), nothing crashes, and freeing the
# path, the anchor or the lane mid-run leaves no error.
# expect_error: SwarmTrafficLane 'NoPath': no Path3D: add a Path3D child, or set Path to one
# expect_error: SwarmTrafficLane 'NoCurve': the Path3D 'Empty' has an empty curve: give it a Curve3D with at least two points
# expect_error: SwarmTrafficLane 'NoProfile': profile is empty: assign a SwarmTrafficProfile to Profile
# expect_error: vehicle_meshes has no mesh: add at least one Mesh
# expect_error: brake_gap (3) is not below packing_gap (2.5): a packed lane freezes
# expect_error: SwarmTrafficLane 'Bad': SwarmTrafficProfile (unsaved): crawl_speed = NaN is not a number; using 2.5
# expect_error: SwarmTrafficLane 'Bad': window_behind = -5 is outside 0..100000; using 0
# expect_error: SwarmTrafficLane 'Bad': vehicle_weights[0] = -1 is outside 0..1000000000; using 0
# expect_error: SwarmTrafficLane 'Bad': wake_colliders: actor is null or not in the scene tree
# expect_error: SwarmTrafficLane 'Bad': wake_colliders: seconds = -1 must be a number above 0
# expect_error: SwarmTrafficLane 'NoPath': wake_colliders: the lane is not running
extends "res://test_base.gd"

const Common := preload("res://tests/traffic_common.gd")


func run() -> bool:
	var profile := Common.make_profile()
	var no_path := SwarmTrafficLane.new()
	no_path.name = "NoPath"
	no_path.profile = profile
	add_child(no_path)

	var empty := Path3D.new()
	empty.name = "Empty"
	add_child(empty)
	Common.make_lane(self, "NoCurve", empty, profile)

	var no_profile := Common.make_lane(self, "NoProfile", Common.make_street(self, "S1", 100.0), null)
	var no_mesh := Common.make_lane(self, "NoMesh", Common.make_street(self, "S2", 100.0), profile)
	no_mesh.vehicle_meshes = []

	var dead := Common.make_profile()
	dead.brake_gap = 3.0
	var dead_lane := Common.make_lane(self, "Dead", Common.make_street(self, "S3", 100.0), dead)

	var bad_profile := Common.make_profile()
	bad_profile.crawl_speed = NAN
	var bad := Common.make_lane(self, "Bad", Common.make_street(self, "S4", 100.0), bad_profile)
	bad.window_behind = -5.0
	bad.vehicle_weights = PackedFloat32Array([-1.0])
	await physics_frames(3)
	check_eq(no_path.get_vehicle_offsets().size(), 0, "a lane with no path has no vehicles")
	check(no_profile.get_stats()["vehicles"] > 0, "a lane with no profile runs on the defaults")
	check(no_mesh.get_stats()["vehicles"] > 0, "a lane with no mesh is simulated")
	for s in bad.get_vehicle_speeds():
		check(is_finite(s), "speeds stay numbers")
	bad.wake_colliders(null, 1.0)
	bad.wake_colliders(bad, -1.0)
	no_path.wake_colliders(bad, 1.0)

	# Freeing the path, the anchor and the lane mid-run.
	var anchor := Node3D.new()
	add_child(anchor)
	var street := Common.make_street(self, "S5", 400.0)
	var lane := Common.make_lane(self, "Freed", street, profile)
	lane.window_anchor = lane.get_path_to(anchor)
	var actor := Node3D.new()
	add_child(actor)
	await physics_frames(10)
	var slept := [0]
	lane.colliders_slept.connect(func(): slept[0] += 1)
	lane.wake_colliders(actor, 5.0)
	actor.queue_free()
	anchor.queue_free()
	await physics_frames(30)
	check(lane.get_stats()["vehicles"] > 0, "the lane runs on without its anchor")
	street.queue_free()
	await physics_frames(5)
	check_eq(lane.get_stats()["vehicles"], 0, "a lane whose path was freed stops")
	check_eq(slept[0], 1, "colliders_slept when the path went away during a wake event")
	lane.queue_free()
	await physics_frames(5)
	return passed()
