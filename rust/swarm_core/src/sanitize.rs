//! Checking settings against their bounds. A `Bound` holds one field's name, lowest and highest
//! allowed value and default; checking a value returns the value to use and, when it had to
//! change, a `Finding` (the field, the value given, the value used and why), so the caller can
//! report it under the name of whatever the value came from. `finite_clamp` is the silent form
//! for values that no setting names.

use std::fmt;

/// One setting: its name (as the user sees it), the closed interval `lo..=hi` it must lie in,
/// and its default, used in place of a value that is not a number. `D` differs from `T` only
/// for a `min..max` pair ([`RangeBound`]), whose default is the pair `(min, max)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound<T, D = T> {
    pub name: &'static str,
    pub lo: T,
    pub hi: T,
    pub default: D,
}

/// A real-valued setting.
pub type FloatBound = Bound<f32>;
/// A whole-number setting (counts, intervals, enum indices). Values arrive as `i64`, the widest
/// integer an engine hands over, and are narrowed to the field's own type once checked.
pub type IntBound = Bound<i64>;
/// A `min..max` pair drawn from per agent: both ends lie in `lo..=hi`, min at or below max.
pub type RangeBound = Bound<f32, (f32, f32)>;

/// A value in a finding, in the type the setting has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Float(f32),
    Int(i64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Float(v) => write!(f, "{v}"),
            Value::Int(v) => write!(f, "{v}"),
        }
    }
}

/// Which end of a `min..max` pair a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Min,
    Max,
}

/// Why a value was not used as given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reason {
    /// NaN or infinite: the default is used.
    NotANumber,
    /// Outside `lo..=hi`: the nearer bound is used.
    OutOfRange { lo: Value, hi: Value },
    /// A pair's min is above its max: the ends are swapped. `value` is the min given and `used`
    /// the max given (after each end was checked on its own).
    MinAboveMax,
}

/// A value that had to change, and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finding {
    pub field: &'static str,
    /// The end of a `min..max` pair this is about (`None` for a single value, and for
    /// `MinAboveMax`, which is about both).
    pub end: Option<End>,
    pub value: Value,
    pub used: Value,
    pub reason: Reason,
}

/// Clamps `v` into `lo..=hi`, replacing NaN/inf by `fallback`.
pub fn finite_clamp(v: f32, lo: f32, hi: f32, fallback: f32) -> f32 {
    if v.is_finite() {
        v.clamp(lo, hi)
    } else {
        fallback
    }
}

/// Checks one real value; the finding names `name` and `end`.
fn check_float(
    name: &'static str,
    end: Option<End>,
    (lo, hi): (f32, f32),
    default: f32,
    v: f32,
    out: &mut Vec<Finding>,
) -> f32 {
    if !v.is_finite() {
        out.push(Finding {
            field: name,
            end,
            value: Value::Float(v),
            used: Value::Float(default),
            reason: Reason::NotANumber,
        });
        return default;
    }
    if v < lo || v > hi {
        let c = v.clamp(lo, hi);
        let reason = Reason::OutOfRange { lo: Value::Float(lo), hi: Value::Float(hi) };
        out.push(Finding { field: name, end, value: Value::Float(v), used: Value::Float(c), reason });
        return c;
    }
    v
}

impl FloatBound {
    /// `v` if it is a number within the bounds; else the default (not a number) or the nearer
    /// bound, with a finding.
    pub fn check(&self, v: f32, out: &mut Vec<Finding>) -> f32 {
        check_float(self.name, None, (self.lo, self.hi), self.default, v, out)
    }
}

impl IntBound {
    /// `v` clamped into the bounds (with a finding when it had to be), in the field's type.
    /// The bounds of every setting fit its type, so the conversion cannot fail; were one not
    /// to, the default (or zero) is used rather than a wrapped value.
    pub fn narrow<T: TryFrom<i64> + Default>(&self, v: i64, out: &mut Vec<Finding>) -> T {
        let mut c = v;
        if v < self.lo || v > self.hi {
            c = v.clamp(self.lo, self.hi);
            let reason = Reason::OutOfRange { lo: Value::Int(self.lo), hi: Value::Int(self.hi) };
            out.push(Finding { field: self.name, end: None, value: Value::Int(v), used: Value::Int(c), reason });
        }
        T::try_from(c).or_else(|_| T::try_from(self.default)).unwrap_or_default()
    }

    /// `narrow` for a value already in the field's own type.
    pub fn check<T: Copy + TryInto<i64> + TryFrom<i64> + Default>(&self, v: T, out: &mut Vec<Finding>) -> T {
        self.narrow(v.try_into().unwrap_or(i64::MAX), out)
    }
}

impl RangeBound {
    /// Each end checked as a `FloatBound` (its own default when not a number), then ordered:
    /// a min above the max is swapped with it, with a finding.
    pub fn check(&self, (min, max): (f32, f32), out: &mut Vec<Finding>) -> (f32, f32) {
        let bounds = (self.lo, self.hi);
        let a = check_float(self.name, Some(End::Min), bounds, self.default.0, min, out);
        let b = check_float(self.name, Some(End::Max), bounds, self.default.1, max, out);
        if a > b {
            let f = Finding {
                field: self.name,
                end: None,
                value: Value::Float(a),
                used: Value::Float(b),
                reason: Reason::MinAboveMax,
            };
            out.push(f);
        }
        (a.min(b), a.max(b))
    }
}

/// Any one setting's bound, for tables that list every setting of a config.
#[derive(Clone, Copy, Debug)]
pub enum Setting {
    Float(&'static FloatBound),
    Int(&'static IntBound),
    Range(&'static RangeBound),
}

impl Setting {
    pub fn name(&self) -> &'static str {
        match self {
            Setting::Float(b) => b.name,
            Setting::Int(b) => b.name,
            Setting::Range(b) => b.name,
        }
    }

    /// Lowest and highest allowed value (of both ends, for a pair).
    pub fn bounds(&self) -> (f64, f64) {
        match self {
            Setting::Float(b) => (b.lo as f64, b.hi as f64),
            Setting::Int(b) => (b.lo as f64, b.hi as f64),
            Setting::Range(b) => (b.lo as f64, b.hi as f64),
        }
    }

    /// The default: one value, or two (min, max) for a pair.
    pub fn defaults(&self) -> Vec<f64> {
        match self {
            Setting::Float(b) => vec![b.default as f64],
            Setting::Int(b) => vec![b.default as f64],
            Setting::Range(b) => vec![b.default.0 as f64, b.default.1 as f64],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FloatBound = Bound { name: "f", lo: 0.0, hi: 10.0, default: 2.0 };
    const I: IntBound = Bound { name: "i", lo: 1, hi: 64, default: 8 };
    const R: RangeBound = Bound { name: "r", lo: 0.0, hi: 10.0, default: (1.0, 2.0) };

    #[test]
    fn float_in_bounds_passes_without_finding() {
        let mut out = Vec::new();
        assert_eq!(F.check(3.5, &mut out), 3.5);
        assert_eq!(F.check(0.0, &mut out), 0.0);
        assert_eq!(F.check(10.0, &mut out), 10.0);
        assert!(out.is_empty());
    }

    #[test]
    fn float_out_of_range_is_clamped_with_finding() {
        let mut out = Vec::new();
        assert_eq!(F.check(-5.0, &mut out), 0.0);
        let want = Finding {
            field: "f",
            end: None,
            value: Value::Float(-5.0),
            used: Value::Float(0.0),
            reason: Reason::OutOfRange { lo: Value::Float(0.0), hi: Value::Float(10.0) },
        };
        assert_eq!(out, vec![want]);
    }

    #[test]
    fn float_not_a_number_takes_default() {
        let mut out = Vec::new();
        assert_eq!(F.check(f32::NAN, &mut out), 2.0);
        assert_eq!(F.check(f32::INFINITY, &mut out), 2.0);
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|f| f.reason == Reason::NotANumber && f.used == Value::Float(2.0)));
    }

    #[test]
    fn int_narrows_and_reports_the_value_given() {
        let mut out = Vec::new();
        let v: u32 = I.narrow(-5, &mut out);
        assert_eq!(v, 1);
        assert_eq!(out[0].value, Value::Int(-5));
        assert_eq!(out[0].used, Value::Int(1));
        let v: u32 = I.check(1000u32, &mut out);
        assert_eq!(v, 64);
        let v: usize = I.check(usize::MAX, &mut out);
        assert_eq!(v, 64);
        assert_eq!(out.len(), 3);
        out.clear();
        assert_eq!(I.narrow::<i32>(8, &mut out), 8);
        assert!(out.is_empty());
    }

    #[test]
    fn range_orders_ends_and_replaces_nan() {
        let mut out = Vec::new();
        assert_eq!(R.check((5.0, f32::NAN), &mut out), (2.0, 5.0));
        assert_eq!(out[0].end, Some(End::Max));
        assert_eq!(out[0].reason, Reason::NotANumber);
        assert_eq!(out[1].reason, Reason::MinAboveMax);
        assert_eq!((out[1].value, out[1].used), (Value::Float(5.0), Value::Float(2.0)));
        out.clear();
        assert_eq!(R.check((-3.0, 20.0), &mut out), (0.0, 10.0));
        assert_eq!(out.iter().map(|f| f.end).collect::<Vec<_>>(), vec![Some(End::Min), Some(End::Max)]);
    }

    #[test]
    fn values_print_in_their_own_type() {
        assert_eq!(Value::Float(0.05).to_string(), "0.05");
        assert_eq!(Value::Float(1e6).to_string(), "1000000");
        assert_eq!(Value::Float(f32::NAN).to_string(), "NaN");
        assert_eq!(Value::Int(-5).to_string(), "-5");
    }
}
