# The director's pressure recycler: every recycle_interval it asks the manager for agents that are
# off camera and farther than recycle_distance from every active target, and moves them to fresh
# off-screen points of its spawner (a ring carried by the player), preferring points ahead of the
# player. Agents in view, and agents near the player, are never moved. Agents here cannot walk
# (max_speed 0), so any change of position is the recycler's.
extends "res://test_base.gd"

var recycled := 0


func run() -> bool:
	var m := make_manager("Horde")
	var cam := Camera3D.new()
	cam.name = "Eye"
	cam.position = Vector3(0, 1.7, 0)  # looks down -Z
	add_child(cam)
	cam.make_current()

	var player := SwarmTarget.new()
	player.name = "Player"
	player.rotation = Vector3(0, -PI / 2, 0)  # faces +X
	add_child(player)
	var ring := SwarmRingSpawner.new()
	ring.name = "AroundPlayer"
	ring.inner_radius = 15
	ring.outer_radius = 35
	player.add_child(ring)

	var frozen := SwarmMovementProfile.new()
	frozen.max_speed = Vector2(0, 0)
	var still := SwarmBehaviorProfile.new()
	still.use_idle_motion = false
	var archetype := make_archetype()
	archetype.movement_profile = frozen
	archetype.behavior_profile = still

	var in_view_far: Array[int] = []  # 80 m ahead of the camera: far, but seen
	var behind_far: Array[int] = []  # 80 m behind the camera: far and unseen -> recycled
	var behind_near: Array[int] = []  # 20 m behind: unseen but near -> kept
	for i in 10:
		in_view_far.append(m.spawn_agent(archetype, Vector3(-15 + i * 3, 0, -80)))
		behind_far.append(m.spawn_agent(archetype, Vector3(-15 + i * 3, 0, 80)))
		behind_near.append(m.spawn_agent(archetype, Vector3(-15 + i * 3, 0, 20)))
	var start := {}
	for id in m.get_agent_ids():
		start[id] = m.get_agent_position(id)

	var d := SwarmSpawnerDirector.new()
	d.name = "Director"
	d.auto_start = false
	d.recycle_enabled = true
	d.recycle_distance = 50
	d.recycle_interval = 0.1
	d.recycle_max_per_pass = 4
	add_child(d)
	d.spawners = [d.get_path_to(ring)]
	d.agents_recycled.connect(func(n): recycled += n)

	await physics_frames(2)
	check(recycled <= 4, "a pass moved more than recycle_max_per_pass = 4 agents: %d" % recycled)
	await physics_frames(40)
	check_eq(recycled, 10, "agents_recycled total")
	check_eq(m.get_agent_count(), 30, "agent count (the recycler moves, never spawns or despawns)")

	for id in in_view_far + behind_near:
		check(m.get_agent_position(id).distance_to(start[id]) < 0.01, "agent %d at %s was moved to %s" % [id, start[id], m.get_agent_position(id)])
	var ahead := 0.0
	for id in behind_far:
		var p := m.get_agent_position(id)
		var r := Vector2(p.x, p.z).length()
		check(r >= 15 - 0.01 and r <= 35 + 0.01, "recycled agent %d at %s is not on the player's ring" % [id, p])
		check(not (cam.is_position_in_frustum(p) or cam.is_position_in_frustum(p + Vector3.UP * 2)), "recycled agent %d at %s is in view" % [id, p])
		ahead += Vector2(p.x, p.z).normalized().dot(Vector2(1, 0))
	ahead /= behind_far.size()
	print("recycler: %d moved, mean alignment with the player's facing %.2f" % [recycled, ahead])
	check(ahead > 0.5, "recycled agents are not ahead of the player (facing +X): mean alignment %.2f" % ahead)

	# recycle_now() with nothing far left moves nothing.
	check_eq(d.recycle_now(), 0, "recycle_now() with no far, unseen agent")
	return passed()
