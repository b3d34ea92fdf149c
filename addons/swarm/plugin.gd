@tool
extends EditorPlugin
## Editor side of the Swarm addon. The node and resource classes come from the GDExtension
## (swarm.gdextension) and are registered by Godot on load; this plugin adds what only the
## editor needs: the gizmo that draws the spawners' areas in the 3D view, and the Bake Flow Field
## button (with its progress bar) in the SwarmManager inspector.

var _spawner_gizmo: EditorNode3DGizmoPlugin
var _flow_field_inspector: EditorInspectorPlugin


func _enter_tree() -> void:
	_spawner_gizmo = preload("spawner_gizmo.gd").new()
	add_node_3d_gizmo_plugin(_spawner_gizmo)
	_flow_field_inspector = preload("flow_field_inspector.gd").new()
	_flow_field_inspector.undo_redo = get_undo_redo()
	add_inspector_plugin(_flow_field_inspector)


func _exit_tree() -> void:
	if _spawner_gizmo != null:
		remove_node_3d_gizmo_plugin(_spawner_gizmo)
		_spawner_gizmo = null
	if _flow_field_inspector != null:
		remove_inspector_plugin(_flow_field_inspector)
		_flow_field_inspector = null
