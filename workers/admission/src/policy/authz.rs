//! The `authorizer` of policy expressions, decided by the worker's authorizer chain for
//! the requesting user (or a service account named by `authorizer.serviceAccount`), as
//! upstream's CEL authorizer library asks its authorizer. The `cel` crate evaluates
//! synchronously and authorizers answer asynchronously, so a policy is evaluated, the
//! checks it asked for and that were not yet decided are decided (all at once), and it
//! is evaluated again, until it asks for nothing new (see `kas_cel::authz`).

use std::sync::Arc;

use futures_util::future::join_all;
use kas_authz::{Attributes, Authorizer, Decision as Verdict};
use kas_cel::authz::{Check, Checks, Decision, Principal};
use kas_proto::UserInfo;
use serde_json::Value;

use super::eval::{self, Inputs, Outcome};
use super::model::Policy;

/// The most evaluations of one policy for one param: each round decides every check
/// asked for; the cost of checks (two per expression) keeps real policies far below.
pub(crate) const MAX_ROUNDS: usize = 16;

/// Who decides the checks of one request.
#[derive(Clone, Copy)]
pub(crate) struct Deciding<'a> {
    pub checks: &'a Arc<Checks>,
    pub authorizer: &'a Authorizer,
    pub user: &'a UserInfo,
}

/// [`eval::validate`], with the authorization checks it asks for decided between
/// evaluations.
pub(crate) async fn validate(
    policy: &Policy,
    inputs: &Inputs,
    params: &Value,
    deciding: Option<Deciding<'_>>,
) -> Outcome {
    let mut rounds = 0;
    loop {
        let outcome = eval::validate(policy, inputs, params);
        let Some(d) = deciding else {
            return outcome;
        };
        let pending = d.checks.take_pending();
        rounds += 1;
        if pending.is_empty() || rounds >= MAX_ROUNDS {
            return outcome;
        }
        decide_all(d.checks, d.authorizer, d.user, pending).await;
    }
}

/// Decides `pending` (all at once) and records the decisions in `checks`.
pub(crate) async fn decide_all(
    checks: &Checks,
    authorizer: &Authorizer,
    user: &UserInfo,
    pending: Vec<Check>,
) {
    let decisions = join_all(pending.iter().map(|c| decide(authorizer, user, c))).await;
    for (check, decision) in pending.into_iter().zip(decisions) {
        checks.decide(check, decision);
    }
}

/// The user a check is about: the requester, or a service account as upstream's
/// ServiceAccountInfo makes it (its name and the two service account groups).
fn principal(requester: &UserInfo, p: &Principal) -> UserInfo {
    match p {
        Principal::Requester => requester.clone(),
        Principal::ServiceAccount { namespace, name } => UserInfo {
            name: format!("system:serviceaccount:{namespace}:{name}"),
            groups: vec![
                "system:serviceaccounts".to_owned(),
                format!("system:serviceaccounts:{namespace}"),
            ],
            ..UserInfo::default()
        },
    }
}

/// The attributes of a check (any version, as upstream's `APIVersion: "*"`).
fn attributes(c: &Check) -> Attributes {
    match &c.path {
        Some(path) => Attributes {
            verb: c.verb.clone(),
            path: path.clone(),
            ..Attributes::default()
        },
        None => Attributes {
            verb: c.verb.clone(),
            resource_request: true,
            namespace: c.namespace.clone(),
            group: c.group.clone(),
            version: "*".to_owned(),
            resource: c.resource.clone(),
            subresource: c.subresource.clone(),
            name: c.name.clone(),
            field_selector: c.field_selector.clone(),
            label_selector: c.label_selector.clone(),
            ..Attributes::default()
        },
    }
}

async fn decide(authorizer: &Authorizer, requester: &UserInfo, c: &Check) -> Decision {
    let user = principal(requester, &c.principal);
    let verdict = authorizer.decide(&user, &attributes(c)).await;
    Decision {
        allowed: verdict.decision == Verdict::Allow,
        reason: verdict.reason,
        error: verdict.error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principals_and_attributes() {
        let admin = UserInfo {
            name: "admin".into(),
            groups: vec!["system:masters".into()],
            ..UserInfo::default()
        };
        assert_eq!(principal(&admin, &Principal::Requester), admin);
        let sa = principal(
            &admin,
            &Principal::ServiceAccount {
                namespace: "ns".into(),
                name: "robot".into(),
            },
        );
        assert_eq!(sa.name, "system:serviceaccount:ns:robot");
        assert_eq!(
            sa.groups,
            ["system:serviceaccounts", "system:serviceaccounts:ns"]
        );
        let check = Check {
            principal: Principal::Requester,
            path: None,
            group: "apps".into(),
            resource: "deployments".into(),
            subresource: "scale".into(),
            namespace: "ns".into(),
            name: "web".into(),
            field_selector: String::new(),
            label_selector: String::new(),
            verb: "update".into(),
        };
        let a = attributes(&check);
        assert!(a.resource_request);
        assert_eq!(
            (
                a.group.as_str(),
                a.version.as_str(),
                a.resource.as_str(),
                a.subresource.as_str()
            ),
            ("apps", "*", "deployments", "scale")
        );
        let path = attributes(&Check {
            path: Some("/healthz".into()),
            verb: "get".into(),
            ..check
        });
        assert!(!path.resource_request);
        assert_eq!(
            (path.path.as_str(), path.verb.as_str()),
            ("/healthz", "get")
        );
    }
}
