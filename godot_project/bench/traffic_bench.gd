extends "res://bench/traffic_common.gd"
## Swarm's ambient traffic: --agents vehicles in lanes of 100 (SwarmTrafficLane, vehicle_count
## 100), each on its own 2 km straight street 4 m apart, every other lane driving against the
## curve, all windows (350 m behind and ahead) following one anchor that moves 6 m/s along the
## streets; default SwarmTrafficProfile, a 4.4 m box mesh, no audio. Same lanes, anchor and
## measurement as traffic_peer_bench.gd.
##   godot --headless --fixed-fps 60 --path godot_project -s res://bench/traffic_bench.gd -- \
##       --agents=10000 --frames=300 --out=/abs/path/traffic_10000.json

var lanes: Array[SwarmTrafficLane] = []


func _bench_name() -> String:
	return "traffic"


func _setup() -> void:
	make_anchor()
	var profile := SwarmTrafficProfile.new()
	var box := vehicle_box()
	for i in lane_count():
		var path := make_street(i)
		var lane := SwarmTrafficLane.new()
		lane.profile = profile
		lane.vehicle_meshes = [box]
		lane.vehicle_count = PER_LANE
		lane.window_behind = WINDOW
		lane.window_ahead = WINDOW
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
