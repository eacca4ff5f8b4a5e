//! Walks over a parsed expression that don't recurse (the tree may be deep before its
//! depth is checked): its depth, its children, and the length bound of constant lists.

use cel::common::ast::{Expr, LiteralValue};
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

pub(crate) use kas_cel::{children, depth};
