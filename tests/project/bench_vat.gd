# Frame time of vertex-animated agents against the same rest mesh with a StandardMaterial3D (no
# animation), under the renderer in use (Mesa llvmpipe under Xvfb here: a CPU rasterizer, so the
# figures only compare the two). Not a test:
#   godot --rendering-driver opengl3 --rendering-method gl_compatibility --fixed-fps 60 \
#     --path tests/project -s res://bench_vat.gd -- [--agents=N] [--frames=N]
# Prints "BENCH_VAT: <mode> <agents> agents: <mean> ms per frame" for each mode.
extends SceneTree

const VatCharacter = preload("res://vat/vat_character.gd")

var _agents := 3000
var _frames := 60


func _initialize() -> void:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--agents="):
			_agents = int(a.trim_prefix("--agents="))
		elif a.begins_with("--frames="):
			_frames = int(a.trim_prefix("--frames="))
	_run.call_deferred()


func _run() -> void:
	var vat := VatCharacter.bake_vat()
	var cam := Camera3D.new()
	root.add_child(cam)
	cam.global_position = Vector3(0, 30, 40)
	cam.look_at(Vector3.ZERO)
	var sun := DirectionalLight3D.new()
	sun.rotation_degrees = Vector3(-55, -30, 0)
	root.add_child(sun)
	for mode in ["vat", "plain", "vat"]:
		var arch := SwarmAgentArchetype.new()
		arch.vertex_animation = vat
		if mode == "plain":
			arch.mesh = vat.mesh
			arch.material_override = StandardMaterial3D.new()
		var m := SwarmManager.new()
		root.add_child(m)
		var side := int(ceil(sqrt(_agents)))
		for i in _agents:
			m.spawn_agent(arch, Vector3((i % side - side / 2) * 0.9, 0, (i / side - side / 2) * 0.9))
		for i in 20:
			await process_frame
		var t0 := Time.get_ticks_usec()
		for i in _frames:
			await RenderingServer.frame_post_draw
		var ms := (Time.get_ticks_usec() - t0) / 1000.0 / _frames
		print("BENCH_VAT: %s %d agents: %.1f ms per frame" % [mode, _agents, ms])
		m.free()
	quit()
