@tool
extends EditorPlugin
## Editor side of the Swarm addon. The node and resource classes come from the GDExtension
## (swarm.gdextension) and are registered by Godot on load; this plugin adds what only the
## editor needs: the gizmo that draws the spawners' areas in the 3D view.

var _spawner_gizmo: EditorNode3DGizmoPlugin


func _enter_tree() -> void:
	_spawner_gizmo = preload("spawner_gizmo.gd").new()
	add_node_3d_gizmo_plugin(_spawner_gizmo)


func _exit_tree() -> void:
	if _spawner_gizmo != null:
		remove_node_3d_gizmo_plugin(_spawner_gizmo)
		_spawner_gizmo = null
