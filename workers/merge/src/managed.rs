//! `metadata.managedFields` through a write, as kube-apiserver's field manager keeps it:
//! entries decoded into field sets by manager identifier, the write recorded by the
//! [`Updater`], metadata bookkeeping stripped, at most ten update managers kept (older
//! ones folded into `ancient-changes`), and the entries written back sorted.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::compare::compare;
use crate::fieldset::{check_config, to_field_set};
use crate::path::Path;
use crate::schema::Schema;
use crate::set::Set;
use crate::updater::{Conflict, Managers, Updater, VersionedSet};

/// The annotation client-side apply keeps its last configuration in.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The manager whose server-side applies keep client-side apply's annotation in step.
const KUBECTL: &str = "kubectl";

/// Update managers kept before the oldest are folded together.
const MAX_UPDATE_MANAGERS: usize = 10;

/// Why an apply was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// 400 with this message.
    BadRequest(String),
    /// 409: the message and one `(field, message)` cause per conflicting field.
    Conflict {
        message: String,
        causes: Vec<(String, String)>,
    },
    /// The configuration does not fit its type ("failed to create typed patch object
    /// (...): .spec.foo: field not declared in schema"). Upstream answers a plain 500;
    /// the message is the same here, the status the caller's to choose.
    Typed(String),
    /// A plain error: 500 with this message and no reason, as upstream answers one.
    Internal(String),
}

/// The field manager of one endpoint (a resource, or one of its subresources).
pub struct FieldManager<'a, S> {
    pub schema: &'a S,
    /// The endpoint's group/version (`apps/v1`, `v1`).
    pub api_version: &'a str,
    pub kind: &'a str,
    /// `status`, `scale`, or empty.
    pub subresource: &'a str,
    /// Fields this endpoint resets (see [`Updater::reset`]).
    pub reset: &'a Set,
}

type Times = BTreeMap<String, Value>;

impl<S: Schema> FieldManager<'_, S> {
    fn updater(&self) -> Updater<'_, S> {
        Updater {
            schema: self.schema,
            version: self.api_version,
            reset: self.reset,
        }
    }

    /// Records an update (create, replace, non-apply patch) by `manager` of `new` over
    /// `live` (`None` on create, when `empty` — the type's empty object — stands in).
    /// `new`'s own managedFields are used when it carries valid ones (not for
    /// subresources); `[]` resets them.
    pub fn update(
        &self,
        live: Option<&Value>,
        empty: &Value,
        new: &mut Value,
        manager: &str,
        now: &str,
    ) {
        let live_obj = live.unwrap_or(empty);
        let (mut managers, mut times) = self.live_or_new(live_obj, new);
        remove_managed_fields(new);
        if managers.is_empty() && live.is_some_and(has_uid) {
            // An object nobody tracked stays untracked until someone applies.
            return;
        }
        self.record_update(live_obj, new, &mut managers, &mut times, manager, now);
        set_managed_fields(new, &managers, &times);
    }

    fn record_update(
        &self,
        live: &Value,
        new: &Value,
        managers: &mut Managers,
        times: &mut Times,
        manager: &str,
        now: &str,
    ) {
        let id = identifier(manager, "Update", self.api_version, self.subresource);
        let current = "current-operation";
        self.updater().update(
            &without_managed(live),
            &without_managed(new),
            managers,
            current,
        );
        strip_meta(managers, current);
        if let Some(mut vs) = managers.remove(current) {
            if let Some(prev) = managers.get(&id) {
                vs.set = vs.set.union(&prev.set);
            }
            managers.insert(id.clone(), vs);
            times.insert(id, json!(now));
        }
        cap_update_managers(managers, times);
    }

    /// Applies `config` by `manager` over `live` (`None`: the object is created, from
    /// `empty`). Answers the new object with its managedFields.
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &self,
        live: Option<&Value>,
        empty: &Value,
        config: &Value,
        manager: &str,
        force: bool,
        now: &str,
    ) -> Result<Value, ApplyError> {
        let gv = config
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        let kind = config.get("kind").and_then(Value::as_str).unwrap_or("");
        if gv != self.api_version || kind != self.kind {
            let (group, version) = match gv.split_once('/') {
                Some((g, v)) => (g, v),
                None => ("", gv),
            };
            // Go's GroupVersionKind.String(): `/v1` for the core group.
            return Err(ApplyError::BadRequest(format!(
                "invalid object type: {group}/{version}, Kind={kind}"
            )));
        }
        if config
            .pointer("/metadata/managedFields")
            .is_some_and(|m| !m.is_null())
        {
            return Err(ApplyError::BadRequest(
                "metadata.managedFields must be nil".into(),
            ));
        }
        let live_obj = live.unwrap_or(empty);
        let entries = live_obj.pointer("/metadata/managedFields");
        let (mut managers, mut times) = decode(entries)
            .map_err(|e| ApplyError::Internal(format!("failed to decode managed fields: {e}")))?;
        let mut live_obj = without_managed(live_obj);
        if managers.is_empty() {
            // What was there before the first apply belongs to `before-first-apply`.
            self.record_update(
                empty,
                &live_obj,
                &mut managers,
                &mut times,
                "before-first-apply",
                now,
            );
        }
        check_config(config, self.schema).map_err(|e| {
            ApplyError::Typed(format!(
                "failed to create typed patch object ({}): {e}",
                gvknn(config, self.api_version, self.kind)
            ))
        })?;
        let id = identifier(manager, "Apply", "", self.subresource);
        let attempt = |managers: &mut Managers, force: bool| {
            self.updater()
                .apply(&live_obj, config, managers, &id, force)
        };
        let mut trial = managers.clone();
        let result = match attempt(&mut trial, force) {
            Ok(r) => {
                managers = trial;
                r
            }
            // kubectl's conflicts with fields its client-side apply set to the same values
            // are not conflicts: it takes them over (upstream's lastAppliedManager).
            Err(conflicts) if manager == KUBECTL => {
                let allowed = self.allowed_from_last_applied(&live_obj);
                let left: Vec<Conflict> = conflicts
                    .into_iter()
                    .filter(|c| !allowed.as_ref().is_some_and(|a| a.has(&c.path.0)))
                    .collect();
                if !left.is_empty() {
                    return Err(conflict_error(left));
                }
                attempt(&mut managers, true).map_err(conflict_error)?
            }
            Err(conflicts) => return Err(conflict_error(conflicts)),
        };
        strip_meta(&mut managers, &id);
        if let Some(obj) = result {
            times.insert(id, json!(now));
            live_obj = obj;
        }
        if manager == KUBECTL && last_applied(&live_obj).is_some() {
            set_last_applied(&mut live_obj, config);
        }
        set_managed_fields(&mut live_obj, &managers, &times);
        Ok(live_obj)
    }

    /// The fields of the live object's last-applied configuration whose values the live
    /// object still has (`None` when there is none usable).
    fn allowed_from_last_applied(&self, live: &Value) -> Option<Set> {
        let last: Value = serde_json::from_str(last_applied(live)?).ok()?;
        if last.get("apiVersion").and_then(Value::as_str) != Some(self.api_version) {
            return None;
        }
        check_config(&last, self.schema).ok()?;
        let cmp = compare(&last, live, self.schema);
        Some(
            to_field_set(&last, self.schema)
                .difference(&cmp.modified)
                .difference(&cmp.added)
                .difference(&cmp.removed),
        )
    }

    fn live_or_new(&self, live: &Value, new: &Value) -> (Managers, Times) {
        let from_live = || decode(live.pointer("/metadata/managedFields")).unwrap_or_default();
        if !self.subresource.is_empty() {
            return from_live();
        }
        let theirs = new.pointer("/metadata/managedFields");
        if is_reset(theirs) {
            return Default::default();
        }
        match decode(theirs) {
            Ok((m, t)) if !m.is_empty() => (m, t),
            _ => from_live(),
        }
    }
}

fn last_applied(obj: &Value) -> Option<&str> {
    obj.pointer("/metadata/annotations")
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// Sets the last-applied annotation to `config` (without that annotation), encoded as
/// upstream's unstructured encoder writes it: compact, keys sorted, HTML escaped, one
/// trailing newline.
fn set_last_applied(obj: &mut Value, config: &Value) {
    let mut c = config.clone();
    if let Some(a) = c
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.remove(LAST_APPLIED);
    }
    let text = format!("{}\n", crate::path::go_json(&c));
    if let Some(a) = obj
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.insert(LAST_APPLIED.into(), Value::String(text));
    }
}

/// `managedFields: []` (or one empty entry) asks for the fields to be reset.
fn is_reset(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Array(a)) if a.is_empty() => true,
        Some(Value::Array(a)) if a.len() == 1 => {
            a[0].as_object().is_some_and(|m| m.values().all(is_zero))
        }
        _ => false,
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

fn has_uid(obj: &Value) -> bool {
    obj.pointer("/metadata/uid")
        .and_then(Value::as_str)
        .is_some_and(|u| !u.is_empty())
}

fn without_managed(obj: &Value) -> Value {
    let mut v = obj.clone();
    remove_managed_fields(&mut v);
    v
}

fn remove_managed_fields(obj: &mut Value) {
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
}

/// `<namespace>/<name>; <group/version>, Kind=<kind>` as upstream names an object in
/// field-manager errors.
fn gvknn(obj: &Value, gv: &str, kind: &str) -> String {
    let s = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("");
    // Go's GroupVersionKind.String(): the core group's version reads `/v1`.
    let slash = if gv.contains('/') { "" } else { "/" };
    format!(
        "{}/{}; {slash}{gv}, Kind={kind}",
        s("/metadata/namespace"),
        s("/metadata/name")
    )
}

/// A manager's identifier: the entry's JSON without fields, time and type (and without
/// apiVersion for appliers), as upstream keys its managers.
pub fn identifier(manager: &str, operation: &str, api_version: &str, subresource: &str) -> String {
    let manager = if manager.is_empty() {
        "unknown"
    } else {
        manager
    };
    let mut s = format!(
        "{{\"manager\":{},\"operation\":{}",
        json!(manager),
        json!(operation)
    );
    if !api_version.is_empty() {
        s.push_str(&format!(",\"apiVersion\":{}", json!(api_version)));
    }
    if !subresource.is_empty() {
        s.push_str(&format!(",\"subresource\":{}", json!(subresource)));
    }
    s.push('}');
    s
}

fn parse_identifier(id: &str) -> Map<String, Value> {
    serde_json::from_str(id).unwrap_or_default()
}

/// Decodes managedFields entries; any malformed entry fails the whole list.
pub fn decode(entries: Option<&Value>) -> Result<(Managers, Times), String> {
    let mut managers = Managers::new();
    let mut times = Times::new();
    let list = match entries {
        None | Some(Value::Null) => return Ok((managers, times)),
        Some(Value::Array(a)) => a,
        Some(_) => return Err("managedFields must be a list".into()),
    };
    for (i, e) in list.iter().enumerate() {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
        let operation = s("operation");
        if operation != "Apply" && operation != "Update" {
            return Err("operation must be `Apply` or `Update`".into());
        }
        if s("apiVersion").is_empty() {
            return Err("apiVersion must not be empty".into());
        }
        match s("fieldsType") {
            "FieldsV1" => {}
            "" => return Err(format!("missing fieldsType in managed fields entry {i}")),
            other => {
                return Err(format!(
                    "invalid fieldsType {other:?} in managed fields entry {i}"
                ))
            }
        }
        let id_version = if operation == "Apply" {
            ""
        } else {
            s("apiVersion")
        };
        let id = identifier(s("manager"), operation, id_version, s("subresource"));
        let set = match e.get("fieldsV1") {
            None | Some(Value::Null) => Set::new(),
            Some(f) => {
                Set::from_fields_v1(f).map_err(|err| format!("error decoding set: {err}"))?
            }
        };
        if let Some(t) = e.get("time").filter(|t| !t.is_null()) {
            times.insert(id.clone(), t.clone());
        }
        managers.insert(
            id,
            VersionedSet {
                set,
                api_version: s("apiVersion").to_owned(),
                applied: operation == "Apply",
            },
        );
    }
    Ok((managers, times))
}

/// The entries for `managers`, sorted as upstream sorts them (operation, time, manager,
/// apiVersion, subresource).
pub fn encode(managers: &Managers, times: &Times) -> Vec<Value> {
    let mut entries: Vec<Value> = managers
        .iter()
        .map(|(id, vs)| {
            let idm = parse_identifier(id);
            let mut e = Map::new();
            e.insert(
                "manager".into(),
                idm.get("manager").cloned().unwrap_or(json!("")),
            );
            let operation = if vs.applied { "Apply" } else { "Update" };
            e.insert("operation".into(), json!(operation));
            e.insert("apiVersion".into(), json!(vs.api_version));
            if let Some(t) = times.get(id) {
                e.insert("time".into(), t.clone());
            }
            e.insert("fieldsType".into(), json!("FieldsV1"));
            e.insert("fieldsV1".into(), vs.set.to_fields_v1());
            if let Some(sub) = idm.get("subresource").filter(|s| s.as_str() != Some("")) {
                e.insert("subresource".into(), sub.clone());
            }
            Value::Object(e)
        })
        .collect();
    let key = |e: &Value| {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        (
            s("operation"),
            s("time"),
            s("manager"),
            s("apiVersion"),
            s("subresource"),
        )
    };
    entries.sort_by_key(key);
    entries
}

fn set_managed_fields(obj: &mut Value, managers: &Managers, times: &Times) {
    let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    if managers.is_empty() {
        m.remove("managedFields");
    } else {
        m.insert(
            "managedFields".into(),
            Value::Array(encode(managers, times)),
        );
    }
}

/// The bookkeeping fields no manager owns.
fn strip_meta(managers: &mut Managers, manager: &str) {
    let Some(vs) = managers.get_mut(manager) else {
        return;
    };
    let meta = |f: &str| Path::fields(&["metadata", f]);
    let strip = Set::of([
        Path::fields(&["apiVersion"]),
        Path::fields(&["kind"]),
        Path::fields(&["metadata"]),
        meta("name"),
        meta("namespace"),
        meta("creationTimestamp"),
        meta("selfLink"),
        meta("uid"),
        meta("clusterName"),
        meta("generation"),
        meta("managedFields"),
        meta("resourceVersion"),
    ]);
    vs.set = vs.set.difference(&strip);
    if vs.set.is_empty() {
        managers.remove(manager);
    }
}

/// Folds the oldest update managers past ten into one `ancient-changes` entry per version.
fn cap_update_managers(managers: &mut Managers, times: &mut Times) {
    let mut updaters: Vec<String> = managers
        .iter()
        .filter(|(_, vs)| !vs.applied)
        .map(|(id, _)| id.clone())
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return;
    }
    let seconds = |id: &String| {
        times
            .get(id)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    updaters.sort_by(|a, b| seconds(a).cmp(&seconds(b)).then_with(|| a.cmp(b)));
    let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for id in updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(vs) = managers.get(&id).cloned() else {
            continue;
        };
        let time = times.get(&id).cloned();
        let bucket = identifier("ancient-changes", "Update", &vs.api_version, "");
        match first_of_version.get(&vs.api_version) {
            Some(first) => {
                if !managers.contains_key(&bucket) {
                    if let Some(s) = managers.remove(first) {
                        managers.insert(bucket.clone(), s);
                    }
                }
                if let Some(b) = managers.get_mut(&bucket) {
                    b.set = vs.set.union(&b.set);
                    b.api_version = vs.api_version.clone();
                    b.applied = vs.applied;
                }
                managers.remove(&id);
                length -= 1;
                match time {
                    Some(t) => times.insert(bucket, t),
                    None => times.remove(&bucket),
                };
            }
            None => {
                first_of_version.insert(vs.api_version.clone(), id);
            }
        }
    }
}

/// Upstream's 409 for conflicts: one line for one conflict, else grouped by manager.
fn conflict_error(conflicts: Vec<Conflict>) -> ApplyError {
    let causes = conflicts
        .iter()
        .map(|c| {
            (
                c.path.to_string(),
                format!("conflict with {}", print_manager(&c.manager)),
            )
        })
        .collect();
    let message = if conflicts.len() == 1 {
        format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            print_manager(&conflicts[0].manager),
            conflicts[0].path
        )
    } else {
        let mut by: BTreeMap<&str, Vec<&Path>> = BTreeMap::new();
        for c in &conflicts {
            by.entry(&c.manager).or_default().push(&c.path);
        }
        let mut lines = Vec::new();
        for (m, paths) in by {
            lines.push(format!("conflicts with {}:", print_manager(m)));
            for p in paths {
                lines.push(format!("- {p}"));
            }
        }
        format!(
            "Apply failed with {} conflicts: {}",
            conflicts.len(),
            lines.join("\n")
        )
    };
    ApplyError::Conflict { message, causes }
}

/// A manager as conflict messages name it: `"kubectl"`, `"x" with subresource "status"`,
/// and `using <apiVersion>` for update managers.
fn print_manager(id: &str) -> String {
    let m = parse_identifier(id);
    let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut out = format!("{:?}", s("manager"));
    if !s("subresource").is_empty() {
        out = format!("{out} with subresource {:?}", s("subresource"));
    }
    if s("operation") == "Update" {
        out = format!("{out} using {}", s("apiVersion"));
    }
    out
}
