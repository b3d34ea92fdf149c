extends RefCounted
## Code the demos share: the keyboard direction that moves the player or target, and the
## --screenshot capture.


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
