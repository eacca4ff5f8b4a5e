//! A light static check of a parsed rule, standing in for cel-go's type checker (which
//! the CEL crate lacks): the result type as far as the schema tells it, undeclared
//! variables, undefined fields of structural objects, mismatched operand types, whether
//! the rule reads `oldSelf`, and the shape of its cost.

use cel::common::ast::{operators, EntryExpr, Expr, LiteralValue};
use cel::parser::Expression;
use serde_json::Value as Json;

use super::tree::{children, constant_length};
use super::value::{escape_property, is_struct};
use kas_cel::library::{LINEAR_FUNCTIONS, QUADRATIC_FUNCTIONS};

/// What is statically known of a value's type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty<'s> {
    Bool,
    Int,
    UInt,
    Double,
    String,
    Bytes,
    Null,
    Duration,
    Timestamp,
    List(Box<Ty<'s>>),
    Map(Box<Ty<'s>>),
    /// An object described by a schema node (also lists and maps typed by one).
    Schema(&'s Json),
    Dyn,
}

impl Ty<'_> {
    fn name(&self) -> String {
        match self {
            Ty::Bool => "bool".into(),
            Ty::Int => "int".into(),
            Ty::UInt => "uint".into(),
            Ty::Double => "double".into(),
            Ty::String => "string".into(),
            Ty::Bytes => "bytes".into(),
            Ty::Null => "null_type".into(),
            Ty::Duration => "google.protobuf.Duration".into(),
            Ty::Timestamp => "google.protobuf.Timestamp".into(),
            Ty::List(e) => format!("list({})", e.name()),
            Ty::Map(v) => format!("map(string, {})", v.name()),
            Ty::Schema(_) => "object".into(),
            Ty::Dyn => "dyn".into(),
        }
    }

    /// Whether the type is a primitive whose operators are fully known.
    fn primitive(&self) -> bool {
        !matches!(self, Ty::Dyn | Ty::Schema(_) | Ty::List(_) | Ty::Map(_))
    }
}

/// The type CEL gives a schema node.
pub(crate) fn schema_type(schema: &Json) -> Ty<'_> {
    if schema.get("x-kubernetes-int-or-string") == Some(&Json::Bool(true)) {
        return Ty::Dyn;
    }
    let format = schema.get("format").and_then(Json::as_str);
    match schema.get("type").and_then(Json::as_str) {
        Some("boolean") => Ty::Bool,
        Some("integer") => Ty::Int,
        Some("number") => Ty::Double,
        Some("string") => match format {
            Some("duration") => Ty::Duration,
            Some("date" | "date-time") => Ty::Timestamp,
            Some("byte") => Ty::Bytes,
            _ => Ty::String,
        },
        Some("array") | Some("object") => Ty::Schema(schema),
        _ => Ty::Dyn,
    }
}

/// One error found by the check, at a node of the expression.
pub(crate) struct Issue {
    pub(crate) expr_id: u64,
    pub(crate) message: String,
}

/// What the check learnt of a rule.
pub(crate) struct Facts<'s> {
    pub(crate) result: Ty<'s>,
    pub(crate) issues: Vec<Issue>,
    pub(crate) uses_old_self: bool,
    /// Nodes in the expression.
    pub(crate) nodes: u64,
    /// The shapes of the rule's work: for each `(a, m)`, some part of the rule runs
    /// (input size)^a × m times (`a` loops over the input; `m` the product of the
    /// lengths of the lists built from constants that enclosing loops run over).
    pub(crate) cost_terms: Vec<(u32, u64)>,
}

/// The loops enclosing a node: how many run over the input, and the product of the
/// lengths of those running over lists built from constants.
#[derive(Clone, Copy)]
struct Loops {
    input: u32,
    literal: u64,
}

impl Loops {
    /// The cost shape of an operation linear (`n = 1`) or quadratic (`n = 2`) in the
    /// input, at this loop nesting.
    fn times_input(self, n: u32) -> Loops {
        Loops {
            input: self.input + n,
            ..self
        }
    }
}

struct Checker<'s, 'k> {
    /// Whether the environment declares a function of this (qualified) name.
    known: &'k dyn Fn(&str) -> bool,
    self_ty: Ty<'s>,
    /// `oldSelf` has the type of `self`, or is an optional value.
    old_self_optional: bool,
    /// Variables of the enclosing comprehensions: name, type, whether they derive from
    /// the input.
    scopes: Vec<(String, Ty<'s>, bool)>,
    facts: Facts<'s>,
}

/// Namespaces of library functions, written as `ns.fn(...)`.
const NAMESPACES: &[&str] = &["math", "strings", "lists", "optional", "base64", "ip"];

/// Type names usable as values (`type(x) == string`).
const TYPE_NAMES: &[&str] = &[
    "bool",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
];

pub(crate) fn check<'s>(
    expr: &Expression,
    self_schema: &'s Json,
    optional_old: bool,
    known: &dyn Fn(&str) -> bool,
) -> Facts<'s> {
    let mut checker = Checker {
        known,
        self_ty: schema_type(self_schema),
        old_self_optional: optional_old,
        scopes: Vec::new(),
        facts: Facts {
            result: Ty::Dyn,
            issues: Vec::new(),
            uses_old_self: false,
            nodes: 0,
            cost_terms: Vec::new(),
        },
    };
    let result = checker.infer(
        expr,
        Loops {
            input: 0,
            literal: 1,
        },
    );
    checker.facts.result = result;
    checker.facts
}

impl<'s> Checker<'s, '_> {
    fn issue(&mut self, expr: &Expression, message: String) {
        self.facts.issues.push(Issue {
            expr_id: expr.id,
            message,
        });
    }

    fn cost(&mut self, loops: Loops) {
        let term = (loops.input, loops.literal);
        let terms = &mut self.facts.cost_terms;
        if !terms.iter().any(|&(a, b)| a >= term.0 && b >= term.1) {
            terms.retain(|&(a, b)| !(term.0 >= a && term.1 >= b));
            terms.push(term);
        }
    }

    /// Whether `expr` reads the input (`self`, `oldSelf`, or a variable derived from them).
    fn depends(&self, expr: &Expression) -> bool {
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            if let Expr::Ident(name) = &e.expr {
                let bound = self.scopes.iter().rev().find(|(n, _, _)| n == name);
                let dependent = match bound {
                    Some((_, _, dependent)) => *dependent,
                    None => name == "self" || name == "oldSelf",
                };
                if dependent {
                    return true;
                }
            }
            stack.extend(children(e));
        }
        false
    }

    fn infer(&mut self, expr: &Expression, depth: Loops) -> Ty<'s> {
        self.facts.nodes += 1;
        self.cost(depth);
        match &expr.expr {
            Expr::Literal(lit) => match lit {
                LiteralValue::Boolean(_) => Ty::Bool,
                LiteralValue::Bytes(_) => Ty::Bytes,
                LiteralValue::Double(_) => Ty::Double,
                LiteralValue::Int(_) => Ty::Int,
                LiteralValue::Null => Ty::Null,
                LiteralValue::String(_) => Ty::String,
                LiteralValue::UInt(_) => Ty::UInt,
            },
            Expr::Ident(name) => self.ident(expr, name, depth),
            Expr::Select(select) => {
                let operand = self.infer(&select.operand, depth);
                if select.test {
                    self.field(expr, &operand, &select.field);
                    Ty::Bool
                } else {
                    self.field(expr, &operand, &select.field)
                }
            }
            Expr::List(list) => {
                let mut elem: Option<Ty<'s>> = None;
                for e in &list.elements {
                    let t = self.infer(e, depth);
                    elem = Some(match elem {
                        None => t,
                        Some(prev) if prev == t => prev,
                        Some(_) => Ty::Dyn,
                    });
                }
                Ty::List(Box::new(elem.unwrap_or(Ty::Dyn)))
            }
            Expr::Map(map) => {
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(e) = &entry.expr {
                        self.infer(&e.key, depth);
                        self.infer(&e.value, depth);
                    }
                }
                Ty::Map(Box::new(Ty::Dyn))
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        self.infer(&f.value, depth);
                    }
                }
                Ty::Dyn
            }
            Expr::Comprehension(c) => {
                let range = self.infer(&c.iter_range, depth);
                if range.primitive() {
                    self.issue(
                        &c.iter_range,
                        format!(
                            "expression of type '{}' cannot be range of a comprehension \
                             (must be list, map, or dynamic)",
                            range.name()
                        ),
                    );
                }
                let accu = self.infer(&c.accu_init, depth);
                let from_input = self.depends(&c.iter_range);
                let accu_from_input = from_input || self.depends(&c.accu_init);
                let inner = if from_input {
                    depth.times_input(1)
                } else {
                    Loops {
                        literal: depth.literal.saturating_mul(constant_length(&c.iter_range)),
                        ..depth
                    }
                };
                let (first, second) = match &range {
                    Ty::List(e) => (Ty::Int, (**e).clone()),
                    Ty::Map(_) => (Ty::String, Ty::Dyn),
                    Ty::Schema(s) => match s.get("items") {
                        Some(items) => (Ty::Int, schema_type(items)),
                        None => (Ty::String, Ty::Dyn),
                    },
                    _ => (Ty::Dyn, Ty::Dyn),
                };
                let mark = self.scopes.len();
                self.scopes
                    .push((c.accu_var.clone(), accu, accu_from_input));
                match &c.iter_var2 {
                    Some(v2) => {
                        self.scopes.push((c.iter_var.clone(), first, from_input));
                        self.scopes.push((v2.clone(), second, from_input));
                    }
                    None => {
                        let ty = match (&range, first) {
                            (Ty::List(_), _) => second,
                            (Ty::Schema(s), _) if s.get("items").is_some() => second,
                            (_, first) => first,
                        };
                        self.scopes.push((c.iter_var.clone(), ty, from_input));
                    }
                }
                self.infer(&c.loop_cond, inner);
                self.infer(&c.loop_step, inner);
                let result = self.infer(&c.result, depth);
                self.scopes.truncate(mark);
                result
            }
            Expr::Call(call) => {
                let namespace = match call.target.as_deref().map(|t| &t.expr) {
                    Some(Expr::Ident(ns)) if NAMESPACES.contains(&ns.as_str()) => Some(ns),
                    _ => None,
                };
                let qualified = match namespace {
                    Some(ns) => format!("{ns}.{}", call.func_name),
                    None => call.func_name.clone(),
                };
                let name = qualified.as_str();
                let extra = if QUADRATIC_FUNCTIONS.contains(&name) {
                    2
                } else if LINEAR_FUNCTIONS.contains(&name) {
                    1
                } else {
                    0
                };
                self.cost(depth.times_input(extra));
                let operator = name.contains(['@', '_']) || name.starts_with(['!', '-']);
                if !operator && !(self.known)(name) {
                    self.issue(
                        expr,
                        format!("undeclared reference to '{name}' (in container '')"),
                    );
                }
                let target = match &call.target {
                    Some(t) if namespace.is_none() => Some(self.infer(t, depth)),
                    _ => None,
                };
                let args: Vec<Ty<'s>> = call.args.iter().map(|a| self.infer(a, depth)).collect();
                self.call(expr, name, target, &args)
            }
            Expr::Unspecified => Ty::Dyn,
        }
    }

    fn ident(&mut self, expr: &Expression, name: &str, depth: Loops) -> Ty<'s> {
        if let Some((_, ty, _)) = self.scopes.iter().rev().find(|(n, _, _)| n == name) {
            return ty.clone();
        }
        match name {
            "self" => {
                self.cost(depth.times_input(1));
                self.self_ty.clone()
            }
            "oldSelf" => {
                self.cost(depth.times_input(1));
                self.facts.uses_old_self = true;
                if self.old_self_optional {
                    Ty::Dyn
                } else {
                    self.self_ty.clone()
                }
            }
            n if TYPE_NAMES.contains(&n) || NAMESPACES.contains(&n) || n.starts_with('@') => {
                Ty::Dyn
            }
            _ => {
                self.issue(
                    expr,
                    format!("undeclared reference to '{name}' (in container '')"),
                );
                Ty::Dyn
            }
        }
    }

    /// The type of `operand.field`, reporting a field a structural object can't have.
    fn field(&mut self, expr: &Expression, operand: &Ty<'s>, field: &str) -> Ty<'s> {
        let Ty::Schema(schema) = operand else {
            return match operand {
                Ty::Map(v) => (**v).clone(),
                Ty::Dyn => Ty::Dyn,
                other => {
                    self.issue(
                        expr,
                        format!("type '{}' does not support field selection", other.name()),
                    );
                    Ty::Dyn
                }
            };
        };
        if is_struct(schema) {
            let props = schema.get("properties").and_then(Json::as_object);
            let found = props.and_then(|p| {
                p.iter()
                    .find(|(k, _)| escape_property(k).as_deref() == Some(field))
                    .map(|(_, s)| s)
            });
            if let Some(s) = found {
                return schema_type(s);
            }
            let open = schema
                .get("additionalProperties")
                .is_some_and(|a| a != false)
                || schema.get("x-kubernetes-preserve-unknown-fields") == Some(&Json::Bool(true))
                || schema.get("x-kubernetes-embedded-resource") == Some(&Json::Bool(true))
                || matches!(field, "apiVersion" | "kind" | "metadata");
            if !open {
                self.issue(expr, format!("undefined field '{field}'"));
            }
            return Ty::Dyn;
        }
        match schema.get("additionalProperties") {
            Some(a) if a.is_object() => schema_type(a),
            _ if schema.get("items").is_some() => {
                self.issue(
                    expr,
                    format!("type '{}' does not support field selection", "list"),
                );
                Ty::Dyn
            }
            _ => Ty::Dyn,
        }
    }

    fn call(
        &mut self,
        expr: &Expression,
        name: &str,
        target: Option<Ty<'s>>,
        args: &[Ty<'s>],
    ) -> Ty<'s> {
        use operators as op;
        if let Some(t) = target.as_ref().filter(|t| t.primitive()) {
            if !receiver_allowed(name, t) {
                let args: Vec<String> = args.iter().map(Ty::name).collect();
                self.issue(
                    expr,
                    format!(
                        "found no matching overload for '{name}' applied to '{}.({})'",
                        t.name(),
                        args.join(", ")
                    ),
                );
                return Ty::Dyn;
            }
        }
        match name {
            op::LOGICAL_AND | op::LOGICAL_OR | op::LOGICAL_NOT | op::NOT_STRICTLY_FALSE => {
                for a in args {
                    if a.primitive() && *a != Ty::Bool {
                        self.mismatch(expr, name, args);
                        break;
                    }
                }
                Ty::Bool
            }
            op::EQUALS | op::NOT_EQUALS => {
                if let [a, b] = args {
                    if a.primitive() && b.primitive() && a != b && *a != Ty::Null && *b != Ty::Null
                    {
                        self.mismatch(expr, name, args);
                    }
                }
                Ty::Bool
            }
            op::LESS | op::LESS_EQUALS | op::GREATER | op::GREATER_EQUALS => {
                if let [a, b] = args {
                    let numeric = |t: &Ty<'_>| matches!(t, Ty::Int | Ty::UInt | Ty::Double);
                    if a.primitive() && b.primitive() && a != b && !(numeric(a) && numeric(b)) {
                        self.mismatch(expr, name, args);
                    }
                }
                Ty::Bool
            }
            op::IN => Ty::Bool,
            op::ADD | op::SUBSTRACT | op::MULTIPLY | op::DIVIDE | op::MODULO => match args {
                [a, b] if a.primitive() && b.primitive() => {
                    let ok = a == b
                        || matches!(
                            (name, a, b),
                            (op::ADD, Ty::Timestamp, Ty::Duration)
                                | (op::ADD, Ty::Duration, Ty::Timestamp)
                                | (op::SUBSTRACT, Ty::Timestamp, Ty::Duration)
                        );
                    if !ok {
                        self.mismatch(expr, name, args);
                        return Ty::Dyn;
                    }
                    match (name, a, b) {
                        (op::SUBSTRACT, Ty::Timestamp, Ty::Timestamp) => Ty::Duration,
                        (_, Ty::Duration, Ty::Timestamp) => Ty::Timestamp,
                        _ => a.clone(),
                    }
                }
                [a, _] => a.clone(),
                _ => Ty::Dyn,
            },
            op::NEGATE => args.first().cloned().unwrap_or(Ty::Dyn),
            op::CONDITIONAL => match args {
                [c, a, b] => {
                    if c.primitive() && *c != Ty::Bool {
                        self.mismatch(expr, name, args);
                    }
                    if a == b {
                        a.clone()
                    } else {
                        Ty::Dyn
                    }
                }
                _ => Ty::Dyn,
            },
            op::INDEX => match (args.first(), args.get(1)) {
                (Some(Ty::List(e)), _) | (Some(Ty::Map(e)), _) => (**e).clone(),
                (Some(Ty::Schema(s)), _) => s
                    .get("items")
                    .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
                    .map_or(Ty::Dyn, schema_type),
                _ => Ty::Dyn,
            },
            "size" | "indexOf" | "lastIndexOf" | "int" | "getHours" | "getMinutes"
            | "getSeconds" | "getMilliseconds" | "getFullYear" | "getMonth" | "getDayOfMonth"
            | "getDayOfWeek" | "getDayOfYear" | "getDate" | "compareTo" | "sign" | "asInteger"
            | "family" | "prefixLength" => Ty::Int,
            "asApproximateFloat" => Ty::Double,
            "matches"
            | "startsWith"
            | "endsWith"
            | "contains"
            | "isSorted"
            | "hasValue"
            | "exists"
            | "all"
            | "exists_one"
            | "math.isInf"
            | "math.isNaN"
            | "math.isFinite"
            | "bool"
            | "isQuantity"
            | "isLessThan"
            | "isGreaterThan"
            | "isInteger"
            | "isIP"
            | "isCIDR"
            | "ip.isCanonical"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast"
            | "containsIP"
            | "containsCIDR" => Ty::Bool,
            "lowerAscii" | "upperAscii" | "trim" | "replace" | "substring" | "charAt" | "join"
            | "format" | "string" | "strings.quote" => Ty::String,
            "reverse" => target.unwrap_or(Ty::Dyn),
            "split" => Ty::List(Box::new(Ty::String)),
            "uint" => Ty::UInt,
            "double" => Ty::Double,
            "bytes" => Ty::Bytes,
            "duration" => Ty::Duration,
            "timestamp" => Ty::Timestamp,
            "sum" | "min" | "max" => match target {
                Some(Ty::List(e)) => *e,
                Some(Ty::Schema(s)) => s.get("items").map_or(Ty::Dyn, schema_type),
                _ => Ty::Dyn,
            },
            _ => Ty::Dyn,
        }
    }

    fn mismatch(&mut self, expr: &Expression, name: &str, args: &[Ty<'s>]) {
        let types: Vec<String> = args.iter().map(Ty::name).collect();
        self.issue(
            expr,
            format!(
                "found no matching overload for '{name}' applied to '({})'",
                types.join(", ")
            ),
        );
    }
}

/// Whether a member function may be called on a value of the primitive type `t`
/// (functions not listed here are not checked).
fn receiver_allowed(name: &str, t: &Ty<'_>) -> bool {
    match name {
        "size" => matches!(t, Ty::String | Ty::Bytes),
        "matches" | "startsWith" | "endsWith" | "contains" | "lowerAscii" | "upperAscii"
        | "split" | "trim" | "replace" | "substring" | "charAt" | "format" | "reverse"
        | "indexOf" | "lastIndexOf" => *t == Ty::String,
        "join" | "isSorted" | "sum" | "min" | "max" | "all" | "exists" | "exists_one" | "map"
        | "filter" | "distinct" | "flatten" | "slice" | "sort" => false,
        "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds" => {
            matches!(t, Ty::Timestamp | Ty::Duration)
        }
        "getFullYear" | "getMonth" | "getDayOfMonth" | "getDayOfWeek" | "getDayOfYear"
        | "getDate" => *t == Ty::Timestamp,
        _ => true,
    }
}
