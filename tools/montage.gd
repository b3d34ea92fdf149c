# Tiles pictures into one PNG: godot --headless -s tools/montage.gd -- OUT.png COLUMNS WIDTH IN.png...
# Every picture is scaled to WIDTH pixels wide (keeping its aspect ratio) and placed in a grid of
# COLUMNS columns, left to right, top to bottom, 6 pixels apart on a dark background; a last row
# that is not full is centred. Used by tools/styles_montage.sh.
extends SceneTree

const GAP := 6
const BACKGROUND := Color(0.12, 0.12, 0.13)


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() < 4:
		printerr("usage: -s tools/montage.gd -- OUT.png COLUMNS WIDTH IN.png...")
		quit(2)
		return
	var out := args[0]
	var columns := maxi(1, args[1].to_int())
	var width := maxi(16, args[2].to_int())
	var images: Array[Image] = []
	for path in args.slice(3):
		var img := Image.load_from_file(path)
		if img == null or img.is_empty():
			printerr("montage: cannot read %s" % path)
			quit(1)
			return
		img.convert(Image.FORMAT_RGB8)
		img.resize(width, roundi(float(img.get_height()) * width / img.get_width()), Image.INTERPOLATE_LANCZOS)
		images.append(img)
	var cell_h := 0
	for img in images:
		cell_h = maxi(cell_h, img.get_height())
	var rows := ceili(float(images.size()) / columns)
	var sheet := Image.create_empty(columns * width + (columns + 1) * GAP, rows * cell_h + (rows + 1) * GAP, false, Image.FORMAT_RGB8)
	sheet.fill(BACKGROUND)
	for i in images.size():
		var row := i / columns
		var col := i % columns
		var in_row := mini(columns, images.size() - row * columns)
		var x0 := (columns - in_row) * (width + GAP) / 2  # centres a last row that is not full
		var pos := Vector2i(x0 + GAP + col * (width + GAP), GAP + row * (cell_h + GAP))
		sheet.blit_rect(images[i], Rect2i(Vector2i.ZERO, images[i].get_size()), pos)
	var err := sheet.save_png(out)
	if err != OK:
		printerr("montage: cannot write %s (error %d)" % [out, err])
		quit(1)
		return
	print("montage: %s (%dx%d, %d pictures)" % [out, sheet.get_width(), sheet.get_height(), images.size()])
	quit(0)
