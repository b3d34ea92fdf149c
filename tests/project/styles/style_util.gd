# Helpers of the horde-style engine tests (tests/test_style_*.gd). The styles are copies of the
# demo's resources in godot_project/demo/styles/ (this project cannot load files of another
# project through res://); check_in_sync() fails a test when a copy differs from its original.
extends RefCounted

const DEMO_STYLES := "../../godot_project/demo/styles"


## Loads res://styles/<file_name>.tres as an archetype.
static func load_style(file_name: String) -> SwarmAgentArchetype:
	return load("res://styles/%s.tres" % file_name) as SwarmAgentArchetype


## "" when res://styles/<file_name>.tres has the same text as the demo's copy (or the demo project
## is not next to this one), else what differs.
static func sync_problem(file_name: String) -> String:
	var mine := "res://styles/%s.tres" % file_name
	var theirs := ProjectSettings.globalize_path("res://").path_join(DEMO_STYLES).path_join(file_name + ".tres").simplify_path()
	if not FileAccess.file_exists(theirs):
		print("style %s: %s not found, sync not checked" % [file_name, theirs])
		return ""
	if FileAccess.get_file_as_string(mine) != FileAccess.get_file_as_string(theirs):
		return "tests/project/styles/%s.tres differs from %s: copy the demo's style over" % [file_name, theirs]
	return ""


## Angle of `p` around `c` in the ground plane.
static func bearing(c: Vector3, p: Vector3) -> float:
	return atan2(p.z - c.z, p.x - c.x)


## Ground-plane distance.
static func flat_distance(a: Vector3, b: Vector3) -> float:
	return Vector2(a.x - b.x, a.z - b.z).length()


## `count` spawn points on a square grid `spacing` apart centred on `center`, each moved by up to
## `jitter` metres (seeded). Points at least spacing - 2 * jitter apart do not start overlapped:
## agents spawned on top of each other are pushed apart by body blocking hard enough to fly off.
static func grid_points(center: Vector3, count: int, spacing: float, jitter: float, seed: int) -> Array[Vector3]:
	var rng := RandomNumberGenerator.new()
	rng.seed = seed
	var side := int(ceil(sqrt(count)))
	var origin := center - Vector3(side - 1, 0, side - 1) * spacing * 0.5
	var out: Array[Vector3] = []
	for i in count:
		var p := origin + Vector3(i % side, 0, i / side) * spacing
		out.append(p + Vector3(rng.randf_range(-jitter, jitter), 0, rng.randf_range(-jitter, jitter)))
	return out
