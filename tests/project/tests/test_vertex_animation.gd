# Vertex animation: the VAT baker bakes the code-built character (res://vat/vat_character.gd)
# into a SwarmVertexAnimation with the expected clip table, texture sizes and format, and skins
# it right (a walking foot is where the leg's rotation puts it); an archetype with it is drawn with
# the addon's VAT shader and its own rest mesh, and each instance's INSTANCE_CUSTOM.w holds the
# clip the agent plays: walk (advancing with distance) while it chases, idle while it stands,
# swing while its swing winds up, death on its corpse. Archetypes without one keep w = 0, and
# an archetype's own material override wins over the VAT shader.
extends "res://test_base.gd"

const VatCharacter = preload("res://vat/vat_character.gd")
const FLOATS := 16  # transform 12 + custom 4 per instance


func run() -> bool:
	var vat := VatCharacter.bake_vat()
	if not check(vat != null, "the bake returned null"):
		return false
	_check_bake(vat)
	await _check_clips(vat)
	await _check_swing_and_death(vat)
	await _check_materials(vat)
	return passed()


func _check_bake(vat: SwarmVertexAnimation) -> void:
	check_eq(vat.vertex_count, 7 * 24, "vertex_count (seven boxes of 24 vertices)")
	check_eq(vat.clip_names, PackedStringArray(["idle", "walk", "swing", "death"]), "clip_names")
	# idle 2 s looping: 60 frames; walk 1 s looping: 30; swing 0.65 s once: 19 (0.65 * 30 rounds
	# down in floats) + 1; death 1 s: 30 + 1.
	check_eq(vat.clip_ranges, PackedInt32Array([0, 60, 60, 30, 90, 20, 110, 31]), "clip_ranges")
	check_eq(vat.frame_count, 141, "frame_count")
	check_eq(vat.clip_rates, PackedFloat32Array([30, 30, 30, 30]), "clip_rates")
	check(is_equal_approx(vat.get_clip_length("walk"), 1.0), "walk clip length %f" % vat.get_clip_length("walk"))
	check_eq(vat.get_clip_index("death"), 3, "get_clip_index(death)")
	check_eq(vat.get_clip_index("nope"), -1, "get_clip_index of a missing clip")
	check_eq(vat.get_problems(), PackedStringArray(), "get_problems of a fresh bake")
	check_eq(SwarmVertexAnimation.new().get_problems().size() > 0, true, "an empty resource reports problems")
	var img := vat.positions.get_image()
	check_eq(Vector2i(img.get_width(), img.get_height()), Vector2i(168, 141), "positions texture size")
	check_eq(img.get_format(), Image.FORMAT_RGBAH, "positions format")
	check_eq(vat.normals.get_image().get_size(), img.get_size(), "normals texture size")
	# The rest mesh: one surface, the same vertices, no bones.
	var mesh := vat.mesh as ArrayMesh
	if check(mesh != null and mesh.get_surface_count() == 1, "the rest mesh has one surface"):
		var arrays := mesh.surface_get_arrays(0)
		check_eq((arrays[Mesh.ARRAY_VERTEX] as PackedVector3Array).size(), 168, "rest mesh vertices")
		check(arrays[Mesh.ARRAY_BONES] == null, "the rest mesh has no bones")
	# Walk frame 0: the left leg (vertices 0..23) swings 30 degrees forward about its hip joint,
	# which the hips have lowered to 0.85 m. A foot vertex (rest y = 0, z = 0 side) lands at
	# y = 0.85 - 0.9 cos 30, z = -0.9 sin 30 (forward is -Z).
	var rest: PackedVector3Array = mesh.surface_get_arrays(0)[Mesh.ARRAY_VERTEX]
	var foot := -1
	for v in 24:
		if is_zero_approx(rest[v].y) and is_equal_approx(rest[v].z, 0.09):
			foot = v
			break
	if check(foot >= 0, "a foot vertex of the left leg"):
		var p := img.get_pixel(foot, 60)
		var a := deg_to_rad(30.0)
		var want := Vector3(rest[foot].x, 0.85 - 0.9 * cos(a) - 0.09 * sin(a), -0.9 * sin(a) + 0.09 * cos(a))
		check(Vector3(p.r, p.g, p.b).distance_to(want) < 0.01,
				"walk frame 0 foot at %s, expected %s" % [Vector3(p.r, p.g, p.b), want])
		var idle := img.get_pixel(foot, 0)
		check(Vector3(idle.r, idle.g, idle.b).distance_to(rest[foot]) < 0.01, "idle frame 0 keeps the foot at rest")


## Two managers: one whose agents chase a far target (walk), one with no target (stand).
func _check_clips(vat: SwarmVertexAnimation) -> void:
	var walking := make_manager("Walking")
	var standing := make_manager("Standing")
	var target := SwarmTarget.new()
	walking.add_child(target)
	target.global_position = Vector3(200, 0, 0)
	var still := SwarmBehaviorProfile.new()
	still.use_idle_motion = false
	var arch := SwarmAgentArchetype.new()
	arch.vertex_animation = vat
	arch.behavior_profile = still
	var plain := make_archetype()
	plain.behavior_profile = still
	for i in 10:
		walking.spawn_agent(arch, Vector3(0, 0, i * 2.0))
		standing.spawn_agent(arch, Vector3(-40, 0, i * 2.0))
		standing.spawn_agent(plain, Vector3(-60, 0, i * 2.0))
	await physics_frames(30)
	var wm := walking.get_archetype_multimesh(arch)
	var sm := standing.get_archetype_multimesh(arch)
	if not check(wm != null and sm != null, "both managers draw the VAT archetype"):
		return
	check(wm.mesh == vat.mesh, "the VAT archetype draws the rest mesh of its vertex animation")
	var walk_w := _channel(wm)
	var stand_w := _channel(sm)
	check(walk_w.all(func(w: float) -> bool: return floorf(w) == 1.0), "chasing agents play the walk clip: %s" % [walk_w])
	check(stand_w.all(func(w: float) -> bool: return floorf(w) == 0.0), "standing agents play the idle clip: %s" % [stand_w])
	var phases := {}
	for w in walk_w:
		phases[snappedf(fposmod(w, 1.0), 0.01)] = true
	check(phases.size() >= 5, "walk phases differ between agents (seed offsets): %s" % [walk_w])
	check(_channel(standing.get_archetype_multimesh(plain)).all(func(w: float) -> bool: return w == 0.0),
			"an archetype without vertex animation keeps w = 0")
	# The walk advances with distance: 1.8 m per cycle (compared modulo whole cycles). (Measured
	# over 32 frames, whole turns of far agents: 200 m from their target, far beyond the mid band,
	# they move once every eight times cheap_update_interval (4) frames, the walk playing on at
	# their pace in between.)
	var id: int = walking.get_agent_ids()[0]
	var before := walking.get_agent_position(id)
	var w0 := _agent_channel(walking, wm, id)
	await physics_frames(32)
	var moved := walking.get_agent_position(id).distance_to(before)
	var advanced := fposmod(_agent_channel(walking, wm, id) - w0, 1.0)
	var off := fposmod(advanced - moved / VatCharacter.WALK_STRIDE + 0.5, 1.0) - 0.5
	check(moved > 0.05 and absf(off) < 0.05,
			"walk phase advanced %f for %f m (stride %f)" % [advanced, moved, VatCharacter.WALK_STRIDE])
	walking.queue_free()
	standing.queue_free()
	await physics_frames(1)


## A target in reach: the agents swing (w in 2..3); a killed agent's corpse plays death (3..4).
func _check_swing_and_death(vat: SwarmVertexAnimation) -> void:
	var m := make_manager("Fight")
	var target := SwarmTarget.new()
	m.add_child(target)
	target.global_position = Vector3(0, 0, 0)
	var arch := SwarmAgentArchetype.new()
	arch.vertex_animation = vat
	arch.attack_profile = SwarmAttackProfile.new()
	var ids: Array[int] = []
	for i in 6:
		ids.append(m.spawn_agent(arch, Vector3(cos(i * TAU / 6.0), 0, sin(i * TAU / 6.0)) * 1.2))
	var swung := false
	for f in 40:
		await physics_frames(1)
		var mm := m.get_archetype_multimesh(arch)
		if mm != null and _channel(mm).any(func(w: float) -> bool: return floorf(w) == 2.0):
			swung = true
			break
	check(swung, "agents in reach of the target play the swing clip")
	m.damage_agent(ids[0], 1e6, {})
	await physics_frames(2)
	var mm := m.get_archetype_multimesh(arch)
	var w := _channel(mm)
	check_eq(w.size(), 6, "five live agents and one corpse are drawn")
	check(floorf(w[w.size() - 1]) == 3.0, "the corpse plays the death clip: %s" % [w])
	# The corpse stays for the death clip (1 s) and its sink (0.5 s).
	await physics_frames(60)
	check_eq(m.get_archetype_multimesh(arch).instance_count, 6, "the corpse is still drawn after 1 s")
	await physics_frames(40)
	check_eq(m.get_archetype_multimesh(arch).instance_count, 5, "the corpse is gone after 1.6 s")
	m.queue_free()
	await physics_frames(1)


func _check_materials(vat: SwarmVertexAnimation) -> void:
	var m := make_manager("Materials")
	var arch := SwarmAgentArchetype.new()
	arch.vertex_animation = vat
	m.spawn_agent(arch, Vector3.ZERO)
	await physics_frames(1)
	var shown := _visual_of(m).material_override as ShaderMaterial
	if check(shown != null, "a VAT archetype is drawn with a ShaderMaterial"):
		check(shown.shader.code.contains("VERTEX_ID"), "the material uses the addon's VAT shader")
		check(shown.get_shader_parameter("vat_positions") == vat.positions, "the positions texture is a shader parameter")
		check_eq(shown.get_shader_parameter("clip_walk"), Vector2i(60, 30), "the walk clip's frames are a shader parameter")
	# The archetype's own material wins; the VAT material comes back without it.
	var own := StandardMaterial3D.new()
	arch.material_override = own
	await physics_frames(1)
	check(_visual_of(m).material_override == own, "the archetype's material_override replaces the VAT shader")
	arch.material_override = null
	await physics_frames(1)
	check(_visual_of(m).material_override is ShaderMaterial, "without an override the VAT shader is back")
	# Edits of the vertex animation reach the material.
	vat.walk_clip = "idle"
	await physics_frames(1)
	check_eq((_visual_of(m).material_override as ShaderMaterial).get_shader_parameter("clip_walk"), Vector2i(0, 60),
			"a renamed walk clip reaches the shader")
	vat.walk_clip = "walk"
	m.queue_free()


func _visual_of(m: SwarmManager) -> MultiMeshInstance3D:
	for c in m.get_children(true):
		if c is MultiMeshInstance3D:
			return c
	return null


## INSTANCE_CUSTOM.w of every instance.
func _channel(mm: MultiMesh) -> Array:
	var out := []
	var b := mm.buffer
	for i in mm.instance_count:
		out.append(b[i * FLOATS + 15])
	return out


## INSTANCE_CUSTOM.w of the instance standing where agent `id` is.
func _agent_channel(m: SwarmManager, mm: MultiMesh, id: int) -> float:
	var p := m.get_agent_position(id)
	var b := mm.buffer
	for i in mm.instance_count:
		if Vector2(b[i * FLOATS + 3] - p.x, b[i * FLOATS + 11] - p.z).length() < 1e-3:
			return b[i * FLOATS + 15]
	return -1.0
