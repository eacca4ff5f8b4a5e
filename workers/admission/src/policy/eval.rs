//! One policy evaluated for one request and one param object, as upstream's validator:
//! the match conditions, then every validation (with its message), then the audit
//! annotations, over `object`, `oldObject`, `request`, `params`, `namespaceObject` and
//! `variables` (each variable evaluated at most once, and only when an expression reads
//! it). Errors are decided by the policy's failure policy.
//!
//! The `cel` crate has no runtime cost tracking, so the cost of an expression is bounded
//! before it runs, from its shape and the size of its input (nodes × (input size + 1)
//! raised to how deeply its loops nest). An expression whose bound passes the per-call
//! limit fails as cel-go's does when its actual cost does; the bounds of one evaluation
//! together may not pass the runtime budget. Nothing runs unbounded on a worker thread.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cel::objects::{Key, Map};
use cel::{Context, ExecutionError, Program, Value as Cel};
use serde_json::Value;

use super::compile::{env, Compiled};
use super::inputs::size_of;
pub(crate) use super::inputs::Inputs;
use super::model::Policy;
use crate::webhook::matching::{cel_type, to_cel};

/// The most one expression may cost, in the units of the bound (upstream's per-call
/// limit is 1e6 of its finer units; the bound over-counts, so ten times that, as the CRD
/// rules use).
pub(crate) const PER_CALL_LIMIT: u64 = 10_000_000;
/// The most the expressions of one evaluation may cost together (upstream's runtime
/// budget is 1e7).
pub(crate) const RUNTIME_BUDGET: u64 = 100_000_000;
/// What an authorization check costs in the units of the bound (upstream's 350,000,
/// scaled as the limit is: two checks fit in an expression, three do not).
const CHECK_COST: u64 = kas_cel::authz::CHECK_COST * 10;
/// The longest message a messageExpression may give (upstream: 5 KiB).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;
/// The longest audit annotation value kept (upstream: 10 KiB).
const MAX_ANNOTATION_BYTES: usize = 10 * 1024;

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// What one validation decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decision {
    Admit,
    /// An error let through by `failurePolicy: Ignore` (its message).
    Ignored(String),
    /// Refused: the message, and the reason (`None`: Invalid).
    Deny {
        message: String,
        reason: Option<String>,
    },
}

/// What one audit annotation gave.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Annotation {
    Publish {
        key: String,
        value: String,
    },
    /// Refuses the request (an error under failurePolicy Fail, or a value of a wrong type).
    Error(String),
}

/// The outcome of one policy for one param.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Outcome {
    /// (index of the validation, decision).
    pub decisions: Vec<(usize, Decision)>,
    /// How long each decision took to evaluate, in the order of `decisions`.
    pub took: Vec<Duration>,
    pub annotations: Vec<Annotation>,
    /// How the match conditions went (for their metrics).
    pub conditions: crate::match_metrics::Evaluated,
}

/// cel-go's wording of an evaluation error.
fn error_text(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        ExecutionError::NoSuchOverload(_)
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::ValuesNotComparable(..)
        | ExecutionError::UnsupportedBinaryOperator(..) => "no such overload".to_owned(),
        ExecutionError::DivisionByZero(_) => "division by zero".to_owned(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_owned(),
        ExecutionError::Overflow(..) => "integer overflow".to_owned(),
        ExecutionError::UndeclaredReference(r) => format!("no such attribute: {r}"),
        other => other
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn run(program: &Program, ctx: &Context<'_, '_>) -> Result<Cel, String> {
    catch_unwind(AssertUnwindSafe(|| program.execute(ctx)))
        .unwrap_or_else(|_| Err(ExecutionError::InternalError("evaluation failed".into())))
        .map_err(|e| error_text(&e))
}

/// An evaluation in progress: the context, the variables evaluated so far, the budget.
struct Evaluation<'p> {
    policy: &'p Policy,
    ctx: Context<'static, 'static>,
    size: u64,
    spent: u64,
    /// Each variable once evaluated: its value or its error.
    variables: Vec<Option<Result<Cel, String>>>,
}

/// An expression's failure: a plain error, or the budget spent (ends the evaluation).
enum Failed {
    Error(String),
    Budget,
}

impl<'p> Evaluation<'p> {
    fn cost(&self, c: &Compiled) -> u64 {
        let input = |loops: u32| {
            self.size
                .saturating_add(1)
                .checked_pow(loops)
                .unwrap_or(u64::MAX)
        };
        let checks = c
            .checks
            .saturating_mul(CHECK_COST)
            .saturating_mul(input(c.check_loops));
        c.nodes
            .max(1)
            .saturating_mul(input(c.loops))
            .saturating_add(checks)
    }

    /// Evaluates the variables `needed` (and what they read) that are not yet.
    fn ensure(&mut self, needed: &[usize]) -> Result<(), Failed> {
        let mut wanted: Vec<usize> = needed.to_vec();
        let mut i = 0;
        while i < wanted.len() {
            if let Some((_, c)) = self.policy.variables.get(wanted[i]) {
                for d in &c.variables {
                    if !wanted.contains(d) {
                        wanted.push(*d);
                    }
                }
            }
            i += 1;
        }
        wanted.sort_unstable();
        for v in wanted {
            if self.variables.get(v).is_some_and(Option::is_some) {
                continue;
            }
            let Some((_, compiled)) = self.policy.variables.get(v) else {
                continue;
            };
            let value = match compiled
                .variables
                .iter()
                .find_map(|d| match self.variables.get(*d) {
                    Some(Some(Err(e))) => Some(e.clone()),
                    _ => None,
                }) {
                Some(e) => Err(e),
                None => {
                    self.publish_variables();
                    match self.eval(compiled) {
                        Ok(val) => Ok(val),
                        Err(Failed::Budget) => return Err(Failed::Budget),
                        // The variable's own error, without the expression it came from.
                        Err(Failed::Error(e)) => {
                            let prefix =
                                format!("expression '{}' resulted in error: ", compiled.source);
                            Err(e.strip_prefix(&prefix).map(str::to_owned).unwrap_or(e))
                        }
                    }
                }
            };
            if let Some(slot) = self.variables.get_mut(v) {
                *slot = Some(value);
            }
        }
        self.publish_variables();
        Ok(())
    }

    /// Binds `variables` to the values evaluated so far.
    fn publish_variables(&mut self) {
        let map: HashMap<Key, Cel> = self
            .policy
            .variables
            .iter()
            .zip(&self.variables)
            .filter_map(|((name, _), v)| match v {
                Some(Ok(val)) => Some((Key::String(Arc::new(name.clone())), val.clone())),
                _ => None,
            })
            .collect();
        self.ctx
            .add_variable_from_value("variables", Cel::Map(Map { map: Arc::new(map) }));
    }

    /// Evaluates one expression (its variables first), within the limits.
    fn eval(&mut self, c: &Compiled) -> Result<Cel, Failed> {
        let program = match &c.program {
            Ok(p) => p,
            Err(e) => return Err(Failed::Error(format!("compilation error: {e}"))),
        };
        let cost = self.cost(c);
        if cost > PER_CALL_LIMIT {
            return Err(Failed::Error(format!(
                "expression '{}' resulted in error: operation cancelled: actual cost limit exceeded",
                c.source
            )));
        }
        self.spent = self.spent.saturating_add(cost);
        if self.spent > RUNTIME_BUDGET {
            return Err(Failed::Budget);
        }
        if !c.variables.is_empty() {
            self.ensure(&c.variables)?;
            let broken = c
                .variables
                .iter()
                .find_map(|d| match self.variables.get(*d) {
                    Some(Some(Err(e))) => Some(e.clone()),
                    _ => None,
                });
            if let Some(e) = broken {
                return Err(Failed::Error(format!(
                    "expression '{}' resulted in error: {e}",
                    c.source
                )));
            }
        }
        run(program, &self.ctx)
            .map_err(|e| Failed::Error(format!("expression '{}' resulted in error: {e}", c.source)))
    }

    /// The match conditions: `Ok(false)` when one is false, errors joined; and how
    /// many failed to evaluate before the answer.
    fn conditions(&mut self) -> (Result<bool, Failed>, usize) {
        let mut errors = Vec::new();
        for c in &self.policy.conditions {
            match self.eval(c) {
                Ok(Cel::Bool(true)) => {}
                Ok(Cel::Bool(false)) => return (Ok(false), errors.len()),
                Ok(other) => errors.push(format!(
                    "expression '{}' resulted in error: expected boolean, got {}",
                    c.source,
                    cel_type(&other)
                )),
                Err(Failed::Budget) => return (Err(Failed::Budget), errors.len()),
                Err(Failed::Error(e)) => errors.push(e),
            }
        }
        let count = errors.len();
        let verdict = match count {
            0 => Ok(true),
            1 => Err(Failed::Error(errors.remove(0))),
            _ => Err(Failed::Error(format!("[{}]", errors.join(", ")))),
        };
        (verdict, count)
    }

    /// The message of a failed validation from its messageExpression, if it gives one.
    fn message(&mut self, c: &Compiled) -> Result<Option<String>, Failed> {
        match self.eval(c) {
            Ok(Cel::String(s)) => {
                let s = s.trim();
                let ok = !s.is_empty() && !s.contains('\n') && s.len() <= MAX_MESSAGE_BYTES;
                Ok(ok.then(|| s.to_owned()))
            }
            Err(Failed::Budget) => Err(Failed::Budget),
            _ => Ok(None),
        }
    }
}

/// Evaluates `policy` for one request and one param (`Null` when none).
pub(crate) fn validate(policy: &Policy, inputs: &Inputs, params: &Value) -> Outcome {
    let error = |message: String| -> Outcome {
        let decision = match policy.fail_open {
            true => Decision::Ignored(message),
            false => Decision::Deny {
                message,
                reason: None,
            },
        };
        Outcome {
            decisions: vec![(0, decision)],
            took: vec![Duration::ZERO],
            ..Outcome::default()
        }
    };
    let Some(env) = env() else {
        return error("expression compiler initialization error".to_owned());
    };
    let mut ctx = Context::with_env(env);
    ctx.add_variable_from_value("object", inputs.object.clone());
    ctx.add_variable_from_value("oldObject", inputs.old_object.clone());
    ctx.add_variable_from_value("request", inputs.request.clone());
    ctx.add_variable_from_value("namespaceObject", inputs.namespace.clone());
    ctx.add_variable_from_value("params", to_cel(params));
    if let Some((authorizer, request_resource)) = &inputs.authorizer {
        ctx.add_variable_from_value("authorizer", authorizer.clone());
        ctx.add_variable_from_value("authorizer.requestResource", request_resource.clone());
    }
    let mut ev = Evaluation {
        policy,
        ctx,
        size: inputs.size + size_of(params),
        spent: 0,
        variables: vec![None; policy.variables.len()],
    };
    let started = Instant::now();
    let (verdict, errors) = ev.conditions();
    // As upstream, the time is observed when a condition was false or failed.
    let conditions = crate::match_metrics::Evaluated {
        errors,
        took: (!matches!(verdict, Ok(true))).then(|| started.elapsed()),
        excluded: false,
    };
    let stop = |out: Outcome| Outcome { conditions, ..out };
    match verdict {
        Ok(true) => {}
        Ok(false) => return stop(Outcome::default()),
        Err(Failed::Budget) => return stop(error(OUT_OF_BUDGET.to_owned())),
        Err(Failed::Error(e)) => return stop(error(e)),
    }
    let mut out = Outcome {
        conditions,
        ..Outcome::default()
    };
    for (i, v) in policy.validations.iter().enumerate() {
        let started = Instant::now();
        let decision = match ev.eval(&v.expression) {
            Ok(Cel::Bool(true)) => Decision::Admit,
            Ok(_) => {
                let from_expression = match &v.message_expression {
                    Some(m) => match ev.message(m) {
                        Ok(m) => m,
                        Err(_) => return error(OUT_OF_BUDGET.to_owned()),
                    },
                    None => None,
                };
                let message = from_expression
                    .or_else(|| {
                        v.message
                            .as_deref()
                            .map(str::trim)
                            .filter(|m| !m.is_empty())
                            .map(str::to_owned)
                    })
                    .unwrap_or_else(|| {
                        format!("failed expression: {}", v.expression.source.trim())
                    });
                Decision::Deny {
                    message,
                    reason: v.reason.clone(),
                }
            }
            Err(Failed::Budget) => return error(OUT_OF_BUDGET.to_owned()),
            Err(Failed::Error(e)) if policy.fail_open => Decision::Ignored(e),
            Err(Failed::Error(e)) => Decision::Deny {
                message: e,
                reason: None,
            },
        };
        out.decisions.push((i, decision));
        out.took.push(started.elapsed());
    }
    for (key, c) in &policy.audit_annotations {
        match ev.eval(c) {
            Ok(Cel::String(s)) if !s.trim().is_empty() => {
                let mut value = s.trim().to_owned();
                if value.len() > MAX_ANNOTATION_BYTES {
                    let mut end = MAX_ANNOTATION_BYTES;
                    while !value.is_char_boundary(end) {
                        end -= 1;
                    }
                    value.truncate(end);
                }
                out.annotations.push(Annotation::Publish {
                    key: key.clone(),
                    value,
                });
            }
            Ok(Cel::String(_)) | Ok(Cel::Null) => {}
            Ok(other) => out.annotations.push(Annotation::Error(format!(
                "valueExpression '{}' resulted in unsupported return type: {}. Return type must \
                 be either string or null.",
                c.source,
                cel_type(&other)
            ))),
            Err(Failed::Budget) => return error(OUT_OF_BUDGET.to_owned()),
            Err(Failed::Error(_)) if policy.fail_open => {}
            Err(Failed::Error(e)) => out.annotations.push(Annotation::Error(e)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn policy(spec: Value) -> Policy {
        Policy::of(&json!({"metadata": {"name": "p"}, "spec": spec}))
    }

    fn inputs(obj: &Value) -> Inputs {
        Inputs::new(obj, &Value::Null, &json!({"operation": "CREATE"}), None)
    }

    fn deny(message: &str, reason: Option<&str>) -> Decision {
        Decision::Deny {
            message: message.to_owned(),
            reason: reason.map(str::to_owned),
        }
    }

    #[test]
    fn validations_messages_and_reasons() {
        let p = policy(json!({
        "variables": [{"name": "r", "expression": "object.spec.replicas"},
                      {"name": "broken", "expression": "object.nope.x"}],
        "validations": [
            {"expression": "variables.r <= 5"},
            {"expression": "variables.r <= 4", "message": " at most 4 "},
            {"expression": "variables.r <= 3", "reason": "Forbidden",
             "messageExpression": "'replicas ' + string(variables.r) + ' > 3'"},
            {"expression": "variables.r < 100"}
        ]}));
        let out = validate(&p, &inputs(&json!({"spec": {"replicas": 6}})), &Value::Null);
        assert_eq!(
            out.decisions,
            [
                (0, deny("failed expression: variables.r <= 5", None)),
                (1, deny("at most 4", None)),
                (2, deny("replicas 6 > 3", Some("Forbidden"))),
                (3, Decision::Admit),
            ]
        );
        // The broken variable is never evaluated: nothing reads it.
        let out = validate(&p, &inputs(&json!({"spec": {"replicas": 1}})), &Value::Null);
        assert!(out.decisions.iter().all(|(_, d)| *d == Decision::Admit));
    }

    #[test]
    fn errors_follow_the_failure_policy() {
        let spec = json!({"variables": [{"name": "x", "expression": "object.nope.x"}],
                          "validations": [{"expression": "variables.x > 1"},
                                          {"expression": "1 / 0 == 1"}]});
        let out = validate(&policy(spec.clone()), &inputs(&json!({})), &Value::Null);
        assert_eq!(
            out.decisions,
            [
                (
                    0,
                    deny(
                        "expression 'variables.x > 1' resulted in error: no such key: nope",
                        None
                    )
                ),
                (
                    1,
                    deny(
                        "expression '1 / 0 == 1' resulted in error: division by zero",
                        None
                    )
                ),
            ]
        );
        let mut ignore = spec;
        ignore["failurePolicy"] = json!("Ignore");
        let out = validate(&policy(ignore), &inputs(&json!({})), &Value::Null);
        assert!(out
            .decisions
            .iter()
            .all(|(_, d)| matches!(d, Decision::Ignored(_))));
        assert_eq!(out.took.len(), out.decisions.len());
    }

    #[test]
    fn condition_errors_before_a_false_one_are_counted() {
        let p = policy(json!({
            "matchConditions": [{"name": "broken", "expression": "object.spec.nope == 1"},
                                {"name": "not-test", "expression": "object.metadata.namespace != 'test'"}],
            "validations": [{"expression": "false"}]}));
        let obj = json!({"metadata": {"namespace": "test"}, "spec": {}});
        let out = validate(&p, &inputs(&obj), &Value::Null);
        assert!(out.decisions.is_empty(), "{out:?}");
        assert_eq!(out.conditions.errors, 1);
        assert!(out.conditions.took.is_some());
        // All true: nothing observed.
        let obj = json!({"metadata": {"namespace": "prod"}, "spec": {"nope": 1}});
        let out = validate(&p, &inputs(&obj), &Value::Null);
        assert_eq!(out.conditions, crate::match_metrics::Evaluated::default());
    }

    #[test]
    fn conditions_params_and_annotations() {
        let p = policy(json!({
            "paramKind": {"apiVersion": "v1", "kind": "ConfigMap"},
            "matchConditions": [{"name": "not-test", "expression": "object.metadata.namespace != 'test'"}],
            "validations": [{"expression": "object.spec.replicas <= int(params.data.max)"}],
            "auditAnnotations": [{"key": "replicas", "valueExpression": "string(object.spec.replicas)"},
                                 {"key": "none", "valueExpression": "null"},
                                 {"key": "bad", "valueExpression": "1"}]}));
        let params = json!({"data": {"max": "3"}});
        let obj = json!({"metadata": {"namespace": "test"}, "spec": {"replicas": 5}});
        let out = validate(&p, &inputs(&obj), &params);
        // Nothing decided; the false condition timed, as upstream observes it.
        assert!(
            out.decisions.is_empty() && out.annotations.is_empty(),
            "{out:?}"
        );
        assert_eq!(out.conditions.errors, 0);
        assert!(out.conditions.took.is_some());
        let obj = json!({"metadata": {"namespace": "prod"}, "spec": {"replicas": 5}});
        let out = validate(&p, &inputs(&obj), &params);
        assert_eq!(
            out.decisions,
            [(
                0,
                deny(
                    "failed expression: object.spec.replicas <= int(params.data.max)",
                    None
                )
            )]
        );
        assert_eq!(out.annotations.len(), 2);
        assert_eq!(
            out.annotations[0],
            Annotation::Publish {
                key: "replicas".into(),
                value: "5".into()
            }
        );
        assert!(
            matches!(&out.annotations[1], Annotation::Error(e) if e.contains("unsupported return type: int"))
        );
    }

    #[test]
    fn kubernetes_libraries_are_offered() {
        // quantity, cidr/ip and the list functions, as upstream offers policies.
        let p = policy(json!({"validations": [
            {"expression": "quantity(object.spec.limit).isLessThan(quantity('1Gi'))"},
            {"expression": "cidr('10.0.0.0/8').containsIP(object.spec.ip)"},
            {"expression": "[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6"}
        ]}));
        let admitted = |obj: &Value| -> Vec<bool> {
            validate(&p, &inputs(obj), &Value::Null)
                .decisions
                .iter()
                .map(|(_, d)| format!("{d:?}") == "Admit")
                .collect()
        };
        let ok = json!({"spec": {"limit": "512Mi", "ip": "10.1.2.3"}});
        assert_eq!(admitted(&ok), [true, true, true]);
        let over = json!({"spec": {"limit": "2Gi", "ip": "192.168.0.1"}});
        assert_eq!(admitted(&over), [false, false, true]);
    }

    #[test]
    fn costs_are_bounded() {
        let containers: Vec<Value> = (0..60).map(|i| json!({"name": format!("c{i}")})).collect();
        let obj = json!({"spec": {"containers": containers}});
        let triple = "object.spec.containers.all(a, object.spec.containers.all(b, \
                      object.spec.containers.all(c, a.name != '' && b.name != '' && c.name != '')))";
        let p = policy(json!({"validations": [{"expression": triple}]}));
        let out = validate(&p, &inputs(&obj), &Value::Null);
        assert_eq!(
            out.decisions,
            [(0, deny(&format!("expression '{triple}' resulted in error: operation cancelled: actual cost limit exceeded"), None))]
        );
        let double = "object.spec.containers.all(a, object.spec.containers.all(b, a.name != '' && b.name != ''))";
        let many: Vec<Value> = (0..300).map(|_| json!({"expression": double})).collect();
        let p = policy(json!({"validations": many}));
        let out = validate(&p, &inputs(&obj), &Value::Null);
        assert_eq!(out.decisions, [(0, deny(OUT_OF_BUDGET, None))]);
        let p = policy(json!({"validations": [{"expression": double}]}));
        let out = validate(&p, &inputs(&obj), &Value::Null);
        assert_eq!(out.decisions, [(0, Decision::Admit)]);
    }
}
