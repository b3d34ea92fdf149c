# Save and load of the state kept in nodes: a door (SwarmFlowModifier) with a SwarmBreakable, a
# director driving a ring spawner, a spawner of its own, and a traffic lane. Saved mid-run with
# the door damaged; then the game goes on for N frames with scripted events (the door breaks and
# is opened, the spawner spawns, the director spawns on); everything is recorded. After
# load_state the nodes read as they were at the save (health, state, route cost, switches, the
# broken door's leaf shown again, lane vehicles, director counts), and the same N frames with
# the same events record identically: agents, door, breakable, director, spawner draws, lane.
# A saved node that is gone is reported (a warning) and skipped.
extends "res://test_base.gd"

const FRAMES := 40
const TrafficCommon := preload("res://tests/traffic_common.gd")

var m: SwarmManager
var door: SwarmFlowModifier
var breakable: SwarmBreakable
var leaf: MeshInstance3D
var director: SwarmSpawnerDirector
var spawner: SwarmRectSpawner
var lane: SwarmTrafficLane
var spawned_by_script: Array = []


func run() -> bool:
	await make_doorway_level()
	m = make_flow_manager("PartsSaver", 600)
	door = add_doorway_door(m, SwarmFlowModifier.Route.EXTRA_COST, 12.0)
	leaf = MeshInstance3D.new()
	leaf.name = "Leaf"
	door.add_child(leaf)
	breakable = SwarmBreakable.new()
	breakable.name = "Breakable"
	breakable.max_health = 100.0
	breakable.crowd_pressure_per_agent = 0.5
	door.add_child(breakable)
	breakable.hide_on_break = [breakable.get_path_to(leaf)]
	var target := SwarmTarget.new()
	target.name = "Bait"
	m.add_child(target)
	target.position = Vector3(2, 0, 10)
	var archetype := make_archetype()
	spawn_doorway_crowd(m, archetype, 60)

	director = SwarmSpawnerDirector.new()
	director.name = "Director"
	director.mode = SwarmSpawnerDirector.Mode.CONTINUOUS
	director.initial_batch = 5
	director.spawn_rate = 3.0
	director.max_alive = 40
	director.total_limit = 200
	director.auto_start = false
	var ring := SwarmRingSpawner.new()
	ring.name = "Ring"
	ring.archetype = archetype
	ring.inner_radius = 2
	ring.outer_radius = 6
	ring.position = Vector3(-10, 0, -12)
	ring.random_seed = 5
	director.add_child(ring)
	m.add_child(director)

	spawner = SwarmRectSpawner.new()
	spawner.name = "Rect"
	spawner.archetype = archetype
	spawner.size = Vector2(8, 4)
	spawner.position = Vector3(8, 0, -10)
	spawner.random_seed = 9
	m.add_child(spawner)

	var street := TrafficCommon.make_street(self, "Street", 300.0, 40.0)
	lane = TrafficCommon.make_lane(self, "Lane", street, TrafficCommon.make_profile())

	director.trigger()
	spawner.spawn(4)
	await physics_frames(20)
	breakable.apply_swarm_damage(60.0, {})
	check_eq(breakable.get_state(), SwarmBreakable.State.DAMAGED, "state before the save")
	await physics_frames(10)

	var at_save := _nodes()
	var bytes: PackedByteArray = m.save_state()
	var first := await _play()
	check_eq(breakable.get_state(), SwarmBreakable.State.BROKEN, "the door broke during the first run")
	check(not leaf.visible, "the broken door's leaf is hidden")

	check(m.load_state(bytes) == OK, "load_state")
	var after_load := _nodes()
	check_eq(after_load, at_save, "nodes right after load_state against the save")
	check(leaf.visible, "the leaf is shown again: the saved door was not broken")
	var second := await _play()
	var differ := 0
	for i in first.size():
		if i >= second.size() or typeof(first[i]) != typeof(second[i]) or first[i] != second[i]:
			differ += 1
	print("save_parts: %d bytes; %d of %d recorded values differ after load" % [bytes.size(), differ, first.size()])
	check(first.size() == second.size() and differ == 0, "stepping on after a load differs: %d of %d values" % [differ, first.size()])

	# A save that names a spawner no longer in the scene: reported and skipped, the rest loads.
	var gone := SwarmRectSpawner.new()
	gone.name = "Gone"
	gone.archetype = archetype
	m.add_child(gone)
	gone.spawn(1)
	var with_gone := m.save_state()
	gone.free()
	check(m.load_state(with_gone) == OK, "load_state with a saved spawner gone")

	# A saved spawner whose path now leads to another kind of node: reported and skipped.
	var director_total := director.get_spawned_total()
	var saved := m.save_state()
	director.trigger()
	await physics_frames(5)
	spawner.free()
	var impostor := Node3D.new()
	impostor.name = "Rect"
	m.add_child(impostor)
	check(m.load_state(saved) == OK, "load_state with a spawner's path taken by a Node3D")
	check_eq(director.get_spawned_total(), director_total, "the director's schedule loads beside it")
	return passed()


## The nodes' saved state as the game reads it.
func _nodes() -> Array:
	return [
		breakable.get_health(), breakable.get_state(), door.route_cost, door.enabled, door.is_open,
		director.get_spawned_total(), director.get_alive_count(), director.is_running(),
		lane.get_vehicle_offsets(), lane.get_vehicle_speeds(),
	]


## FRAMES frames with the same scripted events; returns everything recorded along the way.
func _play() -> Array:
	var out := []
	for f in FRAMES:
		if f == 5:
			breakable.break_now()
		if f == 12:
			door.is_open = true
		if f == 15:
			out.append(spawner.spawn(3))
		await physics_frames(1)
		if f % 10 == 9:
			out.append(_nodes())
	out.append_array(record_agents(m))
	out.append(_nodes())
	return out
