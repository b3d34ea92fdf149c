extends "res://bench/bench_common.gd"
## Engine benchmark of Swarm: N agents of one archetype (a small box, drawn through the
## manager's MultiMesh) in a disc around one SwarmTarget that moves slowly in a circle.
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/swarm_bench.gd -- \
##       --agents=20000 --frames=300 --out=/abs/path/swarm_20000.json
## Method and output: see bench_common.gd.
## --lod=off turns Importance LOD and dormancy off (every agent runs every behaviour every step,
## as every NavigationServer3D agent does); by default the manager runs with its defaults. Either
## way there is no camera headless, so the manager rewrites every agent's transform every frame.

var manager: SwarmManager
var target: SwarmTarget
var archetype: SwarmAgentArchetype


class Mover extends Node:
	var bench
	func _physics_process(_delta: float) -> void:
		bench.target.position = bench.target_position(bench.frame)


var lod := true


func _bench_name() -> String:
	return "swarm" if lod else "swarm_lod_off"


func _setup() -> void:
	lod = not OS.get_cmdline_user_args().has("--lod=off")
	var settings := SwarmSettings.new()
	settings.max_agents = agents
	if not lod:
		settings.lod_enabled = false
		settings.dormancy_enabled = false
	manager = SwarmManager.new()
	manager.name = "SwarmManager"
	manager.settings = settings
	root.add_child(manager)

	target = SwarmTarget.new()
	target.name = "Target"
	manager.add_child(target)
	target.position = target_position(0)  # the manager sits at the origin; not in the tree yet
	# Moves the target before the manager steps (lower priority runs first).
	var mover := Mover.new()
	mover.bench = self
	mover.process_physics_priority = -1000
	root.add_child(mover)

	var mesh := BoxMesh.new()
	mesh.size = Vector3(0.5, 1.2, 0.4)
	archetype = SwarmAgentArchetype.new()
	archetype.resource_name = "bench_box"
	archetype.mesh = mesh
	for i in agents:
		if manager.spawn_agent(archetype, disc_position(i, agents)) < 0:
			push_error("swarm_bench: spawn_agent failed at agent %d" % i)
			quit(1)
			return


func _step_ms() -> float:
	return manager.get_stats().get("step_ms", -1.0)


func _sync_ms() -> float:
	return manager.get_stats().get("sync_ms", -1.0)


func _report(result: Dictionary) -> void:
	var mm := manager.get_archetype_multimesh(archetype)
	var near := manager.get_agents_in_radius(target.global_position, 10.0).size()
	result["drawn_instances"] = mm.instance_count if mm else 0
	result["agents_within_10m_of_target"] = near
	var stats := manager.get_stats()
	for key in ["lod_full", "lod_reduced", "lod_cheap", "dormant_count", "far_waiting"]:
		result[key] = stats.get(key, -1)
	print("swarm_bench: %d agents alive, %d drawn, %d within 10 m of the target; at the end full %d, reduced %d, cheap %d, dormant %d, far and waiting %d" % [
			manager.get_agent_count(), result["drawn_instances"], near, result["lod_full"],
			result["lod_reduced"], result["lod_cheap"], result["dormant_count"], result["far_waiting"]])
