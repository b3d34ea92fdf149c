#!/usr/bin/env bash
# Checks the addon's editor side in a headless Godot editor:
#  1. godot_project opens in the editor with the Swarm plugin enabled and no script or parse error;
#  2. in a throwaway project (a floor and a thin wall, and a SwarmManager), selecting the manager
#     shows the inspector's "Bake Flow Field" button; pressing it bakes, saves
#     <scene>_flow_field.res next to the scene, assigns flow_field_data, and undo/redo work.
# Needs the built extension (tools/build.sh). Prints "check_editor_bake: OK" and exits 0 on success.
set -uo pipefail
NAME=check_editor_bake
source "$(dirname "${BASH_SOURCE[0]}")/editor_check.sh"

# 1. The demo project in the editor.
"$ROOT/tools/import_demo.sh" "$GODOT" || exit 1
LOG=$(timeout -k 10 180 "$GODOT" --headless --editor --path "$ROOT/godot_project" --quit-after 60 2>&1 | strip)
if grep -E 'SCRIPT ERROR|Parse Error|ERROR:|panicked' <<<"$LOG"; then
  echo "check_editor_bake: errors opening godot_project in the editor"; fail=1
fi

# 2. The bake button in a throwaway project.
make_verify_project "Swarm editor check" "Presses the Bake Flow Field button and reports."
# Adds flow_field_data to the manager only while SwarmManager itself lacks it.
cat >"$P/manager_shim.gd" <<'EOF'
@tool
extends SwarmManager
var _data: Resource

func _native() -> bool:
	return ClassDB.class_has_method("SwarmManager", "get_flow_field_data")

func _get_property_list() -> Array[Dictionary]:
	if _native():
		return []
	return [{"name": "flow_field_data", "type": TYPE_OBJECT, "hint": PROPERTY_HINT_RESOURCE_TYPE,
		"hint_string": "Resource", "usage": PROPERTY_USAGE_DEFAULT}]

func _get(p: StringName) -> Variant:
	return _data if p == &"flow_field_data" and not _native() else null

func _set(p: StringName, v: Variant) -> bool:
	if p == &"flow_field_data" and not _native():
		_data = v
		return true
	return false
EOF
cat >"$P/level.tscn" <<'EOF'
[gd_scene load_steps=4 format=3]

[ext_resource type="Script" path="res://manager_shim.gd" id="1"]

[sub_resource type="BoxShape3D" id="floor"]
size = Vector3(20, 0.2, 20)

[sub_resource type="BoxShape3D" id="wall"]
size = Vector3(0.1, 3, 10)

[node name="Level" type="Node3D"]

[node name="Swarm" type="SwarmManager" parent="."]
script = ExtResource("1")
bake_bounds = AABB(0, -1, 0, 20, 6, 20)

[node name="Floor" type="StaticBody3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 10, -0.1, 10)

[node name="Shape" type="CollisionShape3D" parent="Floor"]
shape = SubResource("floor")

[node name="Wall" type="StaticBody3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 10, 1.5, 5)

[node name="Shape" type="CollisionShape3D" parent="Wall"]
shape = SubResource("wall")
EOF
cat >"$P/addons/verify/verify.gd" <<'EOF'
@tool
extends EditorPlugin

func _ready() -> void:
	_run.call_deferred()

func _find_button(n: Node) -> Button:
	if n is Button and n.text == "Bake Flow Field":
		return n
	for c in n.get_children():
		var b := _find_button(c)
		if b != null:
			return b
	return null

func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame

func _run() -> void:
	await _frames(10)
	EditorInterface.open_scene_from_path("res://level.tscn")
	await _frames(10)
	var m := EditorInterface.get_edited_scene_root().get_node("Swarm")
	EditorInterface.edit_node(m)
	await _frames(10)
	var b := _find_button(EditorInterface.get_inspector())
	print("VERIFY button: ", b != null)
	if b == null:
		get_tree().quit(1)
		return
	b.pressed.emit()
	for i in 600:
		await get_tree().process_frame
		if m.get("flow_field_data") != null:
			break
	var d = m.get("flow_field_data")
	print("VERIFY data: ", d != null and d.is_class("SwarmFlowFieldData"))
	if d == null:
		get_tree().quit(1)
		return
	print("VERIFY path: ", d.resource_path)
	print("VERIFY saved: ", FileAccess.file_exists("res://level_flow_field.res"))
	# 40 x 40 cells; the 0.1 m wall over z 0..10 blocks one column of 20 cells.
	print("VERIFY cells: %d walkable of %d" % [d.walkable_cell_count, d.cell_count])
	var ur := get_undo_redo()
	var h := ur.get_history_undo_redo(ur.get_object_history_id(m))
	h.undo()
	print("VERIFY undo: ", m.get("flow_field_data") == null)
	h.redo()
	print("VERIFY redo: ", m.get("flow_field_data") == d)
	get_tree().quit(0)
EOF
run_verify_editor "VERIFY button: true" "VERIFY data: true" "VERIFY path: res://level_flow_field.res" "VERIFY saved: true" \
    "VERIFY cells: 1580 walkable of 1600" "VERIFY undo: true" "VERIFY redo: true"
