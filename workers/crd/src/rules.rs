//! Bridge to the CEL module: compiles each schema node's `x-kubernetes-validations` once
//! (per call, or per [`ObjectValidator`]) and turns failures into [`RuleFailure`]s.

use crate::cel::{compile, CompiledRules, Rule};
use crate::object::{RuleEngine, RuleFailure};
use crate::structural::{Structural, ValidationRule};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

pub(crate) fn to_cel(rules: &[ValidationRule]) -> Vec<Rule> {
    rules
        .iter()
        .map(|r| Rule {
            rule: r.rule.clone(),
            message: r.message.clone(),
            message_expression: r.message_expression.clone(),
            reason: r.reason.clone(),
            field_path: r.field_path.clone(),
            optional_old_self: r.optional_old_self,
        })
        .collect()
}

/// The CEL engine, caching compiled rules per schema node for one validation run.
#[derive(Default)]
pub(crate) struct CelEngine {
    cache: RefCell<HashMap<usize, Option<CompiledRules>>>,
}

impl RuleEngine for CelEngine {
    fn evaluate(&self, node: &Structural, value: &Value, old: Option<&Value>) -> Vec<RuleFailure> {
        let id = node as *const Structural as usize;
        let mut cache = self.cache.borrow_mut();
        let compiled = cache
            .entry(id)
            .or_insert_with(|| compile(&to_cel(&node.validations), &node.raw).ok());
        // rules that do not compile were rejected with the CRD; nothing to run here
        match compiled {
            Some(compiled) => failures(compiled, value, old),
            None => Vec::new(),
        }
    }
}

/// A custom resource validator for one schema, with every node's CEL rules compiled once.
/// Build it when a CRD version is loaded and reuse it for every object.
pub struct ObjectValidator {
    // boxed so the nodes' addresses, which key `compiled`, never move
    schema: Box<Structural>,
    compiled: HashMap<usize, CompiledRules>,
}

impl ObjectValidator {
    /// Compiles the rules of every node of `schema` (rules that fail to compile are skipped;
    /// CRD validation reports them).
    pub fn new(schema: Structural) -> Self {
        let schema = Box::new(schema);
        let mut compiled = HashMap::new();
        collect(&schema, &mut compiled);
        ObjectValidator { schema, compiled }
    }

    /// The schema this validator checks against.
    pub fn schema(&self) -> &Structural {
        &self.schema
    }

    /// Validates `obj` (with `old`, the stored object, on update).
    pub fn validate(&self, obj: &Value, old: Option<&Value>) -> Vec<crate::FieldError> {
        crate::object::validate_with(&self.schema, obj, old, self, true)
    }
}

fn collect(s: &Structural, out: &mut HashMap<usize, CompiledRules>) {
    if !s.validations.is_empty() {
        if let Ok(c) = compile(&to_cel(&s.validations), &s.raw) {
            out.insert(s as *const Structural as usize, c);
        }
    }
    for p in s.properties.values() {
        collect(p, out);
    }
    if let Some(it) = &s.items {
        collect(it, out);
    }
    if let Some(crate::AdditionalProperties::Schema(ap)) = &s.additional_properties {
        collect(ap, out);
    }
}

impl RuleEngine for ObjectValidator {
    fn evaluate(&self, node: &Structural, value: &Value, old: Option<&Value>) -> Vec<RuleFailure> {
        let Some(compiled) = self.compiled.get(&(node as *const Structural as usize)) else {
            return Vec::new();
        };
        failures(compiled, value, old)
    }
}

fn failures(compiled: &CompiledRules, value: &Value, old: Option<&Value>) -> Vec<RuleFailure> {
    compiled
        .evaluate(value, old)
        .into_iter()
        .map(|f| RuleFailure {
            message: f.message,
            reason: f.reason,
            field_path: f.field_path,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn reusable_validator_runs_transition_rules() {
        assert_send_sync::<ObjectValidator>();
        let s = Structural::from_json(&json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"replicas": {"type": "integer",
                "x-kubernetes-validations": [{"rule": "self >= oldSelf", "message": "may not shrink"}]}}}}}))
        .unwrap();
        let v = ObjectValidator::new(s);
        let new = json!({"spec": {"replicas": 1}});
        assert!(
            v.validate(&new, None).is_empty(),
            "transition rules skip on create"
        );
        let errs = v.validate(&new, Some(&json!({"spec": {"replicas": 3}})));
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.replicas: Invalid value: \"integer\": may not shrink"
        );
        assert!(v
            .validate(
                &json!({"spec": {"replicas": 5}}),
                Some(&json!({"spec": {"replicas": 3}}))
            )
            .is_empty());
    }
}
