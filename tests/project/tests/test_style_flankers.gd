# Horde style "flankers" (godot_project/demo/styles/flankers.tres: Predictive Catch-Up and Hold
# Nearby Swarm, faster), driven through the public API against the default horde: a pack of 16
# starts 20 m beside the path of a target that crosses in front of it at 3 m/s. The time each
# agent takes to first come within 5 m of the target is averaged (16 s for one that never does).
# The flankers get there in well under the default horde's mean time, a good share of them
# ahead of the target (they cut it off, where the default horde only trails it); and the
# flankers' behaviour on the default horde's slower movement profile still beats the default
# horde, so the lead, not only the speed, helps.
extends "res://test_base.gd"

const Util := preload("res://styles/style_util.gd")
const COUNT := 16
const SECONDS := 16.0
const REACH := 5.0
const TARGET_SPEED := 3.0
const TARGET_START := Vector3(-12, 0, 0)
const PACK_CENTRE := Vector3(0, 0, 20)


func run() -> bool:
	check(Util.sync_problem("flankers").is_empty(), Util.sync_problem("flankers"))
	check(Util.sync_problem("default_horde").is_empty(), Util.sync_problem("default_horde"))
	var horde := Util.load_style("default_horde")
	var flankers := Util.load_style("flankers")
	check(horde != null and flankers != null, "styles did not load")
	if horde == null or flankers == null:
		return passed()
	var fb := flankers.behavior_profile
	check(fb.use_predictive and fb.use_hold_nearby, "flankers: Predictive Catch-Up and Hold Nearby Swarm are on")
	check(flankers.movement_profile.max_speed.x > horde.movement_profile.max_speed.y,
			"flankers are faster than the default horde (%s vs %s)" % [flankers.movement_profile.max_speed, horde.movement_profile.max_speed])
	var lead_only: SwarmAgentArchetype = flankers.duplicate()
	lead_only.movement_profile = horde.movement_profile

	var h: Dictionary = await _race("default horde", horde)
	var f: Dictionary = await _race("flankers", flankers)
	var l: Dictionary = await _race("flankers' behaviour at the horde's speed", lead_only)
	check(f.reached == COUNT, "only %d of %d flankers reached the target" % [f.reached, COUNT])
	check(f.mean < h.mean * 0.6, "flankers' mean time %.2f s is not well under the default horde's %.2f s" % [f.mean, h.mean])
	check(f.ahead >= COUNT / 4 and f.ahead > h.ahead, "%d of %d flankers met the target ahead of it (default horde: %d): they do not cut it off" % [f.ahead, f.reached, h.ahead])
	check(l.mean < h.mean * 0.8, "at the horde's speed the flankers' behaviour takes %.2f s, the default horde %.2f s" % [l.mean, h.mean])
	return passed()


## Runs one pack against the crossing target; returns mean (s), reached (count) and ahead (count
## of agents that reached the target ahead of it, along its direction of travel).
func _race(label: String, style: SwarmAgentArchetype) -> Dictionary:
	var manager := make_manager("Race")
	var target := SwarmTarget.new()
	manager.add_child(target)
	target.global_position = TARGET_START
	var ids: Array[int] = []
	for p in Util.grid_points(PACK_CENTRE, COUNT, 1.3, 0.15, 5):
		ids.append(manager.spawn_agent(style, p))
	var reached := {}
	var ahead := 0
	for f in int(SECONDS * 60):
		target.global_position += Vector3(TARGET_SPEED / 60.0, 0, 0)
		await get_tree().physics_frame
		var t := target.global_position
		for id in ids:
			if reached.has(id):
				continue
			var p := manager.get_agent_position(id)
			if Util.flat_distance(p, t) <= REACH:
				reached[id] = (f + 1) / 60.0
				if p.x > t.x:
					ahead += 1
	var total := 0.0
	for id in ids:
		total += reached.get(id, SECONDS)
	var r := {"mean": total / COUNT, "reached": reached.size(), "ahead": ahead}
	print("%s: mean time to come within %.0f m of a target crossing at %.1f m/s %.2f s; %d of %d reached it, %d of them ahead of it"
			% [label, REACH, TARGET_SPEED, r.mean, r.reached, COUNT, ahead])
	manager.queue_free()
	await physics_frames(2)
	return r
