@tool
extends EditorInspectorPlugin
## Draws a SwarmFormation's slots at the top of its inspector: a top-down view (forward is up)
## of the first ranks as an order would place them, the slot at the destination ringed, each
## slot numbered by its point. Redraws when the resource changes. Refers to the extension's
## class by name so it parses even while the extension is not loaded.

func _can_handle(object: Object) -> bool:
	return object is Resource and object.is_class("SwarmFormation")


func _parse_begin(object: Object) -> void:
	var preview := FormationPreview.new()
	preview.formation = object
	add_custom_control(preview)


class FormationPreview extends Control:
	## Ranks drawn (the shape, then the rank that repeats it behind).
	const RANKS := 2
	var formation: Resource

	func _ready() -> void:
		custom_minimum_size = Vector2(0, 180)
		if formation != null and not formation.changed.is_connected(queue_redraw):
			formation.changed.connect(queue_redraw)

	func _exit_tree() -> void:
		if formation != null and formation.changed.is_connected(queue_redraw):
			formation.changed.disconnect(queue_redraw)

	func _draw() -> void:
		draw_rect(Rect2(Vector2.ZERO, size), Color(0.1, 0.1, 0.12))
		if formation == null:
			return
		var points: PackedVector3Array = formation.get("points")
		if points.is_empty():
			draw_string(get_theme_default_font(), Vector2(8, 20), "No points: an order with this formation is refused.")
			return
		var count := points.size() * RANKS
		# Facing -Z from the origin: local offsets are world offsets, forward is up on screen.
		var slots: PackedVector3Array = formation.call("get_slot_positions", count, Vector3.ZERO, Vector3(0, 0, -1))
		var lo := Vector2(INF, INF)
		var hi := Vector2(-INF, -INF)
		for s in slots:
			lo = lo.min(Vector2(s.x, s.z))
			hi = hi.max(Vector2(s.x, s.z))
		var extent := (hi - lo).max(Vector2(1, 1))
		var margin := 18.0
		var scale_px := minf((size.x - 2 * margin) / extent.x, (size.y - 2 * margin) / extent.y)
		var center := (lo + hi) * 0.5
		var to_screen := func(p: Vector3) -> Vector2:
			return size * 0.5 + (Vector2(p.x, p.z) - center) * scale_px
		var font := get_theme_default_font()
		for i in slots.size():
			var q: Vector2 = to_screen.call(slots[i])
			var first_rank := i < points.size()
			draw_circle(q, 5.0, Color(0.4, 0.8, 1.0) if first_rank else Color(0.35, 0.45, 0.55))
			if first_rank:
				draw_string(font, q + Vector2(6, -4), str(i), HORIZONTAL_ALIGNMENT_LEFT, -1, 10)
		draw_arc(to_screen.call(Vector3.ZERO), 8.0, 0.0, TAU, 24, Color(1.0, 0.8, 0.3), 1.5)
		draw_string(font, Vector2(8, size.y - 6), "forward ↑   ring: destination   grey: next rank", HORIZONTAL_ALIGNMENT_LEFT, -1, 10)

