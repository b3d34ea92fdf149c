@icon("res://addons/swarm/icons/swarm_debug_overlay.svg")
class_name SwarmDebugOverlay
extends CanvasLayer
## An in-game panel of Swarm's figures: drop it in a scene, run, press F3.
##
## For each [SwarmManager] (every one in the group [code]swarm_managers[/code], or those named in
## [member managers]) it shows, from [method SwarmManager.get_stats]: agents and capacity, the
## last step's milliseconds with a graph of the last [member graph_frames] steps, the last visual
## sync's milliseconds (the MultiMesh buffers written), agents per
## Importance LOD tier (full, reduced, cheap), dormant agents, flow-field rebuilds, agents with a
## perception profile by state (chasing, searching, investigating, idle), and running formation
## orders with the agents in them. Each [SwarmTrafficLane] (every one in the scene, or those named
## in [member lanes]) gets a line: vehicles, moving, voices playing, colliders awake.
##
## The text is refreshed every [member refresh_interval] seconds; the graph takes a sample at
## every physics frame in which a manager stepped. The panel ignores the mouse, so the game under
## it keeps working. It draws on canvas [member CanvasLayer.layer] 100, above most game interfaces,
## and runs while the tree is paused ([member Node.process_mode] is
## [constant Node.PROCESS_MODE_ALWAYS]); set either on the node in the scene to change it.
##
## Hidden, the overlay costs nothing: it reads no stats and draws nothing, and only listens for
## [member toggle_key] and [member toggle_action]. Hide or show it with those, with [method toggle],
## or with [member CanvasLayer.visible].

## Where the panel sits on the screen.
enum ScreenCorner {
	TOP_LEFT, ## The top-left corner.
	TOP_RIGHT, ## The top-right corner.
	BOTTOM_LEFT, ## The bottom-left corner.
	BOTTOM_RIGHT, ## The bottom-right corner.
}

## Distance in pixels between the panel and the screen's edges.
const EDGE_MARGIN := 8.0
## A 60 Hz frame in milliseconds: the graph draws it as a faint line when its scale reaches it.
const FRAME_BUDGET_MS := 1000.0 / 60.0

## An InputMap action that shows or hides the overlay; empty for none. An action missing from the
## InputMap is reported once (as a warning) and ignored.
@export var toggle_action: StringName = &""
## A key that shows or hides the overlay (its keycode or physical keycode); [constant KEY_NONE]
## for none.
@export var toggle_key: Key = KEY_F3
## Shown when the scene starts; off, the overlay waits for its toggle.
@export var visible_on_start := true
## Seconds between two refreshes of the text (0: every frame). The graph is sampled every
## physics frame regardless.
@export_range(0.0, 5.0, 0.05, "or_greater", "suffix:s") var refresh_interval := 0.25
## Steps shown by each manager's step-time graph, newest on the right.
@export_range(2, 1000, 1) var graph_frames := 120:
	set(value):
		graph_frames = clampi(value, 2, 100000)
		for s: _Section in _sections.values():
			s.graph.set_capacity(graph_frames)
## The screen corner the panel sits in.
@export var corner: ScreenCorner = ScreenCorner.TOP_RIGHT:
	set(value):
		corner = value
		if is_node_ready():
			_place_panel()
## Size of the panel's text in pixels; the graphs scale with it.
@export_range(6, 64, 1) var font_size := 14:
	set(value):
		font_size = clampi(value, 1, 256)
		if is_node_ready():
			_apply_font_size()
## The managers to show, by path from this node; empty shows every [SwarmManager] in the group
## [code]swarm_managers[/code] (all of them in the scene tree).
@export var managers: Array[NodePath] = []
## The traffic lanes to show, by path from this node; empty shows every [SwarmTrafficLane] in the
## scene tree.
@export var lanes: Array[NodePath] = []

## One manager's part of the panel: its text and its step-time graph.
class _Section:
	var manager: SwarmManager
	var label: Label
	var graph: _StepGraph
	var last_ticks := -1


## A step-time graph: one polyline over a ring of samples, redrawn when a sample arrives.
class _StepGraph extends Control:
	var line_color := Color(0.45, 0.92, 0.55)
	var text_size := 11
	var _ring := PackedFloat32Array()
	var _head := 0  # where the next sample goes
	var _count := 0

	func set_capacity(n: int) -> void:
		var kept := samples()
		_ring.resize(n)
		_ring.fill(0.0)
		_head = 0
		_count = 0
		for v in kept.slice(maxi(0, kept.size() - n)):
			push(v)

	func push(v: float) -> void:
		_ring[_head] = v
		_head = (_head + 1) % _ring.size()
		_count = mini(_count + 1, _ring.size())

	## The samples held, oldest first.
	func samples() -> PackedFloat32Array:
		var out := PackedFloat32Array()
		out.resize(_count)
		var n := _ring.size()
		for i in _count:
			out[i] = _ring[(_head - _count + i + n) % n]
		return out

	func _draw() -> void:
		var area := Rect2(Vector2.ZERO, size)
		draw_rect(area, Color(0, 0, 0, 0.35))
		var values := samples()
		if values.size() < 2:
			return
		var peak := 0.0
		for v in values:
			peak = maxf(peak, v)
		var top := _scale_top(peak)
		var h := size.y - 2.0
		if top >= FRAME_BUDGET_MS:
			var y := size.y - 1.0 - FRAME_BUDGET_MS / top * h
			draw_line(Vector2(0, y), Vector2(size.x, y), Color(1, 0.5, 0.4, 0.45))
		var dx := size.x / float(_ring.size() - 1)
		var x0 := size.x - dx * (values.size() - 1)
		var points := PackedVector2Array()
		points.resize(values.size())
		for i in values.size():
			points[i] = Vector2(x0 + dx * i, size.y - 1.0 - clampf(values[i] / top, 0.0, 1.0) * h)
		draw_polyline(points, line_color, 1.5, true)
		var font := get_theme_default_font()
		draw_string(font, Vector2(4, text_size + 2), _format_ms(top), HORIZONTAL_ALIGNMENT_LEFT, -1,
				text_size, Color(1, 1, 1, 0.7))

	## The graph's top: the smallest 1, 2 or 5 times a power of ten at or above `peak`.
	static func _scale_top(peak: float) -> float:
		var decade := 0.1
		for i in 8:  # up to 50 s
			for m: float in [1.0, 2.0, 5.0]:
				if decade * m >= peak:
					return decade * m
			decade *= 10.0
		return decade

	static func _format_ms(ms: float) -> String:
		return ("%.1f ms" if ms < 1.0 else "%d ms") % ms


var _panel: PanelContainer
var _box: VBoxContainer
var _lanes_label: Label
## Sections by manager instance id, in the order shown.
var _sections: Dictionary[int, _Section] = {}
var _lane_nodes: Array[SwarmTrafficLane] = []
var _since_refresh := 0.0
var _warned_action := false
var _warned_paths: Dictionary[NodePath, bool] = {}


func _init() -> void:
	layer = 100
	process_mode = Node.PROCESS_MODE_ALWAYS


func _ready() -> void:
	_build_panel()
	visibility_changed.connect(_apply_visibility)
	visible = visible_on_start
	_apply_visibility()


func _exit_tree() -> void:
	_follow_tree(false)


func _enter_tree() -> void:
	if is_node_ready():
		_apply_visibility()


## Shows the overlay when hidden, hides it when shown.
func toggle() -> void:
	visible = not visible


## Reads every shown manager's and lane's stats now and rewrites the text (the overlay does this
## by itself every [member refresh_interval] seconds while visible).
func refresh() -> void:
	_since_refresh = 0.0
	_sync_sections()
	for s: _Section in _sections.values():
		s.label.text = _manager_text(s)
	var lines: PackedStringArray = []
	for lane in _current_lanes():
		lines.append(_lane_text(lane))
	if _sections.is_empty() and lines.is_empty():
		lines.append("Swarm: no SwarmManager in the scene")
	_lanes_label.text = "\n".join(lines)
	_lanes_label.visible = not lines.is_empty()


## The text the panel shows now, every manager's block and the lanes' lines, one block after
## another (as of the last refresh).
func get_text() -> String:
	var parts: PackedStringArray = []
	for s: _Section in _sections.values():
		parts.append(s.label.text)
	if _lanes_label != null and _lanes_label.visible:
		parts.append(_lanes_label.text)
	return "\n".join(parts)


func _input(event: InputEvent) -> void:
	if _is_toggle(event):
		toggle()
		get_viewport().set_input_as_handled()


func _process(delta: float) -> void:
	for s: _Section in _sections.values():
		s.graph.queue_redraw()
	_since_refresh += delta
	if _since_refresh >= refresh_interval:
		refresh()


func _physics_process(_delta: float) -> void:
	for s: _Section in _sections.values():
		if not is_instance_valid(s.manager):
			continue
		var stats := s.manager.get_stats()
		var ticks: int = stats.get("ticks", 0)
		if ticks != s.last_ticks:
			s.last_ticks = ticks
			s.graph.push(stats.get("step_ms", 0.0))


func _is_toggle(event: InputEvent) -> bool:
	if event.is_echo():
		return false
	if not toggle_action.is_empty():
		if InputMap.has_action(toggle_action):
			if event.is_action_pressed(toggle_action):
				return true
		elif not _warned_action:
			_warned_action = true
			push_warning("SwarmDebugOverlay '%s': toggle_action '%s' is not in the InputMap; it is ignored" % [name, toggle_action])
	var key := event as InputEventKey
	return key != null and key.pressed and toggle_key != KEY_NONE \
			and (key.keycode == toggle_key or key.physical_keycode == toggle_key)


## Shown: sample, refresh and follow the tree for lanes; hidden: none of it.
func _apply_visibility() -> void:
	var on := visible and is_inside_tree()
	set_process(on)
	set_physics_process(on)
	_follow_tree(on)
	if on:
		_lane_nodes.clear()
		if lanes.is_empty():
			for n in get_tree().root.find_children("*", "SwarmTrafficLane", true, false):
				_lane_nodes.append(n as SwarmTrafficLane)
		refresh()


func _follow_tree(on: bool) -> void:
	if not is_inside_tree():
		return
	var tree := get_tree()
	if on and not tree.node_added.is_connected(_on_node_added):
		tree.node_added.connect(_on_node_added)
	elif not on and tree.node_added.is_connected(_on_node_added):
		tree.node_added.disconnect(_on_node_added)


func _on_node_added(node: Node) -> void:
	if node is SwarmTrafficLane and not _lane_nodes.has(node):
		_lane_nodes.append(node as SwarmTrafficLane)


func _build_panel() -> void:
	_panel = PanelContainer.new()
	_panel.name = "Panel"
	_panel.mouse_filter = Control.MOUSE_FILTER_IGNORE
	var style := StyleBoxFlat.new()
	style.bg_color = Color(0.05, 0.06, 0.08, 0.72)
	style.set_corner_radius_all(6)
	style.content_margin_left = 10
	style.content_margin_right = 10
	style.content_margin_top = 8
	style.content_margin_bottom = 8
	_panel.add_theme_stylebox_override("panel", style)
	add_child(_panel, false, Node.INTERNAL_MODE_FRONT)
	_box = VBoxContainer.new()
	_box.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_box.add_theme_constant_override("separation", 4)
	_panel.add_child(_box)
	_lanes_label = _make_label()
	_box.add_child(_lanes_label)
	_place_panel()
	_apply_font_size()


func _make_label() -> Label:
	var label := Label.new()
	label.mouse_filter = Control.MOUSE_FILTER_IGNORE
	label.add_theme_color_override("font_color", Color(0.93, 0.95, 0.97))
	label.add_theme_font_size_override("font_size", font_size)
	return label


## Pins the panel's corner to the screen's, growing away from it as the text grows.
func _place_panel() -> void:
	var right := corner == ScreenCorner.TOP_RIGHT or corner == ScreenCorner.BOTTOM_RIGHT
	var bottom := corner == ScreenCorner.BOTTOM_LEFT or corner == ScreenCorner.BOTTOM_RIGHT
	var ax := 1.0 if right else 0.0
	var ay := 1.0 if bottom else 0.0
	_panel.anchor_left = ax
	_panel.anchor_right = ax
	_panel.anchor_top = ay
	_panel.anchor_bottom = ay
	var x := -EDGE_MARGIN if right else EDGE_MARGIN
	var y := -EDGE_MARGIN if bottom else EDGE_MARGIN
	_panel.offset_left = x
	_panel.offset_right = x
	_panel.offset_top = y
	_panel.offset_bottom = y
	_panel.grow_horizontal = Control.GROW_DIRECTION_BEGIN if right else Control.GROW_DIRECTION_END
	_panel.grow_vertical = Control.GROW_DIRECTION_BEGIN if bottom else Control.GROW_DIRECTION_END


func _apply_font_size() -> void:
	_lanes_label.add_theme_font_size_override("font_size", font_size)
	for s: _Section in _sections.values():
		s.label.add_theme_font_size_override("font_size", font_size)
		_size_graph(s.graph)


func _size_graph(graph: _StepGraph) -> void:
	graph.custom_minimum_size = Vector2(roundf(font_size * 17.0), roundf(font_size * 3.4))
	graph.text_size = maxi(6, roundi(font_size * 0.8))
	graph.queue_redraw()


## The managers to show: those named in [member managers], else the group's.
func _current_managers() -> Array[SwarmManager]:
	var out: Array[SwarmManager] = []
	if managers.is_empty():
		for n in get_tree().get_nodes_in_group(&"swarm_managers"):
			if n is SwarmManager:
				out.append(n as SwarmManager)
		return out
	for path in managers:
		var m := get_node_or_null(path) as SwarmManager
		if m != null:
			out.append(m)
		elif not _warned_paths.has(path):
			_warned_paths[path] = true
			push_warning("SwarmDebugOverlay '%s': managers entry '%s' is not a SwarmManager; it is skipped" % [name, path])
	return out


## The lanes to show: those named in [member lanes], else every lane found in the tree.
func _current_lanes() -> Array[SwarmTrafficLane]:
	var out: Array[SwarmTrafficLane] = []
	if lanes.is_empty():
		for l: Variant in _lane_nodes:
			if is_instance_valid(l) and (l as Node).is_inside_tree():
				out.append(l)
		_lane_nodes = out
		return out
	for path in lanes:
		var l := get_node_or_null(path) as SwarmTrafficLane
		if l != null:
			out.append(l)
		elif not _warned_paths.has(path):
			_warned_paths[path] = true
			push_warning("SwarmDebugOverlay '%s': lanes entry '%s' is not a SwarmTrafficLane; it is skipped" % [name, path])
	return out


## One section per current manager, in their order; a manager's graph stays while it does.
func _sync_sections() -> void:
	var current := _current_managers()
	var ids := []
	for m in current:
		ids.append(m.get_instance_id())
	if ids == _sections.keys():
		return
	var kept: Dictionary[int, _Section] = {}
	for i in current.size():
		var s: _Section = _sections.get(ids[i])
		if s == null:
			s = _Section.new()
			s.manager = current[i]
			s.label = _make_label()
			s.graph = _StepGraph.new()
			s.graph.mouse_filter = Control.MOUSE_FILTER_IGNORE
			s.graph.set_capacity(graph_frames)
			_size_graph(s.graph)
			_box.add_child(s.label)
			_box.add_child(s.graph)
		_box.move_child(s.label, 2 * i)
		_box.move_child(s.graph, 2 * i + 1)
		kept[ids[i]] = s
	for id in _sections:
		if not kept.has(id):
			_sections[id].label.queue_free()
			_sections[id].graph.queue_free()
	_sections = kept


func _manager_text(s: _Section) -> String:
	var st := s.manager.get_stats()
	var values := s.graph.samples()
	var mean := 0.0
	var peak := 0.0
	for v in values:
		mean += v
		peak = maxf(peak, v)
	mean /= maxi(1, values.size())
	var lines: PackedStringArray = [
		"%s   agents %d / %d" % [s.manager.name, st.get("agent_count", 0), st.get("capacity", 0)],
		"step %.2f ms (mean %.2f, peak %.2f over %d)   sync %.2f ms" % [st.get("step_ms", 0.0), mean, peak,
				values.size(), st.get("sync_ms", 0.0)],
		"LOD full %d   reduced %d   cheap %d (far, waiting %d)   dormant %d" % [st.get("lod_full", 0),
				st.get("lod_reduced", 0), st.get("lod_cheap", 0), st.get("far_waiting", 0), st.get("dormant_count", 0)],
		"flow field rebuilds %d" % st.get("flow_field_rebakes", 0),
		"perception: chasing %d   searching %d   investigating %d   idle %d" % [st.get("perception_chasing", 0),
				st.get("perception_searching", 0), st.get("perception_investigating", 0), st.get("perception_idle", 0)],
		"formations: %d orders, %d agents" % [st.get("formation_orders", 0), st.get("formation_agents", 0)],
	]
	return "\n".join(lines)


func _lane_text(lane: SwarmTrafficLane) -> String:
	var st := lane.get_stats()
	return "lane %s: vehicles %d   moving %d   voices %d   colliders awake %d" % [lane.name,
			st.get("vehicles", 0), st.get("moving", 0), st.get("voices_playing", 0), st.get("colliders_awake", 0)]
