# A traffic lane's colliders: all disabled until wake_colliders, then only those near the actor
# (and those it comes near as it moves) are in the physics space, on the profile's layer; the lane
# does not move meanwhile; after the time every collider is disabled and the lane moves on.
extends "res://test_base.gd"

const Common := preload("res://tests/traffic_common.gd")
const LAYER := 1 << 4

var woken: Array = []
var slept := 0


## The vehicles whose centre a point query on the lane's layer finds.
func hits(lane: SwarmTrafficLane) -> Array:
	var space := get_viewport().world_3d.direct_space_state
	var out := []
	for o in lane.get_vehicle_offsets():
		var q := PhysicsPointQueryParameters3D.new()
		q.position = Vector3(o, 0.0, 0.0)
		q.collision_mask = LAYER
		var found := space.intersect_point(q)
		if found.size() > 0:
			check(found[0]["collider"] == lane, "a hit reports the lane as its collider")
			out.append(o)
	return out


func run() -> bool:
	var profile := Common.make_profile()
	profile.wake_radius = 6.0
	profile.collision_layer = LAYER
	var lane := Common.make_lane(self, "Lane", Common.make_street(self, "Street", 300.0), profile)
	lane.colliders_woken.connect(func(n): woken.append(n))
	lane.colliders_slept.connect(func(): slept += 1)
	var actor := Node3D.new()
	add_child(actor)
	actor.global_position = Vector3(150, 0, 2)
	await physics_frames(60)
	check_eq(hits(lane).size(), 0, "colliders in the space before any wake")
	check_eq(lane.get_stats()["colliders_awake"], 0, "colliders_awake before any wake")

	lane.wake_colliders(actor, 1.0)
	check_eq(woken.size(), 1, "colliders_woken at the call")
	var first: int = woken[0] if woken.size() > 0 else 0
	check(first >= 1, "a vehicle within 6 m of the actor woke: %d" % first)
	check_eq(lane.get_stats()["colliders_awake"], first, "colliders_awake after the call")
	var frozen_offsets := lane.get_vehicle_offsets()
	await physics_frames(2)
	var near := hits(lane)
	check_eq(near.size(), first, "colliders found in the space")
	for o in near:
		check(absf(o - 150.0) <= 6.0 + 2.2, "only vehicles near the actor wake: one at %.1f" % o)
	check(lane.get_stats()["frozen"], "the lane is frozen while colliders are awake")
	check_eq(lane.get_stats()["moving"], 0, "vehicles moving in a frozen lane")

	# The actor walks 10 m along the street: the vehicles it passes wake too.
	for i in 20:
		actor.global_position.x += 0.5
		await get_tree().physics_frame
	check(lane.get_stats()["colliders_awake"] > first, "more woke as the actor moved: %s" % lane.get_stats()["colliders_awake"])
	check(woken.size() >= 2, "colliders_woken again as the actor moved")
	check_eq(lane.get_vehicle_offsets(), frozen_offsets, "vehicle offsets while colliders are awake")
	check_eq(slept, 0, "colliders_slept before the time is up")

	await physics_frames(45)
	check_eq(slept, 1, "colliders_slept after 1 s")
	check_eq(lane.get_stats()["colliders_awake"], 0, "colliders_awake after the event")
	check_eq(hits(lane).size(), 0, "colliders in the space after the event")
	check(not lane.get_stats()["frozen"], "the lane thaws")
	await physics_frames(30)
	check(lane.get_vehicle_offsets() != frozen_offsets, "the lane moves on after the event")
	return passed()
