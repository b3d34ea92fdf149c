//! Perception: whether an agent knows where its target is, and what it does
//! when it does not. Only archetypes with a `PerceptionProfile` take part; every other agent
//! always knows its target, exactly as before perception existed.
//!
//! Per agent the state is one compact `Awareness` record (20 bytes) in the agent storage: what the
//! agent is doing about its target (`IDLE`, `CHASING` a target it sees, `SEARCHING` the spot where
//! it last saw one or was alerted to, `INVESTIGATING` a noise), the spot, the seconds since it
//! last saw / heard / was alerted, and the last physics-ray answer.
//!
//! Each step, after the Importance LOD pass and before steering, `World` runs:
//! 1. `sight::sight_pass` (parallel): distance and occlusion decide "seen"; memory transitions
//!    (`memory::remember`) follow: losing sight starts a search (or idles), searches and
//!    investigations expire after `forget_time`.
//! 2. `noise::apply_noises` (sequential, in emit order): queued noises reach search-enabled
//!    agents that see nothing and are not already investigating.
//! 3. `memory::alert_pass` (parallel, throttled): an agent that sees its target alerts nearby
//!    perceiving agents through the same occlusion gate.
//! 4. `sight::collect_ray_requests`: a bounded, round-robin list of physics rays for
//!    `PhysicsRay` agents, answered by the engine layer before the next step.
//!
//! Every write goes to the agent's own index and every choice breaks ties by index, so results
//! do not depend on the thread count.

pub mod awareness;
pub mod memory;
pub mod noise;
pub mod occlusion;
pub mod sight;

pub use awareness::*;
