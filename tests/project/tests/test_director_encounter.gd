# FINITE_ENCOUNTER: total_limit agents are spawned (initial_batch first, then spawn_rate), never
# more than max_alive alive at once; encounter_finished fires exactly once, only after all of them
# were spawned and every one is despawned; trigger() starts a new encounter that finishes again.
# A director started by auto_start begins on its own.
extends "res://test_base.gd"

var finished := 0
var finished_frame := -1
var frame := 0


func _on_finished() -> void:
	finished += 1
	finished_frame = frame


func run() -> bool:
	var m := make_manager("Arena")
	var d := SwarmSpawnerDirector.new()
	d.name = "Encounter"
	d.mode = SwarmSpawnerDirector.FINITE_ENCOUNTER
	d.total_limit = 40
	d.initial_batch = 10
	d.spawn_rate = 60.0
	d.max_per_frame = 5
	d.max_alive = 15
	# auto_start is on by default: the encounter starts when the director enters the scene.
	var rect := SwarmRectSpawner.new()
	rect.name = "Gate"
	rect.archetype = make_archetype()
	rect.size = Vector2(10, 4)
	rect.position = Vector3(0, 0, 30)
	d.add_child(rect)
	d.encounter_finished.connect(_on_finished)
	add_child(d)

	var max_alive_seen := 0
	var spawned_when_last_died := -1
	for i in 240:
		frame = i
		await physics_frames(1)
		var alive := d.get_alive_ids()
		max_alive_seen = maxi(max_alive_seen, alive.size())
		check(finished == 0 or d.get_spawned_total() == 40, "encounter_finished before all 40 were spawned")
		# Kill 3 of its agents every 4th frame, from frame 20 on.
		if i >= 20 and i % 4 == 0:
			for k in mini(3, alive.size()):
				m.despawn_agent(alive[k])
			if d.get_spawned_total() == 40 and d.get_alive_count() == 0 and spawned_when_last_died < 0:
				spawned_when_last_died = i
		if finished > 0 and i > finished_frame + 20:
			break
	print("encounter: spawned %d, max alive %d, last died at frame %d, finished at frame %d (%d times)"
		% [d.get_spawned_total(), max_alive_seen, spawned_when_last_died, finished_frame, finished])
	check_eq(d.get_spawned_total(), 40, "spawned total of the encounter")
	check(max_alive_seen <= 15, "max_alive = 15 exceeded: %d alive" % max_alive_seen)
	check_eq(max_alive_seen, 15, "the encounter never filled max_alive")
	check_eq(finished, 1, "encounter_finished emissions")
	check(spawned_when_last_died >= 0 and finished_frame >= spawned_when_last_died and finished_frame <= spawned_when_last_died + 1,
		"encounter_finished at frame %d, the last agent died at frame %d" % [finished_frame, spawned_when_last_died])
	check(not d.is_running(), "director still running after encounter_finished")
	check_eq(m.get_agent_count(), 0, "agents left after the encounter")
	await physics_frames(30)
	check_eq(finished, 1, "encounter_finished emissions 30 frames later")
	check_eq(m.get_agent_count(), 0, "agents spawned after the encounter finished")

	# trigger() starts a new encounter; killing everything finishes it once more.
	d.total_limit = 12
	d.trigger()
	await physics_frames(10)
	check_eq(d.get_spawned_total(), 12, "second encounter spawned total")
	check_eq(finished, 1, "encounter_finished while the second encounter's agents live")
	for id in d.get_alive_ids():
		m.despawn_agent(id)
	await physics_frames(2)
	check_eq(finished, 2, "encounter_finished emissions after the second encounter")
	return passed()
