extends Node3D

## Swarm demo: a horde of two archetypes (red walkers, dark brutes) chases one SwarmTarget.
## The walkers are animated: a small rigged character (demo/vat/vat_character.gd) is baked at
## start into a SwarmVertexAnimation, and each walker plays its walk cycle at its own speed (idle
## when it stands) through the addon's VAT shader.
##
## Controls: WASD / arrow keys move the target; a left click on the ground sends it there; F3
## shows or hides the SwarmDebugOverlay (the simulation's figures and a step-time graph).
## Without input for a moment the target wanders on a slow circle, so the horde keeps moving.
##
## User arguments (after `--` on Godot's command line):
##   --frames=N         run N physics frames, print a line every 60 frames and a summary, quit 0.
##                      Headless runs (--headless) do this with N = 600 when no N is given.
##   --screenshot=PATH  after --shot-frames physics frames (default 240, 4 s) save the viewport
##                      as a PNG at PATH and quit (needs a real renderer, not --headless).
##   --shot-frames=N    see above.
##   --walkers=N, --brutes=N   override walker_count and brute_count.
##   --shot-width=W     scale the saved picture to W pixels wide (keeps the aspect ratio).
##   --overlay          show the debug overlay from the start (as F3 does).

const DemoCommon = preload("res://demo/demo_common.gd")
const VatCharacter = preload("res://demo/vat/vat_character.gd")

const WALKER_BASE: SwarmAgentArchetype = preload("res://demo/resources/walker.tres")
const BRUTE: SwarmAgentArchetype = preload("res://demo/resources/brute.tres")

## Walkers, spawned in rings around the field.
@export var walker_count := 4800
## Brutes, spawned in patches between the rings.
@export var brute_count := 1200
## Seed of the spawn layout (the manager has its own seed for per-agent values).
@export var layout_seed := 7
## Speed of the target when driven by keys or a click, in m/s.
@export var target_speed := 9.0
## Radius and angular speed (rad/s) of the automatic wander circle.
@export var wander_radius := 14.0
@export var wander_angular_speed := 0.12
## Seconds without input before the target goes back to wandering.
@export var idle_before_wander := 2.0
## Camera position relative to the target it follows.
@export var camera_offset := Vector3(0, 48, 34)
## The target stays inside this half-size of the field.
@export var field_half_size := 110.0

@onready var manager: SwarmManager = $SwarmManager
@onready var target: SwarmTarget = $SwarmManager/Target
@onready var camera: Camera3D = $Camera3D
@onready var stats_label: Label = $UI/Stats
## The SwarmDebugOverlay (typed by its base: a project run without an import may not know the class name yet).
@onready var overlay: CanvasLayer = $DebugOverlay

var _frame := 0
var _run_frames := -1  # -1: run until the window is closed
var _screenshot_path := ""
var _shot_frames := 240
var _shot_width := 0
var _shooting := false
var _done := false

var _wander_angle := 0.0
var _idle_time := 1e9  # seconds since the last user input
var _click_goal := Vector3.ZERO
var _has_click_goal := false

var _step_samples := PackedFloat32Array()
var _run_start_usec := 0
var _start_mean_distance := 0.0
var _label_timer := 0.0
var _counts := {}
## The walker archetype with the baked character (made in _ready).
var _walker: SwarmAgentArchetype


func _ready() -> void:
	_parse_args()
	_walker = _animated_walker()
	_spawn_horde()
	target.global_position = _wander_point()
	_place_camera(1.0)
	_start_mean_distance = _mean_distance_to_target()
	_run_start_usec = Time.get_ticks_usec()
	if _run_frames > 0:
		print("Swarm demo: %d agents (%d walker, %d brute), running %d physics frames" % [
				manager.get_agent_count(), _counts.get("walker", 0), _counts.get("brute", 0), _run_frames])


func _parse_args() -> void:
	var o := DemoCommon.run_args({
		"frames": _run_frames, "screenshot": _screenshot_path, "shot-frames": _shot_frames,
		"shot-width": _shot_width, "walkers": walker_count, "brutes": brute_count, "overlay": false,
	}, {"frames": 1, "shot-frames": 1})
	_run_frames = o["frames"]
	_screenshot_path = o["screenshot"]
	_shot_frames = o["shot-frames"]
	_shot_width = o["shot-width"]
	walker_count = o["walkers"]
	brute_count = o["brutes"]
	if o["overlay"]:
		overlay.show()


## Walkers in three rings around the field centre, brutes in eight patches between them.
func _spawn_horde() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = layout_seed
	var rings := [[15.0, 20.0], [27.0, 32.0], [40.0, 46.0]]
	var area_total := 0.0
	for r in rings:
		area_total += r[1] * r[1] - r[0] * r[0]
	var spawned := 0
	for i in rings.size():
		var r0: float = rings[i][0]
		var r1: float = rings[i][1]
		var n := walker_count - spawned if i == rings.size() - 1 \
				else int(walker_count * (r1 * r1 - r0 * r0) / area_total)
		for k in n:
			# Uniform over the annulus.
			var radius := sqrt(rng.randf_range(r0 * r0, r1 * r1))
			var angle := rng.randf() * TAU
			_spawn(_walker, Vector3(cos(angle) * radius, 0, sin(angle) * radius), "walker")
		spawned += n
	var patches := 8
	for p in patches:
		var n := brute_count / patches + (1 if p < brute_count % patches else 0)
		var angle := TAU * (p + 0.5) / patches
		var centre := Vector3(cos(angle), 0, sin(angle)) * (35.0 if p % 2 == 0 else 52.0)
		var patch_radius := sqrt(n * 2.2 / PI)  # ~2.2 m² per brute
		for k in n:
			var d := sqrt(rng.randf()) * patch_radius
			var a := rng.randf() * TAU
			_spawn(BRUTE, centre + Vector3(cos(a) * d, 0, sin(a) * d), "brute")


## The walker resource with the character baked into a vertex animation instead of its capsule.
func _animated_walker() -> SwarmAgentArchetype:
	var walker := WALKER_BASE.duplicate() as SwarmAgentArchetype
	var vat := VatCharacter.bake_vat()
	if vat != null:
		walker.mesh = null
		walker.material_override = null
		walker.vertex_animation = vat
	return walker


func _spawn(archetype: SwarmAgentArchetype, pos: Vector3, kind: String) -> void:
	if manager.spawn_agent(archetype, pos) >= 0:
		_counts[kind] = _counts.get(kind, 0) + 1


func _wander_point() -> Vector3:
	return Vector3(cos(_wander_angle), 0, sin(_wander_angle)) * wander_radius


func _unhandled_input(event: InputEvent) -> void:
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

	var stats := manager.get_stats()
	var step_ms: float = stats.get("step_ms", 0.0)
	if _run_frames > 0:
		_step_samples.append(step_ms)
		if _frame % 60 == 0:
			print("frame %d: agents %d, step %.2f ms" % [_frame, stats.get("agent_count", 0), step_ms])
		if _frame >= _run_frames:
			_finish_run()
			return
	if not _screenshot_path.is_empty() and _frame >= _shot_frames:
		_take_screenshot()


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
		if _idle_time >= idle_before_wander:
			# Glide back onto the circle, then follow it.
			_wander_angle += wander_angular_speed * delta
			pos = pos.move_toward(_wander_point(), target_speed * delta)
	target.global_position = _clamp_to_field(pos)


func _clamp_to_field(p: Vector3) -> Vector3:
	return Vector3(clampf(p.x, -field_half_size, field_half_size), 0.0,
			clampf(p.z, -field_half_size, field_half_size))


func _place_camera(weight: float) -> void:
	var focus := target.global_position
	camera.global_position = camera.global_position.lerp(focus + camera_offset, weight)
	camera.look_at(camera.global_position - camera_offset, Vector3.UP)


func _process(delta: float) -> void:
	_label_timer -= delta
	if _label_timer > 0.0:
		return
	_label_timer = 0.25
	var stats := manager.get_stats()
	var text := "Swarm demo\nagents: %d  (walkers %d, brutes %d)\nstep: %.2f ms" % [
			stats.get("agent_count", 0), _counts.get("walker", 0), _counts.get("brute", 0),
			stats.get("step_ms", 0.0)]
	# A screenshot is drawn by a software renderer: its frame rate says nothing.
	if _screenshot_path.is_empty():
		text += "   FPS: %d" % Engine.get_frames_per_second()
	stats_label.text = text + "\nWASD / arrows: move target   click: send it there   F3: overlay"


func _mean_distance_to_target() -> float:
	var ids := manager.get_agent_ids()
	if ids.is_empty():
		return 0.0
	var t := target.global_position
	var sum := 0.0
	for id in ids:
		sum += manager.get_agent_position(id).distance_to(t)
	return sum / ids.size()


func _finish_run() -> void:
	_done = true
	var secs := (Time.get_ticks_usec() - _run_start_usec) / 1e6
	var sorted := _step_samples.duplicate()
	sorted.sort()
	var mean := 0.0
	for s in sorted:
		mean += s
	mean /= maxi(1, sorted.size())
	var median: float = sorted[sorted.size() / 2] if sorted.size() > 0 else 0.0
	var worst: float = sorted[sorted.size() - 1] if sorted.size() > 0 else 0.0
	var near := manager.get_agents_in_radius(target.global_position, 8.0).size()
	print("summary: %d frames in %.2f s (%.1f frames/s), %d agents, step mean %.2f ms, median %.2f ms, max %.2f ms" % [
			_frame, secs, _frame / maxf(secs, 1e-6), manager.get_agent_count(), mean, median, worst])
	print("summary: mean distance to target %.1f m at start, %.1f m now; %d agents within 8 m of the target" % [
			_start_mean_distance, _mean_distance_to_target(), near])
	get_tree().quit(0)


func _take_screenshot() -> void:
	_shooting = true
	await DemoCommon.capture_and_quit(self, _screenshot_path, _shot_width, func() -> String: return "%d physics frames" % [_frame])
