# Game code calls back into the manager from its signals: reads the new agent in agent_spawned,
# spawns a replacement in agent_despawned, despawns while iterating get_agent_ids(). No errors, no
# panics, and the counts add up.
extends "res://test_base.gd"

var manager: SwarmManager
var archetype: SwarmAgentArchetype
var spawned_seen := 0
var spawned_bad := 0
var despawned_seen := 0
var replacements: Array[int] = []
var replace := true


func _on_spawned(id: int) -> void:
	spawned_seen += 1
	if not manager.is_agent_alive(id) or not manager.get_agent_position(id).is_finite():
		spawned_bad += 1


func _on_despawned(id: int) -> void:
	despawned_seen += 1
	if manager.is_agent_alive(id):
		spawned_bad += 1
	manager.get_agent_count()
	if replace:
		replacements.append(manager.spawn_agent(archetype, Vector3(randf_range(-5, 5), 0, 20)))


func run() -> bool:
	manager = make_manager("Reentrant")
	archetype = make_archetype()
	manager.agent_spawned.connect(_on_spawned)
	manager.agent_despawned.connect(_on_despawned)
	for i in 30:
		manager.spawn_agent(archetype, Vector3(i, 0, 0))
	await physics_frames(5)
	check_eq(spawned_seen, 30, "agent_spawned count")

	# Despawn every other agent while iterating the id list; each despawn spawns a replacement.
	var listed := manager.get_agent_ids()
	for i in range(0, listed.size(), 2):
		manager.despawn_agent(listed[i])
	await physics_frames(5)
	check_eq(despawned_seen, 15, "agent_despawned count")
	check_eq(replacements.size(), 15, "replacements spawned from agent_despawned")
	check(replacements.all(func(id): return id >= 0 and manager.is_agent_alive(id)), "a replacement is not alive: %s" % [replacements])
	check_eq(spawned_seen, 45, "agent_spawned count including replacements")
	check_eq(manager.get_agent_count(), 30, "agent count after despawn + replacement")
	check_eq(spawned_bad, 0, "agents not alive/finite inside their spawned signal (or alive inside despawned)")

	# Despawn everything from inside the step's aftermath, without replacements.
	replace = false
	for id in manager.get_agent_ids():
		manager.despawn_agent(id)
	await physics_frames(2)
	check_eq(manager.get_agent_count(), 0, "agent count after despawning all")
	check_eq(despawned_seen, 45, "agent_despawned count at the end")
	return passed()
