//! Walks over a parsed expression that don't recurse (the tree may be deep before its
//! depth is checked): its depth, its children, and the length bound of constant lists.

use cel::common::ast::{EntryExpr, Expr, LiteralValue};
use cel::parser::Expression;

/// An upper bound on the length of a list computed from constants only: one per node,
/// plus the length of its string literals (`'a,b,c'.split(',')`).
pub(crate) fn constant_length(expr: &Expression) -> u64 {
    let mut total: u64 = 0;
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        total = total.saturating_add(1);
        if let Expr::Literal(LiteralValue::String(s)) = &e.expr {
            total = total.saturating_add(s.inner().len() as u64);
        }
        stack.extend(children(e));
    }
    total
}

/// The depth of the expression tree, found without recursion (the tree may be deep).
pub(crate) fn depth(expr: &Expression) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(expr, 1usize)];
    while let Some((e, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(children(e).into_iter().map(|c| (c, d + 1)));
    }
    deepest
}

pub(crate) fn children(e: &Expression) -> Vec<&Expression> {
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
        Expr::Map(map) => map
            .entries
            .iter()
            .flat_map(|entry| match &entry.expr {
                EntryExpr::MapEntry(m) => vec![&m.key, &m.value],
                EntryExpr::StructField(f) => vec![&f.value],
            })
            .collect(),
        Expr::Struct(s) => s
            .entries
            .iter()
            .flat_map(|entry| match &entry.expr {
                EntryExpr::MapEntry(m) => vec![&m.key, &m.value],
                EntryExpr::StructField(f) => vec![&f.value],
            })
            .collect(),
        Expr::Select(select) => vec![&*select.operand],
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => Vec::new(),
    }
}
