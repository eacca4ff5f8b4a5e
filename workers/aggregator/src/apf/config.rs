//! FlowSchema and PriorityLevelConfiguration objects as priority and fairness reads them:
//! only the fields that classify and limit requests, with v1's defaults for what an
//! object left out (the kube-api worker defaults them on write too; an object written by
//! an older server may still lack them). The two mandatory levels and schemas are known
//! here as well: until the objects are read, and whenever one is missing, requests are
//! classified as if they existed, as upstream's controller does.

use kas_server::flowcontrol_objects;
use serde::Deserialize;
use serde_json::Value;

/// A FlowSchema, as far as classification goes.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub(crate) struct FlowSchema {
    pub(crate) metadata: Meta,
    pub(crate) spec: FlowSchemaSpec,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct Meta {
    #[serde(default)]
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) uid: String,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FlowSchemaSpec {
    pub(crate) priority_level_configuration: NameRef,
    #[serde(default = "default_precedence")]
    pub(crate) matching_precedence: i32,
    #[serde(default)]
    pub(crate) distinguisher_method: Option<Distinguisher>,
    #[serde(default)]
    pub(crate) rules: Vec<PolicyRules>,
}

fn default_precedence() -> i32 {
    1000
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct NameRef {
    #[serde(default)]
    pub(crate) name: String,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub(crate) struct Distinguisher {
    #[serde(rename = "type")]
    pub(crate) kind: String,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PolicyRules {
    #[serde(default)]
    pub(crate) subjects: Vec<Subject>,
    #[serde(default)]
    pub(crate) resource_rules: Vec<ResourceRule>,
    #[serde(default)]
    pub(crate) non_resource_rules: Vec<NonResourceRule>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Subject {
    #[serde(default)]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) user: Option<NameRef>,
    #[serde(default)]
    pub(crate) group: Option<NameRef>,
    #[serde(default)]
    pub(crate) service_account: Option<ServiceAccountRef>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct ServiceAccountRef {
    #[serde(default)]
    pub(crate) namespace: String,
    #[serde(default)]
    pub(crate) name: String,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourceRule {
    #[serde(default)]
    pub(crate) verbs: Vec<String>,
    #[serde(default)]
    pub(crate) api_groups: Vec<String>,
    #[serde(default)]
    pub(crate) resources: Vec<String>,
    #[serde(default)]
    pub(crate) cluster_scope: bool,
    #[serde(default)]
    pub(crate) namespaces: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NonResourceRule {
    #[serde(default)]
    pub(crate) verbs: Vec<String>,
    #[serde(default, rename = "nonResourceURLs")]
    pub(crate) non_resource_urls: Vec<String>,
}

/// A PriorityLevelConfiguration, as far as limiting goes.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub(crate) struct PriorityLevel {
    pub(crate) metadata: Meta,
    pub(crate) spec: PriorityLevelSpec,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub(crate) struct PriorityLevelSpec {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) limited: Option<Limited>,
    #[serde(default)]
    pub(crate) exempt: Option<Exempt>,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Limited {
    /// v1 defaults an absent value to 30 (an explicit 0 stays 0).
    #[serde(default = "default_shares")]
    pub(crate) nominal_concurrency_shares: i32,
    #[serde(default)]
    pub(crate) lendable_percent: Option<i32>,
    #[serde(default)]
    pub(crate) borrowing_limit_percent: Option<i32>,
    #[serde(default)]
    pub(crate) limit_response: LimitResponse,
}

fn default_shares() -> i32 {
    30
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub(crate) struct LimitResponse {
    #[serde(default, rename = "type")]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) queuing: Option<Queuing>,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Queuing {
    #[serde(default = "default_queues")]
    pub(crate) queues: i32,
    #[serde(default = "default_hand_size")]
    pub(crate) hand_size: i32,
    #[serde(default = "default_queue_length")]
    pub(crate) queue_length_limit: i32,
}

fn default_queues() -> i32 {
    64
}
fn default_hand_size() -> i32 {
    8
}
fn default_queue_length() -> i32 {
    50
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Exempt {
    #[serde(default)]
    pub(crate) nominal_concurrency_shares: Option<i32>,
    #[serde(default)]
    pub(crate) lendable_percent: Option<i32>,
}

pub(crate) const EXEMPT: &str = "exempt";
pub(crate) const CATCH_ALL: &str = "catch-all";

/// How a level limits its requests, checked for the consistency the filter relies on
/// (upstream ignores a level whose spec breaks it, as this does).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Limit {
    /// No limit (only the level named `exempt`).
    Exempt,
    /// A concurrency share, and queues (none: reject when the seats are taken).
    Limited {
        shares: u32,
        lendable_percent: u32,
        borrowing_limit_percent: Option<u32>,
        queuing: Option<QueueShape>,
    },
}

/// A level's queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueShape {
    pub(crate) queues: usize,
    pub(crate) hand_size: usize,
    pub(crate) queue_length_limit: usize,
}

impl PriorityLevel {
    /// The level's limit, or why it is unusable.
    pub(crate) fn limit(&self) -> Result<Limit, String> {
        let spec = &self.spec;
        let exempt_name = self.metadata.name == EXEMPT;
        match spec.kind.as_str() {
            "Exempt" if exempt_name => Ok(Limit::Exempt),
            "Limited" if !exempt_name => {
                let limited = spec
                    .limited
                    .as_ref()
                    .ok_or("broken union structure at the top, for Limited")?;
                let queuing = match limited.limit_response.kind.as_str() {
                    "Reject" => None,
                    "Queue" => {
                        let q = limited
                            .limit_response
                            .queuing
                            .as_ref()
                            .ok_or("broken union structure for limit response")?;
                        let shape = QueueShape {
                            queues: positive(q.queues)?,
                            hand_size: positive(q.hand_size)?,
                            queue_length_limit: positive(q.queue_length_limit)?,
                        };
                        super::shuffle::check_shape(shape)?;
                        Some(shape)
                    }
                    other => return Err(format!("unknown limit response type {other:?}")),
                };
                Ok(Limit::Limited {
                    shares: u32::try_from(limited.nominal_concurrency_shares)
                        .map_err(|_| "negative nominalConcurrencyShares")?,
                    lendable_percent: percent(limited.lendable_percent)?,
                    borrowing_limit_percent: limited
                        .borrowing_limit_percent
                        .map(|p| u32::try_from(p).map_err(|_| "negative borrowingLimitPercent"))
                        .transpose()?,
                    queuing,
                })
            }
            "Exempt" | "Limited" => Err("non-alignment between name and type".into()),
            other => Err(format!("unknown priority level type {other:?}")),
        }
    }

    /// The level's share of the server's concurrency.
    pub(crate) fn shares(&self) -> u32 {
        match &self.spec.exempt {
            Some(e) if self.spec.kind == "Exempt" => {
                e.nominal_concurrency_shares.unwrap_or(0).max(0) as u32
            }
            _ => self
                .spec
                .limited
                .as_ref()
                .map_or(0, |l| l.nominal_concurrency_shares.max(0) as u32),
        }
    }
}

fn positive(n: i32) -> Result<usize, String> {
    usize::try_from(n)
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{n} is not positive"))
}

fn percent(p: Option<i32>) -> Result<u32, String> {
    match p.unwrap_or(0) {
        p @ 0..=100 => Ok(p as u32),
        p => Err(format!("percent {p} is out of range")),
    }
}

/// The mandatory object named `name` (`exempt` or `catch-all`) of `all`.
fn mandatory<T: serde::de::DeserializeOwned>(all: Vec<Value>, name: &str) -> T {
    let object = all
        .into_iter()
        .find(|o| o.pointer("/metadata/name").and_then(Value::as_str) == Some(name))
        .unwrap_or_default();
    serde_json::from_value(object).expect("the mandatory objects are well-formed")
}

/// The mandatory level `name` (`exempt` or `catch-all`), as upstream imagines it while
/// no object of that name exists.
pub(crate) fn mandatory_level(name: &str) -> PriorityLevel {
    mandatory(flowcontrol_objects::mandatory_priority_levels(), name)
}

/// The mandatory schema `name` (`exempt` or `catch-all`).
pub(crate) fn mandatory_schema(name: &str) -> FlowSchema {
    mandatory(flowcontrol_objects::mandatory_flow_schemas(), name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn level(v: Value) -> PriorityLevel {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn defaults_and_limits() {
        let l = level(
            json!({"metadata": {"name": "x"}, "spec": {"type": "Limited",
            "limited": {"limitResponse": {"type": "Queue", "queuing": {}}}}}),
        );
        assert_eq!(l.shares(), 30);
        assert_eq!(
            l.limit().unwrap(),
            Limit::Limited {
                shares: 30,
                lendable_percent: 0,
                borrowing_limit_percent: None,
                queuing: Some(QueueShape {
                    queues: 64,
                    hand_size: 8,
                    queue_length_limit: 50
                })
            }
        );
        assert_eq!(mandatory_level(EXEMPT).limit().unwrap(), Limit::Exempt);
        assert_eq!(mandatory_level(CATCH_ALL).shares(), 5);
        assert_eq!(mandatory_schema(CATCH_ALL).spec.matching_precedence, 10000);
    }

    #[test]
    fn broken_levels_are_refused() {
        // An exempt level not named exempt, and the exempt name on a limited level.
        let wrong =
            level(json!({"metadata": {"name": "x"}, "spec": {"type": "Exempt", "exempt": {}}}));
        assert!(wrong.limit().is_err());
        let wrong = level(
            json!({"metadata": {"name": "exempt"}, "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}}}),
        );
        assert!(wrong.limit().is_err());
        // Queue without queuing; a hand larger than the deck.
        let wrong = level(
            json!({"metadata": {"name": "x"}, "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Queue"}}}}),
        );
        assert!(wrong.limit().is_err());
        let wrong = level(
            json!({"metadata": {"name": "x"}, "spec": {"type": "Limited",
            "limited": {"limitResponse": {"type": "Queue", "queuing": {"queues": 4, "handSize": 5}}}}}),
        );
        assert!(wrong.limit().is_err());
    }
}
