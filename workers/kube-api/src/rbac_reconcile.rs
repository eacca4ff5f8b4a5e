//! Reconciliation of the bootstrap RBAC policy at each start, as kube-apiserver's
//! `rbac/bootstrap-roles` hook does it: a missing object is created; an existing one gets
//! the labels, annotations, rules (or aggregation selectors) and subjects it lacks, and
//! keeps whatever else it has; a binding whose roleRef changed is deleted and created
//! again. An object annotated `rbac.authorization.kubernetes.io/autoupdate: "false"` is
//! left as it is, so an operator can take over any default role.

use kas_server::rest::{RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{Map, Value};

use crate::bootstrap_policy::AUTOUPDATE_ANNOTATION;

/// What reconciliation makes of an existing object.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    /// Nothing to do.
    Keep,
    /// Store this object in place of the existing one.
    Update(Value),
    /// The roleRef differs: delete the existing binding and create the expected one.
    Recreate,
    /// It differs, but `autoupdate: "false"` protects it.
    Protected,
}

fn protected(existing: &Value) -> bool {
    existing
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(AUTOUPDATE_ANNOTATION.0))
        .and_then(Value::as_str)
        == Some("false")
}

/// Adds to `existing`'s metadata map `field` the entries of `expected`'s it lacks
/// (existing values win). Whether anything was added.
fn merge_map(result: &mut Value, expected: &Value, field: &str) -> bool {
    let Some(want) = expected
        .pointer(&format!("/metadata/{field}"))
        .and_then(Value::as_object)
    else {
        return false;
    };
    let Some(meta) = result.get_mut("metadata").and_then(Value::as_object_mut) else {
        return false;
    };
    let have = meta
        .entry(field)
        .or_insert_with(|| Value::Object(Map::new()));
    if !have.is_object() {
        *have = Value::Object(Map::new());
    }
    let Some(have) = have.as_object_mut() else {
        return false;
    };
    let mut changed = false;
    for (k, v) in want {
        if !have.contains_key(k) {
            have.insert(k.clone(), v.clone());
            changed = true;
        }
    }
    changed
}

fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn selectors(v: &Value) -> &[Value] {
    v.pointer("/aggregationRule/clusterRoleSelectors")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn has_aggregation(v: &Value) -> bool {
    v.get("aggregationRule").is_some_and(|a| !a.is_null())
}

/// A Role or ClusterRole: missing labels, annotations, rules and aggregation selectors
/// are added; an aggregationRule the default does not have is removed.
pub(crate) fn reconcile_role(existing: &Value, expected: &Value) -> Outcome {
    let mut result = existing.clone();
    let mut changed = merge_map(&mut result, expected, "annotations");
    changed |= merge_map(&mut result, expected, "labels");
    let missing = kas_authz::uncovered_rules(array(existing, "rules"), array(expected, "rules"));
    if !missing.is_empty() {
        let mut rules = array(existing, "rules").to_vec();
        rules.extend(missing);
        result["rules"] = Value::Array(rules);
        changed = true;
    }
    if !has_aggregation(expected) && has_aggregation(existing) {
        if let Some(m) = result.as_object_mut() {
            m.remove("aggregationRule");
        }
        changed = true;
    } else if has_aggregation(expected) {
        let have = selectors(existing);
        let missing: Vec<Value> = selectors(expected)
            .iter()
            .filter(|s| !have.contains(s))
            .cloned()
            .collect();
        if !missing.is_empty() {
            let mut all = have.to_vec();
            all.extend(missing);
            result["aggregationRule"] = serde_json::json!({"clusterRoleSelectors": all});
            changed = true;
        }
    }
    match (changed, protected(existing)) {
        (false, _) => Outcome::Keep,
        (true, true) => Outcome::Protected,
        (true, false) => Outcome::Update(result),
    }
}

/// A RoleBinding or ClusterRoleBinding: a different roleRef means recreate; otherwise
/// missing labels, annotations and subjects are added.
pub(crate) fn reconcile_binding(existing: &Value, expected: &Value) -> Outcome {
    let role_ref = |v: &Value| {
        let r = v.get("roleRef");
        let field = |k: &str| {
            r.and_then(|r| r.get(k))
                .and_then(Value::as_str)
                .unwrap_or("")
        };
        (
            field("apiGroup").to_owned(),
            field("kind").to_owned(),
            field("name").to_owned(),
        )
    };
    let outcome = if role_ref(existing) != role_ref(expected) {
        Some(Outcome::Recreate)
    } else {
        let mut result = existing.clone();
        let mut changed = merge_map(&mut result, expected, "annotations");
        changed |= merge_map(&mut result, expected, "labels");
        let have = array(existing, "subjects");
        let missing: Vec<Value> = array(expected, "subjects")
            .iter()
            .filter(|s| !have.contains(s))
            .cloned()
            .collect();
        if !missing.is_empty() {
            let mut all = have.to_vec();
            all.extend(missing);
            result["subjects"] = Value::Array(all);
            changed = true;
        }
        changed.then_some(Outcome::Update(result))
    };
    match outcome {
        None => Outcome::Keep,
        Some(_) if protected(existing) => Outcome::Protected,
        Some(o) => o,
    }
}

/// Creates `expected` in `store`, or reconciles the object already there.
pub(crate) async fn apply(store: &RestStore, expected: Value, manager: &str) -> Result<(), Status> {
    let opts = WriteOptions::server(manager);
    let ns = expected
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let name = expected
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    match store.create_object(&ns, expected.clone(), &opts).await {
        Err(s) if s.reason == Reason::AlreadyExists => {}
        other => return other.map(|_| ()),
    }
    let existing = store.read_object(&ns, &name).await?;
    let binding = store.resource().plural.ends_with("bindings");
    let outcome = if binding {
        reconcile_binding(&existing, &expected)
    } else {
        reconcile_role(&existing, &expected)
    };
    let kind = store.resource().kind;
    match outcome {
        Outcome::Keep => Ok(()),
        Outcome::Protected => {
            tracing::info!(kind, name = %name, namespace = %ns, "skipped reconcile-protected default RBAC object");
            Ok(())
        }
        Outcome::Update(obj) => {
            store
                .update_object(
                    &ns,
                    &name,
                    "",
                    obj,
                    kas_server::rest::revision_of(&existing),
                    &opts,
                )
                .await?;
            tracing::info!(kind, name = %name, namespace = %ns, "updated default RBAC object");
            Ok(())
        }
        Outcome::Recreate => {
            store.delete_object(&ns, &name, None, &opts).await?;
            store.create_object(&ns, expected, &opts).await?;
            tracing::info!(kind, name = %name, namespace = %ns, "recreated default RBAC binding with a changed roleRef");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn role(annotations: Value, rules: Value) -> Value {
        json!({"metadata": {"name": "r", "annotations": annotations, "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}, "rules": rules})
    }

    #[test]
    fn roles_gain_what_they_lack_and_keep_the_rest() {
        let auto = json!({"rbac.authorization.kubernetes.io/autoupdate": "true"});
        let expected = role(
            auto.clone(),
            json!([{"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods"]}]),
        );
        assert_eq!(reconcile_role(&expected, &expected), Outcome::Keep);
        // Extra rules stay; the missing verb comes back as its own rule.
        let edited = role(
            auto.clone(),
            json!([
            {"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]},
            {"verbs": ["delete"], "apiGroups": [""], "resources": ["secrets"]}]),
        );
        let Outcome::Update(fixed) = reconcile_role(&edited, &expected) else {
            panic!("update expected");
        };
        assert_eq!(
            fixed["rules"],
            json!([
            {"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]},
            {"verbs": ["delete"], "apiGroups": [""], "resources": ["secrets"]},
            {"verbs": ["list"], "apiGroups": [""], "resources": ["pods"]}])
        );
        // A removed label is put back; an operator's own label and value stay.
        let mut relabeled = expected.clone();
        relabeled["metadata"]["labels"] = json!({"team": "x"});
        let Outcome::Update(fixed) = reconcile_role(&relabeled, &expected) else {
            panic!("update expected");
        };
        assert_eq!(
            fixed["metadata"]["labels"],
            json!({"team": "x", "kubernetes.io/bootstrapping": "rbac-defaults"})
        );
        // autoupdate=false protects it.
        let mut mine = edited.clone();
        mine["metadata"]["annotations"] =
            json!({"rbac.authorization.kubernetes.io/autoupdate": "false"});
        assert_eq!(reconcile_role(&mine, &expected), Outcome::Protected);
    }

    #[test]
    fn aggregation_selectors_are_added_and_unexpected_ones_removed() {
        let sel = |k: &str| json!({"matchLabels": {k: "true"}});
        let expected = json!({"metadata": {"name": "admin"}, "aggregationRule": {"clusterRoleSelectors": [sel("a")]}});
        let mut existing = expected.clone();
        existing["aggregationRule"]["clusterRoleSelectors"] = json!([sel("b")]);
        existing["rules"] = json!([{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]);
        let Outcome::Update(fixed) = reconcile_role(&existing, &expected) else {
            panic!("update expected");
        };
        assert_eq!(
            fixed["aggregationRule"]["clusterRoleSelectors"],
            json!([sel("b"), sel("a")])
        );
        // Aggregated rules written by the controller are not "extra" to remove.
        assert_eq!(fixed["rules"], existing["rules"]);
        let plain = json!({"metadata": {"name": "x"}, "rules": []});
        let Outcome::Update(fixed) = reconcile_role(&existing, &plain) else {
            panic!("update expected");
        };
        assert!(fixed.get("aggregationRule").is_none());
    }

    #[test]
    fn bindings_gain_subjects_or_are_recreated() {
        let binding = |role: &str, subjects: Value| {
            json!({"metadata": {"name": "b"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": subjects})
        };
        let g =
            |n: &str| json!({"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": n});
        let expected = binding("view", json!([g("a")]));
        assert_eq!(reconcile_binding(&expected, &expected), Outcome::Keep);
        let Outcome::Update(fixed) =
            reconcile_binding(&binding("view", json!([g("b")])), &expected)
        else {
            panic!("update expected");
        };
        assert_eq!(fixed["subjects"], json!([g("b"), g("a")]));
        assert_eq!(
            reconcile_binding(&binding("edit", json!([g("a")])), &expected),
            Outcome::Recreate
        );
        let mut mine = binding("edit", json!([]));
        mine["metadata"]["annotations"] =
            json!({"rbac.authorization.kubernetes.io/autoupdate": "false"});
        assert_eq!(reconcile_binding(&mine, &expected), Outcome::Protected);
    }
}
