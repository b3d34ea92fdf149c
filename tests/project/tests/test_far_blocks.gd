# Far blocks through the public API: 2,000 agents walking to a target 300 m away (Cheap, no
# camera) step a block at a time, once every cheap_update_interval frames, and wait in between;
# get_stats()["far_waiting"] and the "far waiting" monitor count the waiting agents, the horde
# keeps walking at its pace, and every MultiMesh instance, rewritten only when its agent moved,
# shows its agent exactly, frame by frame (the visual sync skips a waiting agent's slot once
# written). An interval of 1 steps everyone every frame.
extends "res://test_base.gd"


func run() -> bool:
	var manager := make_manager("Far")
	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(-300, 0, 0)
	var a := make_archetype(BoxMesh.new())
	var walk := SwarmBehaviorProfile.new()
	walk.use_idle_motion = false
	a.behavior_profile = walk
	for i in 2000:
		manager.spawn_agent(a, Vector3((i % 50) * 2.0, 0, (i / 50) * 2.0))
	await physics_frames(10)
	var mm := manager.get_archetype_multimesh(a)
	if not check(mm != null, "no MultiMesh"):
		return false
	var ids := manager.get_agent_ids()
	var start := manager.get_agent_position(ids[0])
	var waited := 0
	for frame in 60:
		await physics_frames(1)
		var st := manager.get_stats()
		waited += st["far_waiting"]
		var buf := mm.buffer
		var stride := buf.size() / mm.instance_count
		ids = manager.get_agent_ids()
		for k in ids.size():
			var p := manager.get_agent_position(ids[k])
			if buf[k * stride + 3] != p.x or buf[k * stride + 11] != p.z:
				check(false, "frame %d: instance %d shows (%f, %f), its agent stands at %s" % [frame, k,
						buf[k * stride + 3], buf[k * stride + 11], p])
				return false
	# Three in four wait each frame, less the blocks that have not yet taken a turn.
	check(waited > 60 * 2000 / 2, "far agents waited %d agent-frames of %d" % [waited, 60 * 2000])
	var monitor := &"Swarm/Far far waiting"
	if check(Performance.has_custom_monitor(monitor), "the far waiting monitor"):
		check(Performance.get_custom_monitor(monitor) > 0.0, "the far waiting monitor counts")
	var walked := manager.get_agent_position(ids[0]).distance_to(start)
	check(walked > 2.5 and walked < 5.5, "a far agent walked %.2f m in 60 frames (at 3.5 to 4.5 m/s)" % walked)
	var s := SwarmSettings.new()
	s.cheap_update_interval = 1
	manager.settings = s
	await physics_frames(2)
	check_eq(manager.get_stats()["far_waiting"], 0, "an interval of 1: nobody waits")
	return passed()
