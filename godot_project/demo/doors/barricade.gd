extends Node3D
## A plank barricade across a street opening: a SwarmFlowModifier (Extra Cost, Blocks Agents) and
## a low-health SwarmBreakable. Its planks come off one at a time as the breakable loses health
## (the `damaged(fraction)` signal) and it shakes on every hit. Must sit under the SwarmManager.
## Its collider sits on the "Low Obstacle" layer, like a fence: it stops the player, while the
## player's shots (which test the "Obstacle" layer, not this one) pass between the planks. The
## modifier is under that body, so the breakable's disable_colliders_on_break opens it at the
## break.

@export var width := 3.0
@export var planks := 5
@export var route_cost := 8.0
@export var max_health := 80.0
## Physics layer of the barricade's collider ("Low Obstacle").
@export var low_obstacle_layer := 4

var modifier: SwarmFlowModifier
var breakable: SwarmBreakable
var _planks: Array[MeshInstance3D] = []
var _fallen := 0
var _shake := 0.0
var _rest: Array[Vector3] = []


func _ready() -> void:
	var mat := StandardMaterial3D.new()
	mat.albedo_color = Color(0.62, 0.48, 0.3)
	for i in planks:
		var m := MeshInstance3D.new()
		var box := BoxMesh.new()
		box.size = Vector3(width + 0.6, 0.22, 0.08)
		box.material = mat
		m.mesh = box
		m.position = Vector3(0, 0.35 + i * 0.38, 0)
		m.rotation.z = 0.12 if i % 2 == 0 else -0.1
		add_child(m)
		_planks.append(m)
		_rest.append(m.position)
	var body := StaticBody3D.new()
	body.name = "Body"
	body.collision_layer = 1 << (low_obstacle_layer - 1)
	body.collision_mask = 0
	var shape := CollisionShape3D.new()
	var bs := BoxShape3D.new()
	bs.size = Vector3(width, 2.4, 0.3)
	shape.shape = bs
	shape.position = Vector3(0, 1.2, 0)
	body.add_child(shape)
	add_child(body)
	modifier = SwarmFlowModifier.new()
	modifier.name = "Modifier"
	modifier.center = Vector3(0, 1.2, 0)
	modifier.size = Vector3(width, 2.4, 1.0)
	modifier.route = SwarmFlowModifier.EXTRA_COST
	modifier.route_cost = route_cost
	modifier.blocks_agents = true
	body.add_child(modifier)
	breakable = SwarmBreakable.new()
	breakable.name = "Breakable"
	breakable.max_health = max_health
	breakable.crowd_pressure_per_agent = 0.3
	modifier.add_child(breakable)
	breakable.damaged.connect(_on_damaged)
	breakable.broken.connect(func() -> void: _on_damaged(0.0))


func planks_left() -> int:
	return planks - _fallen


func _on_damaged(fraction: float) -> void:
	if fraction < 1.0:
		_shake = 0.06
	# Planks still up: one per 1/planks of health, the top one comes off first.
	var up := clampi(ceili(fraction * planks - 0.001), 0, planks)
	while _fallen < planks - up:
		var m := _planks[planks - 1 - _fallen]
		m.position = Vector3(randf_range(-1.0, 1.0), 0.05, randf_range(-1.2, 1.2))
		m.rotation = Vector3(0, randf() * TAU, 0)
		_fallen += 1
	if fraction >= 1.0:
		_fallen = 0
		for i in planks:
			_planks[i].position = _rest[i]
			_planks[i].rotation = Vector3(0, 0, 0.12 if i % 2 == 0 else -0.1)


func _physics_process(delta: float) -> void:
	_shake = move_toward(_shake, 0.0, delta * 0.5)
	for i in planks - _fallen:
		_planks[i].position.x = _rest[i].x + sin(Time.get_ticks_msec() * 0.07 + i) * _shake
