# get_stats(): every documented key is present with a sane value; agent_count, capacity, ticks and
# target counts follow what happened.
extends "res://test_base.gd"

const KEYS := ["agent_count", "capacity", "step_ms", "sync_ms", "active_targets", "registered_targets", "ticks",
	"lod_full", "lod_reduced", "lod_cheap", "dormant_count", "far_waiting", "flow_field_rebakes"]


func run() -> bool:
	var manager := make_manager("Stats", 500)
	manager.max_active_target_count = 1
	var archetype := make_archetype()
	for i in 25:
		manager.spawn_agent(archetype, Vector3(i % 5 * 2.0, 0, i / 5 * 2.0))
	var near := SwarmTarget.new()
	near.name = "Near"
	add_child(near)
	near.global_position = Vector3(4, 0, 15)
	var far := SwarmTarget.new()
	far.name = "Far"
	add_child(far)
	far.global_position = Vector3(4, 0, -80)

	await physics_frames(3)
	var s0 := manager.get_stats()
	for key in KEYS:
		check(s0.has(key), "get_stats() lacks key '%s' (has %s)" % [key, s0.keys()])
	if not failures.is_empty():
		return false
	for key in KEYS:
		var t := typeof(s0[key])
		check(t == TYPE_INT or t == TYPE_FLOAT, "stats['%s'] is not a number: %s" % [key, s0[key]])
		check(s0[key] >= 0, "stats['%s'] is negative: %s" % [key, s0[key]])
	check_eq(s0["agent_count"], 25, "stats agent_count")
	check_eq(s0["capacity"], 500, "stats capacity")
	check_eq(s0["registered_targets"], 2, "stats registered_targets")
	check_eq(s0["active_targets"], 1, "stats active_targets with max_active_target_count = 1")
	check(s0["ticks"] >= 1, "stats ticks after 3 physics frames: %s" % s0["ticks"])
	check(s0["step_ms"] >= 0.0 and s0["step_ms"] < 1000.0, "stats step_ms: %s" % s0["step_ms"])
	# The visual sync wrote 25 instances: some time, far under a second.
	check(s0["sync_ms"] > 0.0 and s0["sync_ms"] < 1000.0, "stats sync_ms: %s" % s0["sync_ms"])
	var monitor := &"Swarm/Stats sync ms"
	if check(Performance.has_custom_monitor(monitor), "the manager's sync ms monitor"):
		check(Performance.get_custom_monitor(monitor) >= 0.0, "the sync ms monitor reads a time")
	var tiers: int = s0["lod_full"] + s0["lod_reduced"] + s0["lod_cheap"]
	check(tiers <= 25, "LOD tier counts add up to %d with 25 agents" % tiers)
	check(s0["dormant_count"] <= 25, "dormant_count %s with 25 agents" % s0["dormant_count"])

	await physics_frames(10)
	var s1 := manager.get_stats()
	check_eq(s1["ticks"] - s0["ticks"], 10, "ticks advanced over 10 physics frames")
	var ids := manager.get_agent_ids()
	for i in 5:
		manager.despawn_agent(ids[i])
	check_eq(manager.get_stats()["agent_count"], 20, "stats agent_count right after despawning 5")
	far.queue_free()
	await physics_frames(2)
	var s2 := manager.get_stats()
	check_eq(s2["agent_count"], 20, "stats agent_count after despawning 5")
	check_eq(s2["registered_targets"], 1, "stats registered_targets after freeing one")
	print("stats: ", s2)
	return passed()
