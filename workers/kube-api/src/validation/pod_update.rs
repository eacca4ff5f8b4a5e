//! What an update may change in a pod: container images, a shorter
//! activeDeadlineSeconds, added tolerations, terminationGracePeriodSeconds from negative
//! to 1; anything else in the spec is refused with upstream's message.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{arr, forbidden, invalid_int, invalid_shown};

/// Upstream's message for a pod update that touches more than it may.
pub(crate) const POD_UPDATE_MSG: &str = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

fn images_from(spec: &mut Value, old: &Value, key: &str) {
    let olds = arr(old, key);
    if let Some(list) = spec.get_mut(key).and_then(Value::as_array_mut) {
        for (i, c) in list.iter_mut().enumerate() {
            if let (Some(o), Some(c)) = (olds.get(i), c.as_object_mut()) {
                match o.get("image") {
                    Some(img) => c.insert("image".into(), img.clone()),
                    None => c.remove("image"),
                };
            }
        }
    }
}

/// What an update may change in a pod's spec: images, a shorter activeDeadlineSeconds,
/// added tolerations, and terminationGracePeriodSeconds from negative to 1.
pub(super) fn pod_update(new: &Value, old: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let null = Value::Null;
    let new_spec = new.get("spec").unwrap_or(&null);
    let old_spec = old.get("spec").unwrap_or(&null);
    let old_ads = old_spec
        .get("activeDeadlineSeconds")
        .and_then(Value::as_i64);
    let new_ads = new_spec
        .get("activeDeadlineSeconds")
        .and_then(Value::as_i64);
    if let Some(o) = old_ads {
        match new_ads {
            None => out.push(invalid_shown(
                "spec.activeDeadlineSeconds",
                "null",
                "must not update from a positive integer to nil value",
            )),
            Some(n) if n > o => out.push(invalid_int(
                "spec.activeDeadlineSeconds",
                n,
                "must be less than or equal to previous value",
            )),
            _ => {}
        }
    }
    let mut masked = new_spec.clone();
    images_from(&mut masked, old_spec, "containers");
    images_from(&mut masked, old_spec, "initContainers");
    if let Some(m) = masked.as_object_mut() {
        for key in [
            "activeDeadlineSeconds",
            "tolerations",
            "terminationGracePeriodSeconds",
        ] {
            let new_v = new_spec.get(key);
            let old_v = old_spec.get(key);
            let allowed = match key {
                "activeDeadlineSeconds" => true,
                "tolerations" => arr(old_spec, key)
                    .iter()
                    .all(|t| arr(new_spec, key).contains(t)),
                _ => {
                    old_v.and_then(Value::as_i64).is_some_and(|o| o < 0)
                        && new_v.and_then(Value::as_i64) == Some(1)
                }
            };
            if allowed {
                match old_v {
                    Some(v) => m.insert(key.into(), v.clone()),
                    None => m.remove(key),
                };
            }
        }
    }
    if &masked != old_spec {
        out.push(forbidden("spec", POD_UPDATE_MSG));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::pod::pod;
    use serde_json::json;

    fn one(c: &[StatusCause]) -> (&str, &str, &str) {
        assert_eq!(c.len(), 1, "{c:?}");
        (&c[0].field, &c[0].reason, &c[0].message)
    }

    #[test]
    fn updates() {
        let old = json!({"spec": {"containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "tolerations": [{"key": "k"}], "activeDeadlineSeconds": 100, "terminationGracePeriodSeconds": -1}});
        let mut new = old.clone();
        new["spec"]["containers"][0]["image"] = json!("y");
        new["spec"]["tolerations"] = json!([{"key": "k"}, {"key": "j"}]);
        new["spec"]["activeDeadlineSeconds"] = json!(50);
        new["spec"]["terminationGracePeriodSeconds"] = json!(1);
        assert!(pod(&new, Some(&old)).is_empty());
        let mut bad = new.clone();
        bad["spec"]["containers"][0]["name"] = json!("b");
        assert_eq!(
            one(&pod(&bad, Some(&old))),
            (
                "spec",
                "FieldValueForbidden",
                &*format!("Forbidden: {POD_UPDATE_MSG}")
            )
        );
        let mut bad = new.clone();
        bad["spec"]["tolerations"] = json!([]);
        assert_eq!(one(&pod(&bad, Some(&old))).0, "spec");
        let mut bad = new.clone();
        bad["spec"]["activeDeadlineSeconds"] = json!(200);
        assert_eq!(
            one(&pod(&bad, Some(&old))).2,
            "Invalid value: 200: must be less than or equal to previous value"
        );
        let mut bad = new;
        bad["spec"]
            .as_object_mut()
            .unwrap()
            .remove("activeDeadlineSeconds");
        assert_eq!(
            one(&pod(&bad, Some(&old))).2,
            "Invalid value: null: must not update from a positive integer to nil value"
        );
    }
}
