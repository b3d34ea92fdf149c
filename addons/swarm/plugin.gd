@tool
extends EditorPlugin
## Editor side of the Swarm addon. The node and resource classes come from the GDExtension
## (swarm.gdextension) and are registered by Godot on load; this plugin adds what only the
## editor needs: the gizmos that draw the spawners' areas, the flow modifiers' boxes and the
## traffic lanes' windows in the 3D view, the Bake Flow Field button (with its progress bar) in
## the SwarmManager inspector, and the setup-fix buttons beside the warnings of flow modifiers,
## breakables and pushables, the slot preview of a SwarmFormation, and the Project > Tools menu
## item that bakes a SwarmVertexAnimation from the open character scene (vat_bake_tool.gd).

var _spawner_gizmo: EditorNode3DGizmoPlugin
var _modifier_gizmo: EditorNode3DGizmoPlugin
var _traffic_gizmo: EditorNode3DGizmoPlugin
var _flow_field_inspector: EditorInspectorPlugin
var _setup_fix_inspector: EditorInspectorPlugin
var _formation_inspector: EditorInspectorPlugin
var _vat_tool: Node


func _enter_tree() -> void:
	_spawner_gizmo = preload("spawner_gizmo.gd").new()
	add_node_3d_gizmo_plugin(_spawner_gizmo)
	_modifier_gizmo = preload("modifier_gizmo.gd").new()
	add_node_3d_gizmo_plugin(_modifier_gizmo)
	_traffic_gizmo = preload("traffic_gizmo.gd").new()
	add_node_3d_gizmo_plugin(_traffic_gizmo)
	# SwarmFlowModifier does not call update_gizmos() itself: redraw after an edit or an undo.
	EditorInterface.get_inspector().property_edited.connect(_on_property_edited)
	get_undo_redo().version_changed.connect(_redraw_selected_modifiers)
	_flow_field_inspector = preload("flow_field_inspector.gd").new()
	_flow_field_inspector.undo_redo = get_undo_redo()
	add_inspector_plugin(_flow_field_inspector)
	_setup_fix_inspector = preload("setup_fix_inspector.gd").new()
	_setup_fix_inspector.undo_redo = get_undo_redo()
	add_inspector_plugin(_setup_fix_inspector)
	_formation_inspector = preload("formation_inspector.gd").new()
	add_inspector_plugin(_formation_inspector)
	_vat_tool = preload("vat_bake_tool.gd").new()
	EditorInterface.get_base_control().add_child(_vat_tool)
	add_tool_menu_item(_vat_tool.MENU_ITEM, _vat_tool.start)


func _exit_tree() -> void:
	if _spawner_gizmo != null:
		remove_node_3d_gizmo_plugin(_spawner_gizmo)
		_spawner_gizmo = null
	if _modifier_gizmo != null:
		remove_node_3d_gizmo_plugin(_modifier_gizmo)
		_modifier_gizmo = null
	if _traffic_gizmo != null:
		remove_node_3d_gizmo_plugin(_traffic_gizmo)
		_traffic_gizmo = null
	var inspector := EditorInterface.get_inspector()
	if inspector != null and inspector.property_edited.is_connected(_on_property_edited):
		inspector.property_edited.disconnect(_on_property_edited)
	if get_undo_redo().version_changed.is_connected(_redraw_selected_modifiers):
		get_undo_redo().version_changed.disconnect(_redraw_selected_modifiers)
	if _flow_field_inspector != null:
		remove_inspector_plugin(_flow_field_inspector)
		_flow_field_inspector = null
	if _setup_fix_inspector != null:
		remove_inspector_plugin(_setup_fix_inspector)
		_setup_fix_inspector = null
	if _formation_inspector != null:
		remove_inspector_plugin(_formation_inspector)
		_formation_inspector = null
	if _vat_tool != null:
		remove_tool_menu_item(_vat_tool.MENU_ITEM)
		_vat_tool.queue_free()
		_vat_tool = null


func _redraw_selected_modifiers() -> void:
	for n in EditorInterface.get_selection().get_selected_nodes():
		if n is Node3D and n.is_class("SwarmFlowModifier"):
			n.update_gizmos()


func _on_property_edited(_property: String) -> void:
	_redraw_selected_modifiers()
