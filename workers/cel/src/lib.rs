//! The CEL pieces shared by the CRD validation rules (`kas-crd`), the authorization
//! webhooks' match conditions (`kas-authz`), the JWT claim mappings (the aggregator) and
//! admission (webhook match conditions, ValidatingAdmissionPolicy): Kubernetes' CEL
//! environment ([`library`]: the standard library, the strings, lists and math extensions,
//! the list functions, the `quantity`, `ip` and `cidr` libraries, and [`authz`], the
//! authorizer library admission expressions may use), a JSON value as a
//! CEL value, and walks over a parsed expression that do not recurse, since an expression
//! may be nested deeply before its depth is checked.

#![forbid(unsafe_code)]

pub mod authz;
mod ip;
pub mod library;
mod quantity;

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::ast::{EntryExpr, Expr, IdedEntryExpr};
use cel::objects::{Key, Map};
use cel::parser::Expression;
use cel::Value;
use serde_json::Value as Json;

/// `v` as a CEL value: integers as `int` (or `uint` beyond `i64`), other numbers as
/// `double`, objects as maps with string keys.
pub fn json_to_cel(v: &Json) -> Value {
    match v {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Value::Int(i),
            (None, Some(u), _) => Value::UInt(u),
            (_, _, f) => Value::Float(f.unwrap_or(0.0)),
        },
        Json::String(s) => Value::String(Arc::new(s.clone())),
        Json::Array(a) => Value::List(Arc::new(a.iter().map(json_to_cel).collect())),
        Json::Object(o) => {
            let map: HashMap<Key, Value> = o
                .iter()
                .map(|(k, v)| (Key::String(Arc::new(k.clone())), json_to_cel(v)))
                .collect();
            Value::Map(Map { map: Arc::new(map) })
        }
    }
}

/// The direct children of a node.
pub fn children(e: &Expression) -> Vec<&Expression> {
    match &e.expr {
        Expr::Call(call) => call
            .target
            .as_deref()
            .into_iter()
            .chain(&call.args)
            .collect(),
        Expr::Comprehension(c) => vec![
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ],
        Expr::List(list) => list.elements.iter().collect(),
        Expr::Map(map) => entry_children(&map.entries),
        Expr::Struct(s) => entry_children(&s.entries),
        Expr::Select(select) => vec![&*select.operand],
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => Vec::new(),
    }
}

fn entry_children(entries: &[IdedEntryExpr]) -> Vec<&Expression> {
    entries
        .iter()
        .flat_map(|entry| match &entry.expr {
            EntryExpr::MapEntry(m) => vec![&m.key, &m.value],
            EntryExpr::StructField(f) => vec![&f.value],
        })
        .collect()
}

/// The depth of the expression tree (a leaf is 1).
pub fn depth(expr: &Expression) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(expr, 1usize)];
    while let Some((e, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(children(e).into_iter().map(|c| (c, d + 1)));
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_and_trees() {
        let v = json_to_cel(&json!({"a": [1, 2.5, "x", null, true]}));
        let Value::Map(m) = v else {
            panic!("a map");
        };
        let Some(Value::List(items)) = m.map.get(&Key::String(Arc::new("a".into()))) else {
            panic!("a list");
        };
        assert_eq!(items[0], Value::Int(1));
        assert_eq!(items[1], Value::Float(2.5));
        let big = json_to_cel(&json!(u64::MAX));
        assert_eq!(big, Value::UInt(u64::MAX));

        let program = cel::Program::compile("[1, {'k': a.b}, f(x)]").expect("parses");
        assert_eq!(depth(program.expression()), 4);
        assert_eq!(children(program.expression()).len(), 3);
    }
}
