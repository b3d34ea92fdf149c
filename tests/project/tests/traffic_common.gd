# Shared setup of the traffic lane tests: a straight street along +X (a Path3D at the origin) and
# a lane on it with a box vehicle 4.4 m long.
extends RefCounted


## A Path3D named `n` with a straight curve from (0, 0, z) to (length, 0, z), under `parent`.
static func make_street(parent: Node, n: String, length: float, z: float = 0.0) -> Path3D:
	var path := Path3D.new()
	path.name = n
	var c := Curve3D.new()
	c.add_point(Vector3(0, 0, z))
	c.add_point(Vector3(length, 0, z))
	path.curve = c
	parent.add_child(path)
	return path


## A profile with the default driving settings.
static func make_profile() -> SwarmTrafficProfile:
	return SwarmTrafficProfile.new()


## A lane named `n` under `parent` driving on `path` (set as its path), with a box mesh.
static func make_lane(parent: Node, n: String, path: Path3D, profile: SwarmTrafficProfile) -> SwarmTrafficLane:
	var lane := SwarmTrafficLane.new()
	lane.name = n
	lane.profile = profile
	var box := BoxMesh.new()
	box.size = Vector3(1.8, 1.5, 4.4)
	lane.vehicle_meshes = [box]
	parent.add_child(lane)
	lane.path = lane.get_path_to(path)
	return lane
