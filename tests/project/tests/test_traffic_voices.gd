# A traffic lane's engine voices: never more than max_voices play, and only for vehicles that
# move and are within earshot of the current camera; a stopped vehicle beside it is silent.
extends "res://test_base.gd"

const Common := preload("res://tests/traffic_common.gd")


## A short constant-volume loop.
func make_stream() -> AudioStreamWAV:
	var w := AudioStreamWAV.new()
	w.format = AudioStreamWAV.FORMAT_8_BITS
	w.mix_rate = 8000
	var data := PackedByteArray()
	data.resize(800)
	for i in 800:
		data[i] = 40 if i % 20 < 10 else 216
	w.data = data
	w.loop_mode = AudioStreamWAV.LOOP_FORWARD
	w.loop_end = 800
	return w


func run() -> bool:
	var camera := Camera3D.new()
	add_child(camera)
	camera.current = true
	camera.global_position = Vector3(150, 2, 3)
	var profile := Common.make_profile()
	profile.engine_stream = make_stream()
	profile.max_voices = 3
	profile.earshot = 20.0
	profile.fade_time = 0.0
	var lane := Common.make_lane(self, "Lane", Common.make_street(self, "Street", 300.0), profile)
	await physics_frames(2)
	var players: Array = []
	for c in lane.get_children(true):
		if c is AudioStreamPlayer3D:
			players.append(c)
	check_eq(players.size(), 3, "voice players")
	var most := 0
	for frame in 600:
		await get_tree().physics_frame
		var offsets := lane.get_vehicle_offsets()
		var speeds := lane.get_vehicle_speeds()
		var playing := 0
		for p: AudioStreamPlayer3D in players:
			if not p.playing:
				continue
			playing += 1
			# The vehicle this voice sounds for: the one at its position.
			var best := -1
			for k in offsets.size():
				if best < 0 or absf(offsets[k] - p.global_position.x) < absf(offsets[best] - p.global_position.x):
					best = k
			check(absf(offsets[best] - p.global_position.x) < 0.05, "a voice sits on a vehicle")
			check(speeds[best] > profile.moving_speed, "frame %d: a voice plays for a vehicle at %.2f m/s" % [frame, speeds[best]])
			check(p.global_position.distance_to(camera.global_position) < profile.earshot, "a voice plays out of earshot")
		check(playing <= 3, "frame %d: %d voices play" % [frame, playing])
		check_eq(lane.get_stats()["voices_playing"], playing, "voices_playing")
		most = maxi(most, playing)
		if not passed():
			break
	check(most >= 1, "some vehicle near the camera was heard: at most %d at once" % most)
	print("most voices at once: %d" % most)
	return passed()
