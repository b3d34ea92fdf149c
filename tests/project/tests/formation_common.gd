# Shared helpers of the formation tests: the shipped presets, agent blocks, id lists, positions,
# and the geometry of straight paths on the ground plane.
extends RefCounted

const PRESET_DIR := "res://addons/swarm/formations/"


## The shipped preset `name` (line, column, wedge, square, circle), as a copy the test may edit.
static func preset(name: String) -> SwarmFormation:
	var f: SwarmFormation = load(PRESET_DIR + name + ".tres")
	return f.duplicate() as SwarmFormation


## `n` agents of `archetype` in a block `per_row` wide, `gap` m apart, centred on `center`
## (rows go toward +Z); returns their ids.
static func spawn_block(manager: SwarmManager, archetype: SwarmAgentArchetype, n: int, center: Vector3, per_row: int = 8, gap: float = 1.2) -> Array[int]:
	var ids: Array[int] = []
	var rows := ceili(float(n) / per_row)
	var origin := center - Vector3((per_row - 1) * gap * 0.5, 0, (rows - 1) * gap * 0.5)
	for i in n:
		ids.append(manager.spawn_agent(archetype, origin + Vector3((i % per_row) * gap, 0, (i / per_row) * gap)))
	return ids


static func packed(ids: Array[int]) -> PackedInt64Array:
	var out := PackedInt64Array()
	for id in ids:
		out.append(id)
	return out


static func positions(manager: SwarmManager, ids: Array[int]) -> PackedVector3Array:
	var out := PackedVector3Array()
	for id in ids:
		out.append(manager.get_agent_position(id))
	return out


## Largest distance (on the ground plane) between two lists of positions, entry by entry.
static func max_shift(a: PackedVector3Array, b: PackedVector3Array) -> float:
	var most := 0.0
	for i in mini(a.size(), b.size()):
		most = maxf(most, flat(a[i]).distance_to(flat(b[i])))
	return most


static func flat(v: Vector3) -> Vector2:
	return Vector2(v.x, v.z)


## True when the ground-plane segments a0-a1 and b0-b1 cross at a point inside both, with each
## segment's ends more than `margin` metres either side of the other's line: a crossing that
## survives moving any end by less than `margin` (an agent stops anywhere within its arrival
## radius, so two agents walking one behind the other in a file do not count).
static func segments_cross(a0: Vector3, a1: Vector3, b0: Vector3, b1: Vector3, margin: float = 0.0) -> bool:
	var p := flat(a0)
	var q := flat(a1)
	var r := flat(b0)
	var s := flat(b1)
	if p.is_equal_approx(q) or r.is_equal_approx(s):
		return false
	var u := (q - p).normalized()
	var v := (s - r).normalized()
	var d1 := u.cross(r - p)
	var d2 := u.cross(s - p)
	var d3 := v.cross(p - r)
	var d4 := v.cross(q - r)
	return d1 * d2 < 0.0 and d3 * d4 < 0.0 and minf(absf(d1), absf(d2)) > margin and minf(absf(d3), absf(d4)) > margin


## The pairs (i, j) whose straight paths starts[i]-ends[i] and starts[j]-ends[j] cross (see
## segments_cross for `margin`).
static func crossing_pairs(starts: PackedVector3Array, ends: PackedVector3Array, margin: float = 0.0) -> Array[Vector2i]:
	var out: Array[Vector2i] = []
	for i in starts.size():
		for j in range(i + 1, starts.size()):
			if segments_cross(starts[i], ends[i], starts[j], ends[j], margin):
				out.append(Vector2i(i, j))
	return out


## The ground-plane centroid of `points`.
static func centroid(points: PackedVector3Array) -> Vector3:
	var sum := Vector3.ZERO
	for p in points:
		sum += p
	return sum / maxi(1, points.size())


## World positions of the first rank's slots of `formation` placed at `destination`, facing
## from `from` toward it (-Z of the formation along that direction), as the API promises.
static func first_rank_slots(formation: SwarmFormation, destination: Vector3, from: Vector3) -> PackedVector3Array:
	var forward := destination - from
	forward.y = 0.0
	forward = forward.normalized()
	var basis := Basis.looking_at(forward, Vector3.UP)
	var out := PackedVector3Array()
	for p in formation.points:
		out.append(destination + basis * (p * formation.spacing))
	return out


## For each of `slots`, the distance to the nearest of `points`; the largest of them.
static func worst_slot_gap(slots: PackedVector3Array, points: PackedVector3Array) -> float:
	var worst := 0.0
	for s in slots:
		var best := INF
		for p in points:
			best = minf(best, flat(s).distance_to(flat(p)))
		worst = maxf(worst, best)
	return worst
