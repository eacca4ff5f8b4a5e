//! Authorization as kube-apiserver does it: the attributes of a request, the chain of
//! `--authorization-mode`s (the first with an opinion decides; `system:masters` always
//! passes), and the RBAC evaluator over Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding objects. Pure functions of JSON objects: where the objects come
//! from (a watch-fed cache in the front door, storage in a review) is the caller's.

#![forbid(unsafe_code)]

mod rbac;

use kas_proto::UserInfo;
use serde_json::{json, Value};

pub use rbac::Policy;

/// The group kube-apiserver authorizes for everything, whatever the modes.
pub const PRIVILEGED_GROUP: &str = "system:masters";

/// The string at `pointer`, or `""`.
fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// One `--authorization-mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Everything is allowed.
    AlwaysAllow,
    /// Nothing is allowed (no opinion, with a reason).
    AlwaysDeny,
    /// Role-based access control over the RBAC objects.
    Rbac,
}

impl Mode {
    /// Parses the flag's spelling.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "AlwaysAllow" => Some(Mode::AlwaysAllow),
            "AlwaysDeny" => Some(Mode::AlwaysDeny),
            "RBAC" => Some(Mode::Rbac),
            _ => None,
        }
    }
}

/// An authorizer's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Allowed.
    Allow,
    /// Explicitly denied (no later authorizer is asked).
    Deny,
    /// No opinion: the next authorizer is asked; denied when none allows.
    NoOpinion,
}

/// What a request wants to do (authorizer.Attributes, without the user).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attributes {
    /// Lower-case verb (`get`, `list`, …, or the HTTP method for non-resource requests).
    pub verb: String,
    /// Whether this is a resource request (else `path` applies).
    pub resource_request: bool,
    /// Namespace (empty for cluster-scoped).
    pub namespace: String,
    /// API group.
    pub group: String,
    /// API version.
    pub version: String,
    /// Resource.
    pub resource: String,
    /// Subresource.
    pub subresource: String,
    /// Object name.
    pub name: String,
    /// URL path of a non-resource request.
    pub path: String,
}

/// The configured authorization chain.
#[derive(Debug, Clone)]
pub struct Authorizer {
    modes: Vec<Mode>,
    rbac: Policy,
}

impl Authorizer {
    /// The chain of `modes` (flag spellings; unknown ones are skipped: the supervisor has
    /// validated them). `rbac` holds the RBAC objects when RBAC is among the modes.
    pub fn new(modes: &[String], rbac: Policy) -> Authorizer {
        Authorizer {
            modes: modes.iter().filter_map(|m| Mode::parse(m)).collect(),
            rbac,
        }
    }

    /// Decides `a` for `user`, with the reason upstream gives.
    pub fn authorize(&self, user: &UserInfo, a: &Attributes) -> (Decision, String) {
        if user.groups.iter().any(|g| g == PRIVILEGED_GROUP) {
            return (Decision::Allow, String::new());
        }
        let mut reasons = Vec::new();
        for mode in &self.modes {
            let (decision, reason) = match mode {
                Mode::AlwaysAllow => (Decision::Allow, String::new()),
                Mode::AlwaysDeny => (Decision::NoOpinion, "Everything is forbidden.".to_owned()),
                Mode::Rbac => self.rbac.authorize(user, a),
            };
            if decision != Decision::NoOpinion {
                return (decision, reason);
            }
            if !reason.is_empty() {
                reasons.push(reason);
            }
        }
        (Decision::NoOpinion, reasons.join("\n"))
    }

    /// The rules `user` has in `namespace` (resource and non-resource), and whether the
    /// list is incomplete.
    pub fn rules(&self, user: &UserInfo, namespace: &str) -> (Vec<Value>, Vec<Value>, bool) {
        let everything = || {
            (
                vec![json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]})],
                vec![json!({"verbs": ["*"], "nonResourceURLs": ["*"]})],
            )
        };
        let mut resource = Vec::new();
        let mut non_resource = Vec::new();
        let privileged = user.groups.iter().any(|g| g == PRIVILEGED_GROUP);
        if privileged {
            let (r, n) = everything();
            resource.extend(r);
            non_resource.extend(n);
        }
        for mode in &self.modes {
            let (r, n) = match mode {
                Mode::AlwaysAllow => everything(),
                Mode::AlwaysDeny => (Vec::new(), Vec::new()),
                Mode::Rbac => self.rbac.rules_for(user, namespace),
            };
            resource.extend(r);
            non_resource.extend(n);
        }
        (resource, non_resource, false)
    }
}
