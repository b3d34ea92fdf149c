@tool
extends EditorInspectorPlugin
## Adds a "Bake Flow Field" button with a progress bar to the SwarmManager inspector, above its
## flow_field_data property. Pressing it bakes the surface flow field from the scene's physics
## colliders with SwarmFlowFieldBaker over several frames (the editor stays responsive), saves
## the SwarmFlowFieldData next to the edited scene (<scene>_flow_field.res, or the file the
## manager's data already comes from) and assigns it to the manager with undo/redo.
##
## The bake runs here, not in the panel: the inspector rebuilds its controls whenever it
## refreshes, and a bake outlives that. Only names (is_class, ClassDB.instantiate) refer to the
## extension's classes, so this script parses even while the extension is not loaded.

## Emitted whenever a bake's progress or outcome changes.
signal bake_state_changed

## Milliseconds of baking per editor frame.
const FRAME_BUDGET_MS := 40
## Columns sampled per step() call (the time budget is checked between calls).
const COLUMNS_PER_CALL := 1024

var undo_redo: EditorUndoRedoManager
## The manager being baked (null when idle) and its progress, 0..1.
var baking: Node3D
var progress := 0.0
## Per manager instance id: [message, is_error] of its last bake.
var _messages := {}
var _added_for: Object


func _can_handle(object: Object) -> bool:
	return object is Node3D and object.is_class("SwarmManager")


func _parse_begin(_object: Object) -> void:
	_added_for = null


func _parse_property(object: Object, _type: Variant.Type, name: String, _hint: PropertyHint,
		_hint_string: String, _usage: int, _wide: bool) -> bool:
	if name == "flow_field_data" and _added_for != object:
		_added_for = object
		add_custom_control(BakePanel.new(self, object))
	return false


func _parse_end(object: Object) -> void:
	# A manager without a flow_field_data property still gets the button (at the end).
	if _added_for != object:
		_added_for = object
		add_custom_control(BakePanel.new(self, object))


## The last bake message for `manager`: [text, is_error], or [] when none.
func message_for(manager: Object) -> Array:
	return _messages.get(manager.get_instance_id(), [])


func _set_message(manager: Object, text: String, error: bool) -> void:
	_messages[manager.get_instance_id()] = [text, error]
	bake_state_changed.emit()


## Bakes `manager`'s flow field over several frames, saves it and assigns it (with undo/redo).
## Returns the new SwarmFlowFieldData, or null (the reason is in message_for(manager)).
func bake(manager: Node3D) -> Resource:
	if baking != null:
		return null
	var baker: Object = ClassDB.instantiate("SwarmFlowFieldBaker")
	if baker == null:
		_set_message(manager, "The Swarm extension is not loaded.", true)
		return null
	if baker.start(manager) != OK:
		_set_message(manager, baker.get_error(), true)
		return null
	baking = manager
	progress = 0.0
	var dims: Vector2i = baker.get_dims()
	_set_message(manager, "Baking %d x %d columns..." % [dims.x, dims.y], false)
	var started := Time.get_ticks_msec()
	var tree := manager.get_tree()
	while not baker.is_done():
		var frame_start := Time.get_ticks_msec()
		while not baker.is_done() and Time.get_ticks_msec() - frame_start < FRAME_BUDGET_MS:
			progress = baker.step(COLUMNS_PER_CALL)
		bake_state_changed.emit()
		await tree.process_frame
	var data: Resource = baker.finish()
	baking = null
	if not is_instance_valid(manager):
		bake_state_changed.emit()
		return null
	if data == null:
		_set_message(manager, baker.get_error(), true)
		return null
	var secs := (Time.get_ticks_msec() - started) / 1000.0
	var path := data_path_for(manager)
	var err := ResourceSaver.save(data, path)
	if err != OK:
		_set_message(manager, "Baked, but saving %s failed (%s)." % [path, error_string(err)], true)
		return null
	data.take_over_path(path)
	var fs := EditorInterface.get_resource_filesystem()
	if fs != null:
		fs.update_file(path)
	if _has_property(manager, "flow_field_data"):
		var old = manager.get("flow_field_data")
		if undo_redo != null:
			undo_redo.create_action("Bake Flow Field", UndoRedo.MERGE_DISABLE, manager)
			undo_redo.add_do_property(manager, "flow_field_data", data)
			undo_redo.add_undo_property(manager, "flow_field_data", old)
			undo_redo.commit_action()
		else:
			manager.set("flow_field_data", data)
	var d: Vector2i = data.get("dims")
	_set_message(manager, "Baked %d x %d columns: %d walkable of %d cells in %.1f s. Saved to %s." % [
		d.x, d.y, data.get("walkable_cell_count"), data.get("cell_count"), secs, path], false)
	return data


## Where a manager's baked data is saved: the file its current data comes from, else next to the
## edited scene (<scene>_flow_field.res; with several managers in the scene, the manager's name
## too), else res://<manager>_flow_field.res for a scene never saved.
static func data_path_for(manager: Node) -> String:
	var current = manager.get("flow_field_data")
	if current is Resource:
		var p: String = current.resource_path
		if p.begins_with("res://") and not p.contains("::"):
			return p
	var scene := EditorInterface.get_edited_scene_root()
	var scene_path := scene.scene_file_path if scene != null else ""
	var own := String(manager.name).to_snake_case()
	if scene_path.is_empty():
		return "res://%s_flow_field.res" % own
	var base := scene_path.get_basename()
	if scene != manager and _count_managers(scene) > 1:
		return "%s_%s_flow_field.res" % [base, own]
	return base + "_flow_field.res"


static func _has_property(object: Object, property: String) -> bool:
	for p in object.get_property_list():
		if p["name"] == property:
			return true
	return false


static func _count_managers(node: Node) -> int:
	var n := 1 if node.is_class("SwarmManager") else 0
	for c in node.get_children():
		n += _count_managers(c)
	return n


## The inspector's controls for one manager: button, progress bar, last message.
class BakePanel extends VBoxContainer:
	var plugin: EditorInspectorPlugin
	var manager: Node3D
	var button: Button
	var bar: ProgressBar
	var status: Label

	func _init(p: EditorInspectorPlugin, m: Node3D) -> void:
		plugin = p
		manager = m
		button = Button.new()
		button.text = "Bake Flow Field"
		button.tooltip_text = "Bake the surface flow field from the physics colliders inside bake_bounds, save it next to the scene and assign it to flow_field_data."
		button.pressed.connect(_on_bake_pressed)
		add_child(button)
		bar = ProgressBar.new()
		bar.min_value = 0.0
		bar.max_value = 1.0
		bar.step = 0.001
		add_child(bar)
		status = Label.new()
		status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		add_child(status)
		plugin.bake_state_changed.connect(_refresh)
		_refresh()

	func _refresh() -> void:
		var busy: bool = plugin.baking != null
		button.disabled = busy
		bar.visible = busy and plugin.baking == manager
		bar.value = plugin.progress
		var m: Array = plugin.message_for(manager)
		status.visible = not m.is_empty()
		if not m.is_empty():
			status.text = m[0]
			status.modulate = Color(1.0, 0.45, 0.4) if m[1] else Color(1, 1, 1)

	func _on_bake_pressed() -> void:
		plugin.bake(manager)
