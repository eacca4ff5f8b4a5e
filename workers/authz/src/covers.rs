//! Whether one set of RBAC rules covers another, as escalation prevention asks it: a user
//! may write a Role or binding only if every permission it grants is one the user holds.
//! The servant rules are broken down to one verb, group, resource and name each; each piece
//! must be covered by a single owner rule. What is not covered is compacted (pieces that
//! differ only in verb merge) and printed as upstream's escalation message prints it.

use std::collections::{BTreeSet, HashMap};

use kas_proto::UserInfo;
use kas_server::status::{go_quote, go_quote_list};
use serde_json::Value;

use crate::rbac::{Policy, Rule};

/// Escalation prevention (upstream's ConfirmNoEscalation): the message refusing `rules`
/// when RBAC does not grant `user` all of them in `namespace` (cluster bindings, plus the
/// namespace's RoleBindings when it is not empty).
pub(crate) fn confirm_no_escalation(
    policy: &Policy,
    user: &UserInfo,
    namespace: &str,
    rules: &[Value],
) -> Result<(), String> {
    let servant: Vec<Rule> = rules.iter().map(Rule::new).collect();
    let missing = missing(policy.rules_of(user, namespace), &servant);
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "user {} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
        go_quote(&user.name),
        go_quote_list(&user.groups),
        missing.join("\n")
    ))
}

/// The rules of `servant` (broken down to single permissions) that no rule of `owner`
/// covers, as JSON PolicyRules: upstream's Covers, as bootstrap reconciliation uses it.
pub fn uncovered_rules(owner: &[Value], servant: &[Value]) -> Vec<Value> {
    let owner: Vec<Rule> = owner.iter().map(Rule::new).collect();
    servant
        .iter()
        .map(Rule::new)
        .flat_map(|r| breakdown(&r))
        .filter(|piece| !owner.iter().any(|o| rule_covers(o, piece)))
        .map(|piece| {
            let mut rule = serde_json::Map::new();
            for (key, values) in [
                ("verbs", &piece.verbs),
                ("apiGroups", &piece.api_groups),
                ("resources", &piece.resources),
                ("resourceNames", &piece.resource_names),
                ("nonResourceURLs", &piece.urls),
            ] {
                if !values.is_empty() || key == "verbs" {
                    rule.insert(key.into(), Value::from(values.clone()));
                }
            }
            Value::Object(rule)
        })
        .collect()
}

/// The pieces of `servant` no rule of `owner` covers, compacted and printed one per line,
/// sorted; empty when `owner` covers everything.
pub(crate) fn missing<'a>(
    owner: impl Iterator<Item = &'a Rule> + Clone,
    servant: &[Rule],
) -> Vec<String> {
    let uncovered: Vec<Rule> = servant
        .iter()
        .flat_map(breakdown)
        .filter(|piece| !owner.clone().any(|o| rule_covers(o, piece)))
        .collect();
    let printed: BTreeSet<String> = compact(uncovered).iter().map(compact_string).collect();
    printed.into_iter().collect()
}

/// The rule as pieces of at most one verb, group, resource and resource name each (and
/// one verb and URL each for non-resource rules).
fn breakdown(rule: &Rule) -> Vec<Rule> {
    let one = |s: &String| vec![s.clone()];
    let mut pieces = Vec::new();
    for group in &rule.api_groups {
        for resource in &rule.resources {
            for verb in &rule.verbs {
                let piece = |names: Vec<String>| Rule {
                    verbs: one(verb),
                    api_groups: one(group),
                    resources: one(resource),
                    resource_names: names,
                    urls: Vec::new(),
                };
                if rule.resource_names.is_empty() {
                    pieces.push(piece(Vec::new()));
                } else {
                    pieces.extend(rule.resource_names.iter().map(|n| piece(one(n))));
                }
            }
        }
    }
    for url in &rule.urls {
        for verb in &rule.verbs {
            pieces.push(Rule {
                verbs: one(verb),
                urls: one(url),
                ..Rule::default()
            });
        }
    }
    pieces
}

fn has(set: &[String], s: &str) -> bool {
    set.iter().any(|x| x == s)
}

fn has_all(set: &[String], wanted: &[String]) -> bool {
    wanted.iter().all(|w| has(set, w))
}

/// Whether the owner's resources cover every wanted one (`*`, exact, or `*/sub`).
fn resources_cover(owner: &[String], wanted: &[String]) -> bool {
    if has(owner, "*") {
        return true;
    }
    wanted.iter().all(|path| {
        has(owner, path)
            || path
                .split_once('/')
                .is_some_and(|(_, sub)| has(owner, &format!("*/{sub}")))
    })
}

/// Whether an owner URL covers a path: equal, or a `prefix*` the path starts with.
fn url_covers(owner: &str, path: &str) -> bool {
    owner == path
        || owner
            .strip_suffix('*')
            .is_some_and(|prefix| path.starts_with(prefix.trim_end_matches('*')))
}

/// Whether `owner` covers the broken-down `piece`.
fn rule_covers(owner: &Rule, piece: &Rule) -> bool {
    let verbs = has(&owner.verbs, "*") || has_all(&owner.verbs, &piece.verbs);
    let groups = has(&owner.api_groups, "*") || has_all(&owner.api_groups, &piece.api_groups);
    let resources = resources_cover(&owner.resources, &piece.resources);
    let urls = piece
        .urls
        .iter()
        .all(|p| owner.urls.iter().any(|o| url_covers(o, p)));
    let names = owner.resource_names.is_empty()
        || (!piece.resource_names.is_empty()
            && has_all(&owner.resource_names, &piece.resource_names));
    verbs && groups && resources && names && urls
}

/// Pieces with one group, one resource, at most one name and nothing else merge their
/// verbs; other rules stay as they are.
fn compact(rules: Vec<Rule>) -> Vec<Rule> {
    let mut out = Vec::new();
    let mut simple: HashMap<(String, String, Option<String>), usize> = HashMap::new();
    let mut merged: Vec<Rule> = Vec::new();
    for rule in rules {
        let is_simple = rule.api_groups.len() == 1
            && rule.resources.len() == 1
            && rule.resource_names.len() <= 1
            && rule.urls.is_empty();
        if !is_simple {
            out.push(rule);
            continue;
        }
        let key = (
            rule.api_groups[0].clone(),
            rule.resources[0].clone(),
            rule.resource_names.first().cloned(),
        );
        match simple.get(&key) {
            Some(&i) => merged[i].verbs.extend(rule.verbs),
            None => {
                simple.insert(key, merged.len());
                merged.push(rule);
            }
        }
    }
    out.extend(merged);
    out
}

/// Upstream's compact form of a rule in escalation messages:
/// `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`.
pub(crate) fn compact_string(rule: &Rule) -> String {
    let fields = [
        ("APIGroups", &rule.api_groups),
        ("Resources", &rule.resources),
        ("NonResourceURLs", &rule.urls),
        ("ResourceNames", &rule.resource_names),
        ("Verbs", &rule.verbs),
    ];
    let parts: Vec<String> = fields
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(name, v)| format!("{name}:{}", go_quote_list(v)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(v: serde_json::Value) -> Rule {
        Rule::new(&v)
    }

    fn missing_of(owner: &[serde_json::Value], servant: &[serde_json::Value]) -> Vec<String> {
        let owner: Vec<Rule> = owner.iter().cloned().map(rule).collect();
        let servant: Vec<Rule> = servant.iter().cloned().map(rule).collect();
        missing(owner.iter(), &servant)
    }

    #[test]
    fn wildcards_cover_and_pieces_merge_by_verb() {
        let owner = [
            json!({"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods", "pods/log"]}),
        ];
        assert!(missing_of(
            &owner,
            &[json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]})]
        )
        .is_empty());
        assert_eq!(
            missing_of(
                &owner,
                &[
                    json!({"verbs": ["get", "delete", "watch"], "apiGroups": [""], "resources": ["pods", "secrets"]})
                ]
            ),
            vec![
                r#"{APIGroups:[""], Resources:["pods"], Verbs:["delete" "watch"]}"#,
                r#"{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "watch"]}"#,
            ]
        );
        let all = [json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]})];
        assert!(missing_of(
            &all,
            &[json!({"verbs": ["escalate"], "apiGroups": ["x"], "resources": ["y/z"]})]
        )
        .is_empty());
        // `*` resources do not cover URLs.
        assert_eq!(
            missing_of(
                &all,
                &[json!({"verbs": ["get"], "nonResourceURLs": ["/metrics"]})]
            ),
            vec![r#"{NonResourceURLs:["/metrics"], Verbs:["get"]}"#]
        );
    }

    #[test]
    fn subresources_names_and_urls() {
        let owner = [
            json!({"verbs": ["get"], "apiGroups": ["apps"], "resources": ["*/scale"]}),
            json!({"verbs": ["update"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"]}),
            json!({"verbs": ["get"], "nonResourceURLs": ["/healthz/*"]}),
        ];
        assert!(missing_of(
            &owner,
            &[json!({"verbs": ["get"], "apiGroups": ["apps"], "resources": ["deployments/scale"]})]
        )
        .is_empty());
        assert!(missing_of(&owner, &[json!({"verbs": ["update"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"]})]).is_empty());
        assert_eq!(
            missing_of(
                &owner,
                &[json!({"verbs": ["update"], "apiGroups": [""], "resources": ["configmaps"]})]
            ),
            vec![r#"{APIGroups:[""], Resources:["configmaps"], Verbs:["update"]}"#]
        );
        assert_eq!(
            missing_of(
                &owner,
                &[
                    json!({"verbs": ["update"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a", "b"]})
                ]
            ),
            vec![
                r#"{APIGroups:[""], Resources:["configmaps"], ResourceNames:["b"], Verbs:["update"]}"#
            ]
        );
        assert!(missing_of(
            &owner,
            &[json!({"verbs": ["get"], "nonResourceURLs": ["/healthz/etcd"]})]
        )
        .is_empty());
        assert_eq!(
            missing_of(
                &owner,
                &[json!({"verbs": ["get"], "nonResourceURLs": ["/healthz"]})]
            ),
            vec![r#"{NonResourceURLs:["/healthz"], Verbs:["get"]}"#]
        );
    }
}
