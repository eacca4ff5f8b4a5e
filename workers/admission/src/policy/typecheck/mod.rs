//! Type checking of ValidatingAdmissionPolicies, as upstream's TypeChecker fills
//! `status.typeChecking`: every validation's `expression` and `messageExpression` is
//! checked against each kind the policy's `matchConstraints` name (no wildcards, at most
//! ten kinds, sorted), with `object`/`oldObject` of that kind's schema (a built-in's, or
//! the served version's `openAPIV3Schema` of a custom resource), `params` of the
//! `paramKind`'s, and the variables' types. A kind's issues read
//! `<group>/<version>, Kind=<kind>: compilation failed: ERROR: <input>:l:c: ...`.
//!
//! The `cel` crate has no checker, so [`walk`] is a small one for the common cases
//! (fields, operators on primitive types); what it cannot type is `dyn` and passes.

mod types;
mod walk;

use kas_server::rest::{Conversion, Resource, RestStore};
use serde_json::{json, Value};

use super::compile::locate;
use super::model::Policy;
pub(crate) use types::Ty;
use walk::{Bindings, Walk};

/// The most kinds checked per policy (upstream's maxTypesToCheck).
const MAX_KINDS: usize = 10;

/// CustomResourceDefinitions, read for the schemas of custom resources.
const CRDS: Resource = Resource::new(
    "apiextensions.k8s.io",
    "v1",
    "customresourcedefinitions",
    "customresourcedefinition",
    "CustomResourceDefinition",
)
.key_path("apiextensions.k8s.io/customresourcedefinitions")
.cluster()
.converted(Conversion {
    storage_api_version: kas_crd::v1beta1::STORAGE_API_VERSION,
    to_storage: kas_crd::v1beta1::to_storage,
    from_storage: kas_crd::v1beta1::from_storage,
});

/// One kind a policy is checked against: Go's `GroupVersionKind` text and its type.
#[derive(Debug, Clone)]
pub(crate) struct Kind {
    pub name: String,
    pub ty: Ty,
}

/// Finds the types of the kinds policies match.
#[derive(Debug, Clone)]
pub(crate) struct Resolver {
    /// The built-in resources (their kinds).
    builtins: Vec<Resource>,
    /// CustomResourceDefinitions.
    crds: RestStore,
}

impl Resolver {
    /// A resolver over the built-in `stores` and the CRDs in `like`'s storage.
    pub(crate) fn new(stores: &[RestStore], like: &RestStore) -> Resolver {
        Resolver {
            builtins: stores.iter().map(|s| *s.resource()).collect(),
            crds: RestStore::new(
                CRDS,
                like.storage().clone(),
                std::time::Duration::from_secs(60),
            ),
        }
    }

    /// The kinds `policy` is checked against (upstream's typesToCheck), and the type of
    /// its params.
    pub(crate) async fn kinds(&self, policy: &Policy) -> (Vec<Kind>, Ty) {
        let mut found: Vec<(String, String, String, Ty)> = Vec::new();
        let rules = policy.constraints.iter().flat_map(|c| &c.rules);
        'rules: for named in rules {
            let r = &named.rule;
            if r.groups.iter().chain(&r.versions).any(|s| s.contains('*')) {
                continue;
            }
            let mut groups = r.groups.clone();
            let mut versions = r.versions.clone();
            let mut resources: Vec<String> = r
                .resources
                .iter()
                .filter(|s| !s.contains(['*', '/']))
                .cloned()
                .collect();
            groups.sort();
            versions.sort();
            resources.sort();
            for g in &groups {
                for v in &versions {
                    for res in &resources {
                        if let Some((kind, ty)) = self.kind(g, v, res).await {
                            let key = (g.clone(), v.clone(), kind.clone());
                            if !found
                                .iter()
                                .any(|(a, b, c, _)| (a, b, c) == (&key.0, &key.1, &key.2))
                            {
                                found.push((key.0, key.1, key.2, ty));
                            }
                            if found.len() == MAX_KINDS {
                                break 'rules;
                            }
                        }
                    }
                }
            }
        }
        found.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
        let kinds = found
            .into_iter()
            .map(|(g, v, k, ty)| Kind {
                name: format!("{g}/{v}, Kind={k}"),
                ty,
            })
            .collect();
        let params = policy
            .param_kind
            .as_ref()
            .and_then(|(av, k)| kas_schema::kind_def_for_api_version(av, k))
            .map(types::builtin)
            .unwrap_or(Ty::Dyn);
        (kinds, params)
    }

    /// The kind and type of `group`/`version`/`resource`.
    async fn kind(&self, group: &str, version: &str, resource: &str) -> Option<(String, Ty)> {
        if let Some(r) = self
            .builtins
            .iter()
            .find(|r| r.group == group && r.version == version && r.plural == resource)
        {
            let def = kas_schema::kind_def(group, version, r.kind)?;
            return Some((r.kind.to_owned(), types::builtin(def)));
        }
        if group.is_empty() {
            return None;
        }
        let crd = self
            .crds
            .read_latest("", &format!("{resource}.{group}"))
            .await
            .ok()
            .flatten()?;
        let kind = crd.pointer("/spec/names/kind")?.as_str()?.to_owned();
        let served = crd
            .pointer("/spec/versions")?
            .as_array()?
            .iter()
            .find(|v| v["name"] == version && v["served"] == true)?;
        let ty = match served.pointer("/schema/openAPIV3Schema") {
            Some(schema) => types::custom(schema.clone()),
            None => Ty::Dyn,
        };
        Some((kind, ty))
    }
}

/// The `expressionWarnings` of `policy` checked against `kinds` (params of type
/// `params`). Without kinds, only what does not compile is reported.
pub(crate) fn warnings(policy: &Policy, kinds: &[Kind], params: &Ty) -> Vec<Value> {
    let mut out = Vec::new();
    for (field, c) in policy.expressions() {
        let text = match (kinds.is_empty(), &c.program) {
            (true, Err(e)) => format!("{e}\n"),
            (true, Ok(_)) => continue,
            (false, program) => {
                let results: Vec<String> = kinds
                    .iter()
                    .filter_map(|k| {
                        let issues = match program {
                            Err(e) => e.clone(),
                            Ok(p) => check(policy, p, &k.ty, params)?,
                        };
                        Some(format!("{}: compilation failed: {issues}\n", k.name))
                    })
                    .collect();
                if results.is_empty() {
                    continue;
                }
                results.join("\n")
            }
        };
        out.push(json!({"fieldRef": field, "warning": text}));
    }
    out
}

/// The issues of `program` with `object` of type `object`, cel-go's way, or `None`.
fn check(policy: &Policy, program: &cel::Program, object: &Ty, params: &Ty) -> Option<String> {
    // The variables' types, each from those before it; their own issues are not
    // reported (upstream reports them at run time).
    let mut variables: Vec<(String, Ty)> = Vec::new();
    for (name, c) in &policy.variables {
        let ty = match &c.program {
            Ok(p) => {
                let b = Bindings {
                    object,
                    params,
                    variables: &variables,
                };
                Walk::new(&b).ty(p.expression())
            }
            Err(_) => Ty::Dyn,
        };
        variables.push((name.clone(), ty));
    }
    let b = Bindings {
        object,
        params,
        variables: &variables,
    };
    let mut walk = Walk::new(&b);
    walk.ty(program.expression());
    if walk.issues.is_empty() {
        return None;
    }
    // cel-go lists its issues in the order of their places in the source.
    let info = program.source_info();
    let mut issues = walk.issues;
    issues.sort_by_key(|(id, _)| info.offset_for(*id).map_or(0, |(start, _)| start));
    let located: Vec<String> = issues
        .iter()
        .map(|(id, message)| locate(program, *id, message))
        .collect();
    Some(located.join("\n"))
}

#[cfg(test)]
mod tests;
