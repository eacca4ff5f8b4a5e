//! One served version of a CRD as the generic store needs it: a [`Resource`] (names
//! interned, since the store describes resources with static data) and the run-time
//! strategy of its schema (pruning, defaulting, validation with CEL rules, printer
//! columns, scale paths).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use kas_crd::{ObjectValidator, Structural};
use kas_server::rest::{Converter, DynColumn, NameRule, ObjectStrategy, Resource, ScalePaths};
use kas_server::service_resolver::ServiceResolver;
use kas_server::status::StatusCause;
use serde_json::Value;

/// Strings that live as long as the process: the names of served custom resources.
/// Interned, so re-serving a CRD does not leak again.
fn intern(s: &str) -> &'static str {
    static POOL: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let pool = POOL.get_or_init(|| Mutex::new(HashSet::new()));
    let mut pool = match pool.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(found) = pool.get(s) {
        return found;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    pool.insert(leaked);
    leaked
}

/// A list of interned strings, itself interned.
fn intern_list(items: &[String]) -> &'static [&'static str] {
    static POOL: OnceLock<Mutex<HashSet<&'static [&'static str]>>> = OnceLock::new();
    let pool = POOL.get_or_init(|| Mutex::new(HashSet::new()));
    let list: Vec<&'static str> = items.iter().map(|s| intern(s)).collect();
    let mut pool = match pool.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(found) = pool.get(list.as_slice()) {
        return found;
    }
    let leaked: &'static [&'static str] = Box::leak(list.into_boxed_slice());
    pool.insert(leaked);
    leaked
}

fn s<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

fn strings(v: &Value, p: &str) -> Vec<String> {
    v.pointer(p)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_owned))
        .collect()
}

/// A CRD's served version: what the store serves and how.
pub(crate) struct Served {
    pub(crate) resource: Resource,
    pub(crate) strategy: CustomStrategy,
}

/// The served versions of a CRD.
/// (Its conversion webhook's service reference is resolved by `services`.)
pub(crate) fn served_versions(crd: &Value, services: &Arc<ServiceResolver>) -> Vec<Served> {
    let group = s(crd, "/spec/group");
    let names = crd.pointer("/spec/names").cloned().unwrap_or(Value::Null);
    let plural = s(&names, "/plural");
    let kind = s(&names, "/kind");
    let singular = match s(&names, "/singular") {
        "" => kind.to_lowercase(),
        x => x.to_owned(),
    };
    let namespaced = s(crd, "/spec/scope") != "Cluster";
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let storage = versions
        .iter()
        .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
        .map(|v| s(v, "/name").to_owned())
        .unwrap_or_default();
    let key_path = intern(&format!("{group}/{plural}"));
    let short = intern_list(&strings(&names, "/shortNames"));
    let categories = intern_list(&strings(&names, "/categories"));
    // One webhook client for every version of the CRD.
    let converter = crate::conversion::WebhookConverter::of(crd, Some(services)).map(Arc::new);
    versions
        .iter()
        .filter(|v| v.get("served").and_then(Value::as_bool) != Some(false))
        .map(|v| {
            let name = s(v, "/name");
            let status = v.pointer("/subresources/status").is_some();
            let scale = v.pointer("/subresources/scale");
            let subresources: &'static [&'static str] = match (scale.is_some(), status) {
                (true, true) => &["scale", "status"],
                (true, false) => &["scale"],
                (false, true) => &["status"],
                (false, false) => &[],
            };
            let mut r = Resource::new(
                intern(group),
                intern(name),
                intern(plural),
                intern(&singular),
                intern(kind),
            )
            .key_path(key_path)
            .short(short)
            .categories(categories)
            .subresources(subresources)
            .generation()
            .names(NameRule::Subdomain);
            if !namespaced {
                r = r.cluster();
            }
            if name != storage && !storage.is_empty() {
                r = r.storage_version(intern(&storage));
            }
            let openapi = v.pointer("/schema/openAPIV3Schema").cloned();
            let schema = openapi
                .as_ref()
                .and_then(|j| Structural::from_json(j).ok())
                .map(ObjectValidator::new);
            let columns = v
                .get("additionalPrinterColumns")
                .and_then(Value::as_array)
                .map(|cols| {
                    cols.iter()
                        .map(|c| DynColumn {
                            name: s(c, "/name").to_owned(),
                            kind: s(c, "/type").to_owned(),
                            format: s(c, "/format").to_owned(),
                            description: s(c, "/description").to_owned(),
                            priority: c.get("priority").and_then(Value::as_u64).unwrap_or(0) as u8,
                            json_path: s(c, "/jsonPath").to_owned(),
                        })
                        .collect::<Vec<_>>()
                });
            let scale = scale.map(|sc| ScalePaths {
                spec_replicas: s(sc, "/specReplicasPath").to_owned(),
                status_replicas: s(sc, "/statusReplicasPath").to_owned(),
                label_selector: sc
                    .get("labelSelectorPath")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            });
            Served {
                resource: r,
                strategy: CustomStrategy {
                    schema,
                    openapi,
                    columns,
                    scale,
                    selectable: v
                        .get("selectableFields")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|f| f.get("jsonPath").and_then(Value::as_str))
                        .map(|p| p.trim_start_matches('.').to_owned())
                        .collect(),
                    converter: converter.clone(),
                },
            }
        })
        .collect()
}

/// The strategy of one custom resource version.
pub(crate) struct CustomStrategy {
    /// The schema, with its CEL rules compiled once.
    schema: Option<ObjectValidator>,
    /// The version's `openAPIV3Schema` as written, which server-side apply merges by.
    openapi: Option<Value>,
    columns: Option<Vec<DynColumn>>,
    scale: Option<ScalePaths>,
    /// `selectableFields[].jsonPath`, without the leading dot.
    selectable: Vec<String>,
    /// The CRD's conversion webhook (strategy Webhook), shared by its versions.
    converter: Option<Arc<crate::conversion::WebhookConverter>>,
}

const AGE_DESC: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

impl ObjectStrategy for CustomStrategy {
    fn apply_schema(&self) -> Option<&Value> {
        self.openapi.as_ref()
    }

    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn selectable_fields(&self) -> &[String] {
        &self.selectable
    }

    fn prune(&self, obj: &mut Value) -> Vec<String> {
        match &self.schema {
            Some(v) => kas_crd::prune(v.schema(), obj),
            None => Vec::new(),
        }
    }

    fn default(&self, obj: &mut Value) {
        if let Some(v) = &self.schema {
            kas_crd::default(v.schema(), obj);
        }
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
        let mut out = match &self.schema {
            Some(validator) => crate::crd::causes(validator.validate(obj, old)),
            None => Vec::new(),
        };
        // Upstream checks the scale paths after the schema (its list-type and CEL
        // checks come after them; here they are part of the schema's causes).
        if let Some(scale) = &self.scale {
            out.extend(crate::custom_scale::causes(scale, obj));
        }
        out
    }

    fn columns(&self) -> Option<Vec<DynColumn>> {
        // A version without columns of its own shows Age, as upstream's default; one
        // with columns shows just those.
        let mut cols = self.columns.clone().unwrap_or_default();
        if cols.is_empty() {
            cols.push(DynColumn {
                name: "Age".into(),
                kind: "date".into(),
                format: String::new(),
                description: AGE_DESC.into(),
                priority: 0,
                json_path: ".metadata.creationTimestamp".into(),
            });
        }
        Some(cols)
    }

    fn scale(&self) -> Option<ScalePaths> {
        self.scale.clone()
    }

    fn converter(&self) -> Option<&dyn Converter> {
        self.converter.as_deref().map(|c| c as &dyn Converter)
    }
}
