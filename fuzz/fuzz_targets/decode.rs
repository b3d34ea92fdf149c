//! The save decoder alone on arbitrary bytes, twice: as given (header checks: magic, version,
//! length, checksum) and framed with a valid header (so mutations reach postcard and the state's
//! validation). `load_step` also steps whatever loads; this one is the fast run for volume.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swarm_core::save;

fuzz_target!(|data: &[u8]| {
    let _ = save::decode_named(data);
    let _ = save::decode_named(&save::frame(data));
});
