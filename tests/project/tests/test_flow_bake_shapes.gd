# The bake read from collision shapes against the bake through physics rays: the test level
# (boxes, a rotated ramp, a trimesh wall) plus a sphere, a capsule, a cylinder, a scaled and
# turned box, a height map, a double-sided trimesh slope, a box on the unwalkable layer and one on
# a layer outside both masks, a separation ray and an Area3D (not a wall), baked both ways; every
# column's surfaces must agree (within a millimetre) and so must walkability. Then 2,500 posts
# (more than Godot Physics gathers for one shape query) must all be read, an area made through
# the physics server (no node to tell it by) changes nothing, and a ConvexPolygonShape3D in the
# bounds sends the bake to physics rays, and the method says why.
extends "res://test_base.gd"

const Level := preload("res://tests/flow_bake_level.gd")


func _body(parent: Node, shape: Shape3D, xform: Transform3D, layer: int = 1) -> StaticBody3D:
	var body := StaticBody3D.new()
	body.collision_layer = layer
	body.collision_mask = 0
	var cs := CollisionShape3D.new()
	cs.shape = shape
	body.add_child(cs)
	body.transform = xform
	parent.add_child(body)
	return body


func _extra_shapes(parent: Node) -> void:
	var sphere := SphereShape3D.new()
	sphere.radius = 1.5
	_body(parent, sphere, Transform3D(Basis(), Vector3(4, 0.5, 14)))
	var capsule := CapsuleShape3D.new()
	capsule.radius = 0.6
	capsule.height = 5.0
	# Lying along x.
	_body(parent, capsule, Transform3D(Basis(Vector3.BACK, PI / 2), Vector3(4, 0.2, 30)))
	var cylinder := CylinderShape3D.new()
	cylinder.radius = 1.2
	cylinder.height = 1.0
	_body(parent, cylinder, Transform3D(Basis(), Vector3(14, 0.3, 34)))
	var box := BoxShape3D.new()
	box.size = Vector3(1, 1, 1)
	# Scaled (3 x 0.4 x 2) and turned 30 degrees about y.
	var b := Basis(Vector3.UP, deg_to_rad(30)) * Basis.from_scale(Vector3(3, 0.4, 2))
	_body(parent, box, Transform3D(b, Vector3(34, 0.1, 12)))
	# A height map: 9 x 9 gentle bumps, scaled 0.5 across, at x 26..30, z 12..16.
	var hm := HeightMapShape3D.new()
	hm.map_width = 9
	hm.map_depth = 9
	var heights := PackedFloat32Array()
	for j in 9:
		for i in 9:
			heights.append(0.15 * sin(i * 0.8) * cos(j * 0.6) + 0.05)
	hm.map_data = heights
	_body(parent, hm, Transform3D(Basis.from_scale(Vector3(0.5, 1, 0.5)), Vector3(28, 0, 14)))
	# A double-sided trimesh slope (one quad).
	var slope := ConcavePolygonShape3D.new()
	slope.backface_collision = true
	var q := PackedVector3Array([
		Vector3(-2, 0, -1), Vector3(2, 0.8, -1), Vector3(-2, 0, 1),
		Vector3(2, 0.8, -1), Vector3(2, 0.8, 1), Vector3(-2, 0, 1)])
	slope.set_faces(q)
	_body(parent, slope, Transform3D(Basis(), Vector3(34, 0.02, 30)))
	# Unwalkable layer 2, and layer 4 (outside both masks: not seen at all).
	var small := BoxShape3D.new()
	small.size = Vector3(2, 0.3, 2)
	_body(parent, small, Transform3D(Basis(), Vector3(25, 0.15, 5)), 2)
	_body(parent, small, Transform3D(Basis(), Vector3(25, 0.15, 9)), 4)
	# A separation ray is never hit by a ray.
	var ray := SeparationRayShape3D.new()
	ray.length = 2.0
	_body(parent, ray, Transform3D(Basis(), Vector3(12, 1.0, 12)))
	# An area over the middle of the level, on the walkable layer: areas are not walls.
	var area := Area3D.new()
	area.collision_layer = 1
	var area_shape := CollisionShape3D.new()
	var area_box := BoxShape3D.new()
	area_box.size = Vector3(6, 2, 6)
	area_shape.shape = area_box
	area.add_child(area_shape)
	area.position = Vector3(20, 1, 20)
	parent.add_child(area)


func _bake(host: Node3D, rays: bool) -> Array:
	var baker := SwarmFlowFieldBaker.new()
	baker.use_physics_rays = rays
	var data: SwarmFlowFieldData = baker.bake(host)
	check(data != null, "bake (physics rays %s): %s" % [rays, baker.get_error()])
	print("%s: %d walkable cells, %d rays, %.1f ms" % [baker.get_sample_method(), data.walkable_cell_count if data else -1, baker.get_ray_count(), baker.get_busy_msec()])
	return [data, baker.get_sample_method()]


func run() -> bool:
	var level := Node3D.new()
	level.name = "Level"
	add_child(level)
	Level.build_level(level)
	_extra_shapes(level)
	var host := make_manager("Horde")
	Level.configure(host)
	await physics_frames(1)

	var by_shapes := _bake(host, false)
	var by_rays := _bake(host, true)
	var a: SwarmFlowFieldData = by_shapes[0]
	var b: SwarmFlowFieldData = by_rays[0]
	check_eq(by_shapes[1], "collision shapes", "method of the default bake")
	check_eq(by_rays[1], "physics rays (asked for)", "method with use_physics_rays")
	if a == null or b == null:
		return passed()
	check_eq(a.dims, b.dims, "dims")
	check_eq(a.walkable_cell_count, b.walkable_cell_count, "walkable cells")
	check_eq(a.cell_count, b.cell_count, "cells")
	var differ := 0
	var walk_differ := 0
	for iz in a.dims.y:
		for ix in a.dims.x:
			var p := Vector3(ix * 0.5 + 0.25, 0, iz * 0.5 + 0.25)
			var ha := a.get_surface_heights(p)
			var hb := b.get_surface_heights(p)
			var same := ha.size() == hb.size()
			if same:
				for k in ha.size():
					same = same and absf(ha[k] - hb[k]) < 1e-3
			if not same:
				differ += 1
				if differ <= 5:
					print("column (%d, %d): shapes %s, rays %s" % [ix, iz, str(ha), str(hb)])
				continue
			for k in ha.size():
				var at := Vector3(p.x, ha[k], p.z)
				if a.is_walkable_at(at) != b.is_walkable_at(at):
					walk_differ += 1
					if walk_differ <= 5:
						print("column (%d, %d) surface %.3f: walkable %s by shapes, %s by rays" % [ix, iz, ha[k], a.is_walkable_at(at), b.is_walkable_at(at)])
	check_eq(differ, 0, "columns whose surfaces differ between the two methods")
	check_eq(walk_differ, 0, "surfaces whose walkability differs between the two methods")
	# The shapes were seen: the sphere's top and the unwalkable box.
	var top := a.get_surface_heights(Vector3(4.25, 0, 14.25))
	check(top.size() >= 2 and absf(top[top.size() - 1] - 2.0) < 0.05, "sphere top %s" % str(top))
	check(not a.is_walkable_at(Vector3(25.25, 0.3, 5.25)), "unwalkable-layer box")
	check(a.is_walkable_at(Vector3(25.25, 0, 9.25)), "floor under a box outside both masks")

	# 2,500 posts, one collider each, over the level (Godot Physics gathers at most 2048 objects
	# for one shape query): the reader splits its queries, and every post is seen.
	var posts := Node3D.new()
	posts.name = "Posts"
	level.add_child(posts)
	var post := BoxShape3D.new()
	post.size = Vector3(0.2, 2.0, 0.2)
	for i in 50:
		for j in 50:
			# Faces never on a column's centre line (x.25, x.75), where a ray grazing a face is a
			# matter of rounding in either method.
			_body(posts, post, Transform3D(Basis(), Vector3(0.6 + i * 0.8, 1.0, 0.6 + j * 0.8)))
	await physics_frames(1)
	var many_shapes := _bake(host, false)
	var many_rays := _bake(host, true)
	check_eq(many_shapes[1], "collision shapes", "method with 2,500 posts")
	if many_shapes[0] != null and many_rays[0] != null:
		check_eq(many_shapes[0].walkable_cell_count, many_rays[0].walkable_cell_count, "walkable cells with 2,500 posts, shapes against rays")
		check(many_shapes[0].walkable_cell_count < a.walkable_cell_count, "the posts took cells")
	posts.free()
	await physics_frames(1)

	# An area made through the physics server has no node to tell it from a body by: the reader
	# asks for bodies alone (reading it as a body would print engine errors, which fail the test).
	var area_rid := PhysicsServer3D.area_create()
	var box_rid := PhysicsServer3D.box_shape_create()
	PhysicsServer3D.shape_set_data(box_rid, Vector3(3, 1, 3))
	PhysicsServer3D.area_add_shape(area_rid, box_rid)
	PhysicsServer3D.area_set_collision_layer(area_rid, 1)
	PhysicsServer3D.area_set_transform(area_rid, Transform3D(Basis(), Vector3(10, 1, 20)))
	PhysicsServer3D.area_set_space(area_rid, host.get_world_3d().space)
	await physics_frames(1)
	var nodeless := _bake(host, false)
	check_eq(nodeless[1], "collision shapes", "method with a server-made area")
	if nodeless[0] != null:
		check_eq(nodeless[0].walkable_cell_count, a.walkable_cell_count, "walkable cells with a server-made area")
	PhysicsServer3D.free_rid(area_rid)
	PhysicsServer3D.free_rid(box_rid)
	await physics_frames(1)

	# A convex polygon in the bounds: physics rays, and the method names it.
	var convex := ConvexPolygonShape3D.new()
	convex.points = PackedVector3Array([Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])
	_body(level, convex, Transform3D(Basis(), Vector3(36, 0, 36)))
	await physics_frames(1)
	var fallback := _bake(host, false)
	check(String(fallback[1]).begins_with("physics rays") and String(fallback[1]).contains("ConvexPolygonShape3D"), "method with a convex polygon: " + fallback[1])
	return passed()
