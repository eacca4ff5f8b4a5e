//! The CEL environment rules run in: the standard library, the strings, lists and math
//! extensions, and Kubernetes' list functions (`isSorted`, `sum`, `min`, `max`,
//! `indexOf`, `lastIndexOf`) registered here, and the `quantity`, `ip` and `cidr` libraries.

use std::cmp::Ordering;
use std::sync::{Arc, OnceLock};

use cel::common::types::{DYN_TYPE, LIST_TYPE};
use cel::common::value::{CowVal, Val};
use cel::{extensions, Env, ExecutionError, Value};

/// Functions whose cost grows with the size of their receiver or argument (used by the
/// cost bound in `check`).
pub const LINEAR_FUNCTIONS: &[&str] = &[
    "@in",
    "_==_",
    "_!=_",
    "_+_",
    "isSorted",
    "sum",
    "min",
    "max",
    "indexOf",
    "lastIndexOf",
    "split",
    "matches",
    "contains",
    "startsWith",
    "endsWith",
    "lowerAscii",
    "upperAscii",
    "trim",
    "flatten",
    "slice",
    "reverse",
    "string",
    "format",
    "strings.quote",
    "substring",
];

/// Functions whose cost, or the size of whose result, grows with the square of their
/// input (`s.replace('', s)`, a long separator in `join`).
pub const QUADRATIC_FUNCTIONS: &[&str] = &[
    "distinct",
    "sort",
    "@sortByAssociatedKeys",
    "replace",
    "join",
];

/// The shared environment; `None` if the crate refused a declaration, which
/// `compile` reports as an error rather than panicking.
pub fn env() -> Option<Arc<Env>> {
    static ENV: OnceLock<Option<Arc<Env>>> = OnceLock::new();
    ENV.get_or_init(|| build().ok().map(Arc::new)).clone()
}

/// Whether `env` declares a function named `name` (qualified, as `math.abs`). The crate
/// has no direct query; adding a context function of a declared name is refused, which
/// tells.
///
/// `lists.range` is left out: it builds up to a million elements from a constant, which
/// the cost bound (driven by the input's size) would not see.
pub fn is_function(env: &Arc<Env>, name: &str) -> bool {
    if name == "lists.range" {
        return false;
    }
    let mut probe = cel::Context::with_env(Arc::clone(env));
    probe.add_function(name, || 0_i64).is_err()
}

fn build() -> Result<Env, cel::DeclarationError> {
    let mut env = Env::stdlib();
    env.add_extension(extensions::strings)?;
    env.add_extension(extensions::lists)?;
    env.add_extension(extensions::math)?;
    crate::quantity::register(&mut env)?;
    crate::ip::register(&mut env)?;
    crate::authz::register(&mut env)?;
    env.add_member_overload("isSorted", "list_is_sorted", LIST_TYPE, vec![], is_sorted)?;
    env.add_member_overload("sum", "list_sum", LIST_TYPE, vec![], sum)?;
    env.add_member_overload("min", "list_min", LIST_TYPE, vec![], min)?;
    env.add_member_overload("max", "list_max", LIST_TYPE, vec![], max)?;
    env.add_member_overload(
        "indexOf",
        "list_index_of",
        LIST_TYPE,
        vec![DYN_TYPE],
        index_of,
    )?;
    env.add_member_overload(
        "lastIndexOf",
        "list_last_index_of",
        LIST_TYPE,
        vec![DYN_TYPE],
        last_index_of,
    )?;
    Ok(env)
}

fn values(args: &[CowVal<'_, '_>]) -> Result<Vec<Value>, ExecutionError> {
    args.iter().map(|a| Value::try_from(a.as_ref())).collect()
}

fn items(function: &str, list: &Value) -> Result<Arc<Vec<Value>>, ExecutionError> {
    match list {
        Value::List(items) => Ok(Arc::clone(items)),
        other => Err(ExecutionError::no_such_member_overload(
            function,
            vec![other.type_of().to_string()],
        )),
    }
}

fn owned<'b, 'v>(value: Value) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let boxed: Box<dyn Val> = value.try_into()?;
    Ok(CowVal::from(boxed))
}

fn compare(function: &str, a: &Value, b: &Value) -> Result<Ordering, ExecutionError> {
    if std::mem::discriminant(a) != std::mem::discriminant(b) {
        return Err(ExecutionError::no_such_overload(
            function,
            vec![a.type_of().to_string(), b.type_of().to_string()],
        ));
    }
    a.partial_cmp(b)
        .ok_or_else(|| ExecutionError::ValuesNotComparable(a.clone(), b.clone()))
}

fn is_sorted<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let args = values(&args)?;
    let list = items("isSorted", args.first().unwrap_or(&Value::Null))?;
    for pair in list.windows(2) {
        if compare("isSorted", &pair[0], &pair[1])? == Ordering::Greater {
            return owned(Value::Bool(false));
        }
    }
    owned(Value::Bool(true))
}

fn sum<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let args = values(&args)?;
    let list = items("sum", args.first().unwrap_or(&Value::Null))?;
    let overflow = || ExecutionError::function_error("sum", "integer overflow");
    let mut total = match list.first() {
        None => return owned(Value::Int(0)),
        Some(Value::Int(_)) => Value::Int(0),
        Some(Value::UInt(_)) => Value::UInt(0),
        Some(Value::Float(_)) => Value::Float(0.0),
        Some(Value::Duration(_)) => Value::Duration(chrono::Duration::zero()),
        Some(other) => {
            return Err(ExecutionError::no_such_member_overload(
                "sum",
                vec![format!("list({})", other.type_of())],
            ))
        }
    };
    for item in list.iter() {
        total = match (&total, item) {
            (Value::Int(a), Value::Int(b)) => Value::Int(a.checked_add(*b).ok_or_else(overflow)?),
            (Value::UInt(a), Value::UInt(b)) => {
                Value::UInt(a.checked_add(*b).ok_or_else(overflow)?)
            }
            (Value::Float(a), Value::Float(b)) => Value::Float(a + b),
            (Value::Duration(a), Value::Duration(b)) => {
                Value::Duration(a.checked_add(b).ok_or_else(overflow)?)
            }
            (a, b) => {
                return Err(ExecutionError::no_such_overload(
                    "sum",
                    vec![a.type_of().to_string(), b.type_of().to_string()],
                ))
            }
        };
    }
    owned(total)
}

fn extreme<'b, 'v>(
    function: &str,
    args: Vec<CowVal<'b, 'v>>,
    keep: Ordering,
) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let args = values(&args)?;
    let list = items(function, args.first().unwrap_or(&Value::Null))?;
    let Some(mut best) = list.first().cloned() else {
        return Err(ExecutionError::function_error(
            function,
            format!("{function} called on empty list"),
        ));
    };
    for item in list.iter().skip(1) {
        if compare(function, item, &best)? == keep {
            best = item.clone();
        }
    }
    owned(best)
}

fn min<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    extreme("min", args, Ordering::Less)
}

fn max<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    extreme("max", args, Ordering::Greater)
}

fn position<'b, 'v>(
    function: &str,
    args: Vec<CowVal<'b, 'v>>,
    last: bool,
) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let args = values(&args)?;
    let [list, needle] = args.as_slice() else {
        return Err(ExecutionError::invalid_argument_count(2, args.len()));
    };
    let list = items(function, list)?;
    let found = if last {
        list.iter().rposition(|v| v == needle)
    } else {
        list.iter().position(|v| v == needle)
    };
    owned(Value::Int(found.map_or(-1, |i| i as i64)))
}

fn index_of<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    position("indexOf", args, false)
}

fn last_index_of<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    position("lastIndexOf", args, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cel::Context;

    fn eval(expr: &str) -> Result<Value, String> {
        let env = env().ok_or("no env")?;
        let program = env.compile(expr).map_err(|e| e.to_string())?;
        let ctx = Context::with_env(env);
        program.execute(&ctx).map_err(|e| e.to_string())
    }

    #[test]
    fn list_functions() {
        assert_eq!(eval("[1, 2, 2, 3].isSorted()"), Ok(Value::Bool(true)));
        assert_eq!(eval("['b', 'a'].isSorted()"), Ok(Value::Bool(false)));
        assert_eq!(eval("[1, 2, 3].sum()"), Ok(Value::Int(6)));
        assert_eq!(eval("[1.5, 2.5].sum()"), Ok(Value::Float(4.0)));
        assert_eq!(eval("[].sum()"), Ok(Value::Int(0)));
        assert_eq!(eval("[3, 1, 2].min()"), Ok(Value::Int(1)));
        assert_eq!(eval("['a', 'c', 'b'].max()"), Ok(Value::from("c")));
        assert_eq!(eval("[1, 2, 1].indexOf(1)"), Ok(Value::Int(0)));
        assert_eq!(eval("[1, 2, 1].lastIndexOf(1)"), Ok(Value::Int(2)));
        assert_eq!(eval("[1, 2].indexOf(5)"), Ok(Value::Int(-1)));
        assert_eq!(eval("'abcb'.indexOf('b')"), Ok(Value::Int(1)));
        assert!(eval("[].max()").is_err());
        assert!(eval("[1, 'a'].isSorted()").is_err());
        assert!(eval("[9223372036854775807, 1].sum()").is_err());
    }

    #[test]
    fn quantity_library() {
        assert_eq!(
            eval("quantity('1Gi').isGreaterThan(quantity('1G'))"),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            eval("quantity('500m').add(1).compareTo(quantity('1.5'))"),
            Ok(Value::Int(0))
        );
        assert_eq!(eval("quantity('2k').asInteger()"), Ok(Value::Int(2000)));
        assert_eq!(eval("quantity('-1').sign()"), Ok(Value::Int(-1)));
        assert_eq!(eval("isQuantity('1K')"), Ok(Value::Bool(false)));
        assert_eq!(eval("quantity('1.5').isInteger()"), Ok(Value::Bool(false)));
        assert_eq!(
            eval("quantity('250m').asApproximateFloat()"),
            Ok(Value::Float(0.25))
        );
        assert!(eval("quantity('1.5').asInteger()").is_err());
        assert!(eval("quantity('nope')").is_err());
    }

    #[test]
    fn ip_and_cidr_libraries() {
        let yes = Ok(Value::Bool(true));
        assert_eq!(eval("ip('10.1.2.3').family() == 4"), yes);
        assert_eq!(eval("ip('::1').isLoopback()"), yes);
        assert_eq!(eval("isIP('1.2.3.4') && !isIP('1.2.3')"), yes);
        assert_eq!(eval("ip.isCanonical('2001:db8::1')"), yes);
        assert_eq!(
            eval("ip.isCanonical('2001:DB8::1')"),
            Ok(Value::Bool(false))
        );
        assert_eq!(eval("cidr('10.0.0.0/8').containsIP(ip('10.9.8.7'))"), yes);
        assert_eq!(
            eval("cidr('10.0.0.0/8').containsIP('11.0.0.1')"),
            Ok(Value::Bool(false))
        );
        assert_eq!(eval("cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')"), yes);
        assert_eq!(
            eval("cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')"),
            yes
        );
        assert_eq!(eval("cidr('10.1.2.3/8').prefixLength() == 8"), yes);
        assert_eq!(eval("string(cidr('10.1.2.3/8').ip()) == '10.1.2.3'"), yes);
        assert_eq!(eval("ip('8.8.8.8').isGlobalUnicast()"), yes);
        assert!(eval("ip('nope')").is_err());
    }

    #[test]
    fn strings_extension() {
        assert_eq!(eval("'AbC'.lowerAscii()"), Ok(Value::from("abc")));
        assert_eq!(eval("'AbC'.upperAscii()"), Ok(Value::from("ABC")));
        assert_eq!(eval("['a', 'b'].join('-')"), Ok(Value::from("a-b")));
        assert_eq!(eval("'a,b'.split(',').size()"), Ok(Value::Int(2)));
    }
}
