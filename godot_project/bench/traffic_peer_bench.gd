extends "res://bench/traffic_common.gd"
## The peer of traffic_bench.gd: what a Godot user would write without Swarm. One PathFollow3D
## with a MeshInstance3D child per vehicle, driven from GDScript (one script per lane, arrays per
## lane) with the same rules: safe speed sqrt(2 * braking * max(0, gap - brake_gap)), never
## closer than the brake gap, go phases committed to 0.8..2 body lengths of real progress, pauses
## of 0.4..1.2 s, and the same endless belt around the same anchor (vehicles leaving the window's
## leading edge re-packed behind the back, at the packing gap). Same lanes, anchor and
## measurement as traffic_bench.gd.
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/traffic_peer_bench.gd -- \
##       --agents=10000 --frames=300 --out=/abs/path/traffic_peer_10000.json

const CRAWL := 2.5
const ACCEL := 2.0
const BRAKE := 6.0
const PACKING_GAP := 2.5
const BRAKE_GAP := 0.6
const HALF := 2.2

var lanes: Array = []


## One lane: its followers and its car-following loop.
class PeerLane extends Node:
	var reverse := false
	var anchor: Node3D
	var followers: Array[PathFollow3D] = []
	var s := PackedFloat32Array()  # travel coordinate, front first by ring
	var speed := PackedFloat32Array()
	var rolling: Array[bool] = []
	var budget := PackedFloat32Array()
	var timer := PackedFloat32Array()
	var head := 0
	var rng := RandomNumberGenerator.new()
	var moving := 0
	var recycled := 0

	func _physics_process(delta: float) -> void:
		var n := s.size()
		var a := anchor.position.x if not reverse else STREET - anchor.position.x
		var lead := minf(a + WINDOW, STREET)
		var has_leader := false
		var leader_s := 0.0
		moving = 0
		for k in n:
			var i := (head + k) % n
			var gap := INF
			var limit := INF
			if has_leader:
				gap = leader_s - HALF - s[i] - HALF
				limit = leader_s - HALF - HALF - BRAKE_GAP
			if not rolling[i]:
				timer[i] -= delta
				if timer[i] <= 0.0:
					rolling[i] = true
					budget[i] = rng.randf_range(0.8, 2.0) * 2.0 * HALF
			var safe := sqrt(2.0 * BRAKE * maxf(0.0, gap - BRAKE_GAP))
			var desired := minf(safe, CRAWL if rolling[i] else 0.0)
			var v := move_toward(speed[i], desired, (ACCEL if desired > speed[i] else BRAKE) * delta)
			var next := s[i] + v * delta
			if next > limit:
				next = maxf(limit, s[i])
				v = minf(v, (next - s[i]) / delta)
			var moved := next - s[i]
			s[i] = next
			speed[i] = v
			if v > 0.1:
				moving += 1
			if rolling[i]:
				budget[i] -= maxf(0.0, moved)
				if budget[i] <= 0.0:
					rolling[i] = false
					timer[i] = rng.randf_range(0.4, 1.2)
			leader_s = next
			has_leader = true
		# The belt: fronts past the leading edge go behind the back.
		for _r in n:
			var f := head
			if s[f] - HALF <= lead:
				break
			var t := (head + n - 1) % n
			s[f] = s[t] - 2.0 * HALF - PACKING_GAP
			head = (head + 1) % n
			recycled += 1
		for i in n:
			var off := s[i] if not reverse else STREET - s[i]
			followers[i].progress = clampf(off, 0.0, STREET)


func _bench_name() -> String:
	return "traffic_peer"


func _setup() -> void:
	make_anchor()
	var box := vehicle_box()
	for li in lane_count():
		var path := make_street(li)
		var lane := PeerLane.new()
		lane.reverse = li % 2 == 1
		lane.anchor = anchor
		lane.rng.seed = li
		var a := 400.0 if not lane.reverse else STREET - 400.0
		var front := minf(a + WINDOW, STREET)
		for k in PER_LANE:
			var f := PathFollow3D.new()
			f.loop = false
			f.rotation_mode = PathFollow3D.ROTATION_ORIENTED
			var m := MeshInstance3D.new()
			m.mesh = box
			if lane.reverse:
				m.rotation.y = PI
			f.add_child(m)
			path.add_child(f)
			lane.followers.append(f)
			lane.s.append(front - HALF - k * (2.0 * HALF + PACKING_GAP))
			lane.speed.append(0.0)
			var go := lane.rng.randf() < 0.5
			lane.rolling.append(go)
			lane.budget.append(lane.rng.randf_range(0.8, 2.0) * 2.0 * HALF if go else 0.0)
			lane.timer.append(0.0 if go else lane.rng.randf_range(0.4, 1.2))
		root.add_child(lane)
		lanes.append(lane)


func _report(result: Dictionary) -> void:
	var moving := 0
	var recycled := 0
	for lane in lanes:
		moving += lane.moving
		recycled += lane.recycled
	result["vehicles"] = lanes.size() * PER_LANE
	result["moving"] = moving
	result["recycled"] = recycled
