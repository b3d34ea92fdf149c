extends Node3D
## A door in a wall opening: a leaf mesh, a SwarmFlowModifier sized to the opening (Extra Cost,
## Blocks Agents) and a SwarmBreakable. Must sit under the SwarmManager.
##
## A player door (locked = false) opens while the player's area is inside its trigger and shuts
## once the player has left and manager.is_any_agent_inside(doorway) is false. It flips the
## modifier's is_open and never touches `enabled`, so the breakable stays the only thing that
## switches the modifier off. A locked door has no trigger: it only opens when it breaks.

## Width and height of the opening, in metres.
@export var width := 2.5
@export var height := 2.6
## Extra route length a crossing costs while shut (halved once the breakable is Damaged).
@export var route_cost := 10.0
@export var max_health := 150.0
## A locked door has no trigger and opens only when it breaks.
@export var locked := false
## Physics layer of the player's Area3D.
@export var player_layer := 8
## Physics layer of the leaf's collider ("Obstacle"): the player's shots stop at a shut door.
@export var obstacle_layer := 3
@export var leaf_color := Color(0.45, 0.3, 0.18)

var modifier: SwarmFlowModifier
var breakable: SwarmBreakable
var _hinge: Node3D
var _leaf: MeshInstance3D
var _leaf_shape: CollisionShape3D
var _openers := 0
var _angle := 0.0
var _jolt := 0.0
var _manager: SwarmManager


func _ready() -> void:
	_manager = _find_manager()
	_hinge = Node3D.new()
	_hinge.position = Vector3(-width * 0.5, 0, 0)
	add_child(_hinge)
	_leaf = MeshInstance3D.new()
	var box := BoxMesh.new()
	box.size = Vector3(width - 0.1, height, 0.15)
	var mat := StandardMaterial3D.new()
	mat.albedo_color = leaf_color.darkened(0.3) if locked else leaf_color
	box.material = mat
	_leaf.mesh = box
	_leaf.position = Vector3(width * 0.5, height * 0.5, 0)
	_hinge.add_child(_leaf)
	# The leaf's collider swings with it; it stays out of the bake (not in the walkable mask).
	var leaf_body := StaticBody3D.new()
	leaf_body.name = "LeafBody"
	leaf_body.collision_layer = 1 << (obstacle_layer - 1)
	leaf_body.collision_mask = 0
	_leaf_shape = CollisionShape3D.new()
	var leaf_box := BoxShape3D.new()
	leaf_box.size = box.size
	_leaf_shape.shape = leaf_box
	leaf_body.add_child(_leaf_shape)
	_leaf.add_child(leaf_body)

	modifier = SwarmFlowModifier.new()
	modifier.name = "Modifier"
	modifier.center = Vector3(0, height * 0.5, 0)
	modifier.size = Vector3(width, height, 1.0)
	modifier.route = SwarmFlowModifier.EXTRA_COST
	modifier.route_cost = route_cost
	modifier.blocks_agents = true
	add_child(modifier)
	breakable = SwarmBreakable.new()
	breakable.name = "Breakable"
	breakable.max_health = max_health
	breakable.crowd_pressure_per_agent = 0.5
	modifier.add_child(breakable)
	breakable.damaged.connect(_on_damaged)
	breakable.broken.connect(_on_broken)

	if not locked:
		var trigger := Area3D.new()
		trigger.name = "Trigger"
		trigger.collision_layer = 0
		trigger.collision_mask = 1 << (player_layer - 1)
		var shape := CollisionShape3D.new()
		var b := BoxShape3D.new()
		b.size = Vector3(width + 1.5, 3.0, 5.0)
		shape.shape = b
		shape.position = Vector3(0, 1.5, 0)
		trigger.add_child(shape)
		add_child(trigger)
		trigger.area_entered.connect(func(_a: Area3D) -> void: _openers += 1)
		trigger.area_exited.connect(func(_a: Area3D) -> void: _openers = maxi(0, _openers - 1))


func _find_manager() -> SwarmManager:
	var p := get_parent()
	while p != null and not (p is SwarmManager):
		p = p.get_parent()
	return p as SwarmManager


## The opening, in world space.
func doorway_aabb() -> AABB:
	var c := global_position + Vector3(0, height * 0.5, 0)
	var half := (global_basis * Vector3(width, 0, 1.2)).abs() * 0.5
	return AABB(c - Vector3(half.x, height * 0.5, half.z), Vector3(half.x * 2, height, half.z * 2))


func is_broken() -> bool:
	return breakable.get_state() == SwarmBreakable.BROKEN


func state_text() -> String:
	if is_broken():
		return "broken"
	var s := "open" if modifier.is_open else "shut"
	return "%s %d%%" % [s, roundi(100.0 * breakable.get_health() / max_health)]


func _physics_process(delta: float) -> void:
	if not is_broken() and not locked:
		if _openers > 0 and not modifier.is_open:
			modifier.is_open = true
		elif _openers == 0 and modifier.is_open and _manager != null \
				and not _manager.is_any_agent_inside(doorway_aabb()):
			modifier.is_open = false
	var want := deg_to_rad(-100.0) if modifier.is_open and not is_broken() else 0.0
	_angle = move_toward(_angle, want, delta * 4.0)
	_jolt = move_toward(_jolt, 0.0, delta * 0.6)
	_hinge.rotation.y = _angle
	_leaf.position.z = sin(_jolt * 60.0) * _jolt


func _on_damaged(fraction: float) -> void:
	if fraction < 1.0:
		_jolt = 0.08


func _on_broken() -> void:
	# The leaf falls flat into the opening; shots and the player pass over it.
	_leaf_shape.set_deferred("disabled", true)
	_hinge.rotation = Vector3(-PI * 0.5, 0, 0)
	_hinge.position = Vector3(-width * 0.5, 0.08, 0)
	_leaf.position = Vector3(width * 0.5, height * 0.5, 0)
