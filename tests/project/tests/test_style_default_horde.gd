# Horde style "default horde" (godot_project/demo/styles/default_horde.tres: Approach & Surround,
# Personal Space, Idle Motion), driven through the public API: 160 agents that start in one
# patch (a 15 m square) 30 m east of a still target spread all the way round it (every 45-degree sector around
# the target is held, a quarter of them on the far, western side), close in to a tight crowd, and
# keep their personal space. The resource copy in tests/project/styles must match the demo's.
extends "res://test_base.gd"

const Util := preload("res://styles/style_util.gd")
const COUNT := 160
const SECONDS := 12.0


func run() -> bool:
	check(Util.sync_problem("default_horde").is_empty(), Util.sync_problem("default_horde"))
	var style := Util.load_style("default_horde")
	check(style != null, "default_horde.tres did not load")
	if style == null:
		return passed()
	var b := style.behavior_profile
	check(b.use_approach and b.use_personal_space and b.use_idle_motion, "default horde: approach, personal space and idle motion are on")
	check(not (b.use_surround_shape or b.use_pressure or b.use_orbit or b.use_retreat or b.use_predictive or b.use_out_of_sight or b.use_hold_nearby),
			"default horde uses only the three standard behaviours")

	var manager := make_manager("DefaultHorde")
	var target := SwarmTarget.new()
	add_child(target)
	var ids: Array[int] = []
	for p in Util.grid_points(Vector3(30, 0, 0), COUNT, 1.2, 0.15, 11):
		ids.append(manager.spawn_agent(style, p))
	await physics_frames(int(SECONDS * 60))

	var t := target.global_position
	var sectors := PackedInt32Array()
	sectors.resize(8)
	var mean := 0.0
	var west := 0
	var farthest := 0.0
	var points: Array[Vector3] = []
	for id in ids:
		var p := manager.get_agent_position(id)
		points.append(p)
		var d := Util.flat_distance(p, t)
		mean += d / COUNT
		farthest = maxf(farthest, d)
		if p.x < t.x - 1.0:
			west += 1
		var s := int(floor((Util.bearing(t, p) + PI) / TAU * 8.0)) % 8
		sectors[s] += 1
	var closest_pair := INF
	for i in points.size():
		for j in range(i + 1, points.size()):
			closest_pair = minf(closest_pair, Util.flat_distance(points[i], points[j]))
	print("default horde after %.0f s: mean distance %.2f m, farthest %.2f m, %d of %d west of the target, per 45-degree sector %s, closest pair %.2f m"
			% [SECONDS, mean, farthest, west, COUNT, sectors, closest_pair])
	check(mean < 7.0, "mean distance to the target %.2f m, expected < 7 m (gathered round it)" % mean)
	check(farthest < 14.0, "an agent is still %.2f m away" % farthest)
	var fewest := COUNT
	for n in sectors:
		fewest = mini(fewest, n)
	# An even spread puts 20 in each sector; a pile on the near side leaves the far sectors empty.
	check(fewest >= 10, "a 45-degree sector round the target holds only %d agents (sectors %s): not surrounded" % [fewest, sectors])
	check(west >= COUNT / 4, "only %d of %d agents went round to the far (west) side" % [west, COUNT])
	check(closest_pair > 0.6, "two agents are %.2f m apart (bodies 0.8 m wide)" % closest_pair)
	return passed()
