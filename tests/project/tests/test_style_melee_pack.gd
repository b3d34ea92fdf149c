# Horde style "melee pack" (godot_project/demo/styles/melee_pack.tres: Surround Shape and
# Close-Range Pressure with turn-taking, a swing attack), driven through the public API: 32
# agents rush a still player. From 4 s on, at most max_active_attackers (3) of them stand within
# strike distance in nearly every physics frame (the target is pressed, never mobbed), while the
# rest wait in the queue band just outside; target_attacked fires and the player's
# apply_swarm_damage gets the same damage; the attackers take turns (many different agents land
# hits over the run).
extends "res://test_base.gd"

const Util := preload("res://styles/style_util.gd")
const COUNT := 32
const SECONDS := 15.0
const SETTLE_FRAMES := 240

var hits := 0
var damage := 0.0
var attackers := {}


func run() -> bool:
	check(Util.sync_problem("melee_pack").is_empty(), Util.sync_problem("melee_pack"))
	var style := Util.load_style("melee_pack")
	check(style != null, "melee_pack.tres did not load")
	if style == null:
		return passed()
	var b := style.behavior_profile
	check(b.use_surround_shape and b.use_pressure, "melee pack: Surround Shape and Close-Range Pressure are on")
	check(style.attack_profile != null and style.attack_profile.swing_enabled, "melee pack swings")
	var limit := b.max_active_attackers
	check(limit == 3, "max_active_attackers is %d, the style asks for 3" % limit)

	var manager := make_manager("MeleePack")
	var player_script := GDScript.new()
	player_script.source_code = "extends Node3D\nvar taken := 0.0\nfunc apply_swarm_damage(amount: float, _context: Dictionary) -> void:\n\ttaken += amount\n"
	player_script.reload()
	var player := Node3D.new()
	player.set_script(player_script)
	add_child(player)
	var target := SwarmTarget.new()
	player.add_child(target)
	manager.target_attacked.connect(func(t: SwarmTarget, amount: float, id: int) -> void:
		check(t == target, "target_attacked names another target")
		hits += 1
		damage += amount
		attackers[id] = attackers.get(id, 0) + 1)

	for p in Util.grid_points(Vector3(14, 0, 0), COUNT, 1.3, 0.15, 3):
		manager.spawn_agent(style, p)

	var queue_edge := b.strike_distance + b.queue_gap + b.arrival_distance
	var frames := 0
	var within_limit := 0
	var pressed := 0
	var most := 0
	var queued_sum := 0
	var histogram := {}
	for f in int(SECONDS * 60):
		await get_tree().physics_frame
		if f < SETTLE_FRAMES:
			continue
		var striking := 0
		var queued := 0
		for id in manager.get_agent_ids():
			var d := Util.flat_distance(manager.get_agent_position(id), target.global_position)
			if d <= b.strike_distance:
				striking += 1
			elif d <= queue_edge:
				queued += 1
		frames += 1
		histogram[striking] = histogram.get(striking, 0) + 1
		most = maxi(most, striking)
		if striking <= limit:
			within_limit += 1
		if striking > 0:
			pressed += 1
		queued_sum += queued
	await physics_frames(1)
	var queued_mean := float(queued_sum) / frames
	print("melee pack: agents within strike distance per frame %s (frames: count), most %d; %.1f waiting in the queue band on average; %d hits, %.0f damage, from %d different agents"
			% [histogram, most, queued_mean, hits, damage, attackers.size()])
	check(within_limit >= frames * 0.95, "more than %d agents within strike distance in %d of %d frames" % [limit, frames - within_limit, frames])
	check(most <= limit + 2, "%d agents within strike distance at once (limit %d)" % [most, limit])
	check(pressed >= frames * 0.8, "the target was pressed (an agent within strike distance) in only %d of %d frames" % [pressed, frames])
	check(queued_mean >= 8.0, "only %.1f agents wait in the queue band on average" % queued_mean)
	check(hits >= 10, "only %d hits landed in %.0f s" % [hits, SECONDS])
	check(is_equal_approx(player.taken, damage), "apply_swarm_damage got %.1f, target_attacked %.1f" % [player.taken, damage])
	check(attackers.size() >= 2 * limit, "only %d different agents landed hits: the attackers do not take turns" % attackers.size())
	return passed()
