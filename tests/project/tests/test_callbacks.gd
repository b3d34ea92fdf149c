# Every callback the addon makes into game code may call ANY SwarmManager method, including
# spawning, despawning and freeing the node that received it: apply_swarm_damage on a target's
# parent (the counterattack: damage_agents_in_radius and get_agent_count from inside the hit) and
# on a door's damage receiver, the manager's signals (agent_spawned, agent_despawned, agent_died,
# target_attacked, obstacle_attacked), a SwarmBreakable's signals (damaged, state_changed, pressure_changed,
# noise_made, broken) and a SwarmSpawnerDirector's (wave_spawned, population_changed). No
# "already bound" error, no engine error, and each callback's call takes effect.
extends "res://test_base.gd"

var manager: SwarmManager
var archetype: SwarmAgentArchetype
var seen := {}
var died := 0
var spawned_in_died := 0
var despawn_next_spawn := false
var killed_by_attack_handler := 0


func note(what: String) -> void:
	seen[what] = seen.get(what, 0) + 1


func run() -> bool:
	await _counterattack()
	await _manager_signals()
	await _door_and_breakable()
	await _director()
	print("callbacks: calls seen per callback: %s" % [seen])
	return passed()


## The player's apply_swarm_damage fights back with damage_agents_in_radius and reads
## get_agent_count; after 5 hits it frees its SwarmTarget and queues itself for deletion from
## inside the call.
func _counterattack() -> void:
	manager = make_manager("Counter")
	var player_script := GDScript.new()
	player_script.source_code = """extends Node3D
var hits := 0
var counter_kills := 0
var counts: Array[int] = []
func apply_swarm_damage(amount: float, context: Dictionary) -> void:
	hits += 1
	var m = context.source
	counts.append(m.get_agent_count())
	counter_kills += m.damage_agents_in_radius(global_position, 1.6, 5.0)
	if hits == 5:
		get_parent().counter_done(hits, counter_kills, counts)
		# Godot cannot free an object while it runs a call, so the player queues itself; its
		# SwarmTarget goes at once.
		$Target.free()
		queue_free()
"""
	player_script.reload()
	var player := Node3D.new()
	player.name = "Player"
	player.set_script(player_script)
	add_child(player)
	var target := SwarmTarget.new()
	target.name = "Target"
	player.add_child(target)
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 1.0
	attack.swing_cooldown = 0.2
	archetype = make_archetype()
	archetype.attack_profile = attack
	archetype.max_health = 12.0
	for i in 30:
		manager.spawn_agent(archetype, Vector3(cos(i * 0.7) * 8.0, 0, sin(i * 0.7) * 8.0))
	for f in 600:
		await get_tree().physics_frame
		if seen.has("counter_done"):
			break
	check(seen.has("counter_done"), "the player was hit 5 times and freed itself")
	await physics_frames(1)
	check(not is_instance_valid(player), "the player freed itself from apply_swarm_damage")
	await physics_frames(30)
	check(manager.get_active_targets().is_empty(), "the freed player's target is no longer active")
	check(manager.get_agent_count() > 0, "agents left alive")
	manager.queue_free()
	await physics_frames(2)


func counter_done(hits: int, kills: int, counts: Array[int]) -> void:
	note("counter_done")
	check_eq(hits, 5, "hits before the player freed itself")
	check(kills > 0, "the counterattack from apply_swarm_damage killed nobody (%d)" % kills)
	check(counts.size() == 5 and counts[0] > 0, "get_agent_count from apply_swarm_damage: %s" % [counts])


## The manager's own signals: agent_spawned despawns the agent it announces (once),
## agent_despawned reads the count, agent_died spawns a replacement, target_attacked kills the
## attacker.
func _manager_signals() -> void:
	manager = make_manager("Signals")
	var player := Node3D.new()
	add_child(player)
	var target := SwarmTarget.new()
	player.add_child(target)
	manager.agent_spawned.connect(func(id: int) -> void:
		note("agent_spawned")
		check(manager.is_agent_alive(id), "agent_spawned names a live agent")
		if despawn_next_spawn:
			despawn_next_spawn = false
			check(manager.despawn_agent(id), "despawn_agent from agent_spawned"))
	manager.agent_despawned.connect(func(id: int) -> void:
		note("agent_despawned")
		check(not manager.is_agent_alive(id), "agent_despawned names a dead agent")
		manager.get_agent_count())
	manager.agent_died.connect(func(id: int, _p: Vector3) -> void:
		note("agent_died")
		died += 1
		if spawned_in_died < 3:
			spawned_in_died += 1
			check(manager.spawn_agent(archetype, Vector3(30, 0, 30)) >= 0, "spawn_agent from agent_died"))
	manager.target_attacked.connect(func(_t: SwarmTarget, _d: float, agent_id: int) -> void:
		note("target_attacked")
		if manager.is_agent_alive(agent_id):
			check(manager.damage_agent(agent_id, 1000.0, {}), "damage_agent from target_attacked")
			killed_by_attack_handler += 1)

	despawn_next_spawn = true
	var first := manager.spawn_agent(archetype, Vector3(5, 0, 0))
	check(not manager.is_agent_alive(first), "the agent despawned from its own agent_spawned is gone")
	for i in 10:
		manager.spawn_agent(archetype, Vector3(cos(i) * 5.0, 0, sin(i) * 5.0))
	await physics_frames(300)
	for s in ["agent_spawned", "agent_despawned", "agent_died", "target_attacked"]:
		check(seen.has(s), "%s was never emitted" % s)
	check(killed_by_attack_handler > 0, "target_attacked handlers killed no attacker")
	check_eq(died, killed_by_attack_handler, "agent_died once per kill")
	check_eq(spawned_in_died, 3, "replacements spawned from agent_died")
	player.queue_free()
	manager.queue_free()
	await physics_frames(2)


## A door whose blows go to a SwarmBreakable; every breakable signal handler calls the manager,
## and a second door's game-script receiver despawns the agent that struck it (its context carries
## pushback); obstacle_attacked names the door and the damage its receiver took (the archetype's
## obstacle_damage_scale applied) and its handler reads the swarm.
func _door_and_breakable() -> void:
	await make_doorway_level()
	manager = make_flow_manager("Doors")
	var door := add_doorway_door(manager)
	var breakable := SwarmBreakable.new()
	breakable.max_health = 40.0
	breakable.crowd_pressure_per_agent = 1.0
	door.add_child(breakable)
	breakable.damaged.connect(func(_f: float) -> void:
		note("damaged")
		manager.get_agents_in_radius(Vector3(2, 0, 0), 3.0))
	breakable.state_changed.connect(func(_s: int) -> void:
		note("state_changed")
		manager.spawn_agent(archetype, Vector3(-15, 0, -15)))
	breakable.pressure_changed.connect(func(_c: int) -> void:
		note("pressure_changed")
		manager.get_agent_count())
	breakable.noise_made.connect(func(p: Vector3, r: float) -> void:
		note("noise_made")
		manager.emit_noise(p, r))
	breakable.broken.connect(func() -> void:
		note("broken")
		var ids := manager.get_agent_ids()
		if ids.size() > 0:
			check(manager.despawn_agent(ids[0]), "despawn_agent from broken"))
	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 2.0
	attack.swing_cooldown = 0.3
	var a := make_archetype()
	a.attack_profile = attack
	spawn_doorway_crowd(manager, a, 20)
	for f in 900:
		await get_tree().physics_frame
		if seen.has("broken"):
			break
	await physics_frames(5)
	for s in ["damaged", "state_changed", "pressure_changed", "noise_made", "broken"]:
		check(seen.has(s), "SwarmBreakable.%s was never emitted" % s)
	target.queue_free()
	manager.queue_free()
	await physics_frames(2)

	# A game-script receiver (no SwarmBreakable) that despawns its attacker from the blow.
	manager = make_flow_manager("Planks")
	var door2 := add_doorway_door(manager)
	var planks_script := GDScript.new()
	planks_script.source_code = """extends Node
var removed := 0
var amounts: Array[float] = []
var has_pushback := true
func apply_swarm_damage(amount: float, context: Dictionary) -> void:
	amounts.append(amount)
	has_pushback = has_pushback and context.get("pushback") is Vector3
	if context.source.despawn_agent(context.agent_id):
		removed += 1
"""
	planks_script.reload()
	var planks := Node.new()
	planks.set_script(planks_script)
	door2.add_child(planks)
	var target2 := SwarmTarget.new()
	add_child(target2)
	target2.global_position = Vector3(2, 0, 10)
	a.obstacle_damage_scale = 1.5
	var obstacle_damage: Array[float] = []
	manager.obstacle_attacked.connect(func(o: SwarmFlowModifier, d: float, agent_id: int) -> void:
		note("obstacle_attacked")
		check(o == door2, "obstacle_attacked names the door: %s" % o)
		check(not manager.is_agent_alive(agent_id), "obstacle_attacked after the receiver despawned the attacker")
		obstacle_damage.append(d)
		manager.get_agent_count())
	spawn_doorway_crowd(manager, a, 20)
	await physics_frames(600)
	check(planks.removed > 0, "the door's receiver despawned no attacker")
	check(planks.has_pushback, "the door receiver's context carries pushback")
	check_eq(obstacle_damage.size(), planks.amounts.size(), "obstacle_attacked once per blow")
	check(planks.amounts.all(func(d: float) -> bool: return is_equal_approx(d, 3.0)), "blows of 2 at obstacle_damage_scale 1.5: %s" % [planks.amounts])
	check(obstacle_damage == planks.amounts, "obstacle_attacked carries the damage the receiver took")
	check_eq(manager.get_agent_count(), 20 - planks.removed, "agents left after the receiver's despawns")
	target2.queue_free()
	manager.queue_free()
	await physics_frames(2)


## A director's signals: wave_spawned and population_changed handlers read and change the swarm.
func _director() -> void:
	manager = make_manager("Directed")
	var d := SwarmSpawnerDirector.new()
	d.mode = SwarmSpawnerDirector.CONTINUOUS
	d.initial_batch = 10
	d.spawn_rate = 20.0
	d.max_alive = 30
	var s := SwarmRingSpawner.new()
	s.archetype = make_archetype()
	s.inner_radius = 5
	s.outer_radius = 10
	d.add_child(s)
	d.wave_spawned.connect(func(count: int) -> void:
		note("wave_spawned")
		check(manager.get_agent_count() >= count, "count read from wave_spawned"))
	d.population_changed.connect(func(_alive: int) -> void:
		note("population_changed")
		var ids := manager.get_agent_ids()
		if ids.size() > 5:
			manager.despawn_agent(ids[0]))
	manager.add_child(d)
	await physics_frames(120)
	check(seen.has("wave_spawned"), "wave_spawned was never emitted")
	check(seen.has("population_changed"), "population_changed was never emitted")
	manager.queue_free()
	await physics_frames(2)
