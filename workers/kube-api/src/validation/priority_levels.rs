//! PriorityLevelConfiguration validation as kube-apiserver v1.33 words it (upstream's
//! `pkg/apis/flowcontrol/validation`): the type and its one member, the Limited level's
//! shares, limit response, queuing and shuffle-sharding bounds, lending and borrowing
//! percents, the mandatory `exempt` and `catch-all` specs, and the status conditions.

use kas_server::status::StatusCause;
use serde_json::{json, Value};

use super::causes::{forbidden, invalid, invalid_int, not_supported, required, s};
use super::flowcontrol::{conditions, int, mandatory, present};

/// The most queues a level may have (10^7).
const MAX_QUEUES: i64 = 10_000_000;
/// The hash bits shuffle sharding has to deal a hand from.
const MAX_HASH_BITS: u32 = 60;
/// The annotation only v1beta3 clients may use (removed by that version's conversion, so
/// it must never reach a stored object).
const PRESERVE_ZERO_SHARES: &str = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";

/// The bits needed to deal a hand of `hand` cards from a deck of `deck`:
/// ceil(log2(deck) * hand), as upstream's shuffle sharding computes it.
fn required_entropy_bits(deck: i64, hand: i64) -> u32 {
    ((deck as f64).log2() * hand as f64).ceil() as u32
}

/// An optional integer that must not be negative (`field` is its path).
fn nonnegative(obj: &Value, key: &str, field: &str) -> Option<StatusCause> {
    let n = obj.get(key).and_then(Value::as_i64)?;
    (n < 0).then(|| invalid_int(field, n, "must be a non-negative integer"))
}

/// An optional percent that must be in 0..=100.
fn percent(obj: &Value, key: &str, field: &str) -> Option<StatusCause> {
    let n = obj.get(key).and_then(Value::as_i64)?;
    (!(0..=100).contains(&n)).then(|| invalid_int(field, n, "must be between 0 and 100, inclusive"))
}

fn queuing(q: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let limit = int(q, "queueLengthLimit");
    if limit <= 0 {
        out.push(invalid_int(
            &format!("{p}.queueLengthLimit"),
            limit,
            "must be positive",
        ));
    }
    let queues = int(q, "queues");
    let queues_path = format!("{p}.queues");
    if queues <= 0 {
        out.push(invalid_int(&queues_path, queues, "must be positive"));
    } else if queues > MAX_QUEUES {
        let why = format!("must not be greater than {MAX_QUEUES}");
        out.push(invalid_int(&queues_path, queues, &why));
    }
    let hand = int(q, "handSize");
    let hand_path = format!("{p}.handSize");
    if hand <= 0 {
        out.push(invalid_int(&hand_path, hand, "must be positive"));
    } else if hand > queues {
        let why = format!("should not be greater than queues ({queues})");
        out.push(invalid_int(&hand_path, hand, &why));
    } else if required_entropy_bits(queues, hand) > MAX_HASH_BITS {
        let why = format!(
            "required entropy bits of deckSize {queues} and handSize {hand} should not be greater than {MAX_HASH_BITS}"
        );
        out.push(invalid_int(&hand_path, hand, &why));
    }
    out
}

fn limit_response(lr: &Value, p: &str) -> Vec<StatusCause> {
    let queuing_path = format!("{p}.queuing");
    match s(lr, "type").unwrap_or("") {
        // Upstream's messages say "Limited" where they mean "Queue".
        "Reject" if present(lr, "queuing") => vec![forbidden(
            &queuing_path,
            "must be nil if limited.limitResponse.type is not Limited",
        )],
        "Reject" => Vec::new(),
        "Queue" => match lr.get("queuing").filter(|q| !q.is_null()) {
            None => vec![required(
                &queuing_path,
                "must not be empty if limited.limitResponse.type is Limited",
            )],
            Some(q) => queuing(q, &queuing_path),
        },
        other => vec![not_supported(
            &format!("{p}.type"),
            other,
            &["Queue", "Reject"],
        )],
    }
}

/// A Limited level: shares not negative (0 allowed in v1), the limit response, lendable
/// percent in 0..=100, borrowing limit percent not negative.
fn limited(l: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let shares = int(l, "nominalConcurrencyShares");
    if shares < 0 {
        out.push(invalid_int(
            &format!("{p}.nominalConcurrencyShares"),
            shares,
            "must be a non-negative integer",
        ));
    }
    let empty = json!({});
    let lr = l
        .get("limitResponse")
        .filter(|v| v.is_object())
        .unwrap_or(&empty);
    out.extend(limit_response(lr, &format!("{p}.limitResponse")));
    out.extend(percent(
        l,
        "lendablePercent",
        &format!("{p}.lendablePercent"),
    ));
    if let Some(n) = l.get("borrowingLimitPercent").and_then(Value::as_i64) {
        if n < 0 {
            out.push(invalid_int(
                &format!("{p}.borrowingLimitPercent"),
                n,
                "if specified, must be a non-negative integer",
            ));
        }
    }
    out
}

fn spec(name: &str, spec: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let t = s(spec, "type").unwrap_or("");
    if (name == "exempt") != (t == "Exempt") {
        out.push(invalid(
            "spec.type",
            t,
            "type must be 'Exempt' if and only if name is 'exempt'",
        ));
    }
    match t {
        "Exempt" => {
            if present(spec, "limited") {
                out.push(forbidden(
                    "spec.limited",
                    "must be nil if the type is not Limited",
                ));
            }
            if let Some(e) = spec.get("exempt").filter(|e| !e.is_null()) {
                out.extend(nonnegative(
                    e,
                    "nominalConcurrencyShares",
                    "spec.exempt.nominalConcurrencyShares",
                ));
                out.extend(percent(e, "lendablePercent", "spec.exempt.lendablePercent"));
            }
        }
        "Limited" => {
            if present(spec, "exempt") {
                out.push(forbidden(
                    "spec.exempt",
                    "must be nil if the type is Limited",
                ));
            }
            match spec.get("limited").filter(|l| !l.is_null()) {
                None => out.push(required(
                    "spec.limited",
                    "must not be empty when type is Limited",
                )),
                Some(l) => out.extend(limited(l, "spec.limited")),
            }
        }
        other => out.push(not_supported("spec.type", other, &["Exempt", "Limited"])),
    }
    out
}

/// PriorityLevelConfiguration: the spec's rules, the mandatory specs (an operator may
/// change only `spec.exempt` of the `exempt` level), the status conditions. Upstream
/// validates an update as a create.
pub(crate) fn priority_level(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    if obj
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(PRESERVE_ZERO_SHARES))
    {
        out.push(forbidden(
            "metadata.annotations",
            &format!("annotation '{PRESERVE_ZERO_SHARES}' is forbidden"),
        ));
    }
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let empty = json!({});
    let sp = obj.get("spec").filter(|s| s.is_object()).unwrap_or(&empty);
    out.extend(spec(name, sp));
    let tolerated = if name == "exempt" { "exempt" } else { "" };
    out.extend(mandatory(
        "PriorityLevelConfiguration",
        name,
        sp,
        crate::defaults::priority_level_defaults,
        tolerated,
    ));
    out.extend(conditions(obj));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pl(name: &str, spec: Value) -> Value {
        let mut o = json!({"metadata": {"name": name}, "spec": spec});
        crate::defaults::priority_level_defaults(&mut o);
        o
    }

    fn got(obj: &Value) -> Vec<String> {
        priority_level(obj, None)
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect()
    }

    fn queue(queues: i64, hand: i64, limit: i64) -> Value {
        json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 100,
            "limitResponse": {"type": "Queue", "queuing": {"queues": queues, "handSize": hand, "queueLengthLimit": limit}}}})
    }

    #[test]
    fn entropy() {
        assert_eq!(required_entropy_bits(512, 8), 72);
        assert_eq!(required_entropy_bits(128, 10), 70);
        assert_eq!(required_entropy_bits(512, 4), 36);
        assert_eq!(required_entropy_bits(10_000_000, 2), 47);
    }

    #[test]
    fn valid_levels() {
        assert!(got(&pl("system-foo", queue(512, 4, 100))).is_empty());
        assert!(got(&pl("q", queue(10_000_000, 2, 100))).is_empty());
        let reject = json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 0,
            "limitResponse": {"type": "Reject"}}});
        assert!(got(&pl("max-in-flight", reject)).is_empty());
        for o in kas_server::flowcontrol_objects::mandatory_priority_levels()
            .into_iter()
            .chain(kas_server::flowcontrol_objects::suggested_priority_levels())
        {
            let mut o = o;
            crate::defaults::priority_level_defaults(&mut o);
            assert!(got(&o).is_empty(), "{o}: {:?}", got(&o));
        }
        // The operator may change the `exempt` level's own member.
        let e = pl(
            "exempt",
            json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 10, "lendablePercent": 10}}),
        );
        assert!(got(&e).is_empty());
    }

    #[test]
    fn queuing_bounds() {
        const Q: &str = "spec.limited.limitResponse.queuing";
        assert_eq!(got(&pl("a", queue(512, 8, 100))), [format!("{Q}.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60")]);
        assert_eq!(got(&pl("a", queue(128, 10, 100))), [format!("{Q}.handSize: Invalid value: 10: required entropy bits of deckSize 128 and handSize 10 should not be greater than 60")]);
        assert_eq!(
            got(&pl("a", queue(2147483647, 3, 100))),
            [
                format!("{Q}.queues: Invalid value: 2147483647: must not be greater than 10000000"),
                format!("{Q}.handSize: Invalid value: 3: required entropy bits of deckSize 2147483647 and handSize 3 should not be greater than 60"),
            ]
        );
        assert_eq!(
            got(&pl("a", queue(7, 8, 100))),
            [format!(
                "{Q}.handSize: Invalid value: 8: should not be greater than queues (7)"
            )]
        );
        assert_eq!(
            got(&pl("a", queue(-1, -2, -3))),
            [
                format!("{Q}.queueLengthLimit: Invalid value: -3: must be positive"),
                format!("{Q}.queues: Invalid value: -1: must be positive"),
                format!("{Q}.handSize: Invalid value: -2: must be positive"),
            ]
        );
    }

    #[test]
    fn types_and_members() {
        let reject_with_queuing = json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 100,
            "limitResponse": {"type": "Reject", "queuing": {"queues": 512, "handSize": 4, "queueLengthLimit": 100}}}});
        assert_eq!(
            got(&pl("system-foo", reject_with_queuing)),
            ["spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited"]
        );
        let queue_without =
            json!({"type": "Limited", "limited": {"limitResponse": {"type": "Queue"}}});
        assert_eq!(
            got(&pl("a", queue_without)),
            ["spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited"]
        );
        assert_eq!(
            got(&pl("a", json!({"type": "Limited", "exempt": {}}))),
            [
                "spec.exempt: Forbidden: must be nil if the type is Limited",
                "spec.limited: Required value: must not be empty when type is Limited",
            ]
        );
        assert_eq!(
            got(&pl("a", json!({"type": "Bogus"}))),
            ["spec.type: Unsupported value: \"Bogus\": supported values: \"Exempt\", \"Limited\""]
        );
        assert_eq!(
            got(&pl("a", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Drop"}}}))),
            ["spec.limited.limitResponse.type: Unsupported value: \"Drop\": supported values: \"Queue\", \"Reject\""]
        );
        assert_eq!(
            got(&pl("a", json!({"type": "Exempt"}))),
            ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"]
        );
        let l = json!({"type": "Limited", "limited": {"nominalConcurrencyShares": -1,
            "lendablePercent": 101, "borrowingLimitPercent": -1, "limitResponse": {"type": "Reject"}}});
        assert_eq!(
            got(&pl("a", l)),
            [
                "spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                "spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
                "spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer",
            ]
        );
    }

    #[test]
    fn mandatory_levels() {
        let bad_exempt = pl(
            "exempt",
            json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": -1, "lendablePercent": 101}}),
        );
        assert_eq!(
            got(&bad_exempt),
            [
                "spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
                "spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
            ]
        );
        let repurposed = pl(
            "exempt",
            json!({"type": "Limited", "exempt": {}, "limited": {"nominalConcurrencyShares": 42,
                "limitResponse": {"type": "Reject"}}}),
        );
        let c = got(&repurposed);
        assert_eq!(c[0], "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'");
        assert_eq!(
            c[1],
            "spec.exempt: Forbidden: must be nil if the type is Limited"
        );
        assert!(c[2].ends_with(
            "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value"
        ));
        let catch_all = pl(
            "catch-all",
            json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 42,
                "limitResponse": {"type": "Reject"}}}),
        );
        let c = got(&catch_all);
        assert_eq!(c.len(), 1);
        assert!(c[0].starts_with("spec: Invalid value: "));
        assert!(c[0].ends_with("spec of 'catch-all' must equal the fixed value"));
        let mut annotated = pl("a", queue(64, 8, 50));
        annotated["metadata"]["annotations"] = json!({PRESERVE_ZERO_SHARES: ""});
        assert_eq!(
            got(&annotated),
            ["metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden"]
        );
        let mut st = pl("a", queue(64, 8, 50));
        st["status"] = json!({"conditions": [{"type": ""}]});
        assert_eq!(
            got(&st),
            ["status.conditions[0].type: Required value: must not be empty"]
        );
        for bad in [
            json!(null),
            json!({"spec": {"type": "Limited", "limited": 3}}),
            json!({"spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": 1}}}}),
        ] {
            priority_level(&bad, None);
        }
    }
}
