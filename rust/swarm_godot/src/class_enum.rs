//! Class enums registered with Godot as real enums: each value is a class constant grouped
//! under the enum's name (`SwarmFlowModifier.Route.BLOCKED` in GDScript, and still
//! `SwarmFlowModifier.BLOCKED`), and the property that holds one is typed by that enum
//! (`class_name` `SwarmFlowModifier.Route` with `CLASS_IS_ENUM`), so the inspector, the
//! in-editor help and GDScript's type checks all see the enum, not a bare int.
//!
//! gdext registers no enums of its own yet, so [`class_enum!`] writes the conversion traits by
//! hand, and the crate root adds the constants when the classes are registered.
//!
//! The field keeps the raw int it was given: a value outside the enum (a script writing
//! `route = 7`, an old scene) is stored as written and refused, with the node and field
//! named, by the same validation that turns the node or resource into its core config.

use godot::builtin::VariantType;
use godot::meta::shape::{EnumeratorShape, GodotShape};
use godot::meta::ClassId;
use godot::register::private::constant::{ConstantKind, ExportConstant, IntegerConstant};

/// The enum's shape for property registration: the hint lists `labels`, and `qualified`
/// (`Class.Enum`) types the property.
pub(crate) fn shape(qualified: &'static str, labels: &'static [EnumeratorShape]) -> GodotShape {
    GodotShape::Enum {
        variant_type: VariantType::INT,
        enumerators: std::borrow::Cow::Borrowed(labels),
        godot_name: Some(std::borrow::Cow::Borrowed(qualified)),
        is_bitfield: false,
    }
}

/// Registers `values` as the constants of enum `enum_name` of `class`.
pub(crate) fn register(class: ClassId, enum_name: &str, values: &[(&str, i64)]) {
    let enumerators = values.iter().map(|&(name, value)| IntegerConstant::new(name, value)).collect();
    ExportConstant::new(class, ConstantKind::Enum { name: enum_name.into(), enumerators }).register();
}

/// Declares a class enum: a newtype over the property's `i64` with one associated constant per
/// value, typed in Godot as `Class.Enum`.
///
/// ```ignore
/// class_enum! {
///     /// How routes treat the box.
///     pub struct Route in SwarmFlowModifier as "Route" {
///         /// Routes ignore the box.
///         FREE = 0, "Free";
///     }
/// }
/// ```
macro_rules! class_enum {
    (
        $(#[$meta:meta])*
        pub struct $ty:ident in $class:ident as $enum_name:literal {
            $( $(#[$vmeta:meta])* $konst:ident = $value:literal, $label:literal; )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
        pub struct $ty(pub i64);

        impl $ty {
            $( $(#[$vmeta])* #[allow(dead_code)] pub const $konst: i64 = $value; )+
            /// Every value with its constant's name, in order.
            pub const VALUES: &'static [(&'static str, i64)] = &[$((stringify!($konst), $value)),+];
            const LABELS: &'static [godot::meta::shape::EnumeratorShape] =
                &[$(godot::meta::shape::EnumeratorShape::new_int($label, $value)),+];

            /// Adds the constants to the class (after the class itself is registered).
            pub fn register() {
                $crate::class_enum::register(
                    <$class as godot::obj::GodotClass>::class_id(),
                    $enum_name,
                    Self::VALUES,
                );
            }
        }

        impl godot::meta::GodotConvert for $ty {
            type Via = i64;
            fn godot_shape() -> godot::meta::shape::GodotShape {
                $crate::class_enum::shape(concat!(stringify!($class), ".", $enum_name), Self::LABELS)
            }
        }

        impl godot::meta::ToGodot for $ty {
            type Pass = godot::meta::conv::ByValue;
            fn to_godot(&self) -> i64 {
                self.0
            }
        }

        impl godot::meta::FromGodot for $ty {
            fn try_from_godot(via: i64) -> Result<Self, godot::meta::error::ConvertError> {
                Ok(Self(via))
            }
        }

        impl godot::register::property::SimpleVar for $ty {}
        impl godot::register::property::Export for $ty {}
    };
}
pub(crate) use class_enum;
