extends "res://bench/bench_common.gd"
## The peer: Godot's own crowd answer, NavigationServer3D agents with RVO avoidance, driven from
## GDScript the way a Godot user would, and drawn through one MultiMesh (so both benchmarks pay
## for visuals). Same agents, disc, moving target and measurement as swarm_bench.gd.
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/nav_peer_bench.gd -- \
##       --agents=20000 --frames=300 --out=/abs/path/nav_20000.json
##
## Each physics frame, per agent: agent_set_position (where we integrated it), then
## agent_set_velocity toward the target (max speed 4 m/s, slowing inside 2 m). The server runs
## RVO after the scene's physics callbacks and calls each agent's avoidance callback with its
## safe velocity, which we integrate (position += safe_velocity * delta) and write into the
## MultiMesh buffer, uploaded with one set_buffer call per frame.
## RVO parameters: radius 0.4, neighbor_distance 4, max_neighbors 10, time_horizon_agents 1.

const RADIUS := 0.4
const MAX_SPEED := 4.0
const NEIGHBOR_DISTANCE := 4.0
const MAX_NEIGHBORS := 10
const TIME_HORIZON := 1.0

var map: RID
var rids: Array[RID] = []
var positions := PackedVector3Array()
var safe_velocities := PackedVector3Array()
var buffer := PackedFloat32Array()
var multimesh: MultiMesh
var callbacks_this_frame := 0
var callbacks_total := 0
var _start_mean_distance := 0.0
var _drive_samples := PackedFloat64Array()  # ms spent in drive() per measured frame


class Driver extends Node:
	var bench
	func _physics_process(delta: float) -> void:
		bench.drive(delta)


func _bench_name() -> String:
	return "nav_peer"


func _setup() -> void:
	map = NavigationServer3D.map_create()
	NavigationServer3D.map_set_active(map, true)
	positions.resize(agents)
	safe_velocities.resize(agents)
	rids.resize(agents)
	for i in agents:
		var p := disc_position(i, agents)
		positions[i] = p
		var rid := NavigationServer3D.agent_create()
		NavigationServer3D.agent_set_map(rid, map)
		NavigationServer3D.agent_set_avoidance_enabled(rid, true)
		NavigationServer3D.agent_set_use_3d_avoidance(rid, false)
		NavigationServer3D.agent_set_radius(rid, RADIUS)
		NavigationServer3D.agent_set_max_speed(rid, MAX_SPEED)
		NavigationServer3D.agent_set_neighbor_distance(rid, NEIGHBOR_DISTANCE)
		NavigationServer3D.agent_set_max_neighbors(rid, MAX_NEIGHBORS)
		NavigationServer3D.agent_set_time_horizon_agents(rid, TIME_HORIZON)
		NavigationServer3D.agent_set_position(rid, p)
		NavigationServer3D.agent_set_avoidance_callback(rid, _on_safe_velocity.bind(i))
		rids[i] = rid
	_start_mean_distance = _mean_distance()

	var mesh := BoxMesh.new()
	mesh.size = Vector3(0.5, 1.2, 0.4)
	multimesh = MultiMesh.new()
	multimesh.transform_format = MultiMesh.TRANSFORM_3D
	multimesh.mesh = mesh
	multimesh.instance_count = agents
	var mmi := MultiMeshInstance3D.new()
	mmi.multimesh = multimesh
	root.add_child(mmi)
	buffer.resize(agents * 12)

	var driver := Driver.new()
	driver.bench = self
	driver.process_physics_priority = -1000
	root.add_child(driver)


func _on_safe_velocity(safe_velocity: Vector3, i: int) -> void:
	safe_velocities[i] = safe_velocity
	callbacks_this_frame += 1


func drive(delta: float) -> void:
	# Integrate the safe velocities the server handed back last frame, draw, then ask again.
	var t0 := Time.get_ticks_usec()
	callbacks_total += callbacks_this_frame
	callbacks_this_frame = 0
	var goal := target_position(frame)
	var b := buffer
	for i in agents:
		var v := safe_velocities[i]
		var p := positions[i] + v * delta
		positions[i] = p
		# Face the velocity (rotation about +Y, mesh -Z forward), row-major 3x4 like MultiMesh.
		var c := 1.0
		var s := 0.0
		var speed := v.length()
		if speed > 0.01:
			c = -v.z / speed
			s = -v.x / speed
		var o := i * 12
		b[o] = c; b[o + 1] = 0.0; b[o + 2] = s; b[o + 3] = p.x
		b[o + 4] = 0.0; b[o + 5] = 1.0; b[o + 6] = 0.0; b[o + 7] = p.y + 0.6
		b[o + 8] = -s; b[o + 9] = 0.0; b[o + 10] = c; b[o + 11] = p.z
		var to_goal := goal - p
		to_goal.y = 0.0
		var dist := to_goal.length()
		var want := Vector3.ZERO
		if dist > 0.001:
			want = to_goal / dist * MAX_SPEED * minf(1.0, dist / 2.0)
		var rid := rids[i]
		NavigationServer3D.agent_set_position(rid, p)
		NavigationServer3D.agent_set_velocity(rid, want)
	multimesh.buffer = b
	if frame > warmup and frame <= warmup + frames:
		_drive_samples.append((Time.get_ticks_usec() - t0) / 1000.0)


func _mean_distance() -> float:
	var goal := target_position(frame)
	var sum := 0.0
	for p in positions:
		sum += p.distance_to(goal)
	return sum / maxi(1, positions.size())


func _report(result: Dictionary) -> void:
	var goal := target_position(frame)
	var near := 0
	for p in positions:
		if p.distance_to(goal) <= 10.0:
			near += 1
	result["drawn_instances"] = multimesh.instance_count
	result["agents_within_10m_of_target"] = near
	# The GDScript side alone: integrating, filling and uploading the MultiMesh buffer and the two
	# server calls per agent (not the server's RVO pass nor the callbacks, which run later).
	result["gdscript_drive_ms_median"] = snappedf(_percentile(_drive_samples, 0.5), 0.001)
	result["avoidance_callbacks_per_frame"] = snappedf(float(callbacks_total) / maxi(1, frame - 1), 0.1)
	print("nav_peer_bench: %d agents, mean distance to target %.1f m at start, %.1f m now, %d within 10 m; %.0f avoidance callbacks per frame; GDScript drive %.2f ms median" % [
			agents, _start_mean_distance, _mean_distance(), near, result["avoidance_callbacks_per_frame"], result["gdscript_drive_ms_median"]])


func _finalize() -> void:
	for rid in rids:
		NavigationServer3D.free_rid(rid)
	NavigationServer3D.free_rid(map)
