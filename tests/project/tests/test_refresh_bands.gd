# Visual refresh bands: with a camera, agents off screen are rewritten only every
# fourth frame and distant ones every second, yet every MultiMesh instance always shows the agent
# now at its index: after spawns, despawns (the last agent moves into the freed index) and the
# world's periodic reorder of agents into grid order (every 128 steps), the instance data is
# rewritten for everyone. Checked every frame for 200 frames: each instance's origin is within
# a few frames of movement of its agent, and the off-screen ones really are refreshed less often.
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Bands")
	var target := SwarmTarget.new()
	add_child(target)
	# Far ahead: the agents march in parallel lines 5 m apart and never touch, so an instance
	# showing another agent's data would be metres off, while stale data of its own agent is at
	# most one far-block turn and a few frames of walking behind.
	target.global_position = Vector3(0, 0, -2000)
	# The camera looks at an empty patch far away: every agent is off screen.
	var cam := Camera3D.new()
	add_child(cam)
	cam.global_position = Vector3(500, 20, 500)
	cam.look_at(Vector3(500, 0, 490), Vector3.UP)
	cam.current = true
	manager.visibility_camera = manager.get_path_to(cam)
	var a := make_archetype(BoxMesh.new())
	var walk := SwarmBehaviorProfile.new()
	walk.use_idle_motion = false
	a.behavior_profile = walk
	for i in 1500:  # more than one chunk of 1024, so the world reorders agents every 128 steps
		manager.spawn_agent(a, Vector3((i % 50) * 5.0, 0, (i / 50) * 5.0))
	await physics_frames(2)
	var mm := manager.get_archetype_multimesh(a)
	if not check(mm != null, "no MultiMesh"):
		return false
	var stride := mm.buffer.size() / mm.instance_count
	var worst := 0.0
	var unchanged_frames := 0  # instances whose data did not change in a frame (refresh bands at work)
	var prev := PackedFloat32Array()
	var bad_boxes := 0
	for frame in 200:
		if frame == 50:
			# Despawn a few: the last agents move into the freed indices.
			var ids := manager.get_agent_ids()
			for k in [3, 40, 77, 150]:
				manager.despawn_agent(ids[k])
		if frame == 90:
			for i in 10:
				manager.spawn_agent(a, Vector3(-20.0 - i * 5.0, 0, 30))
		await physics_frames(1)
		var ids := manager.get_agent_ids()
		var buf := mm.buffer
		if not check_eq(mm.instance_count, ids.size(), "instance count at frame %d" % frame):
			return false
		var lo := Vector2(INF, INF)
		var hi := -lo
		for k in ids.size():
			var p := manager.get_agent_position(ids[k])
			var o := Vector2(buf[k * stride + 3], buf[k * stride + 11])
			worst = maxf(worst, o.distance_to(Vector2(p.x, p.z)))
			lo = lo.min(Vector2(p.x, p.z))
			hi = hi.max(Vector2(p.x, p.z))
		# The custom AABB holds every agent as it stands now and no more than a mesh's reach
		# around them: a far block passed over while it waits keeps the bounds it had.
		var box := mm.custom_aabb
		var box_lo := Vector2(box.position.x, box.position.z)
		var box_hi := box_lo + Vector2(box.size.x, box.size.z)
		var holds := box_lo.x <= lo.x and box_lo.y <= lo.y and box_hi.x >= hi.x and box_hi.y >= hi.y
		var tight := (box_hi - box_lo).x <= (hi - lo).x + 4.0 and (box_hi - box_lo).y <= (hi - lo).y + 4.0
		if not (holds and tight):
			bad_boxes += 1
			if bad_boxes == 1:
				check(false, "frame %d: custom AABB %s against the agents' %s..%s" % [frame, box, lo, hi])
		if prev.size() == buf.size():
			for k in ids.size():
				if buf[k * stride + 3] == prev[k * stride + 3] and buf[k * stride + 11] == prev[k * stride + 11]:
					unchanged_frames += 1
		prev = buf
	# Agents move at most about 4.5 m/s: four frames is 0.3 m. All of them are 2 km from their
	# target, so they move in far-block turns of the longest level: 32 frames' worth (2.4 m) at
	# once every 32nd frame, and an instance off screen shows its agent as it stood up to three
	# frames before: up to one turn and three frames behind, 2.65 m, still well under the 5 m to
	# another agent.
	check(bad_boxes == 0, "%d frames' custom AABBs missed or overshot the agents" % bad_boxes)
	check(worst < 2.7, "an instance was %.2f m from its agent (stale data of another agent?)" % worst)
	# Off screen only every fourth frame is written: most instances keep their data most frames.
	check(unchanged_frames > 200 * 1500 / 2, "off-screen instances were rewritten too often (%d unchanged)" % unchanged_frames)
	return passed()
