# Class enums are real Godot enums: each value is a class constant grouped under its enum
# (ClassDB lists the enum and its constants, GDScript reaches `SwarmFlowModifier.Route.BLOCKED`
# as well as `SwarmFlowModifier.BLOCKED`), and the property holding one is typed by the enum
# (class_name `Class.Enum`, PROPERTY_USAGE_CLASS_IS_ENUM, an ENUM hint naming every value), both
# as registered in ClassDB and as the inspector sees it on an instance. Setting a value through
# the enum works, and assigning by the enum type checks in GDScript. The getter and setter carry
# the enum type as well, as an engine enum's do.
extends "res://test_base.gd"

# class, enum, its constants in order, the property typed by it ("" where none).
const ENUMS := [
	["SwarmFlowModifier", "Route", ["FREE", "EXTRA_COST", "BLOCKED"], "route"],
	["SwarmBreakable", "State", ["INTACT", "DAMAGED", "BROKEN"], ""],
	["SwarmSpawnerDirector", "Mode", ["ONE_SHOT", "CONTINUOUS", "MAINTAIN_POPULATION", "FINITE_ENCOUNTER"], "mode"],
	["SwarmRectSpawner", "OffScreenFallback", ["FALLBACK_SKIP", "FALLBACK_SPAWN_IN_VIEW"], "off_screen_fallback"],
	["SwarmRingSpawner", "OffScreenFallback", ["FALLBACK_SKIP", "FALLBACK_SPAWN_IN_VIEW"], "off_screen_fallback"],
	["SwarmMovementProfile", "OrientationMode", ["FACE_VELOCITY", "FACE_GOAL", "FACE_GOAL_WITH_VELOCITY_BLEND"], "orientation_mode"],
	["SwarmPerceptionProfile", "SightOcclusion", ["NONE", "PHYSICS_RAY", "NAVIGATION_PATH"], "sight_occlusion"],
]


func find_property(list: Array[Dictionary], name: String) -> Dictionary:
	for p in list:
		if p["name"] == name:
			return p
	return {}


func check_typed(p: Dictionary, qualified: String, n_values: int, where: String) -> void:
	if not check(not p.is_empty(), "%s: property missing" % where):
		return
	check_eq(p["type"], TYPE_INT, "%s type" % where)
	check_eq(String(p["class_name"]), qualified, "%s class_name" % where)
	check(p["usage"] & PROPERTY_USAGE_CLASS_IS_ENUM, "%s: usage lacks CLASS_IS_ENUM (%d)" % [where, p["usage"]])
	check_eq(p["hint"], PROPERTY_HINT_ENUM, "%s hint" % where)
	check_eq(String(p["hint_string"]).split(",").size(), n_values, "%s hint_string %s" % [where, p["hint_string"]])


func run() -> bool:
	for e in ENUMS:
		var cls: String = e[0]
		var en: String = e[1]
		var names: Array = e[2]
		check(ClassDB.class_has_enum(cls, en), "%s has no enum %s (enums: %s)" % [cls, en, ClassDB.class_get_enum_list(cls)])
		check_eq(Array(ClassDB.class_get_enum_constants(cls, en)), names, "%s.%s constants" % [cls, en])
		for i in names.size():
			check_eq(ClassDB.class_get_integer_constant(cls, names[i]), i, "%s.%s value" % [cls, names[i]])
			check_eq(String(ClassDB.class_get_integer_constant_enum(cls, names[i])), en, "%s.%s's enum" % [cls, names[i]])
		var prop: String = e[3]
		if prop == "":
			continue
		var qualified := "%s.%s" % [cls, en]
		check_typed(find_property(ClassDB.class_get_property_list(cls, true), prop), qualified, names.size(), "ClassDB %s.%s" % [cls, prop])
		# The accessors are typed too (the in-editor help and GDScript's checks read them).
		for m in ClassDB.class_get_method_list(cls, true):
			if m["name"] == "get_" + prop:
				check_eq(String(m["return"]["class_name"]), qualified, "%s.get_%s return" % [cls, prop])
			elif m["name"] == "set_" + prop:
				check_eq(String(m["args"][0]["class_name"]), qualified, "%s.set_%s argument" % [cls, prop])
		var obj: Object = ClassDB.instantiate(cls)
		check_typed(find_property(obj.get_property_list(), prop), qualified, names.size(), "instance %s.%s" % [cls, prop])
		if obj is Node:
			obj.free()

	# GDScript reaches the values through the enum and directly, and a typed variable takes them.
	check_eq(SwarmFlowModifier.Route.BLOCKED, 2, "SwarmFlowModifier.Route.BLOCKED")
	check_eq(SwarmFlowModifier.BLOCKED, 2, "SwarmFlowModifier.BLOCKED")
	check_eq(SwarmPerceptionProfile.SightOcclusion.PHYSICS_RAY, 1, "SightOcclusion.PHYSICS_RAY")
	check_eq(SwarmSpawnerDirector.Mode.FINITE_ENCOUNTER, 3, "Mode.FINITE_ENCOUNTER")
	var door := SwarmFlowModifier.new()
	check_eq(door.route, SwarmFlowModifier.Route.EXTRA_COST, "default route")
	var blocked: SwarmFlowModifier.Route = SwarmFlowModifier.Route.BLOCKED
	door.route = blocked
	check_eq(door.route, SwarmFlowModifier.Route.BLOCKED, "route after set")
	check_eq(door.get("route"), 2, "route read by name")
	door.free()
	var movement := SwarmMovementProfile.new()
	movement.orientation_mode = SwarmMovementProfile.OrientationMode.FACE_GOAL
	check_eq(movement.orientation_mode, 1, "orientation_mode after set")
	var breakable := SwarmBreakable.new()
	check_eq(breakable.get_state(), SwarmBreakable.State.INTACT, "get_state of a new breakable")
	breakable.free()
	return passed()
