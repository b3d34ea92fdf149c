# Runs one engine test:  godot --headless --path tests/project -s res://runner.gd -- <test_name>
# Loads res://tests/<test_name>.gd (extends res://test_base.gd), adds it to the root, awaits its
# `run() -> bool`, prints PASS/FAIL and quits with 0 (pass) or 1 (fail).
# A GDScript runtime error (which would leave an awaiting coroutine hanging) ends the run at once.
extends SceneTree

const WATCHDOG_S := 100.0  # real seconds; the shell script's timeout is the hard limit

class ScriptErrorWatch extends Logger:
	var script_errors := 0
	func _log_error(_function: String, _file: String, _line: int, _code: String, _rationale: String,
			_editor_notify: bool, error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
		if error_type == ERROR_TYPE_SCRIPT:
			script_errors += 1

var _watch := ScriptErrorWatch.new()
var _started_ms := 0
var _finished := false
var _test_name := ""


func _initialize() -> void:
	OS.add_logger(_watch)
	_started_ms = Time.get_ticks_msec()
	_main.call_deferred()


func _process(_delta: float) -> bool:
	if _finished:
		return false
	if _watch.script_errors > 0:
		_finish(false, "GDScript error (see log above)")
	elif (Time.get_ticks_msec() - _started_ms) / 1000.0 > WATCHDOG_S:
		_finish(false, "watchdog: still running after %d s" % int(WATCHDOG_S))
	return false


func _main() -> void:
	var args := OS.get_cmdline_user_args()
	if args.is_empty():
		_finish(false, "usage: -s res://runner.gd -- <test_name>")
		return
	_test_name = args[0]
	var path := "res://tests/%s.gd" % _test_name
	if not ResourceLoader.exists(path):
		_finish(false, "no such test script " + path)
		return
	var script: Script = load(path)
	if script == null or not script.can_instantiate():
		_finish(false, "cannot load " + path)
		return
	var test: Node = script.new()
	test.name = _test_name
	root.add_child(test)
	var ok = await test.run()
	if _finished:
		return
	var failures: PackedStringArray = test.failures
	if ok != true and failures.is_empty():
		failures.append("run() returned %s" % str(ok))
	# Tear the test scene down before quitting so that nothing leaks at exit.
	test.queue_free()
	await process_frame
	await process_frame
	_finish(failures.is_empty(), "; ".join(failures))


func _finish(ok: bool, why: String) -> void:
	if _finished:
		return
	_finished = true
	if ok:
		print("RUNNER: PASS %s" % _test_name)
	else:
		print("RUNNER: FAIL %s: %s" % [_test_name, why])
	OS.remove_logger(_watch)
	quit(0 if ok else 1)
