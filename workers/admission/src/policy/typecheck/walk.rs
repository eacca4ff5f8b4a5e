//! The checker's walk over one expression: the type of every node from the types of
//! `object`, `oldObject`, `params` and `variables`, and cel-go's checker messages for
//! what it finds wrong: a field an object's schema does not have (`undefined field
//! 'x'`, also under `has()` and optional selection) and an operator applied to
//! primitive types it has no overload for (`found no matching overload for '_>_'
//! applied to '(string, int)'`). Anything typed `dyn` passes, as in cel-go.

use cel::common::ast::{EntryExpr, Expr, LiteralValue};
use cel::parser::Expression;

use super::types::Ty;

/// What names are bound to.
pub(crate) struct Bindings<'a> {
    pub object: &'a Ty,
    pub params: &'a Ty,
    /// The policy's variables, in order, with their types.
    pub variables: &'a [(String, Ty)],
}

/// An issue: the node it is about and cel-go's message.
pub(crate) type Issue = (u64, String);

pub(crate) struct Walk<'a> {
    bindings: &'a Bindings<'a>,
    /// Comprehension variables in scope, innermost last.
    scope: Vec<(String, Ty)>,
    pub issues: Vec<Issue>,
}

const COMPARISONS: &[&str] = &["_<_", "_<=_", "_>_", "_>=_"];
const ARITHMETIC: &[&str] = &["_+_", "_-_", "_*_", "_/_", "_%_"];

impl<'a> Walk<'a> {
    pub(crate) fn new(bindings: &'a Bindings<'a>) -> Walk<'a> {
        Walk {
            bindings,
            scope: Vec::new(),
            issues: Vec::new(),
        }
    }

    /// The type of `e`, noting issues on the way.
    pub(crate) fn ty(&mut self, e: &Expression) -> Ty {
        match &e.expr {
            Expr::Literal(l) => match l {
                LiteralValue::Boolean(_) => Ty::Bool,
                LiteralValue::Bytes(_) => Ty::Bytes,
                LiteralValue::Double(_) => Ty::Double,
                LiteralValue::Int(_) => Ty::Int,
                LiteralValue::Null => Ty::Null,
                LiteralValue::String(_) => Ty::String,
                LiteralValue::UInt(_) => Ty::Uint,
            },
            Expr::Ident(name) => self.ident(name),
            Expr::Select(s) => {
                if let Expr::Ident(n) = &s.operand.expr {
                    if n == "variables" && !self.bound("variables") {
                        return self
                            .bindings
                            .variables
                            .iter()
                            .find(|(v, _)| *v == s.field)
                            .map(|(_, t)| t.clone())
                            .unwrap_or(Ty::Dyn);
                    }
                }
                let operand = self.ty(&s.operand);
                let field = self.select(e.id, &operand, &s.field);
                match s.test {
                    true => Ty::Bool,
                    false => field,
                }
            }
            Expr::Call(call) => {
                let target = call.target.as_deref().map(|t| self.ty(t));
                let args: Vec<Ty> = call.args.iter().map(|a| self.ty(a)).collect();
                self.call(e.id, &call.func_name, target, &args, &call.args)
            }
            Expr::Comprehension(c) => {
                let range = self.ty(&c.iter_range);
                let accu = self.ty(&c.accu_init);
                let mut bound = 2;
                self.scope.push((c.accu_var.clone(), accu));
                match (&c.iter_var2, &range) {
                    // Two variables: index and item of a list, key and value of a map.
                    (Some(v2), Ty::List(item)) => {
                        self.scope.push((c.iter_var.clone(), Ty::Int));
                        self.scope.push((v2.clone(), (**item).clone()));
                        bound = 3;
                    }
                    (Some(v2), Ty::Map(k, v)) => {
                        self.scope.push((c.iter_var.clone(), (**k).clone()));
                        self.scope.push((v2.clone(), (**v).clone()));
                        bound = 3;
                    }
                    (Some(v2), _) => {
                        self.scope.push((c.iter_var.clone(), Ty::Dyn));
                        self.scope.push((v2.clone(), Ty::Dyn));
                        bound = 3;
                    }
                    (None, _) => self.scope.push((c.iter_var.clone(), range.iterated())),
                }
                self.ty(&c.loop_cond);
                self.ty(&c.loop_step);
                // The result reads the accumulator only.
                for _ in 1..bound {
                    self.scope.pop();
                }
                let result = self.ty(&c.result);
                self.scope.pop();
                result
            }
            Expr::List(list) => {
                let items: Vec<Ty> = list.elements.iter().map(|i| self.ty(i)).collect();
                Ty::List(Box::new(common(&items)))
            }
            Expr::Map(map) => {
                let mut keys = Vec::new();
                let mut values = Vec::new();
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        keys.push(self.ty(&m.key));
                        values.push(self.ty(&m.value));
                    }
                }
                Ty::Map(Box::new(common(&keys)), Box::new(common(&values)))
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        self.ty(&f.value);
                    }
                }
                Ty::Dyn
            }
            Expr::Unspecified => Ty::Dyn,
        }
    }

    fn bound(&self, name: &str) -> bool {
        self.scope.iter().any(|(n, _)| n == name)
    }

    fn ident(&self, name: &str) -> Ty {
        if let Some((_, t)) = self.scope.iter().rev().find(|(n, _)| n == name) {
            return t.clone();
        }
        match name {
            "object" | "oldObject" => self.bindings.object.clone(),
            "params" => self.bindings.params.clone(),
            _ => Ty::Dyn,
        }
    }

    /// Field `field` of `operand`, noting an undefined field of a known object.
    fn select(&mut self, id: u64, operand: &Ty, field: &str) -> Ty {
        match operand.field(field) {
            Ok(Some(t)) => t,
            Ok(None) => {
                self.issues.push((id, format!("undefined field '{field}'")));
                Ty::Dyn
            }
            Err(()) => Ty::Dyn,
        }
    }

    fn call(
        &mut self,
        id: u64,
        f: &str,
        target: Option<Ty>,
        args: &[Ty],
        raw: &[Expression],
    ) -> Ty {
        let no_overload = |w: &mut Walk<'_>, a: &Ty, b: &Ty| {
            if let (Some(x), Some(y)) = (a.primitive(), b.primitive()) {
                w.issues.push((
                    id,
                    format!("found no matching overload for '{f}' applied to '({x}, {y})'"),
                ));
            }
        };
        match (f, target.as_ref(), args) {
            ("_==_" | "_!=_", None, [a, b]) => {
                // Numbers compare across types at run time; null with anything.
                let compatible = a.primitive() == b.primitive()
                    || (a.is_numeric() && b.is_numeric())
                    || matches!(a, Ty::Null)
                    || matches!(b, Ty::Null);
                if !compatible {
                    no_overload(self, a, b);
                }
                Ty::Bool
            }
            (op, None, [a, b]) if COMPARISONS.contains(&op) => {
                let ok = (a.is_numeric() && b.is_numeric()) || a.primitive() == b.primitive();
                let comparable = !matches!(a, Ty::Null);
                if !ok || !comparable {
                    no_overload(self, a, b);
                }
                Ty::Bool
            }
            (op, None, [a, b]) if ARITHMETIC.contains(&op) => {
                let same = a.primitive() == b.primitive();
                let defined = matches!(
                    (op, a),
                    (
                        "_+_",
                        Ty::Int | Ty::Uint | Ty::Double | Ty::String | Ty::Bytes
                    ) | ("_-_" | "_*_" | "_/_", Ty::Int | Ty::Uint | Ty::Double)
                        | ("_%_", Ty::Int | Ty::Uint)
                );
                if a.primitive().is_some() && b.primitive().is_some() && !(same && defined) {
                    no_overload(self, a, b);
                    return Ty::Dyn;
                }
                match (a, b) {
                    (Ty::List(x), Ty::List(_)) => Ty::List(x.clone()),
                    _ if same => a.clone(),
                    _ => Ty::Dyn,
                }
            }
            ("_[_]", None, [c, _]) => c.index(),
            ("_?._", None, [operand, _]) => {
                let field = match raw.get(1).map(|r| &r.expr) {
                    Some(Expr::Literal(LiteralValue::String(s))) => s.to_string(),
                    _ => return Ty::Dyn,
                };
                let inner = match operand {
                    Ty::Optional(t) => (**t).clone(),
                    t => t.clone(),
                };
                Ty::Optional(Box::new(self.select(id, &inner, &field)))
            }
            ("_?_:_", None, [_, a, b]) => {
                match a.primitive().is_some() && a.primitive() == b.primitive() {
                    true => a.clone(),
                    false => Ty::Dyn,
                }
            }
            ("!_" | "_&&_" | "_||_" | "@in" | "@not_strictly_false", _, _) => Ty::Bool,
            ("-_", None, [a]) => a.clone(),
            ("size", _, _) => Ty::Int,
            ("int", None, _) => Ty::Int,
            ("uint", None, _) => Ty::Uint,
            ("double", None, _) => Ty::Double,
            ("string", None, _) => Ty::String,
            ("bool", None, _) => Ty::Bool,
            ("startsWith" | "endsWith" | "contains" | "matches" | "isSorted", Some(_), _) => {
                Ty::Bool
            }
            (
                "lowerAscii" | "upperAscii" | "trim" | "replace" | "substring" | "join",
                Some(_),
                _,
            ) => Ty::String,
            ("split", Some(_), _) => Ty::List(Box::new(Ty::String)),
            ("value", Some(Ty::Optional(t)), []) => (**t).clone(),
            ("orValue", Some(Ty::Optional(t)), [_]) => (**t).clone(),
            ("hasValue", Some(_), []) => Ty::Bool,
            _ => Ty::Dyn,
        }
    }
}

/// The one type all of `items` have (primitives only), else dyn.
fn common(items: &[Ty]) -> Ty {
    match items.split_first() {
        Some((first, rest))
            if first.primitive().is_some()
                && rest.iter().all(|t| t.primitive() == first.primitive()) =>
        {
            first.clone()
        }
        _ => Ty::Dyn,
    }
}
