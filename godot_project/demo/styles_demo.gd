extends Node3D

## Swarm horde styles: one style at a time, switched at run time. Each style is one
## SwarmAgentArchetype resource in res://demo/styles/ (its behaviour, movement and attack profiles
## are inside it); a SwarmSpawnerDirector keeps the style's population alive through a
## SwarmRingSpawner that rides on the target and spawns off screen.
##
## Controls: 1-5 or the buttons pick a style; WASD / arrow keys move the target, a left click sends
## it there (without input it follows the style's own path); L shows the Importance LOD tiers as
## colours; F makes the target strike back at agents next to it (the director replaces the fallen).
##
## User arguments (after `--` on Godot's command line):
##   --style=NAME       start with this style: default, melee, flankers, harassers, far (or 1-5,
##                      or the resource name, e.g. melee_pack); all: each style in turn.
##   --frames=N         run N physics frames (per style with --style=all), print a line every 60
##                      frames and a summary per style, quit 0. Headless runs (--headless) do this
##                      with N = 600 when no N is given.
##   --count=N          agents of the style instead of its own count.
##   --fight            start with the target striking back.
##   --screenshot=PATH  after --shot-frames physics frames (default 300, 5 s) save the viewport as
##                      a PNG at PATH and quit (needs a real renderer, not --headless).
##   --shot-frames=N, --shot-width=W   see above; W scales the picture (keeps the aspect ratio).
##   --caption          only a large caption (style and what it does), no stats or buttons: for
##                      small pictures (tools/styles_montage.sh).

## One entry per style: the archetype and how the scene shows it. `ring` is the spawn ring
## (inner, outer radius around the target), `off_screen` whether spawns avoid the camera's view,
## `path` the target's own motion (CIRCLE: radius, speed; EIGHT: a figure eight of that size),
## `camera` the camera's offset from the target.
const DemoCommon = preload("res://demo/demo_common.gd")

const STYLES := [
	{
		"id": "default", "title": "Default horde",
		"archetype": preload("res://demo/styles/default_horde.tres"),
		"about": "Approach & Surround + Personal Space + Idle Motion: the horde fills a ring round the target and trails it.",
		"count": 1500, "ring": Vector2(34, 52), "off_screen": true,
		"path": "circle", "path_size": 16.0, "path_speed": 1.8, "camera": Vector3(0, 34, 25),
	},
	{
		"id": "melee", "title": "Melee pack",
		"archetype": preload("res://demo/styles/melee_pack.tres"),
		"about": "Surround Shape + Close-Range Pressure: at most 3 swing at a time, the rest queue just outside and circle.",
		"count": 60, "ring": Vector2(20, 30), "off_screen": true,
		"path": "circle", "path_size": 5.0, "path_speed": 0.4, "camera": Vector3(0, 17, 13),
	},
	{
		"id": "flankers", "title": "Flankers",
		"archetype": preload("res://demo/styles/flankers.tres"),
		"about": "Predictive Catch-Up + Hold Nearby Swarm, fast: packs aim where the target is going and cut it off.",
		"count": 300, "ring": Vector2(30, 46), "off_screen": true,
		"path": "eight", "path_size": 22.0, "path_speed": 4.0, "camera": Vector3(0, 38, 28),
	},
	{
		"id": "harassers", "title": "Harassers",
		"archetype": preload("res://demo/styles/harassers.tres"),
		"about": "Orbit Style + Retreat: dart in, strike, fall back to 8 m, circle, and come again (hit and run).",
		"count": 60, "ring": Vector2(22, 32), "off_screen": true,
		"path": "circle", "path_size": 6.0, "path_speed": 0.8, "camera": Vector3(0, 24, 18),
	},
	{
		"id": "far", "title": "Far horde",
		"archetype": preload("res://demo/styles/far_horde.tres"),
		"about": "Out-of-Sight Fallback, sight 12 m: agents that cannot see the target follow allies that can; the rest stand.",
		"count": 1500, "ring": Vector2(6, 48), "off_screen": false,
		"path": "circle", "path_size": 22.0, "path_speed": 1.6, "camera": Vector3(0, 40, 30),
	},
]

## Speed of the target when driven by keys or a click, in m/s.
@export var target_speed := 8.0
## Seconds without input before the target goes back to its path.
@export var idle_before_path := 2.0
## With "strike back" on: the target hits every agent within this radius every strike_interval s.
@export var strike_radius := 2.2
@export var strike_interval := 0.7
@export var strike_damage := 60.0
## The target stays inside this half-size of the field.
@export var field_half_size := 110.0

@onready var manager: SwarmManager = $SwarmManager
@onready var target: SwarmTarget = $SwarmManager/Target
@onready var hit_ring: MeshInstance3D = $SwarmManager/Target/HitRing
@onready var spawner: SwarmRingSpawner = $SwarmManager/Target/Spawner
@onready var director: SwarmSpawnerDirector = $SwarmManager/Director
@onready var camera: Camera3D = $Camera3D
@onready var stats_label: Label = $UI/Stats
@onready var button_row: HBoxContainer = $UI/Styles

var _style := 0
var _count_override := -1
var _cycle_all := false
var _fight := false

var _frame := 0  # physics frames of the current style
var _run_frames := -1  # -1: run until the window is closed
var _screenshot_path := ""
var _shot_frames := 300
var _shot_width := 0
var _shooting := false
var _caption_only := false
var _done := false

var _path_time := 0.0
var _idle_time := 1e9  # seconds since the last user input
var _click_goal := Vector3.ZERO
var _has_click_goal := false
var _strike_timer := 0.0
var _hit_flash := 0.0
var _label_timer := 0.0

# Per style run: hits on the target, agents killed, step times.
var _hits := 0
var _recent_hits: Array[float] = []  # times (s) of hits in the last 5 s
var _kills := 0
var _step_samples := PackedFloat32Array()
var _run_start_usec := 0
var _buttons: Array[Button] = []


func _ready() -> void:
	_parse_args()
	manager.target_attacked.connect(_on_target_attacked)
	manager.agent_died.connect(func(_id: int, _pos: Vector3) -> void: _kills += 1)
	for i in STYLES.size():
		var b := Button.new()
		b.text = "%d  %s" % [i + 1, STYLES[i].title]
		b.toggle_mode = true
		b.focus_mode = Control.FOCUS_NONE  # keys stay with the demo (arrows move the target)
		b.pressed.connect(select_style.bind(i))
		button_row.add_child(b)
		_buttons.append(b)
	if _caption_only:
		button_row.visible = false
		stats_label.add_theme_font_size_override("font_size", 34)
		stats_label.add_theme_constant_override("outline_size", 10)
		stats_label.size.x = 1250.0
		stats_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	select_style(_style)


func _parse_args() -> void:
	var o := DemoCommon.run_args({
		"frames": _run_frames, "screenshot": _screenshot_path, "shot-frames": _shot_frames,
		"shot-width": _shot_width, "style": "", "count": _count_override, "fight": _fight,
		"caption": _caption_only,
	}, {"frames": 1, "shot-frames": 1})
	_run_frames = o["frames"]
	_screenshot_path = o["screenshot"]
	_shot_frames = o["shot-frames"]
	_shot_width = o["shot-width"]
	_count_override = o["count"]
	_fight = o["fight"]
	_caption_only = o["caption"]
	var style_arg: String = o["style"]
	if style_arg == "all":
		_cycle_all = true
	elif not style_arg.is_empty():
		_style = find_style(style_arg)
		if _style < 0:
			var names := PackedStringArray()
			for s in STYLES:
				names.append(s.id)
			push_error("styles demo: unknown style '%s' (one of %s, 1-%d, or all)" % [style_arg, ", ".join(names), STYLES.size()])
			_style = 0
			if _run_frames > 0:
				_done = true
				get_tree().quit.call_deferred(1)


## Index of a style by id ("melee"), resource name ("melee_pack"), title or number 1-5; -1 if none.
static func find_style(key: String) -> int:
	var k := key.strip_edges().to_lower()
	if k.is_valid_int() and k.to_int() >= 1 and k.to_int() <= STYLES.size():
		return k.to_int() - 1
	for i in STYLES.size():
		var s: Dictionary = STYLES[i]
		var archetype: SwarmAgentArchetype = s.archetype
		if k == s.id or k == archetype.resource_name or k == String(s.title).to_lower():
			return i
	return -1


## Shows style [param index]: the director stops, every agent goes, the spawner takes the style's
## archetype and ring, and the director brings the style's population in (off screen where the
## style says so).
func select_style(index: int) -> void:
	_style = clampi(index, 0, STYLES.size() - 1)
	var s: Dictionary = STYLES[_style]
	director.stop()
	for id in manager.get_agent_ids():
		manager.despawn_agent(id)
	spawner.archetype = s.archetype
	spawner.inner_radius = s.ring.x
	spawner.outer_radius = s.ring.y
	spawner.spawn_off_screen = s.off_screen
	var count: int = s.count if _count_override < 0 else _count_override
	director.max_alive = count
	director.trigger()
	for i in _buttons.size():
		_buttons[i].set_pressed_no_signal(i == _style)
	_frame = 0
	_hits = 0
	_kills = 0
	_recent_hits.clear()
	_step_samples.clear()
	_run_start_usec = Time.get_ticks_usec()
	_path_time = 0.0
	if _idle_time >= idle_before_path:
		target.global_position = _path_point(0.0)
	_place_camera(1.0)
	_label_timer = 0.0
	if _run_frames > 0 and not _done:
		print("styles demo: %s (%s), %d agents, running %d physics frames" % [
				s.title, (s.archetype as SwarmAgentArchetype).resource_name, count, _run_frames])


func _on_target_attacked(_t: SwarmTarget, _damage: float, _agent_id: int) -> void:
	_hits += 1
	_recent_hits.append(_frame / 60.0)
	_hit_flash = 0.15


func _unhandled_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key and key.pressed and not key.echo:
		if key.keycode >= KEY_1 and key.keycode < KEY_1 + STYLES.size():
			select_style(key.keycode - KEY_1)
		elif key.keycode == KEY_L:
			manager.debug_draw_lod_tiers = not manager.debug_draw_lod_tiers
		elif key.keycode == KEY_F:
			_fight = not _fight
	var click := event as InputEventMouseButton
	if click and click.pressed and click.button_index == MOUSE_BUTTON_LEFT:
		var from := camera.project_ray_origin(click.position)
		var dir := camera.project_ray_normal(click.position)
		var hit = Plane(Vector3.UP, 0.0).intersects_ray(from, dir)
		if hit != null:
			_click_goal = _clamp_to_field(hit)
			_has_click_goal = true
			_idle_time = 0.0


func _physics_process(delta: float) -> void:
	if _done or _shooting:
		return
	_frame += 1
	_move_target(delta)
	_place_camera(1.0 - exp(-4.0 * delta))
	if _fight:
		_strike_back(delta)
	_hit_flash -= delta
	hit_ring.visible = _hit_flash > 0.0

	var stats := manager.get_stats()
	if _run_frames > 0:
		_step_samples.append(stats.get("step_ms", 0.0))
		if _frame % 60 == 0:
			print("frame %d: %s, agents %d, step %.2f ms, LOD full/reduced/cheap %d/%d/%d, dormant %d, hits %d" % [
					_frame, STYLES[_style].id, stats.get("agent_count", 0), stats.get("step_ms", 0.0),
					stats.get("lod_full", 0), stats.get("lod_reduced", 0), stats.get("lod_cheap", 0),
					stats.get("dormant_count", 0), _hits])
		if _frame >= _run_frames:
			_finish_style()
			return
	if not _screenshot_path.is_empty() and _frame >= _shot_frames:
		_take_screenshot()


## The target's own path at time [param t] (seconds) for the current style.
func _path_point(t: float) -> Vector3:
	var s: Dictionary = STYLES[_style]
	var size: float = s.path_size
	var w: float = s.path_speed / maxf(size, 0.1)  # rad/s giving about path_speed m/s
	match s.path:
		"eight":
			# A figure eight: it crosses the field's middle twice per lap, in two directions.
			var a := t * w * 0.7
			return Vector3(sin(a) * size * 1.4, 0, sin(2.0 * a) * size * 0.6)
		_:
			return Vector3(cos(t * w), 0, sin(t * w)) * size


func _move_target(delta: float) -> void:
	var input := DemoCommon.keyboard_direction()

	var pos := target.global_position
	if input != Vector3.ZERO:
		_idle_time = 0.0
		_has_click_goal = false
		pos += input.normalized() * target_speed * delta
	elif _has_click_goal:
		_idle_time = 0.0
		pos = pos.move_toward(_click_goal, target_speed * delta)
		if pos.distance_to(_click_goal) < 0.01:
			_has_click_goal = false
	else:
		_idle_time += delta
		if _idle_time >= idle_before_path:
			# Walk back onto the path at the path's own pace, then follow it.
			_path_time += delta
			var s: Dictionary = STYLES[_style]
			pos = pos.move_toward(_path_point(_path_time), maxf(s.path_speed * 2.0, 3.0) * delta)
	target.global_position = _clamp_to_field(pos)


func _strike_back(delta: float) -> void:
	_strike_timer -= delta
	if _strike_timer > 0.0:
		return
	_strike_timer = strike_interval
	manager.damage_agents_in_radius(target.global_position, strike_radius, strike_damage)


func _clamp_to_field(p: Vector3) -> Vector3:
	return Vector3(clampf(p.x, -field_half_size, field_half_size), 0.0,
			clampf(p.z, -field_half_size, field_half_size))


func _place_camera(weight: float) -> void:
	var offset: Vector3 = STYLES[_style].camera
	var focus := target.global_position
	camera.global_position = camera.global_position.lerp(focus + offset, weight)
	camera.look_at(camera.global_position - offset, Vector3.UP)


func _process(delta: float) -> void:
	_label_timer -= delta
	if _label_timer > 0.0:
		return
	_label_timer = 0.25
	var s: Dictionary = STYLES[_style]
	var archetype: SwarmAgentArchetype = s.archetype
	if _caption_only:
		stats_label.text = "%d  %s\n%s" % [_style + 1, s.title, s.about]
		return
	var stats := manager.get_stats()
	var now := _frame / 60.0
	while not _recent_hits.is_empty() and _recent_hits[0] < now - 5.0:
		_recent_hits.pop_front()
	var lines := PackedStringArray()
	lines.append("%d  %s   (%s.tres)" % [_style + 1, s.title, archetype.resource_name])
	lines.append(s.about)
	var line := "agents: %d   step: %.2f ms" % [stats.get("agent_count", 0), stats.get("step_ms", 0.0)]
	# A screenshot is drawn by a software renderer: its frame rate says nothing.
	if _screenshot_path.is_empty():
		line += "   FPS: %d" % Engine.get_frames_per_second()
	lines.append(line)
	lines.append("LOD tiers  full %d   reduced %d   cheap %d   dormant %d" % [
			stats.get("lod_full", 0), stats.get("lod_reduced", 0), stats.get("lod_cheap", 0),
			stats.get("dormant_count", 0)])
	var b := archetype.behavior_profile
	var detail := "hits on the target: %d in the last 5 s" % _recent_hits.size()
	if b != null and b.use_pressure:
		var striking := manager.get_agents_in_radius(target.global_position, b.strike_distance).size()
		detail += "   within strike distance: %d (max %d attackers)" % [striking, b.max_active_attackers]
	if _fight:
		detail += "   target strikes back: %d down" % _kills
	lines.append(detail)
	lines.append("1-5 / buttons: style   WASD / click: move target   L: LOD colours   F: strike back")
	stats_label.text = "\n".join(lines)


func _finish_style() -> void:
	var s: Dictionary = STYLES[_style]
	var secs := (Time.get_ticks_usec() - _run_start_usec) / 1e6
	var sorted := _step_samples.duplicate()
	sorted.sort()
	var mean := 0.0
	for v in sorted:
		mean += v
	mean /= maxi(1, sorted.size())
	var median: float = sorted[sorted.size() / 2] if sorted.size() > 0 else 0.0
	var stats := manager.get_stats()
	var t := target.global_position
	var near := manager.get_agents_in_radius(t, 10.0).size()
	var mean_distance := 0.0
	var ids := manager.get_agent_ids()
	for id in ids:
		var p := manager.get_agent_position(id)
		mean_distance += Vector2(p.x - t.x, p.z - t.z).length() / maxi(1, ids.size())
	print("summary %s: %d frames in %.2f s, %d agents, step mean %.2f ms, median %.2f ms; LOD full/reduced/cheap %d/%d/%d, dormant %d" % [
			s.id, _frame, secs, stats.get("agent_count", 0), mean, median,
			stats.get("lod_full", 0), stats.get("lod_reduced", 0), stats.get("lod_cheap", 0), stats.get("dormant_count", 0)])
	var line := "summary %s: mean distance to the target %.1f m, %d agents within 10 m, %d hits on the target" % [
			s.id, mean_distance, near, _hits]
	if _fight:
		line += ", %d agents struck down" % _kills
	print(line)
	if _cycle_all and _style < STYLES.size() - 1:
		select_style(_style + 1)
		return
	_done = true
	get_tree().quit(0)


func _take_screenshot() -> void:
	_shooting = true
	_label_timer = 0.0
	await DemoCommon.capture_and_quit(self, _screenshot_path, _shot_width, func() -> String: return "%d physics frames of %s" % [_frame, STYLES[_style].id])
