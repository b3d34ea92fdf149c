# Horde style "far horde" (godot_project/demo/styles/far_horde.tres: Out-of-Sight Fallback with a
# short sight_distance), driven through the public API: three groups of 12 around a still
# target. The front stands inside sight distance; the followers stand beyond it but within
# follow_radius of the front; the lost group stands as far beyond it on the other side, with no
# ally near. In 8 s the followers close in on the target behind the front (they follow allies who
# see it, and then see it themselves), while the lost group does not move toward it (it only
# idles). Then the target walks up to within sight of the lost group's nearest agents: now the
# rest of the lost group follows them in.
extends "res://test_base.gd"

const Util := preload("res://styles/style_util.gd")
const COUNT := 12


func run() -> bool:
	check(Util.sync_problem("far_horde").is_empty(), Util.sync_problem("far_horde"))
	var style := Util.load_style("far_horde")
	check(style != null, "far_horde.tres did not load")
	if style == null:
		return passed()
	var b := style.behavior_profile
	check(b.use_out_of_sight, "far horde: Out-of-Sight Fallback is on")
	var sight := b.sight_distance
	check(sight <= 15.0, "far horde: sight_distance %.1f m is not short" % sight)

	var manager := make_manager("FarHorde")
	var target := SwarmTarget.new()
	add_child(target)
	# Front: centred 3 m inside sight. Followers: centred 4 m beyond it (well within follow_radius
	# of the front). Lost: as far beyond sight on the other side, alone.
	var front := _spawn(manager, style, Vector3(sight - 3.0, 0, 0), 1)
	var followers := _spawn(manager, style, Vector3(sight + 4.0, 0, 0), 2)
	var lost := _spawn(manager, style, Vector3(-(sight + 25.0), 0, 0), 3)
	var t := target.global_position
	var lost_start := _positions(manager, lost)
	var followers_before := _mean_distance(manager, followers, t)
	var lost_before := _mean_distance(manager, lost, t)
	var beyond := 0
	for id in followers + lost:
		if Util.flat_distance(manager.get_agent_position(id), t) > sight:
			beyond += 1
	check_eq(beyond, 2 * COUNT, "followers and lost agents beyond sight distance at the start")

	await physics_frames(8 * 60)
	var front_after := _mean_distance(manager, front, t)
	var followers_after := _mean_distance(manager, followers, t)
	var lost_after := _mean_distance(manager, lost, t)
	var lost_drift := 0.0
	var lost_ids := lost
	for k in lost_ids.size():
		lost_drift = maxf(lost_drift, manager.get_agent_position(lost_ids[k]).distance_to(lost_start[k]))
	print("far horde after 8 s: front %.1f m from the target, followers %.1f -> %.1f m, lost group %.1f -> %.1f m (each moved at most %.1f m)"
			% [front_after, followers_before, followers_after, lost_before, lost_after, lost_drift])
	check(front_after < 6.0, "the front (which sees the target) is still %.1f m away" % front_after)
	check(followers_after < sight - 4.0, "the followers only came from %.1f to %.1f m: they did not follow the front in" % [followers_before, followers_after])
	check(absf(lost_after - lost_before) < 1.5, "the lost group moved from %.1f to %.1f m of the target without seeing it or any ally who does" % [lost_before, lost_after])
	check(lost_drift < 5.0, "a lost agent wandered %.1f m: more than idle motion (a shuffle at 15%% of max speed)" % lost_drift)

	# The target comes within sight of the lost group's near edge; the rest follow those in.
	target.global_position = Vector3(-(sight + 25.0) + sight + 2.0, 0, 0)
	t = target.global_position
	var seeing := 0
	for id in lost:
		if Util.flat_distance(manager.get_agent_position(id), t) <= sight:
			seeing += 1
	var lost_near_before := _mean_distance(manager, lost, t)
	await physics_frames(8 * 60)
	var lost_near_after := _mean_distance(manager, lost, t)
	print("far horde: target moved near the lost group (%d of %d within sight): %.1f -> %.1f m" % [seeing, COUNT, lost_near_before, lost_near_after])
	check(seeing > 0 and seeing < COUNT, "the moved target should be seen by some, not all, of the lost group (%d of %d)" % [seeing, COUNT])
	check(lost_near_after < 6.0, "once allies saw the target the lost group only came to %.1f m of it" % lost_near_after)
	return passed()


func _spawn(manager: SwarmManager, style: SwarmAgentArchetype, centre: Vector3, seed: int) -> Array[int]:
	var ids: Array[int] = []
	for p in Util.grid_points(centre, COUNT, 1.3, 0.15, seed):
		ids.append(manager.spawn_agent(style, p))
	return ids


func _positions(manager: SwarmManager, ids: Array[int]) -> Array[Vector3]:
	var out: Array[Vector3] = []
	for id in ids:
		out.append(manager.get_agent_position(id))
	return out


func _mean_distance(manager: SwarmManager, ids: Array[int], to: Vector3) -> float:
	var sum := 0.0
	for id in ids:
		sum += Util.flat_distance(manager.get_agent_position(id), to)
	return sum / ids.size()
