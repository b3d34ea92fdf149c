extends SceneTree
## Formation orders: the seed's method in plain Godot against SwarmManager.move_in_formation, on
## the same level, for 100, 1,000 and 5,000 agents.
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/formation_peer_bench.gd -- \
##       [--counts=100,1000,5000] [--out=/abs/path/formations.md]
##
## Level (one per count, sized to it): a floor; a wall across z = 0 made of 12 m pieces with
## 12 m gaps; the agents start in a disc (sunflower layout, 1.5 m² each) north of the wall, the
## formation (a square block of ceil(sqrt(n)) columns, 1.5 m spacing, one slot per agent, so
## `i % n` never doubles a slot up) is ordered to a destination south of it, 15 m clear of the wall
## on each side. The formation's front row is at the destination, its forward from the group's
## centroid toward the destination, as both methods orient it.
##
## Peer (the seed's FormationController.MoveGroupInFormation in Godot terms): a NavigationMesh
## baked from the same boxes (NavigationServer3D.bake_from_source_geometry_data, cell 0.5 m,
## agent radius 0.5 m) on its own map; the order is slot i % n for agent i, one
## NavigationServer3D.map_get_path per agent, path lengths summed, the common time from the
## longest path at base_speed, each speed = length / time clamped to [0.5, 1.5] x base_speed.
## "order" times all of that (assignment and every path query). The walk is kinematic along the
## returned path at that constant speed, with no collisions, stepped at 60 Hz: an agent arrives on
## the first step its travelled distance reaches its path length, so its arrival step is
## ceil(length / (speed / 60)), computed directly instead of stepping every agent.
##
## Swarm: SwarmManager with the flow field baked from the same boxes (cell 0.5 m), the agents
## spawned at the same start points; "order" is the wall time of the move_in_formation call alone
## (Time.get_ticks_usec around it: slot assignment, route lengths over the flow field, speeds). The
## walk is the real simulation (personal space, body blocking, routes around the wall), stepped
## until formation_arrived or twice the planned time; arrivals are counted with
## get_formation_progress every physics frame.
##
## Both: the arrival spread is from the first agent's arrival to the last's, in seconds and in
## percent of the planned time; "crossing paths" counts pairs of agents whose straight segments
## from start to slot (Swarm: to where the agent stands once the order has arrived) cross by more
## than 0.5 m, over at most 600 agents (every n/600-th), as a picture of how tangled the
## assignment is.

const BenchCommon := preload("res://bench/bench_common.gd")
const SPACING := 1.5
const BASE_SPEED := 3.5
const MIN_MULT := 0.5
const MAX_MULT := 1.5
const CLEAR := 15.0  # from the wall to the disc's front and to the block's rear
const CELL := 0.5
const WALL_PIECE := 12.0
const CROSS_SAMPLE := 600
const CROSS_MARGIN := 0.5  # the default arrival radius

var counts: Array[int] = [100, 1000, 5000]
var out_path := ""
var rows: Array[Dictionary] = []


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		var value := arg.get_slice("=", 1)
		if arg.begins_with("--counts="):
			counts.clear()
			for c in value.split(",", false):
				counts.append(maxi(1, c.to_int()))
		elif arg.begins_with("--out="):
			out_path = value
	if not out_path.is_empty() and not out_path.is_absolute_path():
		out_path = OS.get_environment("PWD").path_join(out_path)
	_run.call_deferred()


func _run() -> void:
	for n in counts:
		var level := Level.new(n)
		rows.append(await _peer(level))
		rows.append(await _swarm(level))
	var table := _table()
	print(table)
	if not BenchCommon.write_output(out_path, table):
		quit(1)
		return
	quit(0)


## The level and the order for `n` agents: start points, formation, destination, wall pieces.
class Level:
	var n: int
	var columns: int
	var starts := PackedVector3Array()
	var points := PackedVector3Array()  # unit slots: ceil(sqrt(n)) columns, front row at z = 0
	var destination: Vector3
	var half_width: float
	var z_min: float
	var z_max: float
	var walls: Array[AABB] = []

	func _init(count: int) -> void:
		n = count
		var radius := sqrt(n * 1.5 / PI)
		columns = ceili(sqrt(n))
		var block_rows := ceili(float(n) / columns)
		var block_depth := (block_rows - 1) * SPACING
		for i in n:
			var r := radius * sqrt((i + 0.5) / n)
			var a := i * 2.399963229728653
			starts.append(Vector3(cos(a) * r, 0, CLEAR + radius + sin(a) * r))
		for i in n:
			points.append(Vector3((i % columns) - (columns - 1) * 0.5, 0, i / columns))
		destination = Vector3(0, 0, -CLEAR - block_depth)
		half_width = maxf(radius, columns * SPACING * 0.5) + 20.0
		z_min = destination.z - 20.0
		z_max = CLEAR + 2.0 * radius + 20.0
		var x := -half_width
		while x < half_width:
			walls.append(AABB(Vector3(x, 0, -0.5), Vector3(minf(WALL_PIECE, half_width - x), 3, 1)))
			x += 2.0 * WALL_PIECE

	func floor_box() -> AABB:
		return AABB(Vector3(-half_width, -1, z_min), Vector3(2 * half_width, 1, z_max - z_min))


# --- peer --------------------------------------------------------------------------------------

func _peer(level: Level) -> Dictionary:
	var source := NavigationMeshSourceGeometryData3D.new()
	for box in [level.floor_box()] + level.walls:
		var mesh := BoxMesh.new()
		mesh.size = box.size
		source.add_faces(mesh.get_faces(), Transform3D(Basis.IDENTITY, box.get_center()))
	var navmesh := NavigationMesh.new()
	navmesh.cell_size = CELL
	navmesh.cell_height = 0.25
	navmesh.agent_radius = 0.5
	navmesh.agent_height = 2.0
	navmesh.agent_max_climb = 0.25
	var t_bake := Time.get_ticks_usec()
	NavigationServer3D.bake_from_source_geometry_data(navmesh, source)
	var bake_ms := (Time.get_ticks_usec() - t_bake) / 1000.0
	var map := NavigationServer3D.map_create()
	NavigationServer3D.map_set_cell_size(map, CELL)
	NavigationServer3D.map_set_cell_height(map, 0.25)
	NavigationServer3D.map_set_active(map, true)
	var region := NavigationServer3D.region_create()
	NavigationServer3D.region_set_map(region, map)
	NavigationServer3D.region_set_navigation_mesh(region, navmesh)
	# The map syncs on the navigation server's own schedule (its own thread; headless frames run
	# unthrottled): wait, up to 30 s, until it answers a path.
	var synced := false
	var t_sync := Time.get_ticks_msec()
	while Time.get_ticks_msec() - t_sync < 30000:
		await physics_frame
		if NavigationServer3D.map_get_path(map, level.starts[0], level.destination, true).size() >= 2:
			synced = true
			break
	if not synced:
		push_error("formation_peer_bench: the navigation map gives no path after 30 s")

	var n := level.n
	var t0 := Time.get_ticks_usec()
	# The seed: orient from the group's centre, slot i % points, one path query per agent.
	var center := Vector3.ZERO
	for p in level.starts:
		center += p
	center /= n
	var forward := level.destination - center
	forward.y = 0.0
	var basis := Basis.looking_at(forward.normalized(), Vector3.UP)
	var slots := PackedVector3Array()
	var lengths := PackedFloat32Array()
	slots.resize(n)
	lengths.resize(n)
	var longest := 0.0
	var failed := 0
	for i in n:
		var slot := level.destination + basis * (level.points[i % level.points.size()] * SPACING)
		slots[i] = slot
		var path := NavigationServer3D.map_get_path(map, level.starts[i], slot, true)
		var length := 0.0
		for k in range(1, path.size()):
			length += path[k - 1].distance_to(path[k])
		if path.size() < 2 or path[path.size() - 1].distance_to(slot) > 1.0:
			failed += 1
		lengths[i] = length
		longest = maxf(longest, length)
	var time_to_arrive := longest / BASE_SPEED
	var speeds := PackedFloat32Array()
	speeds.resize(n)
	for i in n:
		var want := lengths[i] / time_to_arrive if time_to_arrive > 0.0 else 0.0
		speeds[i] = clampf(want, BASE_SPEED * MIN_MULT, BASE_SPEED * MAX_MULT)
	var order_ms := (Time.get_ticks_usec() - t0) / 1000.0

	# The kinematic walk at 60 Hz: arrival step = ceil(length / (speed / 60)).
	var first := INF
	var last := 0.0
	for i in n:
		var t := ceilf(lengths[i] * 60.0 / speeds[i]) / 60.0
		first = minf(first, t)
		last = maxf(last, t)
	NavigationServer3D.free_rid(region)
	NavigationServer3D.free_rid(map)
	var row := {
		"agents": n, "method": "Godot: seed's i % n + map_get_path", "order_ms": order_ms,
		"planned_s": time_to_arrive, "first_s": first, "last_s": last, "arrived": n,
		"crossings": _crossings(level.starts, slots), "note": "navmesh bake %.0f ms, %d paths not reaching the slot" % [bake_ms, failed],
	}
	print("peer %d: order %.2f ms, planned %.1f s, arrivals %.2f..%.2f s" % [n, order_ms, time_to_arrive, first, last])
	return row


# --- Swarm -------------------------------------------------------------------------------------

func _swarm(level: Level) -> Dictionary:
	var scene := Node3D.new()
	root.add_child(scene)
	for box in [level.floor_box()] + level.walls:
		var body := StaticBody3D.new()
		var shape := CollisionShape3D.new()
		var b := BoxShape3D.new()
		b.size = box.size
		shape.shape = b
		body.add_child(shape)
		scene.add_child(body)
		body.position = box.get_center()
	await physics_frame
	await physics_frame

	var manager := SwarmManager.new()
	var settings := SwarmSettings.new()
	settings.max_agents = level.n + 16
	manager.settings = settings
	var fb := level.floor_box()
	manager.bake_bounds = AABB(Vector3(fb.position.x, -1, fb.position.z), Vector3(fb.size.x, 6, fb.size.z))
	manager.cell_size = CELL
	scene.add_child(manager)
	var t_bake := Time.get_ticks_usec()
	if manager.bake_flow_field() != OK:
		push_error("formation_peer_bench: bake_flow_field failed")
	var bake_ms := (Time.get_ticks_usec() - t_bake) / 1000.0
	manager.surface_flow_field_enabled = true
	var archetype := SwarmAgentArchetype.new()
	var capsule := CapsuleMesh.new()
	capsule.radius = 0.3
	capsule.height = 1.6
	archetype.mesh = capsule
	var ids := PackedInt64Array()
	for p in level.starts:
		ids.append(manager.spawn_agent(archetype, p))
	var arrived_at := [-1]
	manager.formation_arrived.connect(func(_o: int) -> void: arrived_at[0] = 1)
	for i in 3:
		await physics_frame

	# A SwarmFormation holds at most 4096 points; whole rows of the block are given and the
	# ranks behind repeat them (a rank is as deep as its rows plus one spacing), so the slots are
	# the same block as the peer's.
	var formation := SwarmFormation.new()
	formation.points = level.points.slice(0, mini(level.points.size(), (4096 / level.columns) * level.columns))
	formation.spacing = SPACING
	formation.base_speed = BASE_SPEED
	formation.min_speed_multiplier = MIN_MULT
	formation.max_speed_multiplier = MAX_MULT
	var t0 := Time.get_ticks_usec()
	var order := manager.move_in_formation(ids, level.destination, formation)
	var order_ms := (Time.get_ticks_usec() - t0) / 1000.0
	var planned: float = manager.get_formation_progress(order).get("time_to_arrive", 0.0)
	var limit := int((planned * 2.0 + 10.0) * 60.0)
	var first := -1
	var last := -1
	var arrived := 0
	var frame := 0
	var t_walk := Time.get_ticks_usec()
	while frame < limit and arrived_at[0] < 0:
		await physics_frame
		frame += 1
		arrived = manager.get_formation_progress(order).get("arrived", 0)
		if arrived >= 1 and first < 0:
			first = frame
		if arrived >= level.n and last < 0:
			last = frame
	var walk_s := (Time.get_ticks_usec() - t_walk) / 1e6
	var ends := PackedVector3Array()
	for id in ids:
		ends.append(manager.get_agent_position(id))
	var row := {
		"agents": level.n, "method": "Swarm: move_in_formation", "order_ms": order_ms, "planned_s": planned,
		"first_s": first / 60.0 if first >= 0 else INF, "last_s": last / 60.0 if last >= 0 else INF, "arrived": arrived,
		"crossings": _crossings(level.starts, ends),
		"note": "flow-field bake %.0f ms; %d frames simulated in %.1f s" % [bake_ms, frame, walk_s],
	}
	print("swarm %d: order %.2f ms, planned %.1f s, arrivals %.2f..%.2f s (%d of %d arrived)" % [
			level.n, order_ms, planned, row["first_s"], row["last_s"], arrived, level.n])
	scene.queue_free()
	await process_frame
	return row


# --- report ------------------------------------------------------------------------------------

## Pairs of sampled agents whose straight start-to-end segments cross (ground plane), each
## segment's ends more than CROSS_MARGIN either side of the other's line (so two agents walking
## one behind the other in a file, or one stopping anywhere within its arrival radius, do not
## count).
func _crossings(starts: PackedVector3Array, ends: PackedVector3Array) -> String:
	var pick := PackedInt32Array()
	var stride := maxi(1, ceili(float(starts.size()) / CROSS_SAMPLE))
	for i in range(0, starts.size(), stride):
		pick.append(i)
	var a := PackedVector2Array()
	var dir := PackedVector2Array()
	for i in pick:
		var p := Vector2(starts[i].x, starts[i].z)
		var q := Vector2(ends[i].x, ends[i].z)
		a.append(p)
		dir.append((q - p).normalized())
	var b := PackedVector2Array()
	for i in pick:
		b.append(Vector2(ends[i].x, ends[i].z))
	var count := 0
	for i in pick.size():
		var p := a[i]
		var q := b[i]
		var u := dir[i]
		for j in range(i + 1, pick.size()):
			var r := a[j]
			var s := b[j]
			var d1 := u.cross(r - p)
			var d2 := u.cross(s - p)
			if d1 * d2 >= 0.0 or absf(d1) <= CROSS_MARGIN or absf(d2) <= CROSS_MARGIN:
				continue
			var v := dir[j]
			var d3 := v.cross(p - r)
			var d4 := v.cross(q - r)
			if d3 * d4 < 0.0 and absf(d3) > CROSS_MARGIN and absf(d4) > CROSS_MARGIN:
				count += 1
	var pairs := pick.size() * (pick.size() - 1) / 2
	return "%d of %d pairs" % [count, pairs] if pick.size() == starts.size() else "%d of %d pairs (%d sampled)" % [count, pairs, pick.size()]


func _table() -> String:
	var lines := PackedStringArray()
	lines.append("| agents | method | order (ms) | planned time (s) | arrivals (s, first..last) | arrival spread (s) | spread / planned | crossing paths | notes |")
	lines.append("|---:|---|---:|---:|---|---:|---:|---|---|")
	for r in rows:
		var spread: float = r["last_s"] - r["first_s"]
		var planned: float = r["planned_s"]
		var arrivals := "%.2f..%.2f" % [r["first_s"], r["last_s"]]
		if r["arrived"] < r["agents"]:
			arrivals = "%.2f.. (only %d of %d arrived)" % [r["first_s"], r["arrived"], r["agents"]]
			spread = INF
		lines.append("| %s | %s | %.2f | %.1f | %s | %s | %s | %s | %s |" % [
				_thousands(r["agents"]), r["method"], r["order_ms"], planned, arrivals,
				"%.2f" % spread if is_finite(spread) else "n/a",
				"%.1f%%" % (100.0 * spread / planned) if is_finite(spread) and planned > 0.0 else "n/a",
				r["crossings"], r["note"]])
	return "\n".join(lines)


func _thousands(v: int) -> String:
	var s := str(v)
	var out := ""
	while s.length() > 3:
		out = "," + s.substr(s.length() - 3) + out
		s = s.substr(0, s.length() - 3)
	return s + out
