@tool
extends EditorInspectorPlugin
## Adds the setup fixes of a SwarmFlowModifier, SwarmBreakable or SwarmPushable to the top of its
## inspector: each warning that has a fix ("Enable Surface Flow Field", "Enforce Cell
## Boundaries", "Turn Blocks Agents On") is shown with a button that applies it with undo/redo.
## The node lists its fixes itself (get_setup_fixes()); this script only draws them, and refers
## to the extension's classes by name so it parses even while the extension is not loaded.

var undo_redo: EditorUndoRedoManager


func _can_handle(object: Object) -> bool:
	return object is Node and object.has_method("get_setup_fixes") and (object.is_class("SwarmFlowModifier")
		or object.is_class("SwarmBreakable") or object.is_class("SwarmPushable"))


func _parse_begin(object: Object) -> void:
	for fix in object.call("get_setup_fixes"):
		add_custom_control(_fix_row(object, fix))


func _fix_row(node: Object, fix: Dictionary) -> Control:
	var box := VBoxContainer.new()
	var label := Label.new()
	label.text = fix.get("warning", "")
	label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	label.add_theme_color_override("font_color", Color(1.0, 0.8, 0.3))
	box.add_child(label)
	var button := Button.new()
	button.text = fix.get("label", "Fix")
	button.pressed.connect(_apply.bind(node, fix))
	box.add_child(button)
	return box


func _apply(node: Object, fix: Dictionary) -> void:
	var target: Object = fix.get("object")
	var property: StringName = fix.get("property", &"")
	if target == null or property == &"":
		return
	undo_redo.create_action(fix.get("label", "Fix"))
	undo_redo.add_do_property(target, property, fix.get("value"))
	undo_redo.add_undo_property(target, property, target.get(property))
	# Both refresh the warning icon and make the inspector list the fixes again.
	for method in ["update_configuration_warnings", "notify_property_list_changed"]:
		undo_redo.add_do_method(node, method)
		undo_redo.add_undo_method(node, method)
	undo_redo.commit_action()
