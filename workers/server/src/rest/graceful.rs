//! Graceful deletion as upstream's BeforeDelete does it for resources whose strategy has
//! CheckGracefulDelete (pods): the first delete marks the object with a deletion time
//! `grace` seconds ahead and that grace period (bumping its generation) and keeps it
//! until whoever runs it (its kubelet) deletes it; a later delete may only shorten the
//! period (a 0 deletes it then), else leaves it as it is. A period of 0 marks it and
//! deletes it at once.

use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use super::callbacks::GracePeriod;

/// What a delete does to an object that deletes gracefully.
#[derive(Debug, PartialEq)]
pub(super) enum Step {
    /// Nothing graceful: delete it (finalizers permitting).
    Delete,
    /// A graceful deletion is pending already: answer with the object as it is.
    Pending,
    /// Write these deletion marks, then delete it at once when the period is 0.
    Mark {
        timestamp: String,
        period: i64,
        bump_generation: bool,
    },
}

fn rfc3339(at: SystemTime) -> String {
    humantime::format_rfc3339_seconds(at).to_string()
}

fn parse(ts: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339(ts).ok()
}

/// The step for a delete of `obj` asking for `requested` seconds (its
/// `gracePeriodSeconds`), by the resource's grace decision.
pub(super) fn step(obj: &Value, requested: Option<i64>, grace: GracePeriod) -> Step {
    let meta = &obj["metadata"];
    if let Some(ts) = meta.get("deletionTimestamp").and_then(Value::as_str) {
        let existing = meta
            .get("deletionGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if existing == 0 {
            return Step::Delete;
        }
        return match requested {
            // Only a shorter period may be asked for, counted from the same start.
            Some(period) if period < existing => {
                let start = parse(ts).map(|t| t - Duration::from_secs(existing.max(0) as u64));
                let at = start.map_or_else(
                    || ts.to_owned(),
                    |s| rfc3339(s + Duration::from_secs(period.max(0) as u64)),
                );
                Step::Mark {
                    timestamp: at,
                    period,
                    bump_generation: false,
                }
            }
            _ => Step::Pending,
        };
    }
    let period = grace(obj, requested);
    Step::Mark {
        timestamp: rfc3339(SystemTime::now() + Duration::from_secs(period.max(0) as u64)),
        period,
        bump_generation: true,
    }
}

/// `obj` with the marks of `step` (a [`Step::Mark`]).
pub(super) fn marked(obj: &Value, timestamp: &str, period: i64, bump: bool) -> Value {
    let mut out = obj.clone();
    out["metadata"]["deletionTimestamp"] = json!(timestamp);
    out["metadata"]["deletionGracePeriodSeconds"] = json!(period);
    if bump {
        if let Some(g) = out["metadata"]["generation"].as_i64().filter(|g| *g > 0) {
            out["metadata"]["generation"] = json!(g + 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thirty(_: &Value, requested: Option<i64>) -> i64 {
        requested.unwrap_or(30)
    }

    #[test]
    fn the_first_delete_marks_later_ones_only_shorten() {
        let pod = json!({"metadata": {"name": "p", "generation": 2}});
        let Step::Mark {
            timestamp,
            period: 30,
            bump_generation: true,
        } = step(&pod, None, thirty)
        else {
            panic!("marked");
        };
        let marked = marked(&pod, &timestamp, 30, true);
        assert_eq!(marked["metadata"]["generation"], 3);
        assert_eq!(step(&marked, None, thirty), Step::Pending);
        assert_eq!(step(&marked, Some(60), thirty), Step::Pending);
        let Step::Mark {
            timestamp: sooner,
            period: 0,
            bump_generation: false,
        } = step(&marked, Some(0), thirty)
        else {
            panic!("shortened");
        };
        let (at, now) = (parse(&sooner).unwrap(), SystemTime::now());
        assert!(at <= now + Duration::from_secs(1), "{sooner}");
        let gone = json!({"metadata": {"deletionTimestamp": "2024-01-01T00:00:00Z", "deletionGracePeriodSeconds": 0}});
        assert_eq!(step(&gone, None, thirty), Step::Delete);
    }
}
