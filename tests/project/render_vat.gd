# Renders an animated horde twice, a short time apart, with a fixed camera, and checks that the
# pictures differ where agents walk and much less where they stand. Run by tests/render_vat.sh
# under a virtual X server (it needs a real renderer, not --headless):
#   godot --fixed-fps 60 --path tests/project -s res://render_vat.gd -- [--out=DIR] [--agents=N]
# The upper half of the view holds agents that chase a target far to the right (walk clip), the
# lower half agents of another manager with no target (idle clip). Both are the code-built
# character (res://vat/vat_character.gd) baked through the addon's VAT baker.
# Prints "RENDER_VAT: PASS" or "RENDER_VAT: FAIL <why>" and quits 0 or 1. With --out, saves
# a.png and b.png (the two frames) there.
extends SceneTree

const VatCharacter = preload("res://vat/vat_character.gd")
## Physics frames before the first picture, and between the two.
const WARMUP := 40
const APART := 9
## A pixel counts as changed when a colour channel moved by more than this.
const CHANGED := 0.08

var _out := ""
var _agents := 40


func _initialize() -> void:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--out="):
			_out = a.trim_prefix("--out=")
		elif a.begins_with("--agents="):
			_agents = maxi(2, int(a.trim_prefix("--agents=")))
	_run.call_deferred()


func _run() -> void:
	var t0 := Time.get_ticks_msec()
	var vat := VatCharacter.bake_vat()
	var bake_ms := Time.get_ticks_msec() - t0
	if vat == null:
		_finish(false, "the bake failed")
		return
	var world := Node3D.new()
	root.add_child(world)
	_stage(world)
	var arch := SwarmAgentArchetype.new()
	arch.vertex_animation = vat
	var still := SwarmBehaviorProfile.new()
	still.use_idle_motion = false
	arch.behavior_profile = still
	var walking := SwarmManager.new()
	walking.name = "Walking"
	world.add_child(walking)
	var target := SwarmTarget.new()
	walking.add_child(target)
	target.global_position = Vector3(300, 0, -3.5)
	var standing := SwarmManager.new()
	standing.name = "Standing"
	world.add_child(standing)
	# Rows of agents: walkers at z -6..-1.5 starting on the left, standers at z 2..6.
	var per_row := maxi(1, _agents / 8)
	for i in _agents / 2:
		var x := -9.0 + (i % per_row) * 1.6
		var r := i / per_row
		walking.spawn_agent(arch, Vector3(x, 0, -6.0 + r * 1.5))
		standing.spawn_agent(arch, Vector3(-6.0 + (i % per_row) * 1.6, 0, 2.0 + r * 1.4))
	await _physics(WARMUP)
	var a := await _capture()
	await _physics(APART)
	var b := await _capture()
	if not _out.is_empty():
		DirAccess.make_dir_recursive_absolute(_out)
		a.save_png(_out.path_join("a.png"))
		b.save_png(_out.path_join("b.png"))
	var h := a.get_height()
	var upper := _changed(a, b, 0, h / 2)
	var lower := _changed(a, b, h / 2, h)
	print("RENDER_VAT: bake %d ms, %d agents, %dx%d, changed pixels: walking half %.2f%%, standing half %.2f%%" % [
			bake_ms, _agents, a.get_width(), h, upper * 100.0, lower * 100.0])
	if upper < 0.01:
		_finish(false, "the walking agents barely changed (%.3f%%)" % [upper * 100.0])
	elif lower * 5.0 > upper:
		_finish(false, "the standing agents changed too much (%.3f%% against %.3f%%)" % [lower * 100.0, upper * 100.0])
	else:
		_finish(true, "")


## Light, ground and a fixed camera over both groups.
func _stage(world: Node3D) -> void:
	var env := WorldEnvironment.new()
	env.environment = Environment.new()
	env.environment.background_mode = Environment.BG_COLOR
	env.environment.background_color = Color(0.55, 0.62, 0.7)
	env.environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	env.environment.ambient_light_color = Color(0.6, 0.62, 0.68)
	env.environment.ambient_light_energy = 0.7
	world.add_child(env)
	var sun := DirectionalLight3D.new()
	sun.rotation_degrees = Vector3(-55, -30, 0)
	world.add_child(sun)
	var ground := MeshInstance3D.new()
	var plane := PlaneMesh.new()
	plane.size = Vector2(80, 80)
	var mat := StandardMaterial3D.new()
	mat.albedo_color = Color(0.36, 0.4, 0.3)
	plane.material = mat
	ground.mesh = plane
	world.add_child(ground)
	var cam := Camera3D.new()
	cam.fov = 50.0
	world.add_child(cam)
	cam.global_position = Vector3(0, 9, 13)
	cam.look_at(Vector3(0, 0, 0.5))


func _physics(n: int) -> void:
	for i in n:
		await physics_frame
	await process_frame


func _capture() -> Image:
	await RenderingServer.frame_post_draw
	return root.get_texture().get_image()


## Share of pixels in rows [y0, y1) whose colour changed between `a` and `b`.
func _changed(a: Image, b: Image, y0: int, y1: int) -> float:
	var n := 0
	var w := a.get_width()
	for y in range(y0, y1):
		for x in w:
			var p := a.get_pixel(x, y)
			var q := b.get_pixel(x, y)
			if maxf(absf(p.r - q.r), maxf(absf(p.g - q.g), absf(p.b - q.b))) > CHANGED:
				n += 1
	return float(n) / maxf(1.0, (y1 - y0) * w)


func _finish(ok: bool, why: String) -> void:
	print("RENDER_VAT: PASS" if ok else "RENDER_VAT: FAIL " + why)
	quit(0 if ok else 1)
