extends RefCounted
## Code the demos share: their command-line options, the keyboard direction that moves the
## player or target, the level's boxes and materials, and the --screenshot capture.


## Bakes `manager`'s surface flow field from the level already built and turns it on. Waits two
## physics frames first: the static level must be in the physics space before the bake reads it.
## `demo` names the demo in the error if the bake fails.
static func bake_and_enable_flow_field(manager: SwarmManager, demo: String) -> void:
	await manager.get_tree().physics_frame
	await manager.get_tree().physics_frame
	var err := manager.bake_flow_field()
	if err != OK:
		push_error("%s: bake_flow_field failed (%d)" % [demo, err])
	manager.surface_flow_field_enabled = true


## A plain material of colour `c`.
static func material(c: Color, rough := 0.9) -> StandardMaterial3D:
	var m := StandardMaterial3D.new()
	m.albedo_color = c
	m.roughness = rough
	return m


## A StaticBody3D box (layer 1, so the flow field bakes it) with a matching mesh, under `parent`.
static func box(parent: Node, center: Vector3, size: Vector3, mat: Material) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = size
	shape.shape = b
	body.add_child(shape)
	var mesh := MeshInstance3D.new()
	var bm := BoxMesh.new()
	bm.size = size
	bm.material = mat
	mesh.mesh = bm
	body.add_child(mesh)
	parent.add_child(body)
	body.position = center
	return body


## Ground-plane direction from WASD / arrow keys (-Z up the screen), not normalised; zero when no
## key is held.
static func keyboard_direction() -> Vector3:
	var input := Vector3.ZERO
	if Input.is_physical_key_pressed(KEY_W) or Input.is_physical_key_pressed(KEY_UP):
		input.z -= 1
	if Input.is_physical_key_pressed(KEY_S) or Input.is_physical_key_pressed(KEY_DOWN):
		input.z += 1
	if Input.is_physical_key_pressed(KEY_A) or Input.is_physical_key_pressed(KEY_LEFT):
		input.x -= 1
	if Input.is_physical_key_pressed(KEY_D) or Input.is_physical_key_pressed(KEY_RIGHT):
		input.x += 1
	return input


## Once the latest frame is drawn, saves what the viewport shows as a PNG (scaled to `width`
## when it is above 0). A relative path is taken from the directory Godot was started in. Returns
## the path written, or "" after an error.
static func capture(viewport: Viewport, path: String, width: int) -> String:
	# Let the frame with the latest transforms and labels be drawn, then read it back.
	await RenderingServer.frame_post_draw
	await RenderingServer.frame_post_draw
	var image := viewport.get_texture().get_image()
	image.convert(Image.FORMAT_RGB8)
	if width > 0 and width != image.get_width():
		var h := roundi(float(image.get_height()) * width / image.get_width())
		image.resize(width, h, Image.INTERPOLATE_LANCZOS)
	if not path.is_absolute_path() and not path.begins_with("res://") and not path.begins_with("user://"):
		path = OS.get_environment("PWD").path_join(path)
	var err := image.save_png(path)
	if err != OK:
		push_error("screenshot: cannot save %s (error %d)" % [path, err])
		return ""
	return path


## Captures what `node`'s viewport shows (see `capture`), prints where it went and quits: code 0
## when saved, 1 after an error. `after` gives the "(after ...)" text, read once the picture is
## taken.
static func capture_and_quit(node: Node, path: String, width: int, after: Callable) -> void:
	var saved := await capture(node.get_viewport(), path, width)
	if saved.is_empty():
		node.get_tree().quit(1)
		return
	print("screenshot saved: %s (after %s)" % [saved, after.call()])
	node.get_tree().quit(0)


## The demo's command-line options (after `--`): `--name=value`, or `--name` alone for a flag.
## Returns `defaults` with each option given replaced, converted to the type of its default (a
## whole number is clamped to at least `minimum[name]`, else 0; a flag becomes true). Unknown
## options are ignored. Headless with neither --frames nor --screenshot, "frames" becomes 600 so
## the demo ends on its own.
static func run_args(defaults: Dictionary, minimum: Dictionary = {}) -> Dictionary:
	var out := defaults.duplicate()
	for arg in OS.get_cmdline_user_args():
		if not arg.begins_with("--"):
			continue
		var name := arg.substr(2).get_slice("=", 0)
		if not out.has(name):
			continue
		var value := arg.get_slice("=", 1) if "=" in arg else ""
		match typeof(defaults[name]):
			TYPE_INT:
				out[name] = maxi(minimum.get(name, 0), value.to_int())
			TYPE_BOOL:
				out[name] = true
			_:
				out[name] = value
	if out.get("frames", 0) < 0 and out.get("screenshot", "").is_empty() and DisplayServer.get_name() == "headless":
		out["frames"] = 600
	return out


## A sky, ambient light and sun under `parent` (the outdoor look the demos share); `horizon` is
## the sky's horizon colour, `fog_density` 0 for none, `filmic` the filmic tone mapper.
static func add_outdoor_environment(parent: Node, horizon: Color, fog_density: float = 0.0, filmic: bool = false, sun_rotation: Vector3 = Vector3(-55, -30, 0), sun_energy: float = 1.0) -> void:
	var sky_mat := ProceduralSkyMaterial.new()
	sky_mat.sky_top_color = Color(0.32, 0.45, 0.66)
	sky_mat.sky_horizon_color = horizon
	var sky := Sky.new()
	sky.sky_material = sky_mat
	var env := Environment.new()
	env.background_mode = Environment.BG_SKY
	env.sky = sky
	env.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	env.ambient_light_color = Color(0.55, 0.6, 0.7)
	env.ambient_light_energy = 0.6
	if filmic:
		env.tonemap_mode = Environment.TONE_MAPPER_FILMIC
	if fog_density > 0.0:
		env.fog_enabled = true
		env.fog_density = fog_density
	var we := WorldEnvironment.new()
	we.environment = env
	parent.add_child(we)
	var sun := DirectionalLight3D.new()
	sun.rotation_degrees = sun_rotation
	sun.shadow_enabled = true
	sun.light_energy = sun_energy
	parent.add_child(sun)
