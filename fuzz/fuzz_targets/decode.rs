//! The save decoder alone on arbitrary bytes, twice: as given (header checks: magic, version,
//! length, checksum) and framed with a valid header (so mutations reach postcard and the state's
//! validation). Host parts that pass validation are used a little, as a game would (a lane
//! steps, a breakable takes a blow): validation must let through nothing that panics there.
//! `load_step` also steps whatever world loads; this one is the fast run for volume.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swarm_core::breakable::BreakableConfig;
use swarm_core::host_parts::PartState;
use swarm_core::save;

fuzz_target!(|data: &[u8]| {
    let _ = save::decode_named(data);
    if let Ok((_, names)) = save::decode_named(&save::frame(data)) {
        for p in names.parts {
            match p.state {
                PartState::Lane(mut lane) => {
                    for _ in 0..3 {
                        lane.step(1.0 / 60.0);
                    }
                }
                PartState::Breakable { mut core, .. } => {
                    let cfg = BreakableConfig::default();
                    core.wear(&cfg, 5.0);
                    core.settle(&cfg);
                }
                _ => {}
            }
        }
    }
});
