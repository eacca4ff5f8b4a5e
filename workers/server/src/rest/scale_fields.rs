//! managedFields through the scale subresource, as upstream's ScaleHandler keeps them:
//! the parent's managers of its replicas field become managers of the Scale's
//! `.spec.replicas`, the write (update or apply) is recorded on the Scale object by its
//! own field manager, and the result is mapped back onto the parent's entries (a new
//! scale manager's entry carries no time, as upstream's).

use kas_merge::{decode, encode, FieldManager, Managers, Path, Set, VersionedSet};
use serde_json::{json, Value};

use super::apply_schema::Pos;
use super::managed::{apply_status, Fields};
use crate::status::Status;

const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";
const SCALE_VERSION: &str = "autoscaling/v1";

/// What a scale write brings.
pub(crate) enum ScaleWrite<'a> {
    /// A Scale object (PUT, or the result of a non-apply patch).
    Update(Value),
    /// A server-side apply configuration of a Scale.
    Apply { config: &'a Value, force: bool },
}

fn replicas_in_scale() -> Path {
    Path::fields(&["spec", "replicas"])
}

/// A `.a.b` JSON path as a field path (`None` for anything but plain fields).
fn dotted(path: &str) -> Option<Path> {
    let rest = path.strip_prefix('.')?;
    let names: Vec<&str> = rest.split('.').collect();
    if names
        .iter()
        .any(|n| n.is_empty() || n.contains(['[', ']', '*', '@']))
    {
        return None;
    }
    Some(Path::fields(&names))
}

fn entries_of(obj: &Value) -> Option<&Value> {
    obj.pointer("/metadata/managedFields")
}

fn set_entries(obj: &mut Value, entries: Vec<Value>) {
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        if entries.is_empty() {
            m.remove("managedFields");
        } else {
            m.insert("managedFields".into(), Value::Array(entries));
        }
    }
}

impl Fields<'_> {
    /// Where the parent keeps its replicas.
    fn replicas_path(&self) -> Option<Path> {
        match self.strategy.and_then(|s| s.scale()) {
            Some(p) => dotted(&p.spec_replicas),
            None => Some(Path::fields(&["spec", "replicas"])),
        }
    }

    /// Records a scale write over `parent` (whose Scale is `old_scale`): the Scale after
    /// the write, and the parent's managedFields after it.
    pub(crate) fn scale_write(
        &self,
        parent: &Value,
        old_scale: &Value,
        write: ScaleWrite<'_>,
        manager: &str,
        now: &str,
    ) -> Result<(Value, Vec<Value>), Status> {
        let path = self.replicas_path();
        let (parent_managers, parent_times) = decode(entries_of(parent)).unwrap_or_default();
        // The parent's managers of replicas, as managers of the Scale's.
        let mut scale_managers = Managers::new();
        let mut scale_times = std::collections::BTreeMap::new();
        if let Some(p) = &path {
            for (id, vs) in &parent_managers {
                if vs.set.has(&p.0) {
                    scale_managers.insert(
                        id.clone(),
                        VersionedSet {
                            set: Set::of([replicas_in_scale()]),
                            api_version: SCALE_VERSION.into(),
                            applied: vs.applied,
                        },
                    );
                    if let Some(t) = parent_times.get(id) {
                        scale_times.insert(id.clone(), t.clone());
                    }
                }
            }
        }
        let mut live = old_scale.clone();
        set_entries(&mut live, encode(&scale_managers, &scale_times));
        let schema = Pos::builtin(SCALE);
        let reset = Set::new();
        let fm = FieldManager {
            schema: &schema,
            api_version: SCALE_VERSION,
            kind: "Scale",
            subresource: "scale",
            reset: &reset,
        };
        let mut empty = json!({"metadata": {}});
        if let Some(def) = kas_schema::type_def(SCALE) {
            kas_schema::fill_zero_fields(def, &mut empty);
        }
        let scale = match write {
            ScaleWrite::Update(mut new) => {
                fm.update(Some(&live), &empty, &mut new, manager, now);
                new
            }
            ScaleWrite::Apply { config, force } => fm
                .apply(Some(&live), &empty, config, manager, force, now)
                .map_err(apply_status)?,
        };
        let entries = match &path {
            Some(p) => self.to_parent(parent_managers, &parent_times, &scale, p),
            None => entries_of(parent)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
        };
        Ok((scale, entries))
    }

    /// The parent's entries after the Scale's managers changed.
    fn to_parent(
        &self,
        parent: Managers,
        parent_times: &std::collections::BTreeMap<String, Value>,
        scale: &Value,
        path: &Path,
    ) -> Vec<Value> {
        let (mut scale_managers, _) = decode(entries_of(scale)).unwrap_or_default();
        let own_version = self.resource.api_version();
        let mut out = Managers::new();
        let mut times = std::collections::BTreeMap::new();
        let only_replicas = Set::of([path.clone()]);
        for (id, vs) in parent {
            let keep_time = |times: &mut std::collections::BTreeMap<String, Value>| {
                if let Some(t) = parent_times.get(&id) {
                    times.insert(id.clone(), t.clone());
                }
            };
            if !vs.set.has(&path.0) {
                keep_time(&mut times);
                out.insert(id, vs);
            } else if scale_managers.remove(&id).is_none() {
                // It lost the replicas to this write.
                let rest = vs.set.difference(&only_replicas);
                if !rest.is_empty() {
                    keep_time(&mut times);
                    out.insert(id, VersionedSet { set: rest, ..vs });
                }
            } else {
                keep_time(&mut times);
                out.insert(id, vs);
            }
        }
        for (id, vs) in scale_managers {
            if !vs.set.has(&replicas_in_scale().0) {
                continue;
            }
            if let Some(t) = parent_times.get(&id) {
                times.insert(id.clone(), t.clone());
            }
            out.insert(
                id,
                VersionedSet {
                    set: Set::of([path.clone()]),
                    api_version: own_version.clone(),
                    applied: vs.applied,
                },
            );
        }
        encode(&out, &times)
    }
}
