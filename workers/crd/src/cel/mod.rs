//! CEL rules of `x-kubernetes-validations`: compiled once per schema node, evaluated
//! against each custom resource with `self` (and `oldSelf` on updates) bound, with
//! upstream's messages and a cost bound.
//!
//! The CEL crate (`cel`, from cel-rust) parses and evaluates but has no type checker and
//! no cost tracking, so `check` stands in for both: an approximate type check from the
//! schema, and a static bound on the work a rule may do given the size of its input.

mod check;
mod tree;

use kas_cel::library;
mod value;

#[cfg(test)]
mod tests;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cel::{Context, Env, ExecutionError, Program, Value};
use serde_json::Value as Json;

use check::Ty;

/// The most work one rule may do, in the units of the static bound (expression nodes
/// times input size raised to the number of loops over the input, times the lengths of
/// the constant lists looped over). Upstream's per-call limit is 1e6 of its
/// finer-grained units; this bound over-counts, so it is ten times that.
pub const PER_CALL_LIMIT: u64 = 10_000_000;

/// The most work all the rules of one `evaluate` call may do together (upstream's
/// per-resource runtime budget is 1e7 of its units).
pub const RUNTIME_BUDGET: u64 = 100_000_000;

/// The longest message a `messageExpression` may produce (upstream: 5 KiB).
const MAX_MESSAGE_EXPRESSION_BYTES: usize = 5 * 1024;

/// One entry of `x-kubernetes-validations`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rule {
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    pub reason: Option<String>,
    pub field_path: Option<String>,
    pub optional_old_self: bool,
}

/// The compiled rules of one schema node.
pub struct CompiledRules {
    env: Arc<Env>,
    schema: Json,
    rules: Vec<Compiled>,
}

struct Compiled {
    rule: Rule,
    /// `None` for a blank rule, which upstream skips.
    program: Option<Program>,
    message_program: Option<Program>,
    transition: bool,
    nodes: u64,
    cost_terms: Vec<(u32, u64)>,
}

/// A rule that did not hold (or could not be evaluated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub rule_index: usize,
    pub message: String,
    pub reason: Option<String>,
    pub field_path: Option<String>,
}

/// Compiles the rules of one schema node; `node_schema` is that node's openAPIV3Schema
/// JSON (to know the type of `self`, e.g. for int-or-string, maps vs objects).
///
/// Errors are `(rule index, message)`, e.g. `compilation failed: ERROR: <input>:1:6: ...`.
pub fn compile(rules: &[Rule], node_schema: &Json) -> Result<CompiledRules, Vec<(usize, String)>> {
    let Some(env) = library::env() else {
        return Err(vec![(0, "rule compiler initialization error".to_owned())]);
    };
    let mut compiled = Vec::with_capacity(rules.len());
    let mut errors = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        match compile_rule(&env, rule, node_schema) {
            Ok(c) => compiled.push(c),
            Err(message) => errors.push((i, message)),
        }
    }
    if errors.is_empty() {
        Ok(CompiledRules {
            env,
            schema: node_schema.clone(),
            rules: compiled,
        })
    } else {
        Err(errors)
    }
}

/// The deepest expression tree accepted. The crate's evaluator recurses once per level,
/// and a 2 MiB thread stack (tokio's default) held about 50 levels in a debug build.
const MAX_DEPTH: usize = 32;

/// The stack of the thread that parses: the crate's parser recurses deeply per level
/// of nesting (an 8 MiB stack overflowed on 100 nested parentheses in a debug build).
const PARSE_STACK_BYTES: usize = 64 << 20;

/// The most punctuation characters a rule may have. Each level the parser recurses
/// through takes at least one; [`PARSE_STACK_BYTES`] held 10,000 levels of the deepest
/// shapes (`a.b.b...`, `a[0][0]...`, `1 + 1 + ...`) in a debug build.
const MAX_PUNCTUATION: usize = 10_000;

/// Parses `source` on a thread with a large stack, then refuses trees deeper than
/// [`MAX_DEPTH`]; never panics whatever the input.
fn parse(env: &Arc<Env>, source: &str) -> Result<Program, String> {
    if source.chars().filter(char::is_ascii_punctuation).count() > MAX_PUNCTUATION {
        return Err(format!(
            "ERROR: <input>:1:1: expression too complex (more than {MAX_PUNCTUATION} operators)"
        ));
    }
    let (env, owned) = (Arc::clone(env), source.to_owned());
    // The depth is checked on the parsing thread, so that a tree too deep for a small
    // stack is dropped there.
    let parsed = std::thread::Builder::new()
        .name("cel-parse".to_owned())
        .stack_size(PARSE_STACK_BYTES)
        .spawn(move || {
            catch_unwind(AssertUnwindSafe(|| {
                let program = env
                    .compile(&owned)
                    .map_err(|e| indent_snippets(&e.to_string()))?;
                if tree::depth(program.expression()) > MAX_DEPTH {
                    return Err(format!(
                        "ERROR: <input>:1:1: expression nested too deeply (more than \
                         {MAX_DEPTH} levels)"
                    ));
                }
                Ok(program)
            }))
        })
        .map_err(|e| format!("ERROR: <input>:1:1: parser unavailable: {e}"))?
        .join();
    match parsed {
        Ok(Ok(result)) => result,
        _ => Err("ERROR: <input>:1:1: could not parse the expression".to_owned()),
    }
}

fn compile_rule(env: &Arc<Env>, rule: &Rule, schema: &Json) -> Result<Compiled, String> {
    let mut compiled = Compiled {
        rule: rule.clone(),
        program: None,
        message_program: None,
        transition: false,
        nodes: 0,
        cost_terms: Vec::new(),
    };
    if rule.rule.trim().is_empty() {
        return Ok(compiled);
    }
    let program = parse(env, &rule.rule).map_err(|e| format!("compilation failed: {e}"))?;
    let known = |name: &str| library::is_function(env, name);
    let facts = check::check(program.expression(), schema, rule.optional_old_self, &known);
    if let Some(issue) = facts.issues.first() {
        return Err(format!(
            "compilation failed: {}",
            locate(&program, issue.expr_id, &issue.message)
        ));
    }
    if !matches!(facts.result, Ty::Bool | Ty::Dyn) {
        return Err("cel expression must evaluate to a bool".to_owned());
    }
    compiled.transition = facts.uses_old_self;
    compiled.nodes = facts.nodes;
    compiled.cost_terms = facts.cost_terms;
    compiled.program = Some(program);

    if let Some(source) = rule.message_expression.as_deref() {
        let program =
            parse(env, source).map_err(|e| format!("messageExpression compilation failed: {e}"))?;
        let facts = check::check(program.expression(), schema, rule.optional_old_self, &known);
        if let Some(issue) = facts.issues.first() {
            return Err(format!(
                "messageExpression compilation failed: {}",
                locate(&program, issue.expr_id, &issue.message)
            ));
        }
        if !matches!(facts.result, Ty::String | Ty::Dyn) {
            return Err("messageExpression must evaluate to a string".to_owned());
        }
        compiled.nodes = compiled.nodes.max(facts.nodes);
        compiled.cost_terms.extend(facts.cost_terms);
        compiled.message_program = Some(program);
    }
    Ok(compiled)
}

/// The crate prints the source snippet under a parse error as `| ...`; cel-go as ` | ...`.
fn indent_snippets(error: &str) -> String {
    error
        .lines()
        .map(|l| {
            if l.starts_with('|') {
                format!(" {l}")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `ERROR: <input>:line:col: message` and the source line with a caret, as cel-go prints.
fn locate(program: &Program, expr_id: u64, message: &str) -> String {
    let info = program.source_info();
    let source = info.source.as_str();
    let start = info
        .offset_for(expr_id)
        .map_or(0, |(start, _)| start as usize)
        .min(source.len());
    let before = source.get(..start).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    let text = source.lines().nth(line - 1).unwrap_or("");
    format!(
        "ERROR: <input>:{line}:{col}: {message}\n | {text}\n | {:.>col$}",
        "^"
    )
}

impl CompiledRules {
    /// Evaluates every rule; transition rules (those using `oldSelf`) only when
    /// `old_self` is Some, unless optional_old_self.
    pub fn evaluate(&self, self_value: &Json, old_self: Option<&Json>) -> Vec<Failure> {
        let mut failures = Vec::new();
        if self_value.is_null() {
            // Upstream validates only non-null values.
            return failures;
        }
        let size = value::input_size(self_value) + old_self.map_or(0, value::input_size);
        let mut spent: u64 = 0;
        let mut bindings: Option<(Value, Option<Value>)> = None;
        // One context for the rules that see `oldSelf` as a value, one for those that see
        // it as an optional; built when first needed.
        let mut contexts: [Option<Result<Context<'static, 'static>, ExecutionError>>; 2] =
            [None, None];
        for (i, compiled) in self.rules.iter().enumerate() {
            let Some(program) = &compiled.program else {
                continue;
            };
            if compiled.transition && old_self.is_none() && !compiled.rule.optional_old_self {
                continue;
            }
            let fail = |message: String| Failure {
                rule_index: i,
                message,
                reason: compiled.rule.reason.clone(),
                field_path: compiled.rule.field_path.clone(),
            };
            let cost = cost_bound(compiled.nodes, size, &compiled.cost_terms);
            if cost > PER_CALL_LIMIT {
                failures.push(fail(format!(
                    "'operation cancelled: actual cost limit exceeded': no further validation \
                     rules will be run due to call cost exceeds limit for rule: {}",
                    rule_error_string(&compiled.rule)
                )));
                return failures;
            }
            spent = spent.saturating_add(cost);
            if spent > RUNTIME_BUDGET {
                failures.push(fail(
                    "validation failed due to running out of cost budget, no further \
                     validation rules will be run"
                        .to_owned(),
                ));
                return failures;
            }
            let (self_cel, old_cel) = bindings.get_or_insert_with(|| {
                let schema = Some(&self.schema);
                (
                    value::to_cel(self_value, schema),
                    old_self.map(|o| value::to_cel(o, schema)),
                )
            });
            let optional = compiled.rule.optional_old_self;
            let ctx = contexts[usize::from(optional)]
                .get_or_insert_with(|| self.context(self_cel, old_cel.as_ref(), optional));
            let ctx = match ctx {
                Ok(ctx) => &*ctx,
                Err(e) => {
                    failures.push(fail(runtime_error(e, &compiled.rule)));
                    continue;
                }
            };
            match run(program, ctx) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => {
                    let message = compiled
                        .message_program
                        .as_ref()
                        .and_then(|p| message_from(p, ctx))
                        .unwrap_or_else(|| rule_message_or_default(&compiled.rule));
                    failures.push(fail(message));
                }
                Ok(other) => failures.push(fail(format!(
                    "rule returned {} instead of a bool evaluating rule: {}",
                    other.type_of(),
                    rule_error_string(&compiled.rule)
                ))),
                Err(e) => failures.push(fail(runtime_error(&e, &compiled.rule))),
            }
        }
        failures
    }

    /// Whether rule `i` reads `oldSelf` (and so runs only on updates).
    pub fn is_transition(&self, i: usize) -> bool {
        self.rules.get(i).is_some_and(|r| r.transition)
    }

    fn context(
        &self,
        self_cel: &Value,
        old: Option<&Value>,
        optional: bool,
    ) -> Result<Context<'static, 'static>, ExecutionError> {
        let mut ctx = Context::with_env(Arc::clone(&self.env));
        ctx.add_variable_as_val("self", self_cel.clone().try_into()?);
        let old = if optional {
            let opt = match old {
                Some(v) => cel::objects::OptionalValue::of(v.clone()),
                None => cel::objects::OptionalValue::none(),
            };
            Some(Value::Opaque(Arc::new(opt)))
        } else {
            old.cloned()
        };
        if let Some(old) = old {
            ctx.add_variable_as_val("oldSelf", old.try_into()?);
        }
        Ok(ctx)
    }
}

/// Runs `program`, turning a panic inside the CEL crate into an error.
fn run(program: &Program, ctx: &Context<'_, '_>) -> Result<Value, ExecutionError> {
    catch_unwind(AssertUnwindSafe(|| program.execute(ctx))).unwrap_or_else(|_| {
        Err(ExecutionError::InternalError(
            "internal error while evaluating".to_owned(),
        ))
    })
}

/// The message of a failed rule from its `messageExpression`, or `None` to fall back to
/// `message` (upstream logs why and falls back the same way).
fn message_from(program: &Program, ctx: &Context<'_, '_>) -> Option<String> {
    match run(program, ctx) {
        Ok(Value::String(s)) => {
            let s = s.trim();
            let ok = !s.is_empty() && !s.contains('\n') && s.len() <= MAX_MESSAGE_EXPRESSION_BYTES;
            ok.then(|| s.to_owned())
        }
        _ => None,
    }
}

/// The work bound of one rule: the largest `nodes × (size + 1)^a × m` over its cost
/// terms, saturating.
fn cost_bound(nodes: u64, size: u64, terms: &[(u32, u64)]) -> u64 {
    let nodes = nodes.max(1);
    let term = |&(a, m): &(u32, u64)| {
        let input = size.saturating_add(1).checked_pow(a).unwrap_or(u64::MAX);
        nodes.saturating_mul(input).saturating_mul(m)
    };
    terms.iter().map(term).max().unwrap_or(nodes)
}

fn rule_error_string(rule: &Rule) -> String {
    match rule.message.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => m.to_owned(),
        _ => rule.rule.trim().to_owned(),
    }
}

fn rule_message_or_default(rule: &Rule) -> String {
    match rule.message.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => m.to_owned(),
        _ => format!("failed rule: {}", rule.rule.trim()),
    }
}

/// An evaluation error as upstream reports it; the error text follows cel-go's where
/// the crate's differs.
fn runtime_error(error: &ExecutionError, rule: &Rule) -> String {
    let rule = rule_error_string(rule);
    match error {
        ExecutionError::NoSuchOverload(_)
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::ValuesNotComparable(..)
        | ExecutionError::UnsupportedBinaryOperator(..) => format!(
            "'no such overload': call arguments did not match a supported operator, function \
             or macro signature for rule: {rule}"
        ),
        ExecutionError::NoSuchKey(key) => format!("no such key: {key} evaluating rule: {rule}"),
        ExecutionError::DivisionByZero(_) => format!("division by zero evaluating rule: {rule}"),
        ExecutionError::RemainderByZero(_) => format!("modulus by zero evaluating rule: {rule}"),
        ExecutionError::Overflow(..) => format!("integer overflow evaluating rule: {rule}"),
        ExecutionError::IndexOutOfBounds(v) => {
            let index = match v {
                Value::Int(i) => i.to_string(),
                Value::UInt(u) => u.to_string(),
                other => format!("{other:?}"),
            };
            format!("index out of bounds: {index} evaluating rule: {rule}")
        }
        other => {
            // One line, as field errors are shown (e.g. a regex error spans several).
            let text = other.to_string();
            let text: Vec<&str> = text.split_whitespace().collect();
            format!("{} evaluating rule: {rule}", text.join(" "))
        }
    }
}
