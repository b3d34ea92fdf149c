extends Node3D

## Swarm doors demo: a small walled town (four houses around a cross of streets) with the
## player (a SwarmTarget) inside and ~1500 walkers outside. Each street end is closed differently:
##   north  a player door: opens while the player stands in its trigger, shuts once the player
##          has left and no agent is in the doorway (SwarmFlowModifier.is_open);
##   west   a plank barricade (SwarmBreakable, low health) whose planks fall off as it weakens;
##   south  a locked door (high route cost and health, no trigger): opens only when it breaks,
##          and until then hides the player (see below);
##   east   an open gap with pushable bins (RigidBody3D on layer 2 + SwarmFlowModifier route FREE
##          + SwarmPushable) that the crowd shoves into town. The player shoves the bins too
##          (a SwarmTarget does not push physics bodies by itself): up to push_max_mass, with
##          push_force newtons; the heavy bin (dark) is past it, so only the crowd moves it.
## Physics layers, as in the seed's recipe: walls on 1 (baked), bins on 2, door leaves on 3
## ("Obstacle"), the barricade on 4 ("Low Obstacle"). The player walks into none of them, and
## shoots the nearest walker in range every shot_interval with a ray that tests layers 1 and 3:
## shots stop at walls and shut doors but pass between the barricade's planks.
## The walkers perceive (demo/doors/walker_perception.tres, a SwarmPerceptionProfile on
## NAVIGATION_PATH with search on): a shut door whose route cost is above the profile's 12 m
## detour tolerance hides the player behind it (the locked door always, the north door while
## shut), the barricade's cheap planks hide nothing, and its hit and break noises draw walkers
## that see nobody; they search, and give up after forget_time.
## The level is built in code, then the manager bakes its surface flow field at start
## (bake_flow_field(), then surface_flow_field_enabled = true).
##
## Controls: WASD / arrow keys move the player. Without input it walks a loop through town that
## passes the north door.
##
## User arguments (after `--`): --frames=N (run N physics frames, print stats, quit 0; headless
## runs default to 600), --screenshot=PATH, --shot-frames=N (default 240), --shot-width=W,
## --agents=N.

const DemoCommon = preload("res://demo/demo_common.gd")

const WALKER: SwarmAgentArchetype = preload("res://demo/resources/walker.tres")
const SETTINGS: SwarmSettings = preload("res://demo/resources/swarm_settings.tres")
const DOOR := preload("res://demo/doors/door.gd")
const BARRICADE := preload("res://demo/doors/barricade.gd")
const PERCEPTION: SwarmPerceptionProfile = preload("res://demo/doors/walker_perception.tres")

@export var agent_count := 1500
@export var player_speed := 7.0
@export var idle_before_loop := 2.0
@export var camera_offset := Vector3(0, 46, 30)
## The player shoves bins up to this mass (kg) with push_force newtons.
@export var push_max_mass := 30.0
@export var push_force := 400.0
## Seconds between two shots of the player, their reach (m) and damage.
@export var shot_interval := 0.5
@export var shot_range := 22.0
@export var shot_damage := 40.0

const PLAYER_LAYER := 8
const BIN_LAYER := 2
const OBSTACLE_LAYER := 3
const LOW_OBSTACLE_LAYER := 4
const PLAYER_RADIUS := 0.4
const HOUSE_HEIGHT := 3.5
const TOWN := 20.0  # half size of the town block
const STREET := 6.0  # half width of the streets
const LOOP: Array[Vector3] = [Vector3(0, 0, -3), Vector3(0, 0, -18.5), Vector3(0, 0, -3), Vector3(4, 0, 3), Vector3(-4, 0, 3)]

var manager: SwarmManager
var player: SwarmTarget
var camera: Camera3D
var stats_label: Label
var north_door: Node3D
var locked_door: Node3D
var barricade: Node3D
var bins: Array[RigidBody3D] = []
var _bin_starts: Array[Vector3] = []

var _frame := 0
var _shot_timer := 0.0
var _shots_hit := 0
var _shots_stopped := 0
var _player_pushes := 0
var _player_shape := SphereShape3D.new()
var _run_frames := -1
var _screenshot_path := ""
var _shot_frames := 240
var _shot_width := 0
var _shooting := false
var _done := false
var _ready_done := false
var _idle_time := 1e9
var _loop_index := 0
var _label_timer := 0.0
var _step_samples := PackedFloat32Array()
var _door_opened := 0
var _door_was_open := false
var _log := PackedStringArray()


func _ready() -> void:
	_parse_args()
	_build_environment()
	var level := Node3D.new()
	level.name = "Level"
	add_child(level)
	_build_town(level)

	manager = SwarmManager.new()
	manager.name = "SwarmManager"
	manager.settings = SETTINGS
	manager.bake_bounds = AABB(Vector3(-62, -1, -62), Vector3(124, 7, 124))
	add_child(manager)
	player = SwarmTarget.new()
	player.name = "Player"
	manager.add_child(player)
	_build_player_visual()
	_build_gates()
	_build_ui()

	await DemoCommon.bake_and_enable_flow_field(manager, "doors demo")
	_spawn_horde()
	player.global_position = LOOP[0]
	_place_camera(1.0)
	_ready_done = true
	if _run_frames > 0:
		print("Swarm doors demo: %d agents, running %d physics frames" % [manager.get_agent_count(), _run_frames])


func _parse_args() -> void:
	var o := DemoCommon.run_args({
		"frames": _run_frames, "screenshot": _screenshot_path, "shot-frames": _shot_frames,
		"shot-width": _shot_width, "agents": agent_count,
	}, {"frames": 1, "shot-frames": 1})
	_run_frames = o["frames"]
	_screenshot_path = o["screenshot"]
	_shot_frames = o["shot-frames"]
	_shot_width = o["shot-width"]
	agent_count = o["agents"]


# --- level -------------------------------------------------------------------------------------

func _build_environment() -> void:
	DemoCommon.add_outdoor_environment(self, Color(0.7, 0.72, 0.74), 0.0, true, Vector3(-55, -30, 0), 1.1)
	camera = Camera3D.new()
	camera.fov = 55.0
	camera.far = 400.0
	add_child(camera)


func _build_town(level: Node3D) -> void:
	DemoCommon.box(level, Vector3(0, -0.5, 0), Vector3(130, 1, 130), DemoCommon.material(Color(0.33, 0.36, 0.28)))
	# Street paving inside the town.
	var pave := DemoCommon.material(Color(0.42, 0.41, 0.39))
	for s in [Vector3(0, 0.01, 0), ]:
		var m := MeshInstance3D.new()
		var p := PlaneMesh.new()
		p.size = Vector2(STREET * 2, TOWN * 2)
		p.material = pave
		m.mesh = p
		m.position = s
		level.add_child(m)
		var m2 := m.duplicate() as MeshInstance3D
		m2.rotation.y = PI * 0.5
		m2.position.y = 0.011
		level.add_child(m2)
	# Four houses on the corners of the block, the streets between them.
	var colors := [Color(0.72, 0.62, 0.5), Color(0.6, 0.58, 0.62), Color(0.68, 0.55, 0.45), Color(0.55, 0.6, 0.55)]
	var roof := DemoCommon.material(Color(0.45, 0.22, 0.18))
	var hs := TOWN - STREET  # house size
	var i := 0
	for sx in [-1, 1]:
		for sz in [-1, 1]:
			var c := Vector3(sx * (STREET + hs * 0.5), HOUSE_HEIGHT * 0.5, sz * (STREET + hs * 0.5))
			DemoCommon.box(level, c, Vector3(hs, HOUSE_HEIGHT, hs), DemoCommon.material(colors[i]))
			var r := MeshInstance3D.new()
			var pm := PrismMesh.new()
			pm.size = Vector3(hs + 0.6, 2.0, hs + 0.6)
			pm.material = roof
			r.mesh = pm
			r.position = c + Vector3(0, HOUSE_HEIGHT * 0.5 + 1.0, 0)
			level.add_child(r)
			i += 1
	# Gate walls across the four street ends, each with an opening of `gap` at the middle.
	var wall := DemoCommon.material(Color(0.5, 0.47, 0.44))
	var gaps := {"north": 2.5, "south": 2.5, "west": 3.0, "east": 4.0}
	for side in gaps:
		var gap: float = gaps[side]
		var piece := STREET - gap * 0.5
		var off := gap * 0.5 + piece * 0.5
		var along := Vector3(1, 0, 0) if side in ["north", "south"] else Vector3(0, 0, 1)
		var out := _side_dir(side) * (TOWN - 0.5)
		var size := Vector3(piece, 2.8, 1.0) if side in ["north", "south"] else Vector3(1.0, 2.8, piece)
		DemoCommon.box(level, out + along * off + Vector3(0, 1.4, 0), size, wall)
		DemoCommon.box(level, out - along * off + Vector3(0, 1.4, 0), size, wall)


func _side_dir(side: String) -> Vector3:
	match side:
		"north": return Vector3(0, 0, -1)
		"south": return Vector3(0, 0, 1)
		"west": return Vector3(-1, 0, 0)
	return Vector3(1, 0, 0)


## Doors, barricade and bins go under the manager (SwarmFlowModifier finds its manager as an
## ancestor), after the static level so they never enter the bake.
func _build_gates() -> void:
	north_door = DOOR.new()
	north_door.name = "NorthDoor"
	north_door.route_cost = 20.0
	north_door.max_health = 150.0
	north_door.player_layer = PLAYER_LAYER
	manager.add_child(north_door)
	north_door.position = Vector3(0, 0, -(TOWN - 0.5))

	locked_door = DOOR.new()
	locked_door.name = "LockedDoor"
	locked_door.locked = true
	locked_door.route_cost = 40.0
	locked_door.max_health = 250.0
	manager.add_child(locked_door)
	locked_door.position = Vector3(0, 0, TOWN - 0.5)

	barricade = BARRICADE.new()
	barricade.name = "Barricade"
	barricade.route_cost = 8.0
	barricade.max_health = 80.0
	manager.add_child(barricade)
	barricade.position = Vector3(-(TOWN - 0.5), 0, 0)
	barricade.rotation.y = PI * 0.5

	var bin_mat := DemoCommon.material(Color(0.15, 0.35, 0.2), 0.6)
	var heavy_mat := DemoCommon.material(Color(0.1, 0.15, 0.12), 0.6)
	var spots := [Vector3(TOWN - 0.5, 0.6, -1.0), Vector3(TOWN - 0.5, 0.6, 1.0), Vector3(TOWN - 3.0, 0.6, 0.0),
			Vector3(TOWN - 5.0, 0.6, 2.5)]
	for k in spots.size():
		var p: Vector3 = spots[k]
		var bin := _make_bin(heavy_mat if k == 3 else bin_mat)
		if k == 3:
			bin.mass = push_max_mass * 2.0  # too heavy for the player; the crowd still moves it
		manager.add_child(bin)
		bin.global_position = p
		bins.append(bin)
		_bin_starts.append(p)


func _make_bin(mat: Material) -> RigidBody3D:
	var bin := RigidBody3D.new()
	bin.name = "Bin"
	bin.mass = 20.0
	bin.collision_layer = 1 << (BIN_LAYER - 1)  # not in the manager's walkable_mask
	bin.collision_mask = 1 | 2
	bin.axis_lock_angular_x = true
	bin.axis_lock_angular_z = true
	bin.physics_material_override = PhysicsMaterial.new()
	bin.physics_material_override.friction = 0.3
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1.2, 1.2, 1.6)
	shape.shape = box
	bin.add_child(shape)
	var mesh := MeshInstance3D.new()
	var bm := BoxMesh.new()
	bm.size = box.size
	bm.material = mat
	mesh.mesh = bm
	bin.add_child(mesh)
	var modifier := SwarmFlowModifier.new()
	modifier.name = "Box"
	modifier.size = Vector3(1.4, 1.4, 1.8)
	modifier.route = SwarmFlowModifier.FREE
	modifier.blocks_agents = true
	bin.add_child(modifier)
	var pushable := SwarmPushable.new()
	pushable.force_per_agent = 40.0
	pushable.max_crowd_force = 600.0
	modifier.add_child(pushable)
	return bin


func _build_player_visual() -> void:
	var m := MeshInstance3D.new()
	var c := CylinderMesh.new()
	c.top_radius = 0.5
	c.bottom_radius = 0.5
	c.height = 2.2
	var mat := DemoCommon.material(Color(1, 0.82, 0.15), 0.5)
	mat.emission_enabled = true
	mat.emission = Color(1, 0.7, 0.1)
	mat.emission_energy_multiplier = 0.6
	c.material = mat
	m.mesh = c
	m.position.y = 1.1
	player.add_child(m)
	# The door triggers look for this area (layer PLAYER_LAYER).
	var area := Area3D.new()
	area.name = "PlayerArea"
	area.collision_layer = 1 << (PLAYER_LAYER - 1)
	area.collision_mask = 0
	area.monitoring = false
	var shape := CollisionShape3D.new()
	var s := SphereShape3D.new()
	s.radius = 0.5
	shape.shape = s
	shape.position.y = 1.0
	area.add_child(shape)
	player.add_child(area)


func _build_ui() -> void:
	var layer := CanvasLayer.new()
	add_child(layer)
	var panel := PanelContainer.new()
	panel.position = Vector2(12, 12)
	layer.add_child(panel)
	stats_label = Label.new()
	stats_label.add_theme_font_size_override("font_size", 16)
	panel.add_child(stats_label)


func _spawn_horde() -> void:
	var a := WALKER.duplicate() as SwarmAgentArchetype
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 4.0
	a.attack_profile = attack
	a.perception_profile = PERCEPTION
	var rng := RandomNumberGenerator.new()
	rng.seed = 11
	for i in agent_count:
		var radius := sqrt(rng.randf_range(32.0 * 32.0, 55.0 * 55.0))
		var angle := rng.randf() * TAU
		manager.spawn_agent(a, Vector3(cos(angle) * radius, 0, sin(angle) * radius))


# --- per frame ---------------------------------------------------------------------------------

func _physics_process(delta: float) -> void:
	if not _ready_done or _done or _shooting:
		return
	_frame += 1
	_move_player(delta)
	_shoot(delta)
	_place_camera(1.0 - exp(-4.0 * delta))
	var open_now: bool = north_door.modifier.is_open
	if open_now != _door_was_open:
		_door_was_open = open_now
		if open_now:
			_door_opened += 1
		if _log.size() < 12:
			_log.append("frame %d: the north door %s" % [_frame, "opened for the player" if open_now else "shut (player gone, doorway clear)"])
	var stats := manager.get_stats()
	var step_ms: float = stats.get("step_ms", 0.0)
	if _run_frames > 0:
		_step_samples.append(step_ms)
		if _frame % 60 == 0:
			print("frame %d: agents %d, step %.2f ms | %s" % [_frame, stats.get("agent_count", 0), step_ms, _gates_text().replace("\n", ", ")])
		if _frame >= _run_frames:
			_finish_run()
			return
	if not _screenshot_path.is_empty() and _frame >= _shot_frames:
		_take_screenshot()


func _move_player(delta: float) -> void:
	var input := DemoCommon.keyboard_direction()
	var pos := player.global_position
	if input != Vector3.ZERO:
		_idle_time = 0.0
		pos += input.normalized() * player_speed * delta
	else:
		_idle_time += delta
		if _idle_time >= idle_before_loop:
			var goal: Vector3 = LOOP[_loop_index]
			pos = pos.move_toward(goal, player_speed * 0.6 * delta)
			if pos.distance_to(goal) < 0.05:
				_loop_index = (_loop_index + 1) % LOOP.size()
	pos.x = clampf(pos.x, -60.0, 60.0)
	pos.z = clampf(pos.z, -60.0, 60.0)
	pos.y = 0.0
	var from := player.global_position
	var motion := pos - from
	if motion.length_squared() > 0.0:
		_push_bins(from, motion.normalized())
		# Walls, bins, shut door leaves and the barricade stop the player (it slides no further).
		var q := PhysicsShapeQueryParameters3D.new()
		_player_shape.radius = PLAYER_RADIUS
		q.shape = _player_shape
		q.transform = Transform3D(Basis.IDENTITY, from + Vector3(0, 0.9, 0))
		q.motion = motion
		q.collision_mask = 1 | (1 << (BIN_LAYER - 1)) | (1 << (OBSTACLE_LAYER - 1)) | (1 << (LOW_OBSTACLE_LAYER - 1))
		var safe := get_world_3d().direct_space_state.cast_motion(q)
		if safe.size() == 2:
			pos = from + motion * safe[0]
	player.global_position = pos


## The player shoves a bin it walks into, if the bin is not heavier than push_max_mass.
func _push_bins(from: Vector3, dir: Vector3) -> void:
	for b in bins:
		var to := b.global_position - from
		to.y = 0.0
		if to.length() < 1.6 and to.normalized().dot(dir) > 0.5 and b.mass <= push_max_mass:
			b.apply_central_force(dir * push_force)
			_player_pushes += 1


## Every shot_interval the player shoots the nearest walker within shot_range. The ray tests
## walls (1) and door leaves (OBSTACLE_LAYER) only, so it stops at a shut door and passes
## between the barricade's planks (LOW_OBSTACLE_LAYER).
func _shoot(delta: float) -> void:
	_shot_timer -= delta
	if _shot_timer > 0.0:
		return
	_shot_timer = shot_interval
	var eye := player.global_position + Vector3(0, 1.4, 0)
	var near := manager.get_agents_in_radius(player.global_position, shot_range)
	var best := -1
	var best_d := INF
	for id in near:
		var d := manager.get_agent_position(id).distance_squared_to(eye)
		if d < best_d:
			best_d = d
			best = id
	if best < 0:
		return
	var q := PhysicsRayQueryParameters3D.create(eye, manager.get_agent_position(best) + Vector3(0, 1.0, 0),
			1 | (1 << (OBSTACLE_LAYER - 1)))
	if get_world_3d().direct_space_state.intersect_ray(q).is_empty():
		manager.damage_agent(best, shot_damage, {"source": player})
		_shots_hit += 1
	else:
		_shots_stopped += 1


func _place_camera(weight: float) -> void:
	var focus := player.global_position * 0.35
	camera.global_position = camera.global_position.lerp(focus + camera_offset, weight)
	camera.look_at(camera.global_position - camera_offset, Vector3.UP)


func _bins_moved() -> float:
	var most := 0.0
	for i in bins.size():
		most = maxf(most, bins[i].global_position.distance_to(_bin_starts[i]))
	return most


func _gates_text() -> String:
	var pressing := 0
	for b in bins:
		pressing += (b.get_node("Box") as SwarmFlowModifier).get_pressing_agent_count()
	var st := manager.get_stats()
	return "north door: %s\nlocked door: %s\nbarricade: %d/%d planks, %s\nbins moved up to %.1f m (%d agents pushing)\nwalkers: %d see the player, %d search, %d follow a noise, %d idle" % [
			north_door.state_text(), locked_door.state_text(), barricade.planks_left(), barricade.planks,
			["intact", "damaged", "broken"][barricade.breakable.get_state()], _bins_moved(), pressing,
			st.get("perception_chasing", 0), st.get("perception_searching", 0),
			st.get("perception_investigating", 0), st.get("perception_idle", 0)]


func _process(delta: float) -> void:
	if not _ready_done:
		return
	_label_timer -= delta
	if _label_timer > 0.0:
		return
	_label_timer = 0.25
	var stats := manager.get_stats()
	var inside := manager.get_agents_in_radius(Vector3.ZERO, TOWN - 1.0).size()
	var text := "Swarm doors demo\nagents: %d  (%d in town)   step: %.2f ms" % [
			stats.get("agent_count", 0), inside, stats.get("step_ms", 0.0)]
	if _screenshot_path.is_empty():
		text += "   FPS: %d" % Engine.get_frames_per_second()
	stats_label.text = text + "\n" + _gates_text() + "\nWASD / arrows: move the player (yellow)"


func _finish_run() -> void:
	_done = true
	var sorted := _step_samples.duplicate()
	sorted.sort()
	var mean := 0.0
	for s in sorted:
		mean += s
	mean /= maxi(1, sorted.size())
	for l in _log:
		print(l)
	print("summary: %d frames, %d agents, step mean %.2f ms, max %.2f ms, %d agents in town" % [
			_frame, manager.get_agent_count(), mean, sorted[sorted.size() - 1] if sorted.size() > 0 else 0.0,
			manager.get_agents_in_radius(Vector3.ZERO, TOWN - 1.0).size()])
	print("summary: " + _gates_text().replace("\n", ", "))
	print("summary: the north door opened %d times" % _door_opened)
	print("summary: player shots: %d hit, %d stopped by a wall or a shut door; player pushes on light bins: %d frames" % [
			_shots_hit, _shots_stopped, _player_pushes])
	get_tree().quit(0)


func _take_screenshot() -> void:
	_shooting = true
	await DemoCommon.capture_and_quit(self, _screenshot_path, _shot_width, func() -> String: return "%d physics frames" % [_frame])
