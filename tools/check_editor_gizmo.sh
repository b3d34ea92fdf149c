#!/usr/bin/env bash
# Checks the SwarmFlowModifier box gizmo in a headless Godot editor: in a throwaway project with
# the Swarm plugin enabled, a scene holding a SwarmFlowModifier (blocks_agents on) and another
# (blocks_agents off) opens with no script or parse error; the gizmo plugin draws the 12 edges of
# each box (24 points at center ± size / 2), closed and cost-only boxes in different colours, and
# the plugin listens to the inspector's property_edited to redraw a modifier after an edit.
# Needs the built extension (tools/build.sh). Prints "check_editor_gizmo: OK" and exits 0 on success.
set -uo pipefail
NAME=check_editor_gizmo
source "$(dirname "${BASH_SOURCE[0]}")/editor_check.sh"

make_verify_project "Swarm gizmo check" "Checks the SwarmFlowModifier gizmo and reports."
cat >"$P/level.tscn" <<'EOF'
[gd_scene format=3]

[node name="Level" type="Node3D"]

[node name="Door" type="SwarmFlowModifier" parent="."]
center = Vector3(0, 1, 0)
size = Vector3(2, 2.5, 1)

[node name="Slow" type="SwarmFlowModifier" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 0, 0)
blocks_agents = false
EOF
cat >"$P/addons/verify/verify.gd" <<'EOF'
@tool
extends EditorPlugin

func _ready() -> void:
	_run.call_deferred()

func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame

func _check_edges(lines: PackedVector3Array, center: Vector3, size: Vector3) -> bool:
	if lines.size() != 24:
		return false
	var h := size.abs() * 0.5
	for i in range(0, 24, 2):
		var a := lines[i] - center
		var b := lines[i + 1] - center
		for p in [a, b]:
			if not (is_equal_approx(absf(p.x), h.x) and is_equal_approx(absf(p.y), h.y) and is_equal_approx(absf(p.z), h.z)):
				return false
		# An edge differs along exactly one axis, by the full size.
		var d := (b - a).abs()
		var moved := int(d.x > 1e-4) + int(d.y > 1e-4) + int(d.z > 1e-4)
		if moved != 1 or not is_equal_approx(d.length(), (d.normalized() * size.abs()).length()):
			return false
	return true

func _run() -> void:
	await _frames(10)
	EditorInterface.open_scene_from_path("res://level.tscn")
	await _frames(10)
	var root := EditorInterface.get_edited_scene_root()
	var door: Node3D = root.get_node("Door")
	var slow: Node3D = root.get_node("Slow")
	var gizmo_script = load("res://addons/swarm/modifier_gizmo.gd")
	var plugin = gizmo_script.new()
	print("VERIFY has_gizmo: ", plugin._has_gizmo(door) and not plugin._has_gizmo(root))
	print("VERIFY edges: ", _check_edges(gizmo_script.box_edges(door.center, door.size), door.center, door.size))
	print("VERIFY nan: ", gizmo_script.box_edges(Vector3(NAN, 0, 0), Vector3.ONE).is_empty())
	EditorInterface.get_selection().clear()
	EditorInterface.get_selection().add_node(door)
	EditorInterface.edit_node(door)
	await _frames(10)
	print("VERIFY door gizmo: ", door.get_gizmos().size() > 0)
	print("VERIFY slow gizmo: ", slow.get_gizmos().size() > 0)
	# Closed and cost-only boxes draw in different colours.
	# (Index 0, asked without a gizmo, is the grey of an instanced scene; ask as the door's.)
	var g: EditorNode3DGizmo = door.get_gizmos()[0] if door.get_gizmos().size() > 0 else null
	var closed_mat: StandardMaterial3D = plugin.get_material("closed", g)
	var cost_mat: StandardMaterial3D = plugin.get_material("cost", g)
	print("VERIFY colours: ", closed_mat.albedo_color != cost_mat.albedo_color)
	# The plugin redraws the selected modifier after an inspector edit (property_edited).
	var hooked := false
	for c in EditorInterface.get_inspector().property_edited.get_connections():
		hooked = hooked or c["callable"].get_method() == "_on_property_edited"
	door.size = Vector3(3, 2, 1)
	EditorInterface.get_inspector().property_edited.emit("size")
	await _frames(5)
	print("VERIFY redraw: ", hooked and door.get_gizmos().size() > 0)
	get_tree().quit(0)
EOF
run_verify_editor "VERIFY has_gizmo: true" "VERIFY edges: true" "VERIFY nan: true" "VERIFY door gizmo: true" \
    "VERIFY slow gizmo: true" "VERIFY colours: true" "VERIFY redraw: true"
