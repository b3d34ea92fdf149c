# Save and load: a manager with a baked surface flow field, a door, a target and a crowd is
# saved mid-run; the crowd steps on N frames and is recorded; the save is loaded and the same N
# frames give bit-identical positions and velocities. Damaged, truncated, empty, foreign and
# future-version bytes are refused with a message and change nothing. A save whose target node
# is gone loads, reports the target, and its agents carry on finite.
# expect_error: load_state: the data is empty; the running simulation is unchanged
# expect_error: load_state: the data is not a Swarm save
# expect_error: load_state: the save is truncated
# expect_error: load_state: the save is damaged (checksum mismatch)
# expect_error: load_state: the save has format version 99, newer than this build reads
extends "res://test_base.gd"

const FRAMES := 45


func run() -> bool:
	await make_doorway_level()
	var m := make_flow_manager("Saver", 400)
	add_doorway_door(m)
	var target := SwarmTarget.new()
	target.name = "Bait"
	m.add_child(target)
	target.position = Vector3(2, 0, 10)
	var archetype := make_archetype()
	var ids := spawn_doorway_crowd(m, archetype, 120)
	await physics_frames(30)

	var bytes: PackedByteArray = m.save_state()
	check(bytes.size() > 16, "save_state returned %d bytes" % bytes.size())
	var count_at_save := m.get_agent_count()
	await physics_frames(FRAMES)
	var first := record_agents(m)
	check(m.load_state(bytes) == OK, "load_state of a fresh save")
	check_eq(m.get_agent_count(), count_at_save, "agent count after load")
	await physics_frames(FRAMES)
	var second := record_agents(m)
	var differ := 0
	for i in first.size():
		if i >= second.size() or first[i] != second[i]:
			differ += 1
	print("save_load: %d bytes for %d agents; %d of %d recorded values differ after load" % [bytes.size(), count_at_save, differ, first.size()])
	check(first.size() == second.size() and differ == 0, "stepping on after a load differs: %d of %d values" % [differ, first.size()])

	# Bad bytes: each is refused and the running simulation is unchanged.
	var before := record_agents(m)
	var truncated := bytes.slice(0, bytes.size() / 2)
	var damaged := bytes.duplicate()
	damaged[bytes.size() - 5] ^= 0x55
	var future := bytes.duplicate()
	future[4] = 99
	var foreign := "GDSC not a swarm save".to_utf8_buffer()
	for bad in [PackedByteArray(), foreign, truncated, damaged, future]:
		check(m.load_state(bad) != OK, "bad bytes of size %d were accepted" % bad.size())
	check(record_agents(m) == before, "a refused load changed the simulation")

	# A save whose target node is gone: reported, and its agents choose on their own.
	target.free()
	check(m.load_state(bytes) == OK, "load_state with the target gone")
	await physics_frames(10)
	var finite_all := true
	for id in m.get_agent_ids():
		finite_all = finite_all and finite(m.get_agent_position(id))
	check(finite_all, "agents are finite after loading without their target")
	return passed()
