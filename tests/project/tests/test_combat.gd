# The combat contract through the public API: agents with a SwarmAttackProfile hit the player
# (apply_swarm_damage(amount, context) on the SwarmTarget's parent, target_attacked signal);
# game code damages agents (damage_agent, damage_agents_in_radius, raycast_agents); deaths emit
# agent_died then agent_despawned and the body sinks away in the MultiMesh; bad amounts are refused.
# expect_error: damage_agent: amount -5 must be a finite number >= 0
# expect_error: damage_agent: agent id
extends "res://test_base.gd"

var attacked := 0
var attacked_damage := 0.0
var died: Array[int] = []
var despawned: Array[int] = []


func run() -> bool:
	var manager := make_manager("Fight")
	var player_script := GDScript.new()
	player_script.source_code = "extends Node3D\nvar taken := 0.0\nvar last_context := {}\nfunc apply_swarm_damage(amount: float, context: Dictionary) -> void:\n\ttaken += amount\n\tlast_context = context\n"
	player_script.reload()
	var player := Node3D.new()
	player.set_script(player_script)
	add_child(player)
	var target := SwarmTarget.new()
	player.add_child(target)

	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 4.0
	attack.swing_cooldown = 0.3
	var a := make_archetype()
	a.attack_profile = attack
	manager.target_attacked.connect(func(t, dmg, agent_id):
		check(t == target, "target_attacked names the wrong target")
		check(manager.is_agent_alive(agent_id), "target_attacked names a dead agent")
		attacked += 1
		attacked_damage += dmg)
	manager.agent_died.connect(func(id, pos): died.append(id))
	manager.agent_despawned.connect(func(id): despawned.append(id))

	var ids: Array[int] = []
	for i in 8:
		ids.append(manager.spawn_agent(a, Vector3(cos(i * 0.8) * 6.0, 0, sin(i * 0.8) * 6.0)))
	await physics_frames(240)
	var active := manager.get_active_targets()
	check(active.size() == 1 and active[0] == target, "get_active_targets: %s" % [active])
	check(attacked > 5, "only %d hits landed in 4 s" % attacked)
	check(is_equal_approx(player.taken, attacked_damage), "apply_swarm_damage got %.1f, signals %.1f" % [player.taken, attacked_damage])
	var ctx: Dictionary = player.last_context
	check(ctx.get("source") == manager, "context.source is not the manager")
	check(ids.has(ctx.get("agent_id", -1)), "context.agent_id is not one of the agents")
	for key in ["hit_point", "direction", "pushback"]:
		check(ctx.get(key) is Vector3, "context.%s missing" % key)

	# Game code fights back.
	var victim := ids[0]
	check(manager.damage_agent(victim, 30.0, {}), "damage_agent on a live agent")
	check(is_equal_approx(manager.get_agent_health(victim), 70.0), "health after 30 damage: %.1f" % manager.get_agent_health(victim))
	check(manager.damage_agent(victim, 100.0, {"source": self}), "lethal damage_agent")
	check(not manager.is_agent_alive(victim), "a killed agent is still alive")
	check_eq(died, [victim], "agent_died")
	check_eq(despawned, [victim], "agent_despawned after death")
	await physics_frames(1)
	# The body sinks away for a moment: one extra instance beside the 7 live agents.
	check_eq(manager.get_archetype_multimesh(a).instance_count, 8, "instances while the body sinks")
	await physics_frames(60)
	check_eq(manager.get_archetype_multimesh(a).instance_count, 7, "instances after the body sank")

	var hit := manager.raycast_agents(Vector3(0, 1, 0), manager.get_agent_position(ids[1]) + Vector3(0, 1, 0))
	check(not hit.is_empty(), "raycast towards an agent hit nothing")
	if not hit.is_empty():
		check(manager.is_agent_alive(hit["id"]), "raycast hit a dead agent")
		check(hit["position"] is Vector3, "raycast position")
	check(manager.raycast_agents(Vector3(0, 50, 0), Vector3(10, 50, 0)).is_empty(), "raycast in the sky hit something")

	var n := manager.damage_agents_in_radius(Vector3.ZERO, 100.0, 1000.0)
	check_eq(n, 7, "damage_agents_in_radius hit count")
	check_eq(manager.get_agent_count(), 0, "everyone died")
	check_eq(died.size(), 8, "agent_died count")

	check(not manager.damage_agent(ids[0], 1.0, {}), "damage_agent on a dead agent")
	var s := manager.spawn_agent(a, Vector3(30, 0, 30))
	check(not manager.damage_agent(s, -5.0, {}), "negative damage accepted")
	check(manager.is_agent_alive(s), "negative damage hurt the agent")
	return passed()
