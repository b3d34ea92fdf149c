@tool
extends EditorNode3DGizmoPlugin
## Draws a SwarmTrafficLane's window on its path in the 3D editor: the stretch of the curve it
## simulates, a bar across each edge and a short one at the anchor. The outline comes from the
## lane itself (get_window_outline()), and the lane redraws it while the editor runs.

const COLOR := Color(0.3, 0.85, 1.0)


func _init() -> void:
	create_material("window", COLOR)


func _get_gizmo_name() -> String:
	return "SwarmTrafficLane"


func _has_gizmo(node: Node3D) -> bool:
	# is_class(), not `is`: this script must parse even while the extension is not loaded.
	return node.is_class("SwarmTrafficLane")


func _redraw(gizmo: EditorNode3DGizmo) -> void:
	gizmo.clear()
	var lines: PackedVector3Array = gizmo.get_node_3d().call("get_window_outline")
	if lines.size() >= 2:
		gizmo.add_lines(lines, get_material("window", gizmo))
