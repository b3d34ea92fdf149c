# The SwarmFormation inspector preview (the control addons/swarm/formation_inspector.gd adds to a
# formation's inspector; the plugin itself exists only in the editor): it draws every shipped
# preset and a formation with no points (the "refused" message) without a script error, and
# follows the formation's `changed` signal (connected while in the tree, disconnected when it
# leaves).
extends "res://test_base.gd"

const PRESETS := ["line", "column", "wedge", "square", "circle"]


func run() -> bool:
	var plugin_script: GDScript = load("res://addons/swarm/formation_inspector.gd")

	for preset in PRESETS:
		var formation: SwarmFormation = load("res://addons/swarm/formations/%s.tres" % preset)
		check(formation != null and not formation.points.is_empty(), "preset %s loads with points" % preset)
		var preview: Control = plugin_script.FormationPreview.new()
		preview.formation = formation
		preview.size = Vector2(320, 180)
		add_child(preview)
		await physics_frames(2)
		check(formation.changed.is_connected(preview.queue_redraw), "preview of %s follows changed" % preset)
		remove_child(preview)
		check(not formation.changed.is_connected(preview.queue_redraw), "preview of %s lets go when it leaves" % preset)
		preview.free()

	var empty := SwarmFormation.new()
	empty.points = PackedVector3Array()
	var shown: Control = plugin_script.FormationPreview.new()
	shown.formation = empty
	shown.size = Vector2(320, 180)
	add_child(shown)
	await physics_frames(2)
	# Points added while shown: the preview redraws with slots (no error either way).
	empty.points = PackedVector3Array([Vector3.ZERO, Vector3(1, 0, 1), Vector3(-1, 0, 1)])
	await physics_frames(2)
	shown.queue_free()
	return passed()
