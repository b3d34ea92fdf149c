extends "res://bench/bench_common.gd"
## What the two traffic scenes share (traffic_bench.gd and its peer traffic_peer_bench.gd): lanes
## of PER_LANE vehicles, each on its own straight STREET-metre street 4 m from the next, every
## other lane driving against the street, and one anchor that starts 400 m along and moves
## ANCHOR_SPEED m/s, which the lanes' windows (WINDOW metres behind and ahead) follow.

const PER_LANE := 100
const STREET := 2000.0
const WINDOW := 350.0
const ANCHOR_SPEED := 6.0

var anchor: Node3D


class Mover extends Node:
	var node: Node3D
	var speed := 0.0
	func _physics_process(delta: float) -> void:
		node.position.x += speed * delta


## The anchor, and the node that moves it first in every physics frame.
func make_anchor() -> void:
	anchor = Node3D.new()
	anchor.name = "Anchor"
	anchor.position = Vector3(400, 0, 0)
	root.add_child(anchor)
	var mover := Mover.new()
	mover.node = anchor
	mover.speed = ANCHOR_SPEED
	mover.process_physics_priority = -1000
	root.add_child(mover)


## How many lanes --agents asks for.
func lane_count() -> int:
	return maxi(1, agents / PER_LANE)


## Lane `i`'s street, added to the root.
func make_street(i: int) -> Path3D:
	var path := Path3D.new()
	var c := Curve3D.new()
	c.add_point(Vector3(0, 0, i * 4.0))
	c.add_point(Vector3(STREET, 0, i * 4.0))
	path.curve = c
	root.add_child(path)
	return path


## The vehicle: a 4.4 m box.
func vehicle_box() -> BoxMesh:
	var box := BoxMesh.new()
	box.size = Vector3(1.8, 1.5, 4.4)
	return box
