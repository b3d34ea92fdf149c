# A resting horde keeps its instance data: dormant agents at rest are not rewritten into the
# MultiMesh buffer, and while every agent of the archetype rests the buffer is not even handed
# over again (the renderer keeps the one it has), yet every instance (as the renderer reads it
# back) always shows the agent now at its index. 1,500 agents doze
# off far from the target and come to rest; then, frame by frame: every instance's origin is its
# agent's position exactly, after a resting agent is moved by set_agent_position (it wakes where
# it is put), after despawns (the last agents move into the freed indices) and after the
# target walks into one end of the horde (those agents wake and walk).
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Resting")
	var s := SwarmSettings.new()
	s.dormancy_distance = 40.0
	s.dormancy_delay = 0.2
	manager.settings = s
	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(0, 0, 0)
	var a := make_archetype(BoxMesh.new())
	for i in 1500:  # more than one chunk of 1024 agents
		manager.spawn_agent(a, Vector3(200.0 + (i % 50) * 3.0, 0, (i / 50) * 3.0))
	var mm := manager.get_archetype_multimesh(a)
	for frame in 60:
		await physics_frames(1)
	if not check_eq(manager.get_stats().get("dormant_count", -1), 1500, "agents dozing off"):
		return false
	var ids := manager.get_agent_ids()
	if not check(manager.get_agent_velocity(ids[0]) == Vector3.ZERO, "a dormant agent is at rest"):
		return false
	if not check(shows_every_agent(manager, mm, "at rest"), "at rest"):
		return false
	# Moved while resting: it wakes where it is put, and its instance follows.
	manager.set_agent_position(ids[700], Vector3(250, 0, 95))
	await physics_frames(1)
	if not check(shows_every_agent(manager, mm, "moved"), "after set_agent_position"):
		return false
	for frame in 30:
		await physics_frames(1)
		if not shows_every_agent(manager, mm, "after the move, frame %d" % frame):
			return false
	# Despawns: the last agents move into the freed indices.
	ids = manager.get_agent_ids()
	for k in [3, 400, 1200]:
		manager.despawn_agent(ids[k])
	for frame in 5:
		await physics_frames(1)
		if not shows_every_agent(manager, mm, "after despawns, frame %d" % frame):
			return false
	# The target walks up to one end of the horde: those agents wake and walk.
	target.global_position = Vector3(190, 0, 0)
	for frame in 60:
		await physics_frames(1)
		if not shows_every_agent(manager, mm, "target near, frame %d" % frame):
			return false
	var awake := 1500 - 3 - int(manager.get_stats().get("dormant_count", -1))
	check(awake > 20 and awake < 1400, "only the near end of the horde wakes (%d awake)" % awake)
	return passed()


## Whether every instance's origin is exactly its agent's position (the box mesh is lifted by
## half its height, 0.5 m).
func shows_every_agent(manager: SwarmManager, mm: MultiMesh, when: String) -> bool:
	var ids := manager.get_agent_ids()
	if not check_eq(mm.instance_count, ids.size(), "instance count (%s)" % when):
		return false
	var buf := mm.buffer
	var stride := buf.size() / mm.instance_count
	for k in ids.size():
		var p := manager.get_agent_position(ids[k])
		var o := Vector3(buf[k * stride + 3], buf[k * stride + 7] - 0.5, buf[k * stride + 11])
		if not check(o.distance_to(p) < 1e-4, "instance %d shows %s, its agent stands at %s (%s)" % [k, o, p, when]):
			return false
	return true
