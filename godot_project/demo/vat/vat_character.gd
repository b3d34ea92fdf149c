extends RefCounted
## A small rigged character built in code, for the vertex animation demo and tests: seven boxes
## (legs, pelvis, torso, head, arms) skinned to six bones (hips, torso, two legs, two arms), with
## four animations made of bone tracks: "idle" (breathing sway, looping, 2 s), "walk" (legs and
## arms swinging, hips bobbing, looping, 1 s, about 1.8 m per cycle), "swing" (the right arm
## raised and brought down, 0.65 s: a SwarmAttackProfile's default wind-up plus recovery; 20
## frames at 30 per second) and
## "death" (falls on its back, 1 s). It faces -Z, feet at y = 0, about 1.75 m tall.
##
##   const VatCharacter = preload("res://demo/vat/vat_character.gd")
##   var vat := VatCharacter.bake_vat()        # the baked SwarmVertexAnimation
##   var root := VatCharacter.build()          # the Node3D (Skeleton3D, mesh, AnimationPlayer)

const VatBaker = preload("res://addons/swarm/vat_baker.gd")

## Metres the character walks during one walk cycle (two steps of legs swinging 30 degrees).
const WALK_STRIDE := 1.8
const HIP_HEIGHT := 0.95

const SKIN := Color(0.93, 0.76, 0.62)
const SHIRT := Color(0.8, 0.16, 0.12)
const TROUSERS := Color(0.16, 0.2, 0.38)


## Builds the character and bakes it (every animation at 30 frames per second).
static func bake_vat(fps: float = 30.0) -> SwarmVertexAnimation:
	var root := build()
	var vat := VatBaker.bake(root, {"fps": fps, "walk_stride": WALK_STRIDE, "albedo_color": Color.WHITE,
			"animations": PackedStringArray(["idle", "walk", "swing", "death"])})
	root.free()
	return vat


## The character: Node3D "Character" > Skeleton3D > MeshInstance3D "Body", and an AnimationPlayer.
static func build() -> Node3D:
	var root := Node3D.new()
	root.name = "Character"
	var skeleton := Skeleton3D.new()
	skeleton.name = "Skeleton3D"
	root.add_child(skeleton)
	var hips := _bone(skeleton, "hips", -1, Vector3(0, HIP_HEIGHT, 0))
	var torso := _bone(skeleton, "torso", hips, Vector3(0, 0.05, 0))
	var leg_l := _bone(skeleton, "leg_l", hips, Vector3(-0.12, -0.05, 0))
	var leg_r := _bone(skeleton, "leg_r", hips, Vector3(0.12, -0.05, 0))
	var arm_l := _bone(skeleton, "arm_l", torso, Vector3(-0.3, 0.45, 0))
	var arm_r := _bone(skeleton, "arm_r", torso, Vector3(0.3, 0.45, 0))

	var body := MeshInstance3D.new()
	body.name = "Body"
	var skin := Skin.new()
	for b in skeleton.get_bone_count():
		skin.add_bind(b, skeleton.get_bone_global_rest(b).affine_inverse())
	var arrays := BoxArrays.new()
	# Boxes: centre, size, colour, bone (the torso's lower half leans on the hips too).
	arrays.box(Vector3(-0.12, 0.45, 0), Vector3(0.16, 0.9, 0.18), TROUSERS, leg_l)
	arrays.box(Vector3(0.12, 0.45, 0), Vector3(0.16, 0.9, 0.18), TROUSERS, leg_r)
	arrays.box(Vector3(0, 0.94, 0), Vector3(0.4, 0.14, 0.22), TROUSERS, hips)
	arrays.box(Vector3(0, 1.25, 0), Vector3(0.44, 0.5, 0.24), SHIRT, torso, hips, 1.1)
	arrays.box(Vector3(0, 1.62, -0.01), Vector3(0.22, 0.24, 0.22), SKIN, torso)
	arrays.box(Vector3(-0.3, 1.2, 0), Vector3(0.12, 0.52, 0.12), SHIRT, arm_l)
	arrays.box(Vector3(0.3, 1.2, 0), Vector3(0.12, 0.52, 0.12), SHIRT, arm_r)
	var mesh := ArrayMesh.new()
	mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays.arrays())
	mesh.resource_name = "vat_character"
	body.mesh = mesh
	body.skin = skin
	skeleton.add_child(body)
	body.skeleton = NodePath("..")

	var player := AnimationPlayer.new()
	player.name = "AnimationPlayer"
	var lib := AnimationLibrary.new()
	lib.add_animation("idle", _idle())
	lib.add_animation("walk", _walk())
	lib.add_animation("swing", _swing())
	lib.add_animation("death", _death())
	player.add_animation_library("", lib)
	root.add_child(player)
	return root


static func _bone(skeleton: Skeleton3D, bone_name: String, parent: int, offset: Vector3) -> int:
	var b := skeleton.get_bone_count()
	skeleton.add_bone(bone_name)
	if parent >= 0:
		skeleton.set_bone_parent(b, parent)
	skeleton.set_bone_rest(b, Transform3D(Basis.IDENTITY, offset))
	skeleton.reset_bone_pose(b)
	return b


## A rotation about X: positive swings a hanging limb forward (toward -Z).
static func _pitch(degrees: float) -> Quaternion:
	return Quaternion(Vector3.RIGHT, deg_to_rad(degrees))


## Adds a rotation track on `bone` with keys {time: degrees about X}.
static func _rotation(anim: Animation, bone: String, keys: Dictionary, axis := Vector3.RIGHT) -> void:
	var t := anim.add_track(Animation.TYPE_ROTATION_3D)
	anim.track_set_path(t, NodePath("Skeleton3D:" + bone))
	for time in keys:
		anim.rotation_track_insert_key(t, time, Quaternion(axis, deg_to_rad(keys[time])))


## Adds a position track on `bone` with keys {time: position}.
static func _position(anim: Animation, bone: String, keys: Dictionary) -> void:
	var t := anim.add_track(Animation.TYPE_POSITION_3D)
	anim.track_set_path(t, NodePath("Skeleton3D:" + bone))
	for time in keys:
		anim.position_track_insert_key(t, time, keys[time])


static func _clip(length: float, loops: bool) -> Animation:
	var a := Animation.new()
	a.length = length
	a.loop_mode = Animation.LOOP_LINEAR if loops else Animation.LOOP_NONE
	return a


static func _idle() -> Animation:
	var a := _clip(2.0, true)
	_rotation(a, "torso", {0.0: 0.0, 1.0: 4.0, 2.0: 0.0})
	_rotation(a, "arm_l", {0.0: 0.0, 1.0: -6.0, 2.0: 0.0}, Vector3.BACK)
	_rotation(a, "arm_r", {0.0: 0.0, 1.0: 6.0, 2.0: 0.0}, Vector3.BACK)
	_position(a, "hips", {0.0: Vector3(0, HIP_HEIGHT, 0), 1.0: Vector3(0, HIP_HEIGHT - 0.02, 0),
			2.0: Vector3(0, HIP_HEIGHT, 0)})
	return a


static func _walk() -> Animation:
	var a := _clip(1.0, true)
	var swing := {0.0: 30.0, 0.25: 0.0, 0.5: -30.0, 0.75: 0.0, 1.0: 30.0}
	var against := {0.0: -30.0, 0.25: 0.0, 0.5: 30.0, 0.75: 0.0, 1.0: -30.0}
	_rotation(a, "leg_l", swing)
	_rotation(a, "leg_r", against)
	_rotation(a, "arm_l", {0.0: -25.0, 0.5: 25.0, 1.0: -25.0})
	_rotation(a, "arm_r", {0.0: 25.0, 0.5: -25.0, 1.0: 25.0})
	_rotation(a, "torso", {0.0: 6.0, 0.5: 6.0, 1.0: 6.0})
	var low := Vector3(0, HIP_HEIGHT - 0.05, 0)
	var high := Vector3(0, HIP_HEIGHT, 0)
	_position(a, "hips", {0.0: low, 0.25: high, 0.5: low, 0.75: high, 1.0: low})
	return a


static func _swing() -> Animation:
	var a := _clip(0.65, false)
	# Wind-up (0.35 s): the arm rises overhead; the blow: down in front; recovery: back to rest.
	_rotation(a, "arm_r", {0.0: 0.0, 0.18: 90.0, 0.35: 165.0, 0.45: 40.0, 0.65: 0.0})
	_rotation(a, "torso", {0.0: 0.0, 0.35: -8.0, 0.45: 14.0, 0.65: 0.0})
	return a


static func _death() -> Animation:
	var a := _clip(1.0, false)
	# Falls backwards (toward +Z) and ends lying on the ground.
	_rotation(a, "hips", {0.0: 0.0, 0.3: -20.0, 0.8: -88.0, 1.0: -90.0})
	_position(a, "hips", {0.0: Vector3(0, HIP_HEIGHT, 0), 0.3: Vector3(0, HIP_HEIGHT - 0.1, 0.05),
			0.8: Vector3(0, 0.2, 0.3), 1.0: Vector3(0, 0.15, 0.3)})
	_rotation(a, "arm_l", {0.0: 0.0, 0.6: 60.0, 1.0: 80.0})
	_rotation(a, "arm_r", {0.0: 0.0, 0.6: 70.0, 1.0: 85.0})
	_rotation(a, "leg_l", {0.0: 0.0, 0.6: 25.0, 1.0: 10.0})
	return a


## Mesh arrays of boxes, each skinned to one bone (or two, split by weight).
class BoxArrays:
	var verts := PackedVector3Array()
	var normals := PackedVector3Array()
	var colors := PackedColorArray()
	var bones := PackedInt32Array()
	var weights := PackedFloat32Array()
	var indices := PackedInt32Array()

	## A box at `centre` of `size`; vertices below `split` (a height) weigh half on `lower`.
	func box(centre: Vector3, size: Vector3, color: Color, bone: int, lower := -1, split := -1e9) -> void:
		var h := size * 0.5
		var faces := [
			[Vector3.RIGHT, Vector3.UP, Vector3.BACK], [Vector3.LEFT, Vector3.UP, Vector3.FORWARD],
			[Vector3.UP, Vector3.BACK, Vector3.RIGHT], [Vector3.DOWN, Vector3.FORWARD, Vector3.RIGHT],
			[Vector3.BACK, Vector3.UP, Vector3.LEFT], [Vector3.FORWARD, Vector3.UP, Vector3.RIGHT],
		]
		for f in faces:
			var n: Vector3 = f[0]
			var u: Vector3 = f[1]
			var v: Vector3 = f[2]
			var base := verts.size()
			for c in [Vector2(-1, -1), Vector2(1, -1), Vector2(1, 1), Vector2(-1, 1)]:
				var p: Vector3 = centre + (n + u * c.y + v * c.x) * h
				verts.append(p)
				normals.append(n)
				colors.append(color)
				if lower >= 0 and p.y < split:
					bones.append_array([bone, lower, 0, 0])
					weights.append_array([0.5, 0.5, 0.0, 0.0])
				else:
					bones.append_array([bone, 0, 0, 0])
					weights.append_array([1.0, 0.0, 0.0, 0.0])
			# The corners run clockwise seen from outside: Godot's front faces.
			indices.append_array([base, base + 1, base + 2, base, base + 2, base + 3])

	func arrays() -> Array:
		var a := []
		a.resize(Mesh.ARRAY_MAX)
		a[Mesh.ARRAY_VERTEX] = verts
		a[Mesh.ARRAY_NORMAL] = normals
		a[Mesh.ARRAY_COLOR] = colors
		a[Mesh.ARRAY_BONES] = bones
		a[Mesh.ARRAY_WEIGHTS] = weights
		a[Mesh.ARRAY_INDEX] = indices
		return a
