# Nodes freed in the middle of a frame, from inside signal handlers that run while the manager is
# still finishing its frame: a door (a SwarmFlowModifier) agents press and strike with the
# SwarmBreakable taking their blows, a SwarmPushable's rigid body, a spawner a director drives,
# and the director, all with free() inside the manager's agent_died; then the chased target with
# free() and the manager with queue_free() inside a breakable's damaged handler, while the
# manager is handing out its agents' blows. (A node that is emitting, or whose method is running,
# must go with queue_free(): Godot refuses free() on an emitter, and freeing an ancestor of a
# Swarm node that is emitting aborts in gdext; see docs/RELIABILITY.md.) And resources changed
# or dropped while agents use them: the archetype's mesh, movement and perception profiles, the
# manager's settings. No script error, no engine error but the one a settings swap names, no
# NaN; the frame finishes and the game goes on.
# expect_error: settings: max_agents, worker_threads and random_seed changes take effect only while the manager has no agents
extends "res://test_base.gd"

var m: SwarmManager
var to_free: Array = []
var freed_in_handler := 0
var manager_freed := false


func _on_died(_id: int, _at: Vector3) -> void:
	# Free everything queued, at once, mid-frame.
	while not to_free.is_empty():
		var n = to_free.pop_back()
		if is_instance_valid(n):
			n.free()
			freed_in_handler += 1


var bait: SwarmTarget


func _on_damaged_free_manager(_fraction: float) -> void:
	if not manager_freed:
		manager_freed = true
		bait.free()
		m.queue_free()


func run() -> bool:
	await make_doorway_level()
	m = make_flow_manager("Freed", 300)
	var door := add_doorway_door(m, SwarmFlowModifier.Route.EXTRA_COST, 4.0)
	door.agents_attack_it = true
	var breakable := SwarmBreakable.new()
	breakable.name = "Breakable"
	breakable.max_health = 1e6
	door.add_child(breakable)
	var target := SwarmTarget.new()
	target.name = "Bait"
	m.add_child(target)
	target.position = Vector3(2, 0, 6)
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 1.0
	attack.swing_cooldown = 0.1
	var archetype := make_archetype()
	archetype.attack_profile = attack
	archetype.max_health = 5.0
	spawn_doorway_crowd(m, archetype, 80)

	# A pushable bin in the yard.
	var bin := RigidBody3D.new()
	bin.name = "Bin"
	bin.collision_layer = 2
	var shape := CollisionShape3D.new()
	shape.shape = BoxShape3D.new()
	bin.add_child(shape)
	var bin_box := SwarmFlowModifier.new()
	bin_box.name = "BinBox"
	bin_box.route = SwarmFlowModifier.Route.FREE
	bin_box.size = Vector3(1.2, 1.2, 1.2)
	bin.add_child(bin_box)
	var pushable := SwarmPushable.new()
	pushable.name = "Pushable"
	bin_box.add_child(pushable)
	m.add_child(bin)
	bin.global_position = Vector3(-4, 0.5, -3)

	# A director driving a ring spawner.
	var director := SwarmSpawnerDirector.new()
	director.name = "Director"
	director.mode = SwarmSpawnerDirector.Mode.MAINTAIN_POPULATION
	director.max_alive = 20
	director.spawn_rate = 0.0
	var ring := SwarmRingSpawner.new()
	ring.name = "Ring"
	ring.archetype = archetype
	ring.inner_radius = 1
	ring.outer_radius = 4
	ring.position = Vector3(-10, 0, -12)
	director.add_child(ring)
	m.add_child(director)

	for f in 600:
		await physics_frames(1)
		if breakable.get_health() < 1e6:
			break
	check(breakable.get_health() < 1e6, "agents strike the door before it is freed")

	# Kill an agent; its agent_died handler frees the door (with the breakable under it), the bin
	# (with the pushable's modifier), the ring spawner and the director, mid-frame.
	to_free = [door, bin, ring, director]
	m.agent_died.connect(_on_died)
	var victim: int = m.get_agent_ids()[0]
	m.damage_agent(victim, 1e6, {})
	await physics_frames(3)
	check(freed_in_handler >= 3, "nodes freed inside agent_died: %d" % freed_in_handler)
	for n in [door, breakable, bin, pushable, ring, director]:
		check(not is_instance_valid(n), "a node survived agent_died")
	m.agent_died.disconnect(_on_died)
	await physics_frames(60)
	check(_all_finite(), "agents finite after the nodes went")

	# Resources changed and dropped while agents use them.
	archetype.mesh = null
	archetype.movement_profile = null
	archetype.perception_profile = SwarmPerceptionProfile.new()
	await physics_frames(5)
	archetype.perception_profile = null
	m.settings = null
	await physics_frames(5)
	var fresh := SwarmSettings.new()
	fresh.body_blocking = false
	m.settings = fresh
	fresh = null
	await physics_frames(20)
	check(_all_finite(), "agents finite after the resources changed")
	check(m.get_agent_count() > 0, "agents remain")

	# A new door; the first blow on its breakable frees the target and the manager, from inside
	# the breakable's damaged signal, which the manager's frame emits when it hands the blow over.
	bait = target
	var door2 := add_doorway_door(m, SwarmFlowModifier.Route.EXTRA_COST, 4.0)
	door2.agents_attack_it = true
	var breakable2 := SwarmBreakable.new()
	breakable2.max_health = 1e6
	door2.add_child(breakable2)
	breakable2.damaged.connect(_on_damaged_free_manager)
	for f in 600:
		await physics_frames(1)
		if manager_freed:
			break
	check(manager_freed, "a blow landed on the new door")
	await physics_frames(5)
	check(not is_instance_valid(m), "the manager is gone")
	return passed()


func _all_finite() -> bool:
	for id in m.get_agent_ids():
		if not finite(m.get_agent_position(id)) or not finite(m.get_agent_velocity(id)):
			return false
	return true
