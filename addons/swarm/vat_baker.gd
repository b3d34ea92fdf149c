@tool
extends RefCounted
## Bakes a SwarmVertexAnimation from a skinned character: a MeshInstance3D skinned to a
## Skeleton3D, and an AnimationPlayer whose animations move the skeleton's bones (position,
## rotation and scale tracks, as glTF imports make them).
##
## Every chosen animation is sampled at `fps`; at each sample the bones are posed from the
## animation's tracks and the mesh is skinned on the CPU (linear blend skinning: each vertex is
## moved by its bones' global poses times their inverse bind poses from the Skin, weighted).
## The posed positions and normals go into two float textures, one row per frame and one texel per
## vertex, and all surfaces of the mesh are merged into one rest mesh (without bones) whose vertex
## order is the textures' column order, so the VAT shader can find each vertex by VERTEX_ID. The
## vertex colours are copied into CUSTOM0 (RGBA float), where the VAT shader reads them.
##
## From code:
##   const VatBaker = preload("res://addons/swarm/vat_baker.gd")
##   var vat: SwarmVertexAnimation = VatBaker.bake(character_root, {"walk_stride": 1.8})
## From the editor: Project > Tools > Bake Swarm Vertex Animation... bakes the open scene (see
## plugin.gd), with a progress bar.
##
## Options (all optional):
##   animations: PackedStringArray  names to bake (default: every animation but RESET)
##   fps: float                     samples per second (default 30)
##   walk_stride: float             metres walked per cycle of the walk clip (default 1.4)
##   half_floats: bool              RGBAH textures (default true); false: RGBAF
##   albedo_color: Color            the VAT shader's colour (default light grey)

## Vertices per row at most (a texture's width limit).
const MAX_VERTICES := 16384


## Bakes `root` (a character scene, in the tree or not) in one go. Returns null and pushes an
## error when it cannot.
static func bake(root: Node, options: Dictionary = {}, progress: Callable = Callable()) -> SwarmVertexAnimation:
	var job := Job.new()
	if not job.start(root, options):
		return null
	while job.step():
		if progress.is_valid():
			progress.call(job.progress(), job.current_clip())
	if progress.is_valid():
		progress.call(1.0, "")
	return job.finish()


## One bake, a clip per `step()`, so an editor can show progress between clips.
class Job:
	var error := ""
	var _skeleton: Skeleton3D
	var _mesh_instance: MeshInstance3D
	var _player: AnimationPlayer
	var _names: PackedStringArray = []
	var _fps := 30.0
	var _options := {}
	var _next := 0
	# Merged rest mesh.
	var _rest := []  # Mesh.ARRAY_MAX arrays of the rest mesh
	var _bones := PackedInt32Array()
	var _weights := PackedFloat32Array()
	var _per_vertex := 4  # bone influences per vertex
	var _count := 0  # vertices
	# Bind index -> skeleton bone, and bind poses.
	var _bind_bone := PackedInt32Array()
	var _bind_pose: Array[Transform3D] = []
	var _skeleton_to_mesh := Transform3D.IDENTITY
	# Baked rows.
	var _positions := PackedVector3Array()
	var _normals := PackedVector3Array()
	var _ranges := PackedInt32Array()
	var _rates := PackedFloat32Array()
	var _frames := 0

	## Finds the skinned mesh, skeleton and player under `root` and prepares the rest mesh.
	func start(root: Node, options: Dictionary) -> bool:
		_options = options
		_fps = maxf(1.0, float(options.get("fps", 30.0)))
		_mesh_instance = _find_skinned(root)
		if _mesh_instance == null:
			return _fail("no MeshInstance3D with a mesh skinned to a Skeleton3D under %s" % root.name)
		_skeleton = _skeleton_of(_mesh_instance, root)
		_player = _find(root, "AnimationPlayer") as AnimationPlayer
		if _player == null:
			return _fail("no AnimationPlayer under %s" % root.name)
		_names = options.get("animations", PackedStringArray())
		if _names.is_empty():
			for n in _player.get_animation_list():
				if n != "RESET":
					_names.append(n)
		for n in _names:
			if not _player.has_animation(n):
				return _fail("the AnimationPlayer has no animation '%s'" % n)
		if _names.is_empty():
			return _fail("the AnimationPlayer has no animations")
		_skeleton_to_mesh = _transform_to(root, _mesh_instance).affine_inverse() * _transform_to(root, _skeleton)
		_merge_surfaces(_mesh_instance.mesh)
		if _count == 0 or _count > MAX_VERTICES:
			return _fail("the mesh has %d vertices (1 to %d can be baked)" % [_count, MAX_VERTICES])
		_read_binds()
		return true

	## Bakes the next clip; false when all are done.
	func step() -> bool:
		if _next >= _names.size():
			return false
		_bake_clip(_player.get_animation(_names[_next]))
		_next += 1
		return _next < _names.size()

	func progress() -> float:
		return float(_next) / maxf(1.0, _names.size())

	func current_clip() -> String:
		return _names[_next] if _next < _names.size() else ""

	## The resource, with its textures, clip table and rest mesh.
	func finish() -> SwarmVertexAnimation:
		while step():
			pass
		var half: bool = _options.get("half_floats", true)
		var format := Image.FORMAT_RGBAH if half else Image.FORMAT_RGBAF
		var vat := SwarmVertexAnimation.new()
		vat.positions = ImageTexture.create_from_image(_image(_positions, format))
		vat.normals = ImageTexture.create_from_image(_image(_normals, format))
		vat.vertex_count = _count
		vat.frame_count = _frames
		vat.clip_names = _names
		vat.clip_ranges = _ranges
		vat.clip_rates = _rates
		vat.walk_stride = float(_options.get("walk_stride", 1.4))
		vat.albedo_color = _options.get("albedo_color", Color(0.8, 0.8, 0.8))
		vat.mesh = _rest_mesh()
		_skeleton.reset_bone_poses()
		return vat

	func _fail(message: String) -> bool:
		error = message
		push_error("vat_baker: " + message)
		return false

	# --- the skinned mesh ---------------------------------------------------------------

	static func _find(root: Node, type: String) -> Node:
		if root.is_class(type):
			return root
		for c in root.get_children():
			var f := _find(c, type)
			if f != null:
				return f
		return null

	func _find_skinned(root: Node) -> MeshInstance3D:
		if root is MeshInstance3D and root.mesh != null and _skeleton_of(root, root) != null:
			var arrays: Array = root.mesh.surface_get_arrays(0)
			if arrays[Mesh.ARRAY_BONES] != null:
				return root
		for c in root.get_children():
			var f := _find_skinned(c)
			if f != null:
				return f
		return null

	## The mesh instance's skeleton (its `skeleton` path, else the first Skeleton3D above it or
	## under `root`).
	static func _skeleton_of(mi: MeshInstance3D, root: Node) -> Skeleton3D:
		if not mi.skeleton.is_empty() and mi.has_node(mi.skeleton):
			var s := mi.get_node(mi.skeleton) as Skeleton3D
			if s != null:
				return s
		var p := mi.get_parent()
		while p != null:
			if p is Skeleton3D:
				return p
			p = p.get_parent()
		return _find(root, "Skeleton3D") as Skeleton3D

	## `node`'s transform relative to `root` (works outside the scene tree).
	static func _transform_to(root: Node, node: Node) -> Transform3D:
		var t := Transform3D.IDENTITY
		var n := node
		while n != null and n != root:
			if n is Node3D:
				t = (n as Node3D).transform * t
			n = n.get_parent()
		return t

	## All surfaces in one: positions, normals, colours, UVs, indices, bones and weights.
	func _merge_surfaces(mesh: Mesh) -> void:
		var verts := PackedVector3Array()
		var norms := PackedVector3Array()
		var colors := PackedColorArray()
		var uvs := PackedVector2Array()
		var indices := PackedInt32Array()
		var first: Array = mesh.surface_get_arrays(0)
		var first_bones = first[Mesh.ARRAY_BONES]
		var first_count: int = (first[Mesh.ARRAY_VERTEX] as PackedVector3Array).size()
		if first_bones != null and first_count > 0 and first_bones.size() >= first_count * 8:
			_per_vertex = 8
		for s in mesh.get_surface_count():
			var a: Array = mesh.surface_get_arrays(s)
			var base := verts.size()
			var v: PackedVector3Array = a[Mesh.ARRAY_VERTEX]
			var n: int = v.size()
			verts.append_array(v)
			norms.append_array(a[Mesh.ARRAY_NORMAL] if a[Mesh.ARRAY_NORMAL] != null else _filled3(n, Vector3.UP))
			colors.append_array(a[Mesh.ARRAY_COLOR] if a[Mesh.ARRAY_COLOR] != null else _filled_color(n))
			uvs.append_array(a[Mesh.ARRAY_TEX_UV] if a[Mesh.ARRAY_TEX_UV] != null else _filled2(n))
			var bones = a[Mesh.ARRAY_BONES]
			var weights = a[Mesh.ARRAY_WEIGHTS]
			if bones == null or weights == null:
				bones = PackedInt32Array()
				bones.resize(n * _per_vertex)
				weights = PackedFloat32Array()
				weights.resize(n * _per_vertex)
				for k in n:
					weights[k * _per_vertex] = 1.0
			_bones.append_array(bones)
			_weights.append_array(weights)
			var idx = a[Mesh.ARRAY_INDEX]
			if idx == null:
				idx = PackedInt32Array(range(n))
			for i in idx:
				indices.append(base + i)
		_count = verts.size()
		_rest.resize(Mesh.ARRAY_MAX)
		_rest[Mesh.ARRAY_VERTEX] = verts
		_rest[Mesh.ARRAY_NORMAL] = norms
		_rest[Mesh.ARRAY_COLOR] = colors
		_rest[Mesh.ARRAY_TEX_UV] = uvs
		_rest[Mesh.ARRAY_INDEX] = indices

	static func _filled3(n: int, v: Vector3) -> PackedVector3Array:
		var a := PackedVector3Array()
		a.resize(n)
		a.fill(v)
		return a

	static func _filled2(n: int) -> PackedVector2Array:
		var a := PackedVector2Array()
		a.resize(n)
		return a

	static func _filled_color(n: int) -> PackedColorArray:
		var a := PackedColorArray()
		a.resize(n)
		a.fill(Color.WHITE)
		return a

	## Bind index -> bone and inverse bind pose: the instance's Skin, else the skeleton's rest.
	func _read_binds() -> void:
		var skin := _mesh_instance.skin
		if skin != null and skin.get_bind_count() > 0:
			for i in skin.get_bind_count():
				var b := skin.get_bind_bone(i)
				if b < 0:
					b = _skeleton.find_bone(skin.get_bind_name(i))
				_bind_bone.append(b)
				_bind_pose.append(skin.get_bind_pose(i))
		else:
			for b in _skeleton.get_bone_count():
				_bind_bone.append(b)
				_bind_pose.append(_skeleton.get_bone_global_rest(b).affine_inverse())

	func _rest_mesh() -> ArrayMesh:
		var m := ArrayMesh.new()
		var arrays := _rest.duplicate()
		var colors: PackedColorArray = _rest[Mesh.ARRAY_COLOR]
		var custom := PackedFloat32Array()
		custom.resize(colors.size() * 4)
		for i in colors.size():
			var c := colors[i]
			custom[i * 4] = c.r
			custom[i * 4 + 1] = c.g
			custom[i * 4 + 2] = c.b
			custom[i * 4 + 3] = c.a
		arrays[Mesh.ARRAY_CUSTOM0] = custom
		m.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays, [], {},
				Mesh.ARRAY_CUSTOM_RGBA_FLOAT << Mesh.ARRAY_FORMAT_CUSTOM0_SHIFT)
		var source := _mesh_instance.mesh
		var material := _mesh_instance.get_active_material(0)
		if material != null:
			m.surface_set_material(0, material)
		m.resource_name = source.resource_name
		return m

	# --- sampling -----------------------------------------------------------------------

	## Samples one clip: looping clips one period without repeating the first frame, others from
	## start to end inclusive.
	func _bake_clip(anim: Animation) -> void:
		var loops := anim.loop_mode != Animation.LOOP_NONE
		var count := maxi(1, roundi(anim.length * _fps))
		if not loops:
			count += 1
		_ranges.append_array([_frames, count])
		_rates.append(_fps)
		for k in count:
			var t := anim.length * k / float(count if loops else maxi(1, count - 1))
			_pose(anim, t)
			_skin_frame()
		_frames += count

	## Poses the skeleton's bones from the animation's 3D tracks at time `t` (rest elsewhere).
	func _pose(anim: Animation, t: float) -> void:
		_skeleton.reset_bone_poses()
		for tr in anim.get_track_count():
			var bone := _skeleton.find_bone(anim.track_get_path(tr).get_concatenated_subnames())
			if bone < 0 or not anim.track_is_enabled(tr) or anim.track_get_key_count(tr) == 0:
				continue
			match anim.track_get_type(tr):
				Animation.TYPE_POSITION_3D:
					_skeleton.set_bone_pose_position(bone, anim.position_track_interpolate(tr, t))
				Animation.TYPE_ROTATION_3D:
					_skeleton.set_bone_pose_rotation(bone, anim.rotation_track_interpolate(tr, t))
				Animation.TYPE_SCALE_3D:
					_skeleton.set_bone_pose_scale(bone, anim.scale_track_interpolate(tr, t))

	## Global bone poses computed from the local poses (no scene-tree update needed).
	func _global_poses() -> Array[Transform3D]:
		var n := _skeleton.get_bone_count()
		var out: Array[Transform3D] = []
		out.resize(n)
		var done := PackedByteArray()
		done.resize(n)
		for b in n:
			_global_of(b, out, done)
		return out

	func _global_of(b: int, out: Array[Transform3D], done: PackedByteArray) -> Transform3D:
		if done[b] == 0:
			var parent := _skeleton.get_bone_parent(b)
			var local := _skeleton.get_bone_pose(b)
			out[b] = local if parent < 0 else _global_of(parent, out, done) * local
			done[b] = 1
		return out[b]

	## One frame of linear blend skinning into the position and normal rows.
	func _skin_frame() -> void:
		var globals := _global_poses()
		var skinning: Array[Transform3D] = []
		for i in _bind_bone.size():
			var b := _bind_bone[i]
			var g := globals[b] if b >= 0 and b < globals.size() else Transform3D.IDENTITY
			skinning.append(_skeleton_to_mesh * g * _bind_pose[i])
		var verts: PackedVector3Array = _rest[Mesh.ARRAY_VERTEX]
		var norms: PackedVector3Array = _rest[Mesh.ARRAY_NORMAL]
		var k := _per_vertex
		for v in _count:
			var p := Vector3.ZERO
			var n := Vector3.ZERO
			var total := 0.0
			for j in k:
				var w := _weights[v * k + j]
				if w <= 0.0:
					continue
				var m := skinning[_bones[v * k + j]]
				p += (m * verts[v]) * w
				n += (m.basis * norms[v]) * w
				total += w
			if total <= 0.0:
				p = verts[v]
				n = norms[v]
			else:
				p /= total
			_positions.append(p)
			_normals.append(n.normalized())

	func _image(rows: PackedVector3Array, format: Image.Format) -> Image:
		var data := PackedFloat32Array()
		data.resize(rows.size() * 4)
		for i in rows.size():
			var p := rows[i]
			data[i * 4] = p.x
			data[i * 4 + 1] = p.y
			data[i * 4 + 2] = p.z
			data[i * 4 + 3] = 1.0
		var img := Image.create_from_data(_count, _frames, false, Image.FORMAT_RGBAF, data.to_byte_array())
		if format != Image.FORMAT_RGBAF:
			img.convert(format)
		return img
