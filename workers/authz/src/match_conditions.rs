//! The `matchConditions` of an authorization webhook (`--authorization-config`): CEL
//! expressions over the request's SubjectAccessReview (`request`, v1), all of which must
//! be true for the webhook to be asked. A condition that cannot be evaluated (a missing
//! field, a non-boolean result) is an error, which the webhook's failure policy turns
//! into its decision, as upstream's.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cel::{Context, Program, Value};
use serde_json::Value as Json;

/// Compiled conditions.
pub(crate) struct MatchConditions {
    programs: Vec<(String, Program)>,
}

impl std::fmt::Debug for MatchConditions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let exprs: Vec<&String> = self.programs.iter().map(|(e, _)| e).collect();
        f.debug_struct("MatchConditions")
            .field("expressions", &exprs)
            .finish()
    }
}

/// Compiles one expression (the error is the parser's).
pub fn compile_condition(expression: &str) -> Result<(), String> {
    catch_unwind(|| {
        Program::compile(expression)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap_or_else(|_| Err("the expression cannot be compiled".to_owned()))
}

impl MatchConditions {
    /// Compiles `expressions` (checked by the supervisor already; one that does not
    /// compile here never matches).
    pub(crate) fn new(expressions: &[String]) -> MatchConditions {
        let programs = expressions
            .iter()
            .filter_map(|e| {
                let p = catch_unwind(|| Program::compile(e)).ok()?.ok()?;
                Some((e.clone(), p))
            })
            .collect();
        MatchConditions { programs }
    }

    /// Whether there are none (the webhook is always asked).
    pub(crate) fn is_empty(&self) -> bool {
        self.programs.is_empty()
    }

    /// Whether every condition holds for the SubjectAccessReview spec `request`; `Err`
    /// names the condition that could not be evaluated.
    pub(crate) fn matches(&self, request: &Json) -> Result<bool, String> {
        let mut ctx = Context::default();
        ctx.add_variable_from_value("request", kas_cel::json_to_cel(request));
        for (expression, program) in &self.programs {
            let result = catch_unwind(AssertUnwindSafe(|| program.execute(&ctx)))
                .map_err(|_| format!("matchConditions expression {expression:?} failed"))?;
            match result {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => return Ok(false),
                Ok(other) => {
                    return Err(format!(
                        "matchConditions expression {expression:?} must evaluate to bool, got {other:?}"
                    ))
                }
                Err(e) => {
                    return Err(format!(
                        "matchConditions expression {expression:?} failed: {e}"
                    ))
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conditions_select_requests() {
        let c = MatchConditions::new(&[
            "has(request.resourceAttributes)".to_owned(),
            "request.resourceAttributes.namespace == 'team'".to_owned(),
        ]);
        let spec = |ns: &str| json!({"user": "alice", "resourceAttributes": {"namespace": ns, "verb": "get"}});
        assert_eq!(c.matches(&spec("team")), Ok(true));
        assert_eq!(c.matches(&spec("other")), Ok(false));
        assert_eq!(
            c.matches(&json!({"user": "alice", "nonResourceAttributes": {"path": "/x"}})),
            Ok(false)
        );
        let bad = MatchConditions::new(&["request.user".to_owned()]);
        assert!(bad.matches(&spec("team")).is_err());
        let missing = MatchConditions::new(&["request.resourceAttributes.name == 'x'".to_owned()]);
        assert!(missing.matches(&spec("team")).is_err());
        assert!(compile_condition("request.user ==").is_err());
        assert!(compile_condition("request.user == 'a'").is_ok());
    }
}
