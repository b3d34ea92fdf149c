@tool
extends EditorNode3DGizmoPlugin
## Draws the box of a SwarmFlowModifier (its 12 edges, from center and size in the node's local
## space) in the 3D editor: red while it closes cells to agents (blocks_agents on), amber while it
## only changes route cost. The plugin asks for a redraw when a modifier's property is edited or
## undone, since the node itself does not call update_gizmos().

const CLOSED_COLOR := Color(1.0, 0.3, 0.3)
const COST_COLOR := Color(1.0, 0.75, 0.2)


func _init() -> void:
	create_material("closed", CLOSED_COLOR)
	create_material("cost", COST_COLOR)


func _get_gizmo_name() -> String:
	return "SwarmFlowModifier"


func _has_gizmo(node: Node3D) -> bool:
	# is_class(), not `is`: this script must parse even while the extension is not loaded.
	return node.is_class("SwarmFlowModifier")


func _redraw(gizmo: EditorNode3DGizmo) -> void:
	gizmo.clear()
	var node := gizmo.get_node_3d()
	var center = node.get("center")
	var size = node.get("size")
	if not (center is Vector3 and size is Vector3):
		return
	var lines := box_edges(center, size)
	if lines.is_empty():
		return
	var closed: bool = node.get("blocks_agents") == true
	gizmo.add_lines(lines, get_material("closed" if closed else "cost", gizmo))


## The 12 edges of the box `center` ± |`size`| / 2 as line segments (pairs of points); empty when
## a value is not finite.
static func box_edges(center: Vector3, size: Vector3) -> PackedVector3Array:
	var lines := PackedVector3Array()
	if not (center.is_finite() and size.is_finite()):
		return lines
	var h := size.abs() * 0.5
	var corners: Array[Vector3] = []
	for i in 8:
		corners.append(center + Vector3(
			h.x if i & 1 else -h.x,
			h.y if i & 2 else -h.y,
			h.z if i & 4 else -h.z))
	for i in 8:
		for bit in [1, 2, 4]:
			if not (i & bit):
				lines.append(corners[i])
				lines.append(corners[i | bit])
	return lines
