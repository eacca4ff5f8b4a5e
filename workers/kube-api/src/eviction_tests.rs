//! Tests of `eviction`.

use super::*;

fn pdb(allowed: i64, generation: i64, observed: i64) -> Value {
    json!({
        "metadata": {"name": "web", "generation": generation},
        "spec": {"selector": {"matchLabels": {"app": "web"}}},
        "status": {"disruptionsAllowed": allowed, "observedGeneration": observed,
                   "currentHealthy": 3, "desiredHealthy": 3, "expectedPods": 3},
    })
}

#[test]
fn decrement_takes_one_and_records_the_pod() {
    let out = check_and_decrement(pdb(2, 1, 1), "p1").unwrap();
    assert_eq!(out["status"]["disruptionsAllowed"], 1);
    assert!(out["status"]["disruptedPods"]["p1"].is_string());
    assert!(out["status"].get("conditions").is_none());
    let out = check_and_decrement(out, "p2").unwrap();
    assert_eq!(out["status"]["disruptionsAllowed"], 0);
    let c = &out["status"]["conditions"][0];
    assert_eq!(c["type"], "DisruptionAllowed");
    assert_eq!(c["status"], "False");
    assert_eq!(c["reason"], "InsufficientPods");
}

#[test]
fn refusals_are_upstreams() {
    let e = check_and_decrement(pdb(0, 1, 1), "p").unwrap_err();
    assert_eq!(e.reason, Reason::TooManyRequests);
    assert_eq!(e.message, VIOLATES);
    let d = e.details.unwrap();
    assert_eq!(
        d.causes[0].message,
        "The disruption budget web needs 3 healthy pods and has 3 currently"
    );
    assert_eq!(d.retry_after_seconds, None);
    let e = check_and_decrement(pdb(1, 2, 1), "p").unwrap_err();
    assert_eq!(e.retry_after, Some(10));
    assert_eq!(
        e.details.unwrap().causes[0].message,
        "The disruption budget web is still being processed by the server."
    );
    let e = check_and_decrement(pdb(-1, 1, 1), "p").unwrap_err();
    assert_eq!(e.reason, Reason::Forbidden);
    assert_eq!(
        e.message,
        "poddisruptionbudget.policy \"web\" is forbidden: pdb disruptions allowed is negative"
    );
}

#[test]
fn dry_run_in_query_and_body_must_agree() {
    let body = json!({"deleteOptions": {"dryRun": ["All"]}});
    assert_eq!(delete_options(&body, false).unwrap()["dryRun"][0], "All");
    assert_eq!(
        delete_options(&json!({}), true).unwrap()["dryRun"],
        json!(["All"])
    );
    let odd = json!({"deleteOptions": {"dryRun": ["Some"]}});
    let e = delete_options(&odd, true).unwrap_err();
    assert_eq!(
        e.message,
        "Non-matching dry-run options in request and content: [All] and [Some]"
    );
}

#[test]
fn unready_pods_and_policies() {
    let mut b = pdb(0, 1, 1);
    assert!(unhealthy_may_go(&b));
    b["status"]["currentHealthy"] = json!(2);
    assert!(!unhealthy_may_go(&b));
    b["spec"]["unhealthyPodEvictionPolicy"] = json!("AlwaysAllow");
    assert!(unhealthy_may_go(&b));
    let pod = json!({"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}});
    assert!(is_ready(&pod) && !can_ignore_budgets(&pod));
    assert!(can_ignore_budgets(&json!({"status": {"phase": "Pending"}})));
    assert!(!enforce_resource_version(
        &json!({"status": {"phase": "Failed"}})
    ));
}

#[test]
fn condition_added_once() {
    let mut pod = json!({"status": {"phase": "Running"}});
    assert!(add_disruption_target(&mut pod));
    assert!(!add_disruption_target(&mut pod));
    assert_eq!(
        pod["status"]["conditions"][0]["reason"],
        "EvictionByEvictionAPI"
    );
}

#[test]
fn selectors_that_select_nothing() {
    assert!(!selector_is_valid(
        &json!({"matchExpressions": [{"key": "a", "operator": "In", "values": []}]})
    ));
    assert!(selector_is_valid(
        &json!({"matchExpressions": [{"key": "a", "operator": "Exists"}]})
    ));
}
