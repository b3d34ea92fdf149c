# Agents pressing a closed SwarmFlowModifier strike whatever takes damage there: a child with
# apply_swarm_damage(amount, context) (here a game script, later a SwarmBreakable), scaled by its
# strike_damage_scale; with strike_damage_scale 0 or agents_attack_it off they only press. The
# crowd's push direction points through the door.
extends "res://test_base.gd"


func run() -> bool:
	await make_doorway_level()
	var manager := make_flow_manager("Strikes")

	var door := add_doorway_door(manager)
	var planks_script := GDScript.new()
	planks_script.source_code = "extends Node\nvar strike_damage_scale := 0.5\nvar taken := 0.0\nvar hits := 0\nvar last := {}\nfunc apply_swarm_damage(amount: float, context: Dictionary) -> void:\n\ttaken += amount\n\thits += 1\n\tlast = context\n"
	planks_script.reload()
	var planks := Node.new()
	planks.set_script(planks_script)
	door.add_child(planks)

	var target := SwarmTarget.new()
	add_child(target)
	target.global_position = Vector3(2, 0, 10)
	var attack := SwarmAttackProfile.new()
	attack.swing_damage = 10.0
	var a := make_archetype()
	a.attack_profile = attack
	for i in 20:
		manager.spawn_agent(a, Vector3(-3 + (i % 5) * 1.5, 0, -4 - (i / 5) * 1.2))

	await physics_frames(480)
	check(planks.hits >= 5, "blows on the door: %d" % planks.hits)
	check(is_equal_approx(planks.taken, planks.hits * 5.0), "strike_damage_scale 0.5 halves 10 damage: %.1f over %d hits" % [planks.taken, planks.hits])
	check(planks.last.get("source") == manager and planks.last.get("hit_point") is Vector3, "context of a blow on the door")
	var push := door.get_crowd_push_direction()
	check(push.z > 0.5, "the crowd shoves the door toward the target: %s" % push)

	# Scale 0: they press but do not swing.
	planks.strike_damage_scale = 0.0
	await physics_frames(60)
	var hits_before: int = planks.hits
	await physics_frames(240)
	check_eq(planks.hits, hits_before, "blows with strike_damage_scale 0")
	check(door.get_pressing_agent_count() > 0, "agents still press the door")
	# agents_attack_it off: no blows either.
	planks.strike_damage_scale = 1.0
	door.agents_attack_it = false
	await physics_frames(60)
	hits_before = planks.hits
	await physics_frames(240)
	check_eq(planks.hits, hits_before, "blows with agents_attack_it off")
	return passed()
