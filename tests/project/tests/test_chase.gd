# 200 agents spawned on a ring 30 m from a SwarmTarget chase it: after 10 s of physics they are
# gathered around it, no position or velocity ever went non-finite, and agent_spawned fired once
# per agent with the returned id. The manager sits at y = 1: agents stand on its ground plane.
extends "res://test_base.gd"

const COUNT := 200
const RING := 30.0
const GROUND_Y := 1.0

var spawned_ids: Array[int] = []


func _on_spawned(id: int) -> void:
	spawned_ids.append(id)


func run() -> bool:
	var manager := make_manager("Horde")
	manager.position = Vector3(0, GROUND_Y, 0)
	manager.agent_spawned.connect(_on_spawned)

	var target := SwarmTarget.new()
	target.name = "Player"
	add_child(target)
	target.global_position = Vector3(0, GROUND_Y, 0)

	var archetype := make_archetype(BoxMesh.new())
	var behavior := SwarmBehaviorProfile.new()  # defaults, but named so the surround radius is read back
	archetype.behavior_profile = behavior

	var ids: Array[int] = []
	for i in COUNT:
		var a := TAU * i / COUNT
		var id := manager.spawn_agent(archetype, Vector3(cos(a) * RING, GROUND_Y, sin(a) * RING))
		check(id >= 0, "spawn_agent %d returned %d" % [i, id])
		ids.append(id)
	check_eq(manager.get_agent_count(), COUNT, "get_agent_count after spawning")

	var start_mean := _mean_distance(manager, ids, target.global_position)
	var nan_frames := 0
	var first_nan := ""
	var mean_at_3s := INF
	for frame in 600:
		await get_tree().physics_frame
		if frame == 180:
			mean_at_3s = _mean_distance(manager, ids, target.global_position)
		for id in ids:
			var p := manager.get_agent_position(id)
			var v := manager.get_agent_velocity(id)
			if not (p.is_finite() and v.is_finite()):
				nan_frames += 1
				if first_nan.is_empty():
					first_nan = "frame %d agent %d p=%s v=%s" % [frame, id, p, v]
				break
	check(nan_frames == 0, "non-finite position/velocity in %d frames, first: %s" % [nan_frames, first_nan])

	var tp := target.global_position
	var dists: Array[float] = []
	var off_plane := 0
	for id in ids:
		var p := manager.get_agent_position(id)
		dists.append(Vector2(p.x - tp.x, p.z - tp.z).length())
		if absf(p.y - GROUND_Y) > 0.01:
			off_plane += 1
	dists.sort()
	var mean := 0.0
	for d in dists:
		mean += d
	mean /= dists.size()
	print("chase: mean distance %.2f m at start, %.2f m at 3 s, %.2f m at 10 s; closest %.2f, median %.2f, farthest %.2f"
		% [start_mean, mean_at_3s, mean, dists[0], dists[dists.size() / 2], dists[-1]])

	# 200 bodies of radius 0.4 kept ~1.2 m apart (spacing_radius) pack into a disc of radius ~9 m
	# around the surround ring, mean distance ~6 m; anything close to that means they arrived.
	var limit := behavior.surround_radius + 6.0
	check(mean < limit, "mean distance to the target after 10 s is %.2f m, expected < %.2f m" % [mean, limit])
	check(mean_at_3s < start_mean - 5.0, "agents barely approached in the first 3 s: %.2f -> %.2f m" % [start_mean, mean_at_3s])
	check(dists[0] < behavior.surround_radius + 1.5, "closest agent is %.2f m from the target" % dists[0])
	check(dists[-1] < 20.0, "an agent is still %.2f m from the target after 10 s" % dists[-1])
	# Body blocking (on by default): no two bodies of radius 0.4 interpenetrate by much.
	var closest_pair := INF
	var overlapping := 0
	var points: Array[Vector3] = []
	for id in ids:
		points.append(manager.get_agent_position(id))
	for i in points.size():
		for j in range(i + 1, points.size()):
			var d := points[i].distance_to(points[j])
			closest_pair = minf(closest_pair, d)
			if d < 0.6:
				overlapping += 1
	print("chase: closest pair of agents %.3f m apart, %d pairs closer than 0.6 m" % [closest_pair, overlapping])
	check(overlapping == 0, "%d pairs of agents closer than 0.6 m (bodies 0.8 m wide); closest %.3f m" % [overlapping, closest_pair])
	check(off_plane == 0, "%d agents are off the manager's ground plane y = %.1f" % [off_plane, GROUND_Y])

	check_eq(spawned_ids.size(), COUNT, "agent_spawned emissions")
	spawned_ids.sort()
	var sorted_ids := ids.duplicate()
	sorted_ids.sort()
	check(spawned_ids == sorted_ids, "agent_spawned ids differ from the ids spawn_agent returned")
	check_eq(manager.get_agent_count(), COUNT, "get_agent_count after 10 s")
	return passed()


func _mean_distance(manager: SwarmManager, ids: Array[int], to: Vector3) -> float:
	var sum := 0.0
	for id in ids:
		var p := manager.get_agent_position(id)
		sum += Vector2(p.x - to.x, p.z - to.z).length()
	return sum / ids.size()
