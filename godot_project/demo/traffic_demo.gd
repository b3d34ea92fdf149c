extends Node3D

## Swarm traffic demo: a long street with two lanes of jammed traffic going opposite ways
## (two SwarmTrafficLanes on two Path3Ds, the far one reversed), under a camera that travels
## along the street with the player: the lanes are endless belts around the camera's window.
## Cars, vans and trucks (three weighted meshes) creep, stop and go; the nearest moving ones are
## heard (a synthesized constant-volume engine loop, at most 6 voices a lane within 25 m).
## The player (a CharacterBody3D walking the median strip) now and then stumbles into the near
## lane: wake_colliders(player, 2.5) wakes the colliders of the vehicles around it, the lanes
## freeze, and the player is blocked by the cars' boxes until they sleep again.
##
## Controls: A/D or left/right walk along the street, W/S or up/down step toward / away from the
## near lane, Space shoves (stumbles into the lane). Without input the player walks on its own
## and stumbles every 6 s.
##
## User arguments (after `--`): --frames=N (run N physics frames, print stats, quit 0; headless
## runs default to 600), --screenshot=PATH, --shot-frames=N (default 240), --shot-width=W.

const DemoCommon = preload("res://demo/demo_common.gd")

const STREET_LENGTH := 4000.0
const LANE_Z := 1.9  # each lane's centre line, either side of the median
const WALK_SPEED := 5.0
const TRAFFIC_LAYER := 4  # layer 3
const STUMBLE_EVERY := 6.0
const WAKE_SECONDS := 2.5

var lanes: Array[SwarmTrafficLane] = []
var player: CharacterBody3D
var camera: Camera3D
var stats_label: Label

var _frame := 0
var _run_frames := -1
var _screenshot_path := ""
var _shot_frames := 240
var _shot_width := 0
var _done := false
var _stumble_timer := 3.0
var _stumbling := 0.0
var _wakes := 0
var _woken_total := 0
var _max_voices := 0
var _label_timer := 0.0


func _ready() -> void:
	var o := DemoCommon.run_args({
		"frames": _run_frames, "screenshot": _screenshot_path, "shot-frames": _shot_frames,
		"shot-width": _shot_width,
	}, {"frames": 1, "shot-frames": 1})
	_run_frames = o["frames"]
	_screenshot_path = o["screenshot"]
	_shot_frames = o["shot-frames"]
	_shot_width = o["shot-width"]
	_build_environment()
	_build_street()
	_build_player()
	camera.global_position = player.global_position + Vector3(-12, 10, 13)
	_build_lanes()
	_build_ui()
	if _run_frames > 0:
		print("Swarm traffic demo: running %d physics frames" % _run_frames)


func _material(c: Color, rough := 0.8) -> StandardMaterial3D:
	var m := StandardMaterial3D.new()
	m.albedo_color = c
	m.roughness = rough
	return m


func _build_environment() -> void:
	DemoCommon.add_outdoor_environment(self, Color(0.72, 0.72, 0.72), 0.006, false, Vector3(-50, -35, 0))
	camera = Camera3D.new()
	camera.fov = 60.0
	camera.far = 300.0
	add_child(camera)
	camera.current = true


## The road (asphalt, a median strip, sidewalks) on a static ground the player walks on.
func _build_street() -> void:
	var ground := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(STREET_LENGTH + 200, 1, 60)
	shape.shape = box
	ground.add_child(shape)
	ground.position = Vector3(STREET_LENGTH * 0.5, -0.5, 0)
	add_child(ground)
	for part in [[Vector2(STREET_LENGTH + 200, 60), 0.0, 0.0, Color(0.36, 0.4, 0.3)],
			[Vector2(STREET_LENGTH + 200, 8.4), 0.0, 0.01, Color(0.2, 0.2, 0.22)],
			[Vector2(STREET_LENGTH + 200, 0.3), 0.0, 0.02, Color(0.9, 0.85, 0.5)],
			[Vector2(STREET_LENGTH + 200, 2.0), 5.2, 0.05, Color(0.6, 0.6, 0.58)],
			[Vector2(STREET_LENGTH + 200, 2.0), -5.2, 0.05, Color(0.6, 0.6, 0.58)]]:
		var m := MeshInstance3D.new()
		var p := PlaneMesh.new()
		p.size = part[0]
		p.material = _material(part[3], 0.95)
		m.mesh = p
		m.position = Vector3(STREET_LENGTH * 0.5, part[2], part[1])
		add_child(m)


func _build_player() -> void:
	player = CharacterBody3D.new()
	player.name = "Player"
	player.collision_mask = 1 | TRAFFIC_LAYER
	var shape := CollisionShape3D.new()
	var capsule := CapsuleShape3D.new()
	capsule.radius = 0.35
	capsule.height = 1.7
	shape.shape = capsule
	shape.position.y = 0.85
	player.add_child(shape)
	var mesh := MeshInstance3D.new()
	var cm := CapsuleMesh.new()
	cm.radius = 0.35
	cm.height = 1.7
	cm.material = _material(Color(0.95, 0.8, 0.15))
	mesh.mesh = cm
	mesh.position.y = 0.85
	player.add_child(mesh)
	add_child(player)
	player.global_position = Vector3(200, 0.05, 0)


## A box vehicle `length` long, coloured `c`, modelled facing -Z with its wheels on y = 0.
func _vehicle(size: Vector3, c: Color) -> Mesh:
	var b := BoxMesh.new()
	b.size = size
	b.material = _material(c, 0.4)
	# Lift it so it stands on the road (the mesh's origin goes on the curve).
	var st := SurfaceTool.new()
	st.create_from(b, 0)
	var mesh := st.commit()
	var lifted := ArrayMesh.new()
	var arrays := mesh.surface_get_arrays(0)
	var verts: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
	for i in verts.size():
		verts[i].y += size.y * 0.5
	arrays[Mesh.ARRAY_VERTEX] = verts
	lifted.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays)
	lifted.surface_set_material(0, b.material)
	return lifted


## A constant-volume engine loop: a low hum with a few harmonics, no fade (the loop must be flat,
## or it pulses when looped).
func _engine_stream() -> AudioStreamWAV:
	var rate := 22050
	var n := rate / 2
	var data := PackedByteArray()
	data.resize(n * 2)
	for i in n:
		var t := float(i) / rate
		var v := 0.5 * sin(TAU * 50.0 * t) + 0.3 * sin(TAU * 100.0 * t) + 0.15 * sin(TAU * 150.0 * t)
		data.encode_s16(i * 2, int(v * 12000.0))
	var w := AudioStreamWAV.new()
	w.format = AudioStreamWAV.FORMAT_16_BITS
	w.mix_rate = rate
	w.data = data
	w.loop_mode = AudioStreamWAV.LOOP_FORWARD
	w.loop_end = n
	return w


func _build_lanes() -> void:
	var profile := SwarmTrafficProfile.new()
	profile.engine_stream = _engine_stream()
	profile.volume_db = -8.0
	profile.earshot = 25.0
	profile.max_voices = 6
	profile.collision_layer = TRAFFIC_LAYER
	profile.collision_mask = 0
	profile.wake_radius = 7.0
	var meshes: Array[Mesh] = [
		_vehicle(Vector3(1.8, 1.4, 4.4), Color(0.75, 0.15, 0.12)),
		_vehicle(Vector3(1.9, 1.5, 4.6), Color(0.2, 0.35, 0.7)),
		_vehicle(Vector3(2.0, 2.1, 5.4), Color(0.85, 0.85, 0.82)),
		_vehicle(Vector3(2.5, 3.2, 9.0), Color(0.3, 0.5, 0.35)),
	]
	for side in [-1, 1]:
		var path := Path3D.new()
		path.name = "Lane%sPath" % ("East" if side < 0 else "West")
		var c := Curve3D.new()
		c.add_point(Vector3(0, 0, side * LANE_Z))
		c.add_point(Vector3(STREET_LENGTH, 0, side * LANE_Z))
		path.curve = c
		add_child(path)
		var lane := SwarmTrafficLane.new()
		lane.name = "Lane%s" % ("East" if side < 0 else "West")
		lane.profile = profile
		lane.reverse = side > 0  # the far lane drives west, toward the curve's start
		lane.window_behind = 90.0
		lane.window_ahead = 110.0
		lane.seed = 7 + side
		lane.vehicle_meshes = meshes
		lane.vehicle_weights = PackedFloat32Array([4.0, 4.0, 2.0, 1.0])
		add_child(lane)
		lane.path = lane.get_path_to(path)
		lane.colliders_woken.connect(func(n: int): _woken_total += n)
		lanes.append(lane)


func _build_ui() -> void:
	var layer := CanvasLayer.new()
	add_child(layer)
	stats_label = Label.new()
	stats_label.position = Vector2(12, 10)
	stats_label.add_theme_font_size_override("font_size", 18)
	stats_label.add_theme_color_override("font_outline_color", Color.BLACK)
	stats_label.add_theme_constant_override("outline_size", 5)
	layer.add_child(stats_label)


func _physics_process(delta: float) -> void:
	if _done:
		return
	_frame += 1
	_move_player(delta)
	# The camera travels with the player, a little behind and above, looking along the street.
	var target := player.global_position
	camera.global_position = camera.global_position.lerp(target + Vector3(-12, 10, 13), minf(1.0, 4.0 * delta))
	camera.look_at(target + Vector3(10, 0, -2))
	var voices := 0
	for lane in lanes:
		voices += lane.get_stats()["voices_playing"]
	_max_voices = maxi(_max_voices, voices)
	_update_label(delta)
	if _run_frames > 0 and _frame >= _run_frames:
		_finish_run()
	elif not _screenshot_path.is_empty() and _frame == _shot_frames:
		_take_screenshot()


func _move_player(delta: float) -> void:
	var input := DemoCommon.keyboard_direction()
	var manual := input != Vector3.ZERO
	var v := Vector3(WALK_SPEED if not manual else input.x * WALK_SPEED, 0, 0)
	_stumble_timer -= delta
	var shove := Input.is_physical_key_pressed(KEY_SPACE) or (not manual and _stumble_timer <= 0.0)
	if shove and _stumbling <= 0.0:
		_stumble()
	if _stumbling > 0.0:
		# Stumbling toward the near lane, then back to the median.
		_stumbling -= delta
		v.x *= 0.3
		v.z = -3.0 if _stumbling > WAKE_SECONDS * 0.5 else 3.0
	elif manual:
		v.z = input.z * 3.0
	else:
		v.z = -player.global_position.z * 2.0
	player.velocity = v + Vector3(0, -9.8, 0) * delta * 10.0
	player.move_and_slide()


## The player stumbles into the near lane: the vehicles around it get colliders for a while.
func _stumble() -> void:
	_stumbling = WAKE_SECONDS
	_stumble_timer = STUMBLE_EVERY
	_wakes += 1
	for lane in lanes:
		lane.wake_colliders(player, WAKE_SECONDS)


func _update_label(delta: float) -> void:
	_label_timer -= delta
	if _label_timer > 0.0:
		return
	_label_timer = 0.25
	var text := "Swarm traffic demo"
	for lane in lanes:
		var s := lane.get_stats()
		text += "\n%s: %d vehicles, %d moving, %.1f m/s, %d voices, %d colliders awake%s" % [
				lane.name, s["vehicles"], s["moving"], s["mean_speed"], s["voices_playing"],
				s["colliders_awake"], "  (frozen)" if s["frozen"] else ""]
	stats_label.text = text + "\nA/D walk, W/S step, Space: stumble into the lane"


func _finish_run() -> void:
	_done = true
	for lane in lanes:
		var s := lane.get_stats()
		print("summary: %s: %d vehicles, %d moving, mean speed %.2f m/s, %d recycled" % [
				lane.name, s["vehicles"], s["moving"], s["mean_speed"], s["recycled"]])
	print("summary: player walked %.0f m; %d stumbles woke %d colliders; at most %d voices at once" % [
			player.global_position.x - 200.0, _wakes, _woken_total, _max_voices])
	get_tree().quit(0)


func _take_screenshot() -> void:
	_done = true
	await DemoCommon.capture_and_quit(self, _screenshot_path, _shot_width, func() -> String: return "%d physics frames" % [_frame])
