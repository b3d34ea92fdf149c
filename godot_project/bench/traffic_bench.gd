extends "res://bench/bench_common.gd"
## Swarm's ambient traffic: --agents vehicles in lanes of 100 (SwarmTrafficLane, vehicle_count
## 100), each on its own 2 km straight street 4 m apart, every other lane driving against the
## curve, all windows (350 m behind and ahead) following one anchor that moves 6 m/s along the
## streets; default SwarmTrafficProfile, a 4.4 m box mesh, no audio. Same lanes, anchor and
## measurement as traffic_peer_bench.gd.
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/traffic_bench.gd -- \
##       --agents=10000 --frames=300 --out=/abs/path/traffic_10000.json

const PER_LANE := 100
const STREET := 2000.0
const ANCHOR_SPEED := 6.0

var anchor: Node3D
var lanes: Array[SwarmTrafficLane] = []


class Mover extends Node:
	var node: Node3D
	func _physics_process(delta: float) -> void:
		node.position.x += 6.0 * delta


func _bench_name() -> String:
	return "traffic"


func _setup() -> void:
	anchor = Node3D.new()
	anchor.name = "Anchor"
	anchor.position = Vector3(400, 0, 0)
	root.add_child(anchor)
	var mover := Mover.new()
	mover.node = anchor
	mover.process_physics_priority = -1000
	root.add_child(mover)
	var profile := SwarmTrafficProfile.new()
	var box := BoxMesh.new()
	box.size = Vector3(1.8, 1.5, 4.4)
	for i in maxi(1, agents / PER_LANE):
		var path := Path3D.new()
		var c := Curve3D.new()
		c.add_point(Vector3(0, 0, i * 4.0))
		c.add_point(Vector3(STREET, 0, i * 4.0))
		path.curve = c
		root.add_child(path)
		var lane := SwarmTrafficLane.new()
		lane.profile = profile
		lane.vehicle_meshes = [box]
		lane.vehicle_count = PER_LANE
		lane.window_behind = 350.0
		lane.window_ahead = 350.0
		lane.reverse = i % 2 == 1
		lane.seed = i
		root.add_child(lane)
		lane.path = lane.get_path_to(path)
		lane.window_anchor = lane.get_path_to(anchor)
		lanes.append(lane)


func _report(result: Dictionary) -> void:
	var moving := 0
	var speed := 0.0
	var recycled := 0
	var vehicles := 0
	for lane in lanes:
		var s := lane.get_stats()
		vehicles += s["vehicles"]
		moving += s["moving"]
		speed += s["mean_speed"] / lanes.size()
		recycled += s["recycled"]
	result["vehicles"] = vehicles
	result["moving"] = moving
	result["mean_speed"] = snappedf(speed, 0.01)
	result["recycled"] = recycled
