//! The lane's figures in the debugger's Monitors tab, under "Swarm Traffic/<lane name> ...".

use godot::classes::Performance;
use godot::prelude::*;

/// Reads one of the lane's `get_stats` numbers, given the lane's instance id.
pub type Read = fn(InstanceId, &str) -> f64;

/// (monitor label, stats key).
const MONITORS: [(&str, &str); 6] = [
    ("vehicles", "vehicles"),
    ("moving", "moving"),
    ("mean speed", "mean_speed"),
    ("voices playing", "voices_playing"),
    ("colliders awake", "colliders_awake"),
    ("recycled", "recycled"),
];

/// Adds the monitors of the lane `me` named `name` (those not taken by a lane of the same name);
/// returns their ids.
pub fn add(name: &str, me: InstanceId, read: Read) -> Vec<StringName> {
    let mut perf = Performance::singleton();
    let mut added = Vec::new();
    for (label, key) in MONITORS {
        let id = StringName::from(format!("Swarm Traffic/{name} {label}").as_str());
        if !perf.has_custom_monitor(&id) {
            let callable = Callable::from_fn("swarm_traffic_monitor", move |_args| read(me, key));
            perf.add_custom_monitor(&id, &callable);
            added.push(id);
        }
    }
    added
}

/// Removes monitors added by `add`.
pub fn remove(ids: &mut Vec<StringName>) {
    let mut perf = Performance::singleton();
    for id in ids.drain(..) {
        if perf.has_custom_monitor(&id) {
            perf.remove_custom_monitor(&id);
        }
    }
}
