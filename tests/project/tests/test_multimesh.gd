# One MultiMesh per archetype with a mesh: after a physics frame its instance_count equals that
# archetype's live agent count, and follows spawns and despawns; its instances sit where the agents
# are. An archetype that never spawned has no MultiMesh (null).
extends "res://test_base.gd"

const N := 37
const M := 23


func run() -> bool:
	var manager := make_manager("Crowd")
	# No target and no idle wander: agents stand still, so drawn and simulated positions must agree.
	var still := SwarmBehaviorProfile.new()
	still.use_idle_motion = false
	var box := make_archetype(BoxMesh.new())
	box.behavior_profile = still
	var capsule := make_archetype(CapsuleMesh.new())
	capsule.behavior_profile = still
	var unused := make_archetype(SphereMesh.new())

	var box_ids: Array[int] = []
	var capsule_ids: Array[int] = []
	for i in N:
		box_ids.append(manager.spawn_agent(box, Vector3((i % 10) * 3.0, 0, (i / 10) * 3.0)))
	for i in M:
		capsule_ids.append(manager.spawn_agent(capsule, Vector3(-5.0 - (i % 10) * 3.0, 0, -5.0 - (i / 10) * 3.0)))
	check(box_ids.min() >= 0 and capsule_ids.min() >= 0, "a spawn failed")

	await physics_frames(1)
	var box_mm := manager.get_archetype_multimesh(box)
	var capsule_mm := manager.get_archetype_multimesh(capsule)
	if not check(box_mm != null and capsule_mm != null, "get_archetype_multimesh returned null for an archetype with agents"):
		return false
	check(box_mm != capsule_mm, "both archetypes share one MultiMesh")
	check_eq(box_mm.instance_count, N, "box instance_count after spawning")
	check_eq(capsule_mm.instance_count, M, "capsule instance_count after spawning")
	check(box_mm.mesh == box.mesh, "box MultiMesh does not draw the archetype's mesh")
	check(capsule_mm.mesh == capsule.mesh, "capsule MultiMesh does not draw the archetype's mesh")
	check(manager.get_archetype_multimesh(unused) == null, "an archetype with no agents has a MultiMesh")
	check(manager.get_archetype_multimesh(null) == null, "get_archetype_multimesh(null) is not null")

	# One internal MultiMeshInstance3D child per archetype with agents, holding those MultiMeshes.
	var drawn := []
	for child in manager.get_children(true):
		if child is MultiMeshInstance3D:
			drawn.append(child.multimesh)
	check_eq(drawn.size(), 2, "MultiMeshInstance3D children of the manager")
	check(box_mm in drawn and capsule_mm in drawn, "the archetype MultiMeshes are not on the manager's MultiMeshInstance3D children")

	await physics_frames(8)
	_check_positions(manager, box_mm, box_ids, "box")
	_check_positions(manager, capsule_mm, capsule_ids, "capsule")
	_check_aabb(box_mm, "box")
	_check_aabb(capsule_mm, "capsule")

	# Despawn some of each: the counts follow after the next physics frame.
	for i in range(0, 20, 2):  # 10 boxes
		check(manager.despawn_agent(box_ids[i]), "despawn box %d" % i)
	for i in [0, 5, 7, 21, 22]:  # 5 capsules, including the last spawned
		check(manager.despawn_agent(capsule_ids[i]), "despawn capsule %d" % i)
	var live_boxes := box_ids.filter(func(id): return manager.is_agent_alive(id))
	var live_capsules := capsule_ids.filter(func(id): return manager.is_agent_alive(id))
	check_eq(live_boxes.size(), N - 10, "live boxes")
	check_eq(live_capsules.size(), M - 5, "live capsules")
	await physics_frames(1)
	check_eq(box_mm.instance_count, N - 10, "box instance_count after despawning 10")
	check_eq(capsule_mm.instance_count, M - 5, "capsule instance_count after despawning 5")
	await physics_frames(8)
	_check_positions(manager, box_mm, live_boxes, "box after despawns")
	_check_positions(manager, capsule_mm, live_capsules, "capsule after despawns")
	_check_aabb(box_mm, "box after despawns")

	# Spawning again grows the count; despawning all of an archetype empties it.
	for i in 4:
		manager.spawn_agent(box, Vector3(40.0 + i * 3.0, 0, 40.0))
	for id in live_capsules:
		manager.despawn_agent(id)
	await physics_frames(1)
	var box_now := manager.get_archetype_multimesh(box)
	var capsule_now := manager.get_archetype_multimesh(capsule)
	check(box_now != null and box_now.instance_count == N - 10 + 4,
		"box instance_count after 4 more spawns: %s" % [box_now.instance_count if box_now else "null"])
	check(capsule_now == null or capsule_now.instance_count == 0,
		"capsule instance_count after despawning all: %s" % [capsule_now.instance_count if capsule_now else "null"])
	check_eq(manager.get_agent_count(), N - 10 + 4, "get_agent_count at the end")
	return passed()


## The instance origins (in the manager's space; the manager is at the origin) must be the agents'
## positions, as a multiset, within 5 cm horizontally (a mesh may be lifted to stand on the ground).
func _check_positions(manager: SwarmManager, mm: MultiMesh, ids: Array, what: String) -> void:
	var buf := mm.buffer
	if mm.instance_count == 0 or buf.is_empty():
		check(ids.is_empty(), "%s: MultiMesh buffer empty but %d agents live" % [what, ids.size()])
		return
	var stride := buf.size() / mm.instance_count
	if not check(stride >= 12 and stride * mm.instance_count == buf.size(), "%s: buffer size %d for %d instances" % [what, buf.size(), mm.instance_count]):
		return
	var drawn: Array[Vector2] = []
	for i in mm.instance_count:
		drawn.append(Vector2(buf[i * stride + 3], buf[i * stride + 11]))
	var missing := 0
	for id in ids:
		var p3 := manager.get_agent_position(id)
		var p := Vector2(p3.x, p3.z)
		var found := -1
		for j in drawn.size():
			if drawn[j].distance_to(p) < 0.05:
				found = j
				break
		if found < 0:
			missing += 1
		else:
			drawn.remove_at(found)
	check(missing == 0, "%s: %d of %d agents are not drawn where they are" % [what, missing, ids.size()])


## The MultiMesh carries a custom AABB (so the renderer does not recompute one from every
## instance on each upload) that encloses every instance's mesh box as drawn.
func _check_aabb(mm: MultiMesh, what: String) -> void:
	var aabb := mm.custom_aabb
	if not check(aabb.size != Vector3.ZERO, "%s: the MultiMesh has no custom AABB" % what):
		return
	var buf := mm.buffer
	var stride := buf.size() / mm.instance_count
	var mesh_box := mm.mesh.get_aabb()
	var outside := 0
	for i in mm.instance_count:
		var k := i * stride
		var basis := Basis(Vector3(buf[k], buf[k + 4], buf[k + 8]), Vector3(buf[k + 1], buf[k + 5], buf[k + 9]),
			Vector3(buf[k + 2], buf[k + 6], buf[k + 10]))
		var drawn := Transform3D(basis, Vector3(buf[k + 3], buf[k + 7], buf[k + 11])) * mesh_box
		if not aabb.grow(0.001).encloses(drawn):
			outside += 1
	check(outside == 0, "%s: %d of %d instances reach outside the custom AABB %s" % [what, outside, mm.instance_count, aabb])
	# Tight enough to cull by: no more than the mesh's reach around the instance origins.
	check(aabb.size.x < 40.0 and aabb.size.z < 40.0, "%s: custom AABB %s is far larger than the crowd" % [what, aabb])
