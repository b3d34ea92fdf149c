@tool
extends Node
## Editor side of the VAT baker: Project > Tools > Bake Swarm Vertex Animation... bakes the open
## scene (a character with a skinned mesh, its Skeleton3D and an AnimationPlayer) into a
## SwarmVertexAnimation resource saved where the user chooses, with a progress bar (one step per
## clip). The scene itself is not touched: a copy of it is posed.

const VatBaker = preload("vat_baker.gd")
const MENU_ITEM := "Bake Swarm Vertex Animation..."

var _dialog: EditorFileDialog
var _progress: AcceptDialog
var _bar: ProgressBar
var _label: Label


func _ready() -> void:
	_dialog = EditorFileDialog.new()
	_dialog.file_mode = EditorFileDialog.FILE_MODE_SAVE_FILE
	_dialog.access = EditorFileDialog.ACCESS_RESOURCES
	_dialog.title = "Save the baked SwarmVertexAnimation"
	_dialog.add_filter("*.res", "Binary resource")
	_dialog.add_filter("*.tres", "Text resource")
	_dialog.file_selected.connect(_bake_to)
	add_child(_dialog)
	_progress = AcceptDialog.new()
	_progress.title = "Baking vertex animation"
	var box := VBoxContainer.new()
	_label = Label.new()
	box.add_child(_label)
	_bar = ProgressBar.new()
	_bar.custom_minimum_size = Vector2(320, 0)
	_bar.max_value = 1.0
	box.add_child(_bar)
	_progress.add_child(box)
	add_child(_progress)


## The menu item: asks where to save, then bakes.
func start() -> void:
	var root := EditorInterface.get_edited_scene_root()
	if root == null:
		_show_message("Open the character scene to bake first (a skinned mesh, its Skeleton3D and an AnimationPlayer).")
		return
	var base := root.scene_file_path.get_basename() if not root.scene_file_path.is_empty() else "res://character"
	_dialog.current_path = base + "_vat.res"
	_dialog.popup_file_dialog()


func _bake_to(path: String) -> void:
	var root := EditorInterface.get_edited_scene_root()
	if root == null:
		return
	var copy := root.duplicate()
	var job := VatBaker.Job.new()
	if not job.start(copy, {}):
		copy.free()
		_show_message("Cannot bake: " + job.error)
		return
	_progress.popup_centered()
	_bar.value = 0.0
	_label.text = "Baking " + job.current_clip()
	var more := true
	while more:
		# Let the editor draw the bar between clips.
		await get_tree().process_frame
		more = job.step()
		_bar.value = job.progress()
		_label.text = "Baking " + job.current_clip() if more else "Saving " + path
	var vat := job.finish()
	copy.free()
	var err := ResourceSaver.save(vat, path)
	_progress.hide()
	if err != OK:
		_show_message("Could not save %s (error %d)." % [path, err])
		return
	EditorInterface.get_resource_filesystem().update_file(path)
	print("Swarm: baked %s: %d vertices, %d frames, clips %s" % [path, vat.vertex_count, vat.frame_count, vat.clip_names])
	EditorInterface.edit_resource(load(path))


func _show_message(text: String) -> void:
	var d := AcceptDialog.new()
	d.dialog_text = text
	d.title = "Swarm vertex animation"
	d.confirmed.connect(d.queue_free)
	d.canceled.connect(d.queue_free)
	add_child(d)
	d.popup_centered()
