extends SceneTree
## Shared frame for the engine benchmarks (swarm_bench.gd, nav_peer_bench.gd).
##
## Run headless, one fixed step per frame, as fast as the machine goes:
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/<scene>.gd -- \
##       --agents=N --frames=F [--warmup=W] [--out=PATH]
##
## What is measured: the wall time of one whole main-loop iteration, from the start of one
## physics frame to the start of the next (Time.get_ticks_usec in the _physics_process of a
## probe node with the lowest process_physics_priority, so it runs first in every physics frame).
## With --headless and --fixed-fps every iteration is exactly one physics step plus one idle
## frame, and nothing sleeps, so that interval holds everything the frame costs: the scene's
## physics callbacks (the SwarmManager step, or the GDScript driving NavigationServer3D), the
## NavigationServer3D's own avoidance pass and callbacks (which run after the scene tree's
## physics callbacks, so bracketing the callbacks alone would miss them), the MultiMesh buffer
## writes and their hand-over to the RenderingServer, and the idle frame. Only the GPU draw is
## left out (headless); both scenes pay the same for everything else, visuals included.
##
## Output: JSON {bench, agents, frames, warmup, median_ms, p95_ms, mean_ms, max_ms,
## step_ms_median, sync_ms_median} written to --out (and printed). step_ms_median and
## sync_ms_median are the medians of SwarmManager.get_stats().step_ms and .sync_ms (the visual
## sync: MultiMesh buffers written and handed over) for the swarm scene, null for the nav peer.

const TARGET_ORBIT_RADIUS := 20.0
const TARGET_ORBIT_SPEED := 0.1  # rad/s: a slow circle, about 2 m/s

var agents := 5000
var frames := 300
var warmup := 60
var out_path := ""
var print_series := false  # --series: print the median of every 60 measured frames

var frame := 0
var _last_usec := 0
var _samples := PackedFloat64Array()
var _step_samples := PackedFloat64Array()
var _sync_samples := PackedFloat64Array()
var _finished := false
var _started_usec := 0


class Probe extends Node:
	var bench
	func _physics_process(_delta: float) -> void:
		bench._on_frame_start()


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		var value := arg.get_slice("=", 1)
		if arg.begins_with("--agents="):
			agents = maxi(1, value.to_int())
		elif arg.begins_with("--frames="):
			frames = maxi(1, value.to_int())
		elif arg.begins_with("--warmup="):
			warmup = maxi(0, value.to_int())
		elif arg == "--series":
			print_series = true
		elif arg.begins_with("--out="):
			out_path = value
	# --path makes the project folder the working directory: resolve against the caller's.
	if not out_path.is_empty() and not out_path.is_absolute_path():
		out_path = OS.get_environment("PWD").path_join(out_path)
	var probe := Probe.new()
	probe.name = "FrameProbe"
	probe.bench = self
	probe.process_physics_priority = -1000000
	root.add_child(probe)
	var t := Time.get_ticks_usec()
	_setup()
	print("%s: %d agents set up in %.0f ms; warm-up %d frames, measuring %d" % [
			_bench_name(), agents, (Time.get_ticks_usec() - t) / 1000.0, warmup, frames])
	_started_usec = Time.get_ticks_usec()


## Overridden: builds the scene under root.
func _setup() -> void:
	pass


## Overridden: the bench's name in the JSON.
func _bench_name() -> String:
	return "bench"


## Overridden: the last simulation step in ms as the system under test reports it, or -1.
func _step_ms() -> float:
	return -1.0


## Overridden: the last visual sync in ms as the system under test reports it, or -1.
func _sync_ms() -> float:
	return -1.0


## Where the shared target is at physics frame f (both scenes use the same path).
func target_position(f: int) -> Vector3:
	var a := f / 60.0 * TARGET_ORBIT_SPEED
	return Vector3(cos(a), 0, sin(a)) * TARGET_ORBIT_RADIUS


## Agent i of n in a disc around the target's start, about 1.5 m² per agent (deterministic).
func disc_position(i: int, n: int) -> Vector3:
	var radius := sqrt(n * 1.5 / PI)
	# Sunflower (Vogel) spiral: even density without randomness.
	var r := radius * sqrt((i + 0.5) / n)
	var a := i * 2.399963229728653
	return target_position(0) + Vector3(cos(a) * r, 0, sin(a) * r)


func _on_frame_start() -> void:
	var now := Time.get_ticks_usec()
	if frame > warmup and frame <= warmup + frames:
		# Interval of the previous iteration (frame - 1 -> frame).
		_samples.append((now - _last_usec) / 1000.0)
		var s := _step_ms()
		if s >= 0.0:
			_step_samples.append(s)
		var v := _sync_ms()
		if v >= 0.0:
			_sync_samples.append(v)
		if print_series and _samples.size() % 60 == 0:
			print("frame %d: median %.2f ms over the last 60 frames, step %.2f ms" % [
					frame, _percentile(_samples.slice(-60), 0.5), s])
	_last_usec = now
	frame += 1
	if frame > warmup + frames and not _finished:
		_finish()


func _percentile(values: PackedFloat64Array, p: float) -> float:
	if values.is_empty():
		return 0.0
	var v := values.duplicate()
	v.sort()
	return v[clampi(int(ceil(p * v.size())) - 1, 0, v.size() - 1)]


func _finish() -> void:
	_finished = true
	var mean := 0.0
	var worst := 0.0
	for s in _samples:
		mean += s
		worst = maxf(worst, s)
	mean /= maxi(1, _samples.size())
	var result := {
		"bench": _bench_name(),
		"agents": agents,
		"frames": _samples.size(),
		"warmup": warmup,
		"median_ms": snappedf(_percentile(_samples, 0.5), 0.001),
		"p95_ms": snappedf(_percentile(_samples, 0.95), 0.001),
		"mean_ms": snappedf(mean, 0.001),
		"max_ms": snappedf(worst, 0.001),
		"step_ms_median": snappedf(_percentile(_step_samples, 0.5), 0.001) if not _step_samples.is_empty() else null,
		"sync_ms_median": snappedf(_percentile(_sync_samples, 0.5), 0.001) if not _sync_samples.is_empty() else null,
		"wall_s": snappedf((Time.get_ticks_usec() - _started_usec) / 1e6, 0.01),
	}
	_report(result)
	var text := JSON.stringify(result, "  ")
	print(text)
	if not write_output(out_path, text):
		quit(1)
		return
	quit(0)


## Writes a bench's result `text` to `path` (nothing when `path` is empty); false, with an
## error, when the file cannot be written. Every bench script reports through this.
static func write_output(path: String, text: String) -> bool:
	if path.is_empty():
		return true
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		push_error("cannot write %s: %s" % [path, error_string(FileAccess.get_open_error())])
		return false
	f.store_string(text + "\n")
	f.close()
	return true


## Overridden: extra checks printed at the end (e.g. that agents moved).
func _report(_result: Dictionary) -> void:
	pass
