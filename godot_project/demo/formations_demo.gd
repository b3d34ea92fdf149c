extends Node3D

## Swarm formations demo, RTS style: a squad of soldiers on a field split by a wall with two
## gates, the wall's middle piece in the squad's way. Select soldiers with a box, pick a formation, right-click on the ground:
## SwarmManager.move_in_formation sends them there. Slots are assigned so that paths do not cross,
## routes go around the walls over the baked surface flow field, and every agent's speed is set so
## that the whole squad arrives at the same moment, then holds its slots.
##
## Controls: left-drag a box to select (Shift adds to the selection, a click selects the nearest
## soldier); Space selects everyone; right-click on the ground orders the selection there in the
## current formation; 1-5 pick the formation (line, column, wedge, square, circle); C cancels the
## last order; WASD / arrow keys pan the camera, the mouse wheel zooms.
##
## User arguments (after `--`): --frames=N (run N physics frames, print the order's progress every
## 60 frames and a summary, quit 0; headless runs default to 600), --screenshot=PATH (saved
## --shot-frames physics frames in, or, by default, half a second after the scripted order has
## arrived), --shot-width=W, --agents=N, --preset=NAME (the scripted order's formation).
## With --frames or --screenshot the demo orders by itself: everyone, across the level through
## the gates, in the chosen formation (line by default).

const DemoCommon = preload("res://demo/demo_common.gd")

const WALKER: SwarmAgentArchetype = preload("res://demo/resources/walker.tres")
const SETTINGS: SwarmSettings = preload("res://demo/resources/swarm_settings.tres")
const PRESET_DIR := "res://addons/swarm/formations/"
const PRESETS: Array[String] = ["line", "column", "wedge", "square", "circle"]

@export var agent_count := 160
## Formation spacing used by every preset in the demo (the presets ship with 2 m).
@export var spacing := 1.6
## Formation base speed used by every preset in the demo (the presets ship with 3.5 m/s).
@export var base_speed := 4.5
@export var camera_offset := Vector3(0, 40, 30)
@export var pan_speed := 30.0

const HALF := 40.0  # half size of the field
const WALL_Z := 4.0
const MIDDLE_HALF_WIDTH := 5.0  # the wall's middle piece
const GATE_WIDTH := 11.0  # each side of the middle piece
const START := Vector3(0, 0, 14)
const SCRIPTED_DESTINATION := Vector3(0, 0, -14)

var manager: SwarmManager
var camera: Camera3D
var label: Label
var box_rect: ColorRect
var formations: Array[SwarmFormation] = []
var preset := 0
var selected := PackedInt64Array()
var last_order := -1
var last_order_preset := ""
var last_order_count := 0
var last_order_arrived_s := -1.0

var _ring_mm: MultiMesh
var _marker: MeshInstance3D
var _marker_mat: StandardMaterial3D
var _focus := Vector3(0, 0, 0)
var _zoom := 1.0
var _drag_from := Vector2.ZERO
var _dragging := false

var _frame := 0
var _order_frame := 0
var _run_frames := -1
var _screenshot_path := ""
var _shot_frames := 0
var _shot_width := 0
var _scripted_preset := "line"
var _shooting := false
var _done := false
var _ready_done := false
var _arrived_at_frame := -1
var _first_arrival_frame := -1
var _step_samples := PackedFloat32Array()


func _ready() -> void:
	_parse_args()
	DemoCommon.add_outdoor_environment(self, Color(0.72, 0.74, 0.7), 0.0, true, Vector3(-60, -35, 0), 1.1)
	camera = Camera3D.new()
	camera.fov = 50.0
	camera.far = 300.0
	add_child(camera)
	_place_camera()
	_build_level()
	for n in PRESETS:
		var f: SwarmFormation = (load(PRESET_DIR + n + ".tres") as SwarmFormation).duplicate()
		f.spacing = spacing
		f.base_speed = base_speed
		formations.append(f)

	manager = SwarmManager.new()
	manager.name = "SwarmManager"
	manager.settings = SETTINGS
	manager.bake_bounds = AABB(Vector3(-HALF, -1, -HALF), Vector3(2 * HALF, 7, 2 * HALF))
	manager.formation_arrived.connect(_on_formation_arrived)
	add_child(manager)
	_build_markers()
	_build_ui()

	await DemoCommon.bake_and_enable_flow_field(manager, "formations demo")
	_spawn_squad()
	_ready_done = true
	if _run_frames > 0 or not _screenshot_path.is_empty():
		_scripted_order()


func _parse_args() -> void:
	var o := DemoCommon.run_args({
		"frames": _run_frames, "screenshot": _screenshot_path, "shot-frames": _shot_frames,
		"shot-width": _shot_width, "agents": agent_count, "preset": _scripted_preset,
	}, {"frames": 1, "shot-frames": 0, "agents": 1})
	_run_frames = o["frames"]
	_screenshot_path = o["screenshot"]
	_shot_frames = o["shot-frames"]
	_shot_width = o["shot-width"]
	agent_count = o["agents"]
	_scripted_preset = o["preset"]
	if not PRESETS.has(_scripted_preset):
		push_warning("formations demo: no preset '%s' (%s); using line" % [_scripted_preset, ", ".join(PRESETS)])
		_scripted_preset = "line"


# --- level -------------------------------------------------------------------------------------

## The field, a wall across it with two gates left and right of its middle piece, and two crates
## (for a right-click beside them).
func _build_level() -> void:
	var level := Node3D.new()
	level.name = "Level"
	add_child(level)
	DemoCommon.box(level, Vector3(0, -0.5, 0), Vector3(2 * HALF, 1, 2 * HALF), DemoCommon.material(Color(0.36, 0.42, 0.3)))
	var wall := DemoCommon.material(Color(0.55, 0.52, 0.48))
	var outer := MIDDLE_HALF_WIDTH + GATE_WIDTH
	var piece := HALF - outer
	for side in [-1.0, 1.0]:
		DemoCommon.box(level, Vector3(side * (outer + piece * 0.5), 1.5, WALL_Z), Vector3(piece, 3, 1.2), wall)
	DemoCommon.box(level, Vector3(0, 1.5, WALL_Z), Vector3(2 * MIDDLE_HALF_WIDTH, 3, 1.2), wall)
	var crate := DemoCommon.material(Color(0.5, 0.38, 0.24))
	DemoCommon.box(level, Vector3(-19, 1, 12), Vector3(3, 2, 3), crate)
	DemoCommon.box(level, Vector3(20, 1, -5), Vector3(3, 2, 2), crate)


func _build_markers() -> void:
	# A ring under each selected soldier, one MultiMesh for all.
	var ring := TorusMesh.new()
	ring.inner_radius = 0.45
	ring.outer_radius = 0.6
	ring.rings = 16
	ring.ring_segments = 6
	var ring_mat := StandardMaterial3D.new()
	ring_mat.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	ring_mat.albedo_color = Color(0.3, 1.0, 0.4)
	ring.material = ring_mat
	_ring_mm = MultiMesh.new()
	_ring_mm.transform_format = MultiMesh.TRANSFORM_3D
	_ring_mm.mesh = ring
	_ring_mm.instance_count = 0
	var mmi := MultiMeshInstance3D.new()
	mmi.multimesh = _ring_mm
	add_child(mmi)
	# The last order's destination.
	var disc := CylinderMesh.new()
	disc.top_radius = 1.2
	disc.bottom_radius = 1.2
	disc.height = 0.08
	_marker_mat = StandardMaterial3D.new()
	_marker_mat.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	_marker_mat.albedo_color = Color(1.0, 0.85, 0.2)
	disc.material = _marker_mat
	_marker = MeshInstance3D.new()
	_marker.mesh = disc
	_marker.visible = false
	add_child(_marker)


func _build_ui() -> void:
	var layer := CanvasLayer.new()
	add_child(layer)
	box_rect = ColorRect.new()
	box_rect.color = Color(0.3, 1.0, 0.4, 0.18)
	box_rect.mouse_filter = Control.MOUSE_FILTER_IGNORE
	box_rect.visible = false
	layer.add_child(box_rect)
	var panel := PanelContainer.new()
	panel.position = Vector2(12, 12)
	panel.mouse_filter = Control.MOUSE_FILTER_IGNORE
	layer.add_child(panel)
	label = Label.new()
	label.add_theme_font_size_override("font_size", 16)
	panel.add_child(label)


func _spawn_squad() -> void:
	var a := WALKER.duplicate() as SwarmAgentArchetype
	a.material_override = DemoCommon.material(Color(0.2, 0.35, 0.85), 0.6)
	var per_row := 16
	var gap := 1.3
	var rows := ceili(float(agent_count) / per_row)
	var origin := START - Vector3((per_row - 1) * gap * 0.5, 0, (rows - 1) * gap * 0.5)
	for i in agent_count:
		manager.spawn_agent(a, origin + Vector3((i % per_row) * gap, 0, (i / per_row) * gap))


# --- orders ------------------------------------------------------------------------------------

func _scripted_order() -> void:
	selected = manager.get_agent_ids()
	preset = PRESETS.find(_scripted_preset)
	_order(SCRIPTED_DESTINATION)
	if last_order < 0:
		push_error("formations demo: the scripted move_in_formation was refused")
		return
	var p := manager.get_formation_progress(last_order)
	print("Swarm formations demo: %d agents; frame %d: order %d, everyone in a %s to %s, planned %.2f s" % [
			manager.get_agent_count(), _frame, last_order, last_order_preset, SCRIPTED_DESTINATION, p.get("time_to_arrive", -1.0)])


func _order(destination: Vector3) -> void:
	if selected.is_empty():
		return
	var id := manager.move_in_formation(selected, destination, formations[preset])
	if id < 0:
		return
	last_order = id
	last_order_preset = PRESETS[preset]
	last_order_count = selected.size()
	last_order_arrived_s = -1.0
	_first_arrival_frame = -1
	_order_frame = _frame
	_marker.visible = true
	_marker.global_position = destination + Vector3(0, 0.05, 0)
	_marker_mat.albedo_color = Color(1.0, 0.85, 0.2)


func _on_formation_arrived(order_id: int) -> void:
	if order_id != last_order:
		return
	last_order_arrived_s = (_frame - _order_frame) / 60.0
	_marker_mat.albedo_color = Color(0.3, 1.0, 0.4)
	if _run_frames > 0 or not _screenshot_path.is_empty():
		_arrived_at_frame = _frame
		var p := manager.get_formation_progress(order_id)
		print("frame %d: formation_arrived(%d): all %d agents in their slots after %.2f s (planned %.2f s; the first arrived after %.2f s)" % [
				_frame, order_id, p.get("agents", 0), p.get("elapsed", 0.0), p.get("time_to_arrive", 0.0),
				(_first_arrival_frame - _order_frame) / 60.0])


func _progress_text() -> String:
	if last_order < 0:
		return "no order yet"
	var p := manager.get_formation_progress(last_order)
	if p.is_empty():
		return "order %d (%s): cancelled or taken over by a newer order" % [last_order, last_order_preset]
	var text := "order %d (%s, %d agents): arrived %d/%d, %.1f s of %.1f s planned" % [
			last_order, last_order_preset, last_order_count, p.get("arrived", 0), p.get("agents", 0),
			p.get("elapsed", 0.0), p.get("time_to_arrive", 0.0)]
	if last_order_arrived_s >= 0.0:
		text += ", all arrived after %.1f s, holding" % last_order_arrived_s
	return text


# --- input -------------------------------------------------------------------------------------

func _unhandled_input(event: InputEvent) -> void:
	if not _ready_done:
		return
	if event is InputEventMouseButton:
		var mb := event as InputEventMouseButton
		if mb.button_index == MOUSE_BUTTON_LEFT:
			if mb.pressed:
				_dragging = true
				_drag_from = mb.position
				_update_box(mb.position)
			elif _dragging:
				_dragging = false
				box_rect.visible = false
				_select(_drag_from, mb.position, mb.shift_pressed)
		elif mb.button_index == MOUSE_BUTTON_RIGHT and mb.pressed:
			var hit := _ground_point(mb.position)
			if hit.is_finite():
				_order(hit)
		elif mb.button_index == MOUSE_BUTTON_WHEEL_UP and mb.pressed:
			_zoom = maxf(0.35, _zoom * 0.9)
		elif mb.button_index == MOUSE_BUTTON_WHEEL_DOWN and mb.pressed:
			_zoom = minf(2.5, _zoom * 1.1)
	elif event is InputEventMouseMotion and _dragging:
		_update_box((event as InputEventMouseMotion).position)
	elif event is InputEventKey:
		var k := event as InputEventKey
		if not k.pressed or k.echo:
			return
		var key := k.keycode
		if key >= KEY_1 and key <= KEY_5:
			preset = key - KEY_1
		elif key == KEY_SPACE:
			selected = manager.get_agent_ids()
		elif key == KEY_C and last_order >= 0:
			manager.cancel_formation(last_order)
			_marker.visible = false


func _update_box(to: Vector2) -> void:
	box_rect.visible = true
	box_rect.position = Vector2(minf(_drag_from.x, to.x), minf(_drag_from.y, to.y))
	box_rect.size = (to - _drag_from).abs()


## Selects the agents whose screen positions fall in the box from `a` to `b`; a box under 5 px
## is a click and selects the nearest agent within 24 px of it.
func _select(a: Vector2, b: Vector2, add: bool) -> void:
	var rect := Rect2(a, Vector2.ZERO).expand(b)
	var picked := PackedInt64Array()
	var nearest := -1
	var nearest_d := 24.0
	for id in manager.get_agent_ids():
		var p := manager.get_agent_position(id) + Vector3(0, 0.9, 0)
		if camera.is_position_behind(p):
			continue
		var s := camera.unproject_position(p)
		if rect.size.length() < 5.0:
			var d := s.distance_to(a)
			if d < nearest_d:
				nearest_d = d
				nearest = id
		elif rect.has_point(s):
			picked.append(id)
	if nearest >= 0:
		picked.append(nearest)
	if add:
		for id in picked:
			if not selected.has(id):
				selected.append(id)
	else:
		selected = picked


## Where the ray under the screen point `at` meets the ground (y = 0); not finite when it does not.
func _ground_point(at: Vector2) -> Vector3:
	var from := camera.project_ray_origin(at)
	var dir := camera.project_ray_normal(at)
	var hit = Plane(Vector3.UP, 0.0).intersects_ray(from, dir)
	if hit == null:
		return Vector3(INF, INF, INF)
	var p: Vector3 = hit
	if absf(p.x) > HALF or absf(p.z) > HALF:
		return Vector3(INF, INF, INF)
	return p


# --- per frame ---------------------------------------------------------------------------------

func _place_camera() -> void:
	camera.global_position = _focus + camera_offset * _zoom
	camera.look_at(_focus, Vector3.UP)


func _physics_process(_delta: float) -> void:
	if not _ready_done or _done or _shooting:
		return
	_frame += 1
	var stats := manager.get_stats()
	var step_ms: float = stats.get("step_ms", 0.0)
	if last_order >= 0 and _first_arrival_frame < 0 and int(manager.get_formation_progress(last_order).get("arrived", 0)) > 0:
		_first_arrival_frame = _frame
	if _run_frames > 0:
		_step_samples.append(step_ms)
		if _frame % 60 == 0:
			print("frame %d: step %.2f ms | %s" % [_frame, step_ms, _progress_text()])
		if _frame >= _run_frames:
			_finish_run()
			return
	if not _screenshot_path.is_empty():
		# By default half a second after the scripted order arrived (a minute at the latest).
		var due := _frame >= _shot_frames if _shot_frames > 0 else (_arrived_at_frame >= 0 and _frame >= _arrived_at_frame + 30) or _frame >= 3600
		if due:
			_take_screenshot()


func _process(delta: float) -> void:
	if not _ready_done:
		return
	var pan := DemoCommon.keyboard_direction()
	if pan != Vector3.ZERO:
		_focus += pan.normalized() * pan_speed * _zoom * delta
		_focus.x = clampf(_focus.x, -HALF, HALF)
		_focus.z = clampf(_focus.z, -HALF, HALF)
	_place_camera()
	_draw_selection()
	var names := PackedStringArray()
	for i in PRESETS.size():
		names.append(("[%d %s]" if i == preset else "%d %s") % [i + 1, PRESETS[i]])
	var text := "Swarm formations demo: %d soldiers, %d selected   step %.2f ms" % [
			manager.get_agent_count(), selected.size(), manager.get_stats().get("step_ms", 0.0)]
	if _screenshot_path.is_empty():
		text += "   FPS: %d" % Engine.get_frames_per_second()
	text += "\nformation: " + "  ".join(names)
	text += "\n" + _progress_text()
	text += "\nleft-drag: select (Shift adds)   Space: select all   right-click: move   1-5: formation   C: cancel   WASD: pan   wheel: zoom"
	label.text = text


func _draw_selection() -> void:
	var alive := PackedInt64Array()
	for id in selected:
		if manager.is_agent_alive(id):
			alive.append(id)
	selected = alive
	if _ring_mm.instance_count < selected.size():
		_ring_mm.instance_count = selected.size() + 64
	_ring_mm.visible_instance_count = selected.size()
	for i in selected.size():
		_ring_mm.set_instance_transform(i, Transform3D(Basis.IDENTITY, manager.get_agent_position(selected[i]) + Vector3(0, 0.06, 0)))


func _finish_run() -> void:
	_done = true
	var sorted := _step_samples.duplicate()
	sorted.sort()
	var mean := 0.0
	for s in sorted:
		mean += s
	mean /= maxi(1, sorted.size())
	print("summary: %d frames, %d agents, step mean %.2f ms, max %.2f ms" % [
			_frame, manager.get_agent_count(), mean, sorted[sorted.size() - 1] if sorted.size() > 0 else 0.0])
	print("summary: " + _progress_text())
	get_tree().quit(0)


func _take_screenshot() -> void:
	_shooting = true
	await DemoCommon.capture_and_quit(self, _screenshot_path, _shot_width, func() -> String: return "%d physics frames; %s" % [_frame, _progress_text()])
