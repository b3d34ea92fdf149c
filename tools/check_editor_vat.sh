#!/usr/bin/env bash
# Checks the VAT baker's editor tool in a headless Godot editor: in a throwaway project holding a
# character scene (the demo's code-built character, saved as character.tscn), the Swarm plugin
# adds its tool (Project > Tools > Bake Swarm Vertex Animation...); baking the open scene through
# it saves a SwarmVertexAnimation with the character's clips, and leaves the scene's skeleton as
# it was.
# Needs the built extension (tools/build.sh). Prints "check_editor_vat: OK" and exits 0 on success.
set -uo pipefail
NAME=check_editor_vat
source "$(dirname "${BASH_SOURCE[0]}")/editor_check.sh"

make_verify_project "Swarm VAT editor check" "Bakes the open character scene through the VAT tool."
cp "$ROOT/godot_project/demo/vat/vat_character.gd" "$P/vat_character.gd"
cat >"$P/addons/verify/verify.gd" <<'EOF'
@tool
extends EditorPlugin

func _ready() -> void:
	_run.call_deferred()

func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame

func _own(n: Node) -> void:
	for c in n.get_children():
		c.owner = n.owner if n.owner != null else n
		_own(c)

func _run() -> void:
	await _frames(10)
	var character: Node3D = load("res://vat_character.gd").build()
	_own(character)
	var packed := PackedScene.new()
	packed.pack(character)
	character.free()
	ResourceSaver.save(packed, "res://character.tscn")
	EditorInterface.open_scene_from_path("res://character.tscn")
	await _frames(10)
	var tool: Node = null
	for c in EditorInterface.get_base_control().get_children():
		if c.get_script() != null and c.get_script().resource_path.ends_with("vat_bake_tool.gd"):
			tool = c
	print("VERIFY tool: ", tool != null)
	if tool == null:
		get_tree().quit(1)
		return
	var skeleton: Skeleton3D = EditorInterface.get_edited_scene_root().get_node("Skeleton3D")
	var before := skeleton.get_bone_pose(2)
	await tool._bake_to("res://character_vat.res")
	var vat = load("res://character_vat.res")
	print("VERIFY saved: ", vat != null and vat.is_class("SwarmVertexAnimation"))
	if vat == null:
		get_tree().quit(1)
		return
	print("VERIFY clips: ", vat.clip_names)
	print("VERIFY size: %d x %d" % [vat.positions.get_width(), vat.positions.get_height()])
	print("VERIFY scene untouched: ", skeleton.get_bone_pose(2) == before)
	get_tree().quit(0)
EOF
run_verify_editor "VERIFY tool: true" "VERIFY saved: true" \
    'VERIFY clips: ["death", "idle", "swing", "walk"]' "VERIFY size: 168 x 141" "VERIFY scene untouched: true"
