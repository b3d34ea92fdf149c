# Helpers for the flow field bake tests: a small level of StaticBody3D boxes and the bake settings
# that go with it.
extends RefCounted


## Sets the bake settings for the level on `manager` (a SwarmManager, or any Node3D with the same
## properties).
static func configure(manager: Node3D) -> void:
	manager.set("bake_bounds", AABB(Vector3(0, -1, 0), Vector3(40, 7, 40)))
	manager.set("cell_size", 0.5)
	manager.set("clearance_radius", 0.3)
	manager.set("agent_height", 1.8)
	manager.set("max_step_height", 0.4)
	manager.set("walkable_mask", 1)
	manager.set("unwalkable_mask", 2)


## Adds a static box from `lo` to `hi` (rotated about +Z by `angle_deg` around its centre) on
## collision `layer` to `parent` (which must be at the origin).
static func add_box(parent: Node, lo: Vector3, hi: Vector3, layer: int = 1, angle_deg: float = 0.0) -> StaticBody3D:
	var body := StaticBody3D.new()
	body.collision_layer = layer
	body.collision_mask = 0
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = hi - lo
	shape.shape = box
	body.add_child(shape)
	# Placed before it enters the tree: transform changes reach the physics server only at the
	# next frame's transform flush, and the bake may run before that.
	body.transform = Transform3D(Basis(Vector3.BACK, deg_to_rad(angle_deg)), (lo + hi) * 0.5)
	parent.add_child(body)
	return body


## The test level on 40 x 40 m (x, z in 0..40):
## - floor, top at y = 0;
## - a thin wall (0.1 m) at x = 10 along z 0..16 and 20..24, with a 4 m door at z 16..20;
## - a thick wall (1 m) at x 16..17, z 0..10;
## - an upper floor (slab 3.8..4.0) over x 24..40, z 20..40, reached by a 3 m wide ramp from
##   (8, 0) to (24, 4) at z 28..31;
## - a pillar at x 4..5, z 4..5 rising to 12 m (above the bake bounds);
## - a 2 x 2 m box on the unwalkable layer 2 at x 30..32, z 4..6, 0.5 m tall;
## - a thick wall made of a trimesh (ConcavePolygonShape3D, as CSG makes) at x 20..21, z 0..10.
static func build_level(parent: Node) -> void:
	add_box(parent, Vector3(0, -0.2, 0), Vector3(40, 0, 40))
	add_box(parent, Vector3(9.95, 0, 0), Vector3(10.05, 3, 16))
	add_box(parent, Vector3(9.95, 0, 20), Vector3(10.05, 3, 24))
	add_box(parent, Vector3(16, 0, 0), Vector3(17, 3, 10))
	add_box(parent, Vector3(24, 3.8, 20), Vector3(40, 4.0, 40))
	add_ramp(parent, Vector2(8, 0), Vector2(24, 4), 28.0, 31.0)
	add_box(parent, Vector3(4, 0, 4), Vector3(5, 12, 5))
	add_box(parent, Vector3(30, 0, 4), Vector3(32, 0.5, 6), 2)
	add_trimesh_box(parent, Vector3(20, 0, 0), Vector3(21, 3, 10))


## A static box from `lo` to `hi` whose collider is a closed trimesh (ConcavePolygonShape3D).
static func add_trimesh_box(parent: Node, lo: Vector3, hi: Vector3) -> void:
	var body := StaticBody3D.new()
	body.collision_mask = 0
	var mesh := BoxMesh.new()
	mesh.size = hi - lo
	var shape := CollisionShape3D.new()
	shape.shape = mesh.create_trimesh_shape()
	body.add_child(shape)
	body.transform = Transform3D(Basis(), (lo + hi) * 0.5)
	parent.add_child(body)


## A 0.2 m thick ramp whose top surface runs from (x0, y0) to (x1, y1) over z0..z1.
static func add_ramp(parent: Node, a: Vector2, b: Vector2, z0: float, z1: float) -> void:
	var d := b - a
	var angle := atan2(d.y, d.x)
	var body := StaticBody3D.new()
	body.collision_mask = 0
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(d.length(), 0.2, z1 - z0)
	shape.shape = box
	body.add_child(shape)
	var basis := Basis(Vector3.BACK, angle)
	var top_mid := Vector3((a.x + b.x) * 0.5, (a.y + b.y) * 0.5, (z0 + z1) * 0.5)
	body.transform = Transform3D(basis, top_mid - basis.y * 0.1)
	parent.add_child(body)
