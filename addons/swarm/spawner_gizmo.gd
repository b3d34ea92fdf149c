@tool
extends EditorNode3DGizmoPlugin
## Draws the spawn area of SwarmRectSpawner (the rectangle) and SwarmRingSpawner (both circles
## and four spokes) in the 3D editor, in the node's local XZ plane. The outline comes from the
## node itself (get_shape_outline()), so the gizmo always matches what spawn() uses; the nodes
## call update_gizmos() when size or a radius changes.

const COLOR := Color(1.0, 0.5, 0.5)


func _init() -> void:
	create_material("outline", COLOR)


func _get_gizmo_name() -> String:
	return "SwarmSpawner"


func _has_gizmo(node: Node3D) -> bool:
	# is_class(), not `is`: this script must parse even while the extension is not loaded.
	return node.is_class("SwarmRectSpawner") or node.is_class("SwarmRingSpawner")


func _redraw(gizmo: EditorNode3DGizmo) -> void:
	gizmo.clear()
	var lines: PackedVector3Array = gizmo.get_node_3d().call("get_shape_outline")
	if lines.size() >= 2:
		gizmo.add_lines(lines, get_material("outline", gizmo))
