//! Test that the resources' inspector hints and defaults agree with the core's bounds table.
//! `#[export(range = ...)]` and `#[init(val = ...)]` take literals, so the numbers are written
//! again in the resource sources; this reads those sources and compares each field with the core
//! bound of the same name.
//!
//! The rule for an exported range `(lo, hi, step, ...)` against the core bound `core_lo..core_hi`:
//! each end of the inspector's slider equals the core's end, except that an end marked
//! `or_less` / `or_greater` (the inspector lets one type past it) may lie inside the core bounds,
//! where a narrower slider is just more convenient; values typed past it are then checked by the
//! core. So the inspector never offers a value the core rejects, and never hides one the core
//! accepts without saying so. An enum export lists exactly the indices `core_lo..=core_hi`.
//! Every `#[init(val = ...)]` equals the core default (no `init` means zero / false), bools
//! included (those have no bound; they are compared with the core config's `Default`).

use swarm_core::bounds::{
    archetype, attack, behavior, director, formation, lod, movement, perception, spawner, target, traffic, world,
};
use swarm_core::formation::FormationShape;
use swarm_core::sanitize::Setting;
use swarm_core::traffic::TrafficProfile;
use swarm_core::{Archetype, AttackProfile, BehaviorProfile, MovementProfile, PerceptionProfile, WorldSettings};

/// One exported field as written in a resource source.
#[derive(Debug, Default)]
struct Field {
    name: String,
    ty: String,
    /// `(lo, hi, or_less, or_greater)` of `#[export(range = ...)]`.
    range: Option<(f64, f64, bool, bool)>,
    /// The values of `#[export(enum = (A = 0, ...))]`.
    enum_values: Option<Vec<i64>>,
    /// The numbers (or `true` / `false`) in `#[init(val = ...)]`.
    init: Option<Vec<String>>,
}

/// The numbers and words inside `text`, split at commas, spaces and brackets.
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c == '(' || c == ')' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The fields of the first `pub struct` in `source` (the resource class).
fn parse_fields(source: &str) -> Vec<Field> {
    parse_struct(source, "")
}

/// The fields of `pub struct <name>` in `source` (the first `pub struct` when `name` is empty).
fn parse_struct(source: &str, name: &str) -> Vec<Field> {
    let mut out = Vec::new();
    let mut cur = Field::default();
    let head = format!("pub struct {name}");
    let body = source.lines().map(str::trim).skip_while(|l| !l.starts_with(&head)).skip(1);
    for line in body.take_while(|l| *l != "}") {
        if let Some(rest) = line.strip_prefix("#[export(range = (") {
            let t = tokens(rest.trim_end_matches(")]"));
            let num = |i: usize| t[i].parse::<f64>().unwrap_or_else(|_| panic!("range end {:?} in {line}", t[i]));
            cur.range = Some((num(0), num(1), t.iter().any(|w| w == "or_less"), t.iter().any(|w| w == "or_greater")));
        } else if let Some(rest) = line.strip_prefix("#[export(enum = (") {
            let values = rest
                .split(',')
                .filter_map(|e| e.split('=').nth(1))
                .map(|v| v.trim().trim_end_matches(")]").trim_end_matches(')').trim().parse::<i64>().unwrap());
            cur.enum_values = Some(values.collect());
        } else if let Some(rest) = line.strip_prefix("#[init(val = ") {
            let rest = rest.trim_end_matches(")]").replace("Vector2::new", "");
            // A class enum's value is written `TypeName(n)`: keep the number.
            cur.init = Some(tokens(&rest).into_iter().filter(|t| !t.starts_with(char::is_uppercase)).collect());
        } else if line.starts_with("#[") || line.starts_with("//") || line.is_empty() {
            continue;
        } else if let Some((name, ty)) = line.trim_end_matches(',').split_once(": ") {
            if name.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !line.starts_with("pub ") {
                cur.name = name.to_string();
                cur.ty = ty.to_string();
                if cur.enum_values.is_none() {
                    cur.enum_values = class_enum_values(ty);
                }
                out.push(std::mem::take(&mut cur));
            }
            cur = Field::default();
        } else {
            cur = Field::default();
        }
    }
    out
}

/// The values of a class enum field's type (see `class_enum`), by the type's name.
fn class_enum_values(ty: &str) -> Option<Vec<i64>> {
    use crate::nodes::{director, spawners};
    use crate::resources::{movement_profile, perception_profile};
    let values = match ty {
        "OrientationModeEnum" => movement_profile::OrientationModeEnum::VALUES,
        "SightOcclusionEnum" => perception_profile::SightOcclusionEnum::VALUES,
        "ModeEnum" => director::ModeEnum::VALUES,
        "RectFallback" => spawners::RectFallback::VALUES,
        "RingFallback" => spawners::RingFallback::VALUES,
        _ => return None,
    };
    Some(values.iter().map(|&(_, v)| v).collect())
}

/// `name: value` in a `Debug` string, where `name` is a whole field name.
fn debug_value<'a>(debug: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}: ");
    let mut from = 0;
    while let Some(i) = debug[from..].find(&key) {
        let at = from + i;
        let before = debug[..at].chars().next_back();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            let rest = &debug[at + key.len()..];
            return Some(rest.split([',', ' ', '}']).next().unwrap_or(""));
        }
        from = at + key.len();
    }
    None
}

struct Resource {
    file: &'static str,
    source: &'static str,
    groups: &'static [&'static [Setting]],
    /// `Debug` of the core config's default, for the bools.
    core_default: String,
    /// Core settings that are not on this resource (the manager's own fields).
    elsewhere: &'static [&'static str],
    /// Exported ranged fields with no core setting (engine-only: drawing).
    engine_only: &'static [&'static str],
    /// Resource bool name -> core field name, where they differ.
    bool_alias: &'static [(&'static str, &'static str)],
}

fn resources() -> Vec<Resource> {
    vec![
        Resource {
            file: "settings.rs",
            source: include_str!("settings.rs"),
            groups: &[world::ALL, lod::ALL],
            core_default: format!("{:?}", WorldSettings::default()),
            elsewhere: &["ground_height", "max_active_target_count", "agent_height"],
            engine_only: &["distant_visible_distance"],
            bool_alias: &[("lod_enabled", "enabled")],
        },
        Resource {
            file: "movement_profile.rs",
            source: include_str!("movement_profile.rs"),
            groups: &[movement::ALL],
            core_default: format!("{:?}", MovementProfile::default()),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        },
        Resource {
            file: "behavior_profile.rs",
            source: include_str!("behavior_profile.rs"),
            groups: &[behavior::ALL],
            core_default: format!("{:?}", BehaviorProfile::default()),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        },
        Resource {
            file: "attack_profile.rs",
            source: include_str!("attack_profile.rs"),
            groups: &[attack::ALL],
            core_default: format!("{:?}", AttackProfile::default()),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        },
        Resource {
            file: "perception_profile.rs",
            source: include_str!("perception_profile.rs"),
            groups: &[perception::ALL],
            core_default: format!("{:?}", PerceptionProfile::default()),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        },
        Resource {
            file: "archetype.rs",
            source: include_str!("archetype.rs"),
            groups: &[archetype::ALL],
            core_default: format!("{:?}", Archetype::default()),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        },
        Resource {
            file: "formation.rs",
            source: include_str!("formation.rs"),
            groups: &[formation::ALL],
            core_default: format!("{:?}", FormationShape::default()),
            elsewhere: &[],
            engine_only: &["points"],
            bool_alias: &[],
        },
        Resource {
            file: "traffic_profile.rs",
            source: include_str!("traffic_profile.rs"),
            groups: &[traffic::ALL],
            core_default: format!("{:?}", TrafficProfile::default()),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        },
    ]
}

fn setting<'a>(r: &Resource, name: &str) -> Option<&'a Setting> {
    r.groups.iter().flat_map(|g| g.iter()).find(|s| s.name() == name)
}

/// What is wrong with one field, if anything.
fn check_field(r: &Resource, f: &Field) -> Vec<String> {
    let mut errs = Vec::new();
    let at = format!("{}: {}", r.file, f.name);
    let init_numbers = || -> Vec<f64> {
        match &f.init {
            None => vec![0.0],
            Some(t) => t.iter().map(|v| v.parse::<f64>().unwrap_or(f64::NAN)).collect(),
        }
    };
    if let Some(s) = setting(r, &f.name) {
        let (lo, hi) = s.bounds();
        match (f.range, &f.enum_values) {
            (Some((a, b, or_less, or_greater)), _) => {
                // As f32, the type both sides store.
                let (a, b, lo, hi) = (a as f32, b as f32, lo as f32, hi as f32);
                let lo_ok = a == lo || (or_less && a > lo && a <= hi);
                let hi_ok = b == hi || (or_greater && b < hi && b >= lo);
                if !lo_ok || !hi_ok {
                    errs.push(format!(
                        "{at}: inspector range {a}..{b}{}{} disagrees with the core bound {lo}..{hi}",
                        if or_less { " or_less" } else { "" },
                        if or_greater { " or_greater" } else { "" },
                    ));
                }
            }
            (None, Some(values)) => {
                let want: Vec<i64> = (lo as i64..=hi as i64).collect();
                if *values != want {
                    errs.push(format!("{at}: enum values {values:?}, the core bound allows {want:?}"));
                }
            }
            (None, None) => errs.push(format!("{at}: no inspector range for a setting the core bounds {lo}..{hi}")),
        }
        let init = init_numbers();
        let want: Vec<f32> = s.defaults().iter().map(|d| *d as f32).collect();
        // Compared as f32, the type the resource stores (ints are exact in it at these sizes).
        let same = init.len() == want.len() && init.iter().zip(&want).all(|(a, b)| *a as f32 == *b);
        if !same {
            errs.push(format!("{at}: init {init:?}, the core default is {want:?}"));
        }
    } else if f.ty == "bool" {
        let core_name = r.bool_alias.iter().find(|(n, _)| *n == f.name).map_or(f.name.as_str(), |(_, c)| c);
        let init = f.init.as_ref().map_or("false", |t| t[0].as_str());
        match debug_value(&r.core_default, core_name) {
            Some(want) if want == init => {}
            Some(want) => errs.push(format!("{at}: init {init}, the core default is {want}")),
            None => errs.push(format!("{at}: no core field {core_name} to compare the default with")),
        }
    } else if f.range.is_some() && !r.engine_only.contains(&f.name.as_str()) {
        errs.push(format!("{at}: an inspector range but no core setting of that name"));
    }
    errs
}

#[test]
fn inspector_ranges_and_defaults_agree_with_the_core() {
    let mut errs = Vec::new();
    for r in resources() {
        let fields = parse_fields(r.source);
        for f in &fields {
            errs.extend(check_field(&r, f));
        }
        for s in r.groups.iter().flat_map(|g| g.iter()) {
            if !r.elsewhere.contains(&s.name()) && !fields.iter().any(|f| f.name == s.name()) {
                errs.push(format!("{}: no field for the core setting {}", r.file, s.name()));
            }
        }
    }
    assert!(errs.is_empty(), "{} disagreements:\n{}", errs.len(), errs.join("\n"));
}

/// The nodes whose fields the core bounds without a config of their own (spawners, the director,
/// targets) follow the same rule; a `Vector2` field is checked per component (`size.x`, `size.y`).
#[test]
fn node_settings_agree_with_the_core() {
    type Node = (&'static str, &'static str, &'static str, &'static [&'static [Setting]]);
    let nodes: [Node; 5] = [
        ("nodes/spawners.rs", include_str!("../nodes/spawners.rs"), "SwarmRectSpawner", &[spawner::ALL]),
        ("nodes/spawners.rs", include_str!("../nodes/spawners.rs"), "SwarmRingSpawner", &[spawner::ALL]),
        ("nodes/director.rs", include_str!("../nodes/director.rs"), "SwarmSpawnerDirector", &[director::ALL]),
        ("nodes/target.rs", include_str!("../nodes/target.rs"), "SwarmTarget", &[target::ALL]),
        (
            "nodes/traffic_lane/mod.rs",
            include_str!("../nodes/traffic_lane/mod.rs"),
            "SwarmTrafficLane",
            &[traffic::LANE],
        ),
    ];
    let mut errs = Vec::new();
    for (file, source, class, groups) in nodes {
        let r = Resource {
            file,
            source,
            groups,
            core_default: String::new(),
            elsewhere: &[],
            engine_only: &[],
            bool_alias: &[],
        };
        let fields = parse_struct(source, class);
        assert!(!fields.is_empty(), "{file}: no fields read for {class}");
        for f in fields.iter().filter(|f| f.ty != "bool") {
            if f.ty == "Vector2" && setting(&r, &f.name).is_none() && f.range.is_some() {
                let init = f.init.clone().unwrap_or_else(|| vec!["0".into(), "0".into()]);
                for (k, axis) in ["x", "y"].iter().enumerate() {
                    let part = Field {
                        name: format!("{}.{axis}", f.name),
                        ty: "f32".into(),
                        range: f.range,
                        enum_values: None,
                        init: Some(vec![init[k].clone()]),
                    };
                    errs.extend(check_field(&r, &part));
                }
            } else {
                errs.extend(check_field(&r, f));
            }
        }
        for s in groups.iter().flat_map(|g| g.iter()) {
            let covered = fields.iter().any(|f| f.name == s.name() || s.name().starts_with(&format!("{}.", f.name)));
            // The spawner shapes own their size fields (a ring has no size, a rectangle no radius).
            let other_shape = (class == "SwarmRingSpawner" && s.name().starts_with("size"))
                || (class == "SwarmRectSpawner" && s.name().ends_with("radius"));
            if !covered && !other_shape {
                errs.push(format!("{file}: {class} has no field for the core setting {}", s.name()));
            }
        }
    }
    assert!(errs.is_empty(), "{} disagreements:\n{}", errs.len(), errs.join("\n"));
}

/// The manager's own fields that are core settings (`max_active_target_count`, `agent_height`)
/// follow the same rule; its other ranged fields are bake or engine settings.
#[test]
fn the_managers_own_settings_agree_with_the_core() {
    let r = Resource {
        file: "nodes/manager/mod.rs",
        source: include_str!("../nodes/manager/mod.rs"),
        groups: &[world::ALL],
        core_default: format!("{:?}", WorldSettings::default()),
        elsewhere: &[],
        engine_only: &["cell_size", "clearance_radius", "max_step_height", "sight_rays_per_frame"],
        bool_alias: &[],
    };
    let fields = parse_fields(r.source);
    let mut errs = Vec::new();
    for name in ["max_active_target_count", "agent_height"] {
        match fields.iter().find(|f| f.name == name) {
            Some(f) => errs.extend(check_field(&r, f)),
            None => errs.push(format!("{}: no field {name}", r.file)),
        }
    }
    for f in fields.iter().filter(|f| f.ty != "bool" && f.name != "max_active_target_count" && f.name != "agent_height")
    {
        errs.extend(check_field(&r, f));
    }
    assert!(errs.is_empty(), "{} disagreements:\n{}", errs.len(), errs.join("\n"));
}

#[test]
fn the_parser_reads_ranges_enums_and_inits() {
    let src = "
        pub struct R {
        /// Doc.
        #[export(range = (0.01, 5.0, 0.01, or_greater, suffix = \"m\"))]
        #[init(val = 0.4)]
        agent_radius: f32,
        #[export(enum = (A = 0, B = 1, C = 2))]
        #[init(val = 2)]
        mode: i64,
        #[init(val = Vector2::new(3.5, 4.5))]
        speed: Vector2,
        #[export]
        #[init(val = SightOcclusionEnum(1))]
        occlusion: SightOcclusionEnum,
        base: Base<Resource>,
        }
        fn f() { R { speed: 1 } }
    ";
    let f = parse_fields(src);
    assert_eq!(f.len(), 5);
    assert_eq!(f[3].enum_values, Some(vec![0, 1, 2]));
    assert_eq!(f[3].init.as_deref(), Some(&["1".to_string()][..]));
    assert_eq!(f[0].range, Some((0.01, 5.0, false, true)));
    assert_eq!(f[0].init.as_deref(), Some(&["0.4".to_string()][..]));
    assert_eq!(f[1].enum_values, Some(vec![0, 1, 2]));
    assert_eq!(f[2].init.as_deref(), Some(&["3.5".to_string(), "4.5".to_string()][..]));
    assert_eq!(debug_value("S { enabled: true, lod_enabled: false }", "enabled"), Some("true"));
    assert_eq!(debug_value("S { lod_enabled: false, enabled: true }", "enabled"), Some("true"));
}
