# Base of every engine test in tests/: extends Node, is added to the root by runner.gd, which
# awaits `run() -> bool`. Checks record failures instead of stopping, so one run reports them all.
extends Node

var failures: PackedStringArray = []


## Records a failure (printed as "CHECK FAILED: msg") when `cond` is false; returns `cond`.
func check(cond: bool, msg: String) -> bool:
	if not cond:
		failures.append(msg)
		print("CHECK FAILED: ", msg)
	return cond


func check_eq(got: Variant, want: Variant, what: String) -> bool:
	return check(got == want, "%s: expected %s, got %s" % [what, str(want), str(got)])


## Waits until `n` more physics ticks have fully run (with --fixed-fps 60 each is 1/60 s of
## simulated time). SceneTree.physics_frame is emitted at the START of a tick, before the nodes'
## _physics_process, so after the last one this also waits for the process_frame that follows.
func physics_frames(n: int) -> void:
	for i in n:
		await get_tree().physics_frame
	await get_tree().process_frame


## True when every component is a finite number.
func finite(v: Vector3) -> bool:
	return v.is_finite()


## Makes an archetype with a small capsule mesh and default profiles.
func make_archetype(mesh: Mesh = null) -> SwarmAgentArchetype:
	var a := SwarmAgentArchetype.new()
	if mesh == null:
		var c := CapsuleMesh.new()
		c.radius = 0.35
		c.height = 1.6
		mesh = c
	a.mesh = mesh
	return a


## Makes a SwarmManager named `n`, adds it to this test node and returns it.
func make_manager(n: String = "Swarm", max_agents: int = -1) -> SwarmManager:
	var m := SwarmManager.new()
	m.name = n
	if max_agents >= 0:
		var s := SwarmSettings.new()
		s.max_agents = max_agents
		m.settings = s
	add_child(m)
	return m


## Returns the done-result of the test: true when no check failed.
func passed() -> bool:
	return failures.is_empty()


## A StaticBody3D with a box collider of `size` centred at the global `center`, under `parent`.
func add_static_box(parent: Node, center: Vector3, size: Vector3) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = size
	shape.shape = box
	body.add_child(shape)
	parent.add_child(body)
	body.global_position = center
	return body


## A 40 x 40 m floor (top at y = 0) split by a 3 m wall along x at z = 0 with one 2 m doorway
## at x in 1..3. Waits two physics frames so the bodies are in the physics space.
func make_doorway_level() -> Node3D:
	var level := Node3D.new()
	add_child(level)
	add_static_box(level, Vector3(0, -0.5, 0), Vector3(40, 1, 40))
	add_static_box(level, Vector3(-9.5, 1.5, 0), Vector3(21, 3, 1))
	add_static_box(level, Vector3(11.5, 1.5, 0), Vector3(17, 3, 1))
	await physics_frames(2)
	return level


## A manager named `n` whose surface flow field is baked over make_doorway_level()'s 40 x 40 m
## area and switched on.
## The door of make_doorway_level(): a SwarmFlowModifier filling the 2 m doorway at x = 2,
## named "Door", under `manager`; `route` and `route_cost` keep the node's defaults (EXTRA_COST,
## 10) unless given.
func add_doorway_door(manager: SwarmManager, route: int = SwarmFlowModifier.EXTRA_COST, cost: float = -1.0) -> SwarmFlowModifier:
	var door := SwarmFlowModifier.new()
	door.name = "Door"
	door.size = Vector3(2, 2.5, 1)
	door.route = route
	if cost >= 0.0:
		door.route_cost = cost
	manager.add_child(door)
	door.position = Vector3(2, 0, 0)
	return door


## `n` agents of `archetype` in a block south of the doorway level's wall (10 to a row, 1.2 m
## apart, from x = -8, z = -6 southward); returns their ids.
func spawn_doorway_crowd(manager: SwarmManager, archetype: SwarmAgentArchetype, n: int = 40) -> Array[int]:
	var ids: Array[int] = []
	for i in n:
		ids.append(manager.spawn_agent(archetype, Vector3(-8 + (i % 10) * 1.2, 0, -6 - (i / 10) * 1.2)))
	return ids


## How many of `ids` stand north of the doorway level's wall (z > 0.6: through the door).
func count_past_doorway(manager: SwarmManager, ids: Array[int]) -> int:
	var n := 0
	for id in ids:
		if manager.get_agent_position(id).z > 0.6:
			n += 1
	return n


## How many of `ids` stand within `radius` of `point` (3D distance).
func count_within(manager: SwarmManager, ids: Array[int], point: Vector3, radius: float) -> int:
	var n := 0
	for id in ids:
		if manager.get_agent_position(id).distance_to(point) < radius:
			n += 1
	return n


func make_flow_manager(n: String, max_agents: int = -1) -> SwarmManager:
	var manager := make_manager(n, max_agents)
	manager.bake_bounds = AABB(Vector3(-20, -1, -20), Vector3(40, 6, 40))
	check_eq(manager.bake_flow_field(), OK, "bake_flow_field")
	manager.surface_flow_field_enabled = true
	return manager


## Every agent's id, position and velocity, in id order (to compare two runs).
func record_agents(m: SwarmManager) -> Array:
	var out := []
	var ids := m.get_agent_ids()
	ids.sort()
	for id in ids:
		out.append(id)
		out.append(m.get_agent_position(id))
		out.append(m.get_agent_velocity(id))
	return out
