//! Kubernetes' `quantity` CEL library: `quantity()`, `isQuantity()` and the methods of
//! a quantity (`sign`, `isInteger`, `asInteger`, `asApproximateFloat`, `add`, `sub`,
//! `isLessThan`, `isGreaterThan`, `compareTo`), over an exact decimal value.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use cel::common::types::{Type, INT_TYPE, STRING_TYPE};
use cel::common::value::{CowVal, Val};
use cel::objects::Opaque;
use cel::{DeclarationError, Env, ExecutionError, Value};

/// The CEL type name of a quantity.
const TYPE_NAME: &str = "kubernetes.Quantity";

const FORMAT_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// An exact quantity: `units × 10^-scale`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Quantity {
    units: i128,
    scale: u32,
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({}e-{})", self.units, self.scale)
    }
}

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        TYPE_NAME
    }
}

/// The largest scale kept (nano is 9; a decimal exponent may ask for more).
const MAX_SCALE: u32 = 30;

impl Quantity {
    /// Parses a Kubernetes quantity (`500m`, `1.5Gi`, `2e3`); `None` when it isn't one or
    /// is too large to hold exactly.
    pub(crate) fn parse(s: &str) -> Option<Quantity> {
        let split = s
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '+' | '-')))
            .unwrap_or(s.len());
        let (number, suffix) = s.split_at(split);
        let (negative, digits) = match number.as_bytes().first() {
            Some(b'-') => (true, &number[1..]),
            Some(b'+') => (false, &number[1..]),
            _ => (false, number),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + frac.len() == 0 || !all_digits(whole) || !all_digits(frac) {
            return None;
        }
        let mut units: i128 = 0;
        for b in whole.bytes().chain(frac.bytes()) {
            units = units.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
        }
        let mut q = Quantity {
            units: if negative { -units } else { units },
            scale: u32::try_from(frac.len()).ok()?,
        };
        let (binary_power, decimal_exp): (u32, i32) = match suffix {
            "" => (0, 0),
            "n" => (0, -9),
            "u" => (0, -6),
            "m" => (0, -3),
            "k" => (0, 3),
            "M" => (0, 6),
            "G" => (0, 9),
            "T" => (0, 12),
            "P" => (0, 15),
            "E" => (0, 18),
            "Ki" => (10, 0),
            "Mi" => (20, 0),
            "Gi" => (30, 0),
            "Ti" => (40, 0),
            "Pi" => (50, 0),
            "Ei" => (60, 0),
            s if s.starts_with(['e', 'E']) => {
                let exp = &s[1..];
                let unsigned = exp.strip_prefix(['+', '-']).unwrap_or(exp);
                if unsigned.is_empty() || !all_digits(unsigned) {
                    return None;
                }
                (0, exp.parse().ok()?)
            }
            _ => return None,
        };
        q.units = q.units.checked_mul(1_i128.checked_shl(binary_power)?)?;
        if decimal_exp >= 0 {
            let up = decimal_exp.unsigned_abs();
            let cancel = up.min(q.scale);
            q.scale -= cancel;
            q.units = q.units.checked_mul(10_i128.checked_pow(up - cancel)?)?;
        } else {
            q.scale = q.scale.checked_add(decimal_exp.unsigned_abs())?;
        }
        q.normalize()
    }

    /// Drops trailing zero decimals; `None` if the scale is beyond [`MAX_SCALE`].
    fn normalize(mut self) -> Option<Quantity> {
        while self.scale > 0 && self.units % 10 == 0 {
            self.units /= 10;
            self.scale -= 1;
        }
        (self.scale <= MAX_SCALE).then_some(self)
    }

    /// Both values at one scale, if they fit.
    fn aligned(self, other: Quantity) -> Option<(i128, i128, u32)> {
        let scale = self.scale.max(other.scale);
        let a = self
            .units
            .checked_mul(10_i128.checked_pow(scale - self.scale)?)?;
        let b = other
            .units
            .checked_mul(10_i128.checked_pow(scale - other.scale)?)?;
        Some((a, b, scale))
    }

    fn approximate(self) -> f64 {
        self.units as f64 / 10f64.powi(self.scale as i32)
    }

    fn compare(self, other: Quantity) -> Ordering {
        match self.aligned(other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self
                .approximate()
                .partial_cmp(&other.approximate())
                .unwrap_or(Ordering::Equal),
        }
    }

    fn add(self, other: Quantity, negate: bool) -> Option<Quantity> {
        let (a, b, scale) = self.aligned(other)?;
        let b = if negate { b.checked_neg()? } else { b };
        Quantity {
            units: a.checked_add(b)?,
            scale,
        }
        .normalize()
    }
}

pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let q = || Type::new_opaque_type(TYPE_NAME);
    env.add_type(q())?;
    env.add_overload(
        "quantity",
        "string_to_quantity",
        vec![STRING_TYPE],
        quantity,
    )?;
    env.add_overload(
        "isQuantity",
        "is_quantity_string",
        vec![STRING_TYPE],
        is_quantity,
    )?;
    env.add_member_overload("sign", "quantity_sign", q(), vec![], sign)?;
    env.add_member_overload("isInteger", "quantity_is_integer", q(), vec![], is_integer)?;
    env.add_member_overload("asInteger", "quantity_as_integer", q(), vec![], as_integer)?;
    env.add_member_overload(
        "asApproximateFloat",
        "quantity_as_float",
        q(),
        vec![],
        as_float,
    )?;
    env.add_member_overload("add", "quantity_add", q(), vec![q()], add)?;
    env.add_member_overload("add", "quantity_add_int", q(), vec![INT_TYPE], add)?;
    env.add_member_overload("sub", "quantity_sub", q(), vec![q()], sub)?;
    env.add_member_overload("sub", "quantity_sub_int", q(), vec![INT_TYPE], sub)?;
    env.add_member_overload("isLessThan", "quantity_less", q(), vec![q()], less)?;
    env.add_member_overload("isGreaterThan", "quantity_greater", q(), vec![q()], greater)?;
    env.add_member_overload("compareTo", "quantity_compare", q(), vec![q()], compare_to)?;
    Ok(())
}

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

fn arg(function: &str, args: &[CowVal<'_, '_>], i: usize) -> Result<Quantity, ExecutionError> {
    let value = args
        .get(i)
        .map(|a| Value::try_from(a.as_ref()))
        .transpose()?;
    match value {
        Some(Value::Opaque(o)) => o
            .downcast_ref::<Quantity>()
            .copied()
            .ok_or_else(|| ExecutionError::function_error(function, "not a quantity")),
        Some(Value::Int(i)) => Ok(Quantity {
            units: i128::from(i),
            scale: 0,
        }),
        _ => Err(ExecutionError::function_error(function, "not a quantity")),
    }
}

fn string_arg(function: &str, args: &[CowVal<'_, '_>]) -> Result<String, ExecutionError> {
    match args
        .first()
        .map(|a| Value::try_from(a.as_ref()))
        .transpose()?
    {
        Some(Value::String(s)) => Ok(s.to_string()),
        _ => Err(ExecutionError::function_error(
            function,
            "expected a string",
        )),
    }
}

fn ret<'b, 'v>(value: Value) -> Ret<'b, 'v> {
    let boxed: Box<dyn Val> = value.try_into()?;
    Ok(CowVal::from(boxed))
}

fn quantity<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = string_arg("quantity", &args)?;
    let q = Quantity::parse(&s)
        .ok_or_else(|| ExecutionError::function_error("quantity", FORMAT_ERROR))?;
    ret(Value::Opaque(Arc::new(q)))
}

fn is_quantity<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = string_arg("isQuantity", &args)?;
    ret(Value::Bool(Quantity::parse(&s).is_some()))
}

fn sign<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Int(arg("sign", &args, 0)?.units.signum() as i64))
}

fn is_integer<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = arg("isInteger", &args, 0)?;
    ret(Value::Bool(q.scale == 0 && i64::try_from(q.units).is_ok()))
}

fn as_integer<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = arg("asInteger", &args, 0)?;
    match i64::try_from(q.units) {
        Ok(i) if q.scale == 0 => ret(Value::Int(i)),
        _ => Err(ExecutionError::function_error(
            "asInteger",
            "cannot convert value to integer",
        )),
    }
}

fn as_float<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Float(
        arg("asApproximateFloat", &args, 0)?.approximate(),
    ))
}

fn add<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let sum = arg("add", &args, 0)?.add(arg("add", &args, 1)?, false);
    let sum = sum.ok_or_else(|| ExecutionError::function_error("add", "quantity overflow"))?;
    ret(Value::Opaque(Arc::new(sum)))
}

fn sub<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let diff = arg("sub", &args, 0)?.add(arg("sub", &args, 1)?, true);
    let diff = diff.ok_or_else(|| ExecutionError::function_error("sub", "quantity overflow"))?;
    ret(Value::Opaque(Arc::new(diff)))
}

fn less<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ord = arg("isLessThan", &args, 0)?.compare(arg("isLessThan", &args, 1)?);
    ret(Value::Bool(ord == Ordering::Less))
}

fn greater<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ord = arg("isGreaterThan", &args, 0)?.compare(arg("isGreaterThan", &args, 1)?);
    ret(Value::Bool(ord == Ordering::Greater))
}

fn compare_to<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ord = arg("compareTo", &args, 0)?.compare(arg("compareTo", &args, 1)?);
    ret(Value::Int(ord as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Option<(i128, u32)> {
        Quantity::parse(s).map(|q| (q.units, q.scale))
    }

    #[test]
    fn parses_kubernetes_quantities() {
        assert_eq!(q("1"), Some((1, 0)));
        assert_eq!(q("500m"), Some((5, 1)));
        assert_eq!(q("1.5Gi"), Some((1_610_612_736, 0)));
        assert_eq!(q("2k"), Some((2000, 0)));
        assert_eq!(q("-3e2"), Some((-300, 0)));
        assert_eq!(q("1E-3"), Some((1, 3)));
        assert_eq!(q("+.5"), Some((5, 1)));
        for bad in [
            "",
            "m",
            "1K",
            "1.2.3",
            "1ee",
            "1e",
            "abc",
            "1Gix",
            "--1",
            "1e99999999999",
        ] {
            assert_eq!(q(bad), None, "{bad}");
        }
    }

    #[test]
    fn compares_and_adds() {
        let a = Quantity::parse("1Gi").expect("valid");
        let b = Quantity::parse("1G").expect("valid");
        assert_eq!(a.compare(b), Ordering::Greater);
        let c = Quantity::parse("500m").expect("valid");
        let one = Quantity::parse("1").expect("valid");
        assert_eq!(c.add(c, false), Some(one));
        assert_eq!(one.add(c, true), Some(c));
    }
}
