//! The save decoder on arbitrary bytes, then the world it loads: the bytes as given (header
//! checks: magic, version, length, checksum) and framed with a valid header (so mutations reach
//! postcard and the state's validation). Whatever loads is stepped a few times and must stay
//! finite.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swarm_core::save;
use swarm_core::World;

fuzz_target!(|data: &[u8]| {
    let _ = save::decode_named(data);
    if let Ok(state) = save::decode(&save::frame(data)) {
        let mut w = World::from_state(state);
        for _ in 0..3 {
            w.step(1.0 / 60.0);
        }
        assert!(w.agents().pos.iter().all(|p| p.is_finite()), "a loaded world produced NaN");
    }
});
