//! LimitRanger, as kube-apiserver 1.33's: the LimitRanges of a namespace give new pods'
//! containers and init containers the default requests and limits they lack (recorded in
//! the `kubernetes.io/limit-ranger` annotation), and refuse pods and PersistentVolumeClaims
//! whose requests and limits fall outside their min, max and maxLimitRequestRatio (403,
//! upstream's messages). Pod updates are left alone, as upstream (containers' resources
//! are immutable there). A LimitRange is read with upstream's defaults applied
//! (SetDefaults_LimitRangeItem: default from max, defaultRequest from default, then min).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

use crate::quantity::{Format, Quantity};

/// The annotation that lists what the plugin set on a pod.
const ANNOTATION: &str = "kubernetes.io/limit-ranger";
/// How long a live lookup of an empty namespace is trusted (upstream's liveTTL).
const LIVE_TTL: Duration = Duration::from_secs(30);

/// A resource name → quantity list (`requests`, `limits`, `min`, …), sorted by name.
type ResourceList = BTreeMap<String, Quantity>;

/// The LimitRanger plugin.
pub struct LimitRanger {
    limit_ranges: RestStore,
    /// Namespaces whose LimitRanges the watch cache did not show, looked up in storage.
    live: Mutex<HashMap<String, (Instant, Vec<Value>)>>,
}

impl LimitRanger {
    /// The plugin, reading LimitRanges from `limit_ranges`.
    pub fn new(limit_ranges: RestStore) -> LimitRanger {
        LimitRanger {
            limit_ranges,
            live: Mutex::new(HashMap::new()),
        }
    }

    /// The namespace's LimitRanges: the watch cache's, else (when it shows none, maybe
    /// only not yet) a storage list remembered for a while, as upstream's live lookup.
    async fn limit_ranges(&self, ns: &str) -> Result<Vec<Value>, Status> {
        let cached = self.limit_ranges.list_cached(ns).await?;
        if !cached.is_empty() {
            return Ok(cached);
        }
        let now = Instant::now();
        if let Ok(live) = self.live.lock() {
            if let Some((expiry, items)) = live.get(ns) {
                if *expiry > now {
                    return Ok(items.clone());
                }
            }
        }
        let (items, _) = self.limit_ranges.list_objects(ns).await?;
        if let Ok(mut live) = self.live.lock() {
            live.retain(|_, (expiry, _)| *expiry > now);
            live.insert(ns.to_owned(), (now + LIVE_TTL, items.clone()));
        }
        Ok(items)
    }

    /// Whether the plugin looks at this request, and at which kind of object.
    fn target(req: &Request<'_>, obj: &Value) -> Option<Target> {
        if !req.subresource.is_empty() || !req.resource.group.is_empty() || !obj.is_object() {
            return None;
        }
        // Objects on their way out are left alone.
        if req
            .old_object
            .and_then(|o| o.pointer("/metadata/deletionTimestamp"))
            .is_some_and(|t| !t.is_null())
        {
            return None;
        }
        match (req.resource.plural, req.operation) {
            ("pods", Operation::Create) => Some(Target::Pod),
            ("persistentvolumeclaims", Operation::Create | Operation::Update) => {
                Some(Target::Claim)
            }
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Pod,
    Claim,
}

/// One item of a LimitRange's `spec.limits`, read with upstream's defaults.
#[derive(Debug, Default)]
struct Item {
    kind: String,
    min: ResourceList,
    max: ResourceList,
    default: ResourceList,
    default_request: ResourceList,
    ratio: ResourceList,
}

fn list(v: Option<&Value>) -> ResourceList {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), Quantity::of(v)?)))
                .collect()
        })
        .unwrap_or_default()
}

fn items(limit_range: &Value) -> Vec<Item> {
    let raw = limit_range
        .pointer("/spec/limits")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    raw.iter()
        .map(|i| {
            let mut item = Item {
                kind: i.get("type").and_then(Value::as_str).unwrap_or("").into(),
                min: list(i.get("min")),
                max: list(i.get("max")),
                default: list(i.get("default")),
                default_request: list(i.get("defaultRequest")),
                ratio: list(i.get("maxLimitRequestRatio")),
            };
            if item.kind == "Container" {
                for (k, v) in &item.max {
                    item.default.entry(k.clone()).or_insert(*v);
                }
                for (k, v) in item.default.iter().chain(&item.min) {
                    item.default_request.entry(k.clone()).or_insert(*v);
                }
            }
            item
        })
        .collect()
}

/// Fills the requests and limits one container lacks; returns what it set, worded for
/// the annotation.
fn merge_container(
    c: &mut Value,
    defaults: &(ResourceList, ResourceList),
    what: &str,
) -> Vec<String> {
    let name = c
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let mut notes = Vec::new();
    for (field, source, word) in [
        ("requests", &defaults.0, "request"),
        ("limits", &defaults.1, "limit"),
    ] {
        let existing = c
            .pointer(&format!("/resources/{field}"))
            .and_then(Value::as_object);
        let missing: Vec<(&String, &Quantity)> = source
            .iter()
            .filter(|(k, _)| existing.is_none_or(|m| !m.contains_key(*k)))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let Some(obj) = c.as_object_mut() else {
            return notes;
        };
        let resources = obj.entry("resources").or_insert_with(|| json!({}));
        if !resources.is_object() {
            *resources = json!({});
        }
        let target = &mut resources[field];
        if !target.is_object() {
            *target = json!({});
        }
        if let Some(target) = target.as_object_mut() {
            for (k, v) in &missing {
                target.insert((*k).clone(), json!(v.to_string()));
            }
        }
        let names: Vec<&str> = missing.iter().map(|(k, _)| k.as_str()).collect();
        notes.push(format!("{} {word} for {what} {name}", names.join(", ")));
    }
    notes
}

/// Applies one LimitRange's container defaults to a pod (upstream's PodMutateLimitFunc).
fn default_pod(pod: &mut Value, items: &[Item]) {
    let mut defaults = (ResourceList::new(), ResourceList::new());
    for item in items.iter().filter(|i| i.kind == "Container") {
        defaults.0.extend(item.default_request.clone());
        defaults.1.extend(item.default.clone());
    }
    if defaults.0.is_empty() && defaults.1.is_empty() {
        return;
    }
    let mut notes = Vec::new();
    for (key, what) in [
        ("containers", "container"),
        ("initContainers", "init container"),
    ] {
        if let Some(cs) = pod
            .pointer_mut(&format!("/spec/{key}"))
            .and_then(Value::as_array_mut)
        {
            for c in cs {
                notes.extend(merge_container(c, &defaults, what));
            }
        }
    }
    if notes.is_empty() {
        return;
    }
    let Some(meta) = pod.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let annotations = meta.entry("annotations").or_insert_with(|| json!({}));
    if !annotations.is_object() {
        *annotations = json!({});
    }
    annotations[ANNOTATION] = json!(format!("LimitRanger plugin set: {}", notes.join("; ")));
}

/// Request, limit and enforced value at a common precision (milli when all fit).
fn common(req: Option<Quantity>, lim: Option<Quantity>, enforced: Quantity) -> (i128, i128, i128) {
    let zero = Quantity::zero(Format::DecimalSI);
    let (r, l) = (req.unwrap_or(zero), lim.unwrap_or(zero));
    const MAX_MILLI: i128 = i64::MAX as i128 / 1000;
    if [r, l, enforced].iter().all(|q| q.value() <= MAX_MILLI) {
        (r.milli_value(), l.milli_value(), enforced.milli_value())
    } else {
        (r.value(), l.value(), enforced.value())
    }
}

fn min_constraint(
    kind: &str,
    res: &str,
    min: Quantity,
    reqs: &ResourceList,
    lims: &ResourceList,
) -> Option<String> {
    let (req, lim) = (reqs.get(res).copied(), lims.get(res).copied());
    let (r, l, e) = common(req, lim, min);
    match (req, lim) {
        (None, _) => Some(format!(
            "minimum {res} usage per {kind} is {min}.  No request is specified"
        )),
        (Some(q), _) if r < e => Some(format!(
            "minimum {res} usage per {kind} is {min}, but request is {q}"
        )),
        (_, Some(q)) if l < e => Some(format!(
            "minimum {res} usage per {kind} is {min}, but limit is {q}"
        )),
        _ => None,
    }
}

fn max_constraint(
    kind: &str,
    res: &str,
    max: Quantity,
    reqs: &ResourceList,
    lims: &ResourceList,
) -> Option<String> {
    let (req, lim) = (reqs.get(res).copied(), lims.get(res).copied());
    let (r, l, e) = common(req, lim, max);
    match (req, lim) {
        (_, None) => Some(format!(
            "maximum {res} usage per {kind} is {max}.  No limit is specified"
        )),
        (_, Some(q)) if l > e => Some(format!(
            "maximum {res} usage per {kind} is {max}, but limit is {q}"
        )),
        (Some(q), _) if r > e => Some(format!(
            "maximum {res} usage per {kind} is {max}, but request is {q}"
        )),
        _ => None,
    }
}

/// The max of a resource that only has requests (PVC storage).
fn max_request_constraint(
    kind: &str,
    res: &str,
    max: Quantity,
    reqs: &ResourceList,
) -> Option<String> {
    let req = reqs.get(res).copied();
    let (r, _, e) = common(req, None, max);
    match req {
        None => Some(format!(
            "maximum {res} usage per {kind} is {max}.  No request is specified"
        )),
        Some(q) if r > e => Some(format!(
            "maximum {res} usage per {kind} is {max}, but request is {q}"
        )),
        _ => None,
    }
}

fn ratio_constraint(
    kind: &str,
    res: &str,
    ratio: Quantity,
    reqs: &ResourceList,
    lims: &ResourceList,
) -> Option<String> {
    let (req, lim) = (reqs.get(res).copied(), lims.get(res).copied());
    let (r, l, _) = common(req, lim, ratio);
    if req.is_none() || r == 0 {
        return Some(format!("{res} max limit to request ratio per {kind} is {ratio}, but no request is specified or request is 0"));
    }
    if lim.is_none() || l == 0 {
        return Some(format!("{res} max limit to request ratio per {kind} is {ratio}, but no limit is specified or limit is 0"));
    }
    let observed = l as f64 / r as f64;
    let (scaled, allowed) = if ratio.value() <= i64::MAX as i128 / 1000 {
        (observed * 1000.0, ratio.milli_value() as f64)
    } else {
        (observed, ratio.value() as f64)
    };
    (scaled > allowed).then(|| {
        format!("{res} max limit to request ratio per {kind} is {ratio}, but provided ratio is {observed:.6}")
    })
}

/// All of min, max and ratio of `item` against one set of requests and limits.
fn check(item: &Item, reqs: &ResourceList, lims: &ResourceList, errs: &mut Vec<String>) {
    let kind = item.kind.as_str();
    errs.extend(
        item.min
            .iter()
            .filter_map(|(k, v)| min_constraint(kind, k, *v, reqs, lims)),
    );
    errs.extend(
        item.max
            .iter()
            .filter_map(|(k, v)| max_constraint(kind, k, *v, reqs, lims)),
    );
    errs.extend(
        item.ratio
            .iter()
            .filter_map(|(k, v)| ratio_constraint(kind, k, *v, reqs, lims)),
    );
}

fn resources(c: &Value, field: &str) -> ResourceList {
    list(c.pointer(&format!("/resources/{field}")))
}

fn add_into(total: &mut ResourceList, more: &ResourceList) {
    for (k, v) in more {
        let sum = total.get(k).map_or(*v, |t| *t + *v);
        total.insert(k.clone(), sum);
    }
}

fn max_into(total: &mut ResourceList, other: &ResourceList) {
    for (k, v) in other {
        if total.get(k).is_none_or(|t| v > t) {
            total.insert(k.clone(), *v);
        }
    }
}

/// A pod's effective requests or limits (upstream's podRequests/podLimits): the sum over
/// containers and sidecars, at least what any init container needs alongside the
/// sidecars started before it.
fn pod_total(pod: &Value, field: &str) -> ResourceList {
    let containers = |key: &str| {
        pod.pointer(&format!("/spec/{key}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut total = ResourceList::new();
    for c in containers("containers") {
        add_into(&mut total, &resources(&c, field));
    }
    let (mut sidecars, mut init) = (ResourceList::new(), ResourceList::new());
    for c in containers("initContainers") {
        let own = resources(&c, field);
        let needed = if c.get("restartPolicy").and_then(Value::as_str) == Some("Always") {
            add_into(&mut total, &own);
            add_into(&mut sidecars, &own);
            sidecars.clone()
        } else {
            let mut tmp = own;
            add_into(&mut tmp, &sidecars);
            tmp
        };
        max_into(&mut init, &needed);
    }
    max_into(&mut total, &init);
    total
}

/// What one LimitRange says of a pod (upstream's PodValidateLimitFunc).
fn validate_pod(pod: &Value, items: &[Item]) -> Vec<String> {
    let mut errs = Vec::new();
    for item in items {
        match item.kind.as_str() {
            "Container" => {
                for key in ["containers", "initContainers"] {
                    let cs = pod
                        .pointer(&format!("/spec/{key}"))
                        .and_then(Value::as_array);
                    for c in cs.into_iter().flatten() {
                        let (reqs, lims) = (resources(c, "requests"), resources(c, "limits"));
                        check(item, &reqs, &lims, &mut errs);
                    }
                }
            }
            "Pod" => {
                let (reqs, lims) = (pod_total(pod, "requests"), pod_total(pod, "limits"));
                check(item, &reqs, &lims, &mut errs);
            }
            _ => {}
        }
    }
    errs
}

/// What one LimitRange says of a claim: min and max of its storage requests.
fn validate_claim(pvc: &Value, items: &[Item]) -> Vec<String> {
    let reqs = list(pvc.pointer("/spec/resources/requests"));
    let mut errs = Vec::new();
    for item in items.iter().filter(|i| i.kind == "PersistentVolumeClaim") {
        let kind = item.kind.as_str();
        let none = ResourceList::new();
        errs.extend(
            item.min
                .iter()
                .filter_map(|(k, v)| min_constraint(kind, k, *v, &reqs, &none)),
        );
        errs.extend(
            item.max
                .iter()
                .filter_map(|(k, v)| max_request_constraint(kind, k, *v, &reqs)),
        );
    }
    errs
}

/// Several errors as upstream's aggregate prints them.
fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

impl Plugin for LimitRanger {
    fn name(&self) -> &'static str {
        "LimitRanger"
    }

    fn phases(&self) -> Phases {
        Phases::BOTH
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if Self::target(req, obj) != Some(Target::Pod) {
                return Ok(());
            }
            for lr in self.limit_ranges(req.namespace).await? {
                default_pod(obj, &items(&lr));
            }
            Ok(())
        })
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let Some(target) = Self::target(req, obj) else {
                return Ok(());
            };
            for lr in self.limit_ranges(req.namespace).await? {
                let items = items(&lr);
                let errs = match target {
                    Target::Pod => validate_pod(obj, &items),
                    Target::Claim => validate_claim(obj, &items),
                };
                if !errs.is_empty() {
                    return Err(req.forbidden(obj, &aggregate(&errs)));
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
#[path = "limit_ranger_tests.rs"]
mod tests;
