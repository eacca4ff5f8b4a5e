//! The `priority-and-fairness-config-producer` post-start hook: kube-apiserver's APF
//! configuration ensurer (upstream's `pkg/registry/flowcontrol/ensurer` and the hook in
//! `pkg/registry/flowcontrol/rest`). It keeps the objects of [`kas_server::flowcontrol_objects`]:
//!
//! - a missing object, mandatory or suggested, is created again, at start and at every
//!   later pass (deleting a suggested object does not opt out; setting its annotation
//!   to "false" does);
//! - a mandatory object always gets its spec back and the auto-update annotation set to
//!   "true", whatever the annotation said (the `exempt` level's own `spec.exempt` is the
//!   operator's to change);
//! - a suggested object gets its spec back when its annotation parses as true; when the
//!   annotation is missing or not a boolean, only when its generation is still 1 (nobody
//!   changed its spec), and the annotation is then written to say which;
//! - an object carrying the annotation as true but no longer among the bootstrap objects
//!   is deleted; objects without it are the user's and left alone.
//!
//! The first pass is retried until it succeeds (then the hook is done): soon at first,
//! since at start storage may be a moment behind, then every second as upstream; the
//! ensurer runs again every minute.

use std::time::Duration;

use kas_server::health::HookHandle;
use kas_server::rest::{revision_of, RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

use kas_server::flowcontrol_objects::{self, specs_equal, AUTOUPDATE_ANNOTATION};

/// The hook's name, as upstream's.
pub(crate) const HOOK: &str = "priority-and-fairness-config-producer";
/// The field manager of the ensurer's writes, as upstream's.
const MANAGER: &str = "api-priority-and-fairness-config-producer-v1";
/// The longest wait before retrying a first pass that failed (storage not up yet).
const RETRY: Duration = Duration::from_secs(1);
/// How often the ensurer runs again once the first pass succeeded.
const INTERVAL: Duration = Duration::from_secs(60);
/// For tests only: the period between passes in milliseconds, instead of a minute (a
/// test of the periodic behaviour would otherwise take minutes).
pub(crate) const INTERVAL_ENV: &str = "KUBE_APISERVER_RS_APF_ENSURE_INTERVAL_MS";

/// How the ensurer treats an existing object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    /// Spec and annotation always put back.
    Mandatory,
    /// Spec put back only while the object is left to the server.
    Suggested,
}

/// What the ensurer compares of one kind: its name and defaulting.
#[derive(Debug, Clone, Copy)]
struct Rules {
    kind: &'static str,
    defaults: fn(&mut Value),
}

/// One resource the ensurer keeps: its store and rules.
#[derive(Debug, Clone)]
struct Objects {
    store: RestStore,
    rules: Rules,
}

/// Go's `strconv.ParseBool`.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

fn annotation(obj: &Value) -> Option<&str> {
    obj.pointer("/metadata/annotations")
        .and_then(|a| a.get(AUTOUPDATE_ANNOTATION))
        .and_then(Value::as_str)
}

fn name_of(obj: &Value) -> &str {
    obj.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Whether a suggested object's spec is the server's to keep: the annotation says so,
/// or (missing or not a boolean) nobody has changed the spec since it was created.
fn should_update_spec(current: &Value) -> bool {
    if let Some(b) = annotation(current).and_then(parse_bool) {
        return b;
    }
    current
        .pointer("/metadata/generation")
        .and_then(Value::as_i64)
        == Some(1)
}

impl Rules {
    /// Whether `current`'s spec is the bootstrap one once that is defaulted; for the
    /// `exempt` level, whatever its `spec.exempt` holds.
    fn spec_equalish(&self, bootstrap: &Value, current: &Value) -> bool {
        let mut expected = json!({"spec": bootstrap.get("spec").cloned().unwrap_or(json!({}))});
        (self.defaults)(&mut expected);
        let actual = current.get("spec").unwrap_or(&Value::Null);
        if self.kind == "PriorityLevelConfiguration" && name_of(bootstrap) == "exempt" {
            let Some(have) = actual.get("exempt").filter(|e| e.is_object()) else {
                return false;
            };
            for key in ["nominalConcurrencyShares", "lendablePercent"] {
                expected["spec"]["exempt"][key] = have.get(key).cloned().unwrap_or(Value::Null);
            }
        }
        specs_equal(&expected["spec"], actual)
    }

    /// The object to write over `current`, if it needs one.
    fn revise(&self, strategy: Strategy, current: &Value, bootstrap: &Value) -> Option<Value> {
        let auto = strategy == Strategy::Mandatory || should_update_spec(current);
        let update_annotation = annotation(current).and_then(parse_bool) != Some(auto);
        let spec_changed = auto && !self.spec_equalish(bootstrap, current);
        if !update_annotation && !spec_changed {
            return None;
        }
        let mut revised = current.clone();
        if spec_changed {
            revised["spec"] = bootstrap.get("spec").cloned().unwrap_or(json!({}));
        }
        if update_annotation {
            let meta = revised.get_mut("metadata").filter(|m| m.is_object())?;
            if !meta.get("annotations").is_some_and(Value::is_object) {
                meta["annotations"] = json!({});
            }
            meta["annotations"][AUTOUPDATE_ANNOTATION] = json!(auto.to_string());
        }
        Some(revised)
    }
}

impl Objects {
    /// Creates `bootstrap` when missing, else brings it up to date as `strategy` says.
    async fn ensure(&self, strategy: Strategy, bootstrap: &Value) -> Result<(), Status> {
        let opts = WriteOptions::server(MANAGER);
        let name = name_of(bootstrap);
        let current = loop {
            match self.store.read_object("", name).await {
                Ok(current) => break current,
                Err(e) if e.reason == Reason::NotFound => {
                    match self.store.create_object("", bootstrap.clone(), &opts).await {
                        Ok(_) => return Ok(()),
                        // Created meanwhile (another server): look at it.
                        Err(e) if e.reason == Reason::AlreadyExists => continue,
                        Err(e) => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        };
        let Some(revised) = self.rules.revise(strategy, &current, bootstrap) else {
            return Ok(());
        };
        match self
            .store
            .update_object("", name, "", revised, revision_of(&current), &opts)
            .await
        {
            // Changed meanwhile: the next pass looks again.
            Err(e) if e.reason == Reason::Conflict => Ok(()),
            other => other.map(|_| ()),
        }
    }

    /// Ensures every one of `objects`, all at once (the store commits concurrent writes
    /// together: on a new store, one after another took ~150 ms of the start).
    async fn ensure_all(&self, strategy: Strategy, objects: &[Value]) -> Result<(), Status> {
        let each = objects.iter().map(|o| self.ensure(strategy, o));
        futures_util::future::join_all(each)
            .await
            .into_iter()
            .collect()
    }

    /// Deletes the objects the server once made (annotation true) that are no longer
    /// among `wanted`.
    async fn remove_unwanted(&self, wanted: &[Value]) -> Result<(), Status> {
        let opts = WriteOptions::server(MANAGER);
        let (all, _) = self.store.list_objects("").await?;
        for obj in &all {
            let name = name_of(obj);
            if wanted.iter().any(|w| name_of(w) == name) {
                continue;
            }
            if annotation(obj).and_then(parse_bool) != Some(true) {
                continue;
            }
            match self.store.delete_object("", name, None, &opts).await {
                Err(e) if e.reason != Reason::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }
}

const FLOW_SCHEMAS: Rules = Rules {
    kind: "FlowSchema",
    defaults: crate::defaults::flowschema_defaults,
};
const LEVELS: Rules = Rules {
    kind: "PriorityLevelConfiguration",
    defaults: crate::defaults::priority_level_defaults,
};

/// The ensurer of both kinds.
#[derive(Debug, Clone)]
struct Ensurer {
    flow_schemas: Objects,
    levels: Objects,
}

impl Ensurer {
    /// One pass, in upstream's order: suggested, then mandatory (levels before the
    /// schemas that name them), then removal of unwanted objects.
    async fn pass(&self) -> Result<(), Status> {
        let suggested_levels = flowcontrol_objects::suggested_priority_levels();
        let suggested_schemas = flowcontrol_objects::suggested_flow_schemas();
        let mandatory_levels = flowcontrol_objects::mandatory_priority_levels();
        let mandatory_schemas = flowcontrol_objects::mandatory_flow_schemas();
        self.levels
            .ensure_all(Strategy::Suggested, &suggested_levels)
            .await?;
        self.flow_schemas
            .ensure_all(Strategy::Suggested, &suggested_schemas)
            .await?;
        self.levels
            .ensure_all(Strategy::Mandatory, &mandatory_levels)
            .await?;
        self.flow_schemas
            .ensure_all(Strategy::Mandatory, &mandatory_schemas)
            .await?;
        let schemas = [mandatory_schemas, suggested_schemas].concat();
        self.flow_schemas.remove_unwanted(&schemas).await?;
        let levels = [mandatory_levels, suggested_levels].concat();
        self.levels.remove_unwanted(&levels).await
    }
}

/// The period between passes: a minute, or [`INTERVAL_ENV`]'s milliseconds.
fn interval() -> Duration {
    kas_server::period::from_env(INTERVAL_ENV, INTERVAL)
}

/// Starts the ensurer: `hook` is done after the first successful pass.
pub(crate) fn start(hook: HookHandle, flow_schemas: RestStore, levels: RestStore) {
    let ensurer = Ensurer {
        flow_schemas: Objects {
            store: flow_schemas,
            rules: FLOW_SCHEMAS,
        },
        levels: Objects {
            store: levels,
            rules: LEVELS,
        },
    };
    let period = interval();
    tokio::spawn(async move {
        let mut retry = kas_server::retry::Retry::up_to(RETRY);
        while let Err(e) = ensurer.pass().await {
            tracing::debug!(error = %e.message, "APF bootstrap ensurer failed; retrying");
            retry.wait().await;
        }
        hook.done();
        loop {
            tokio::time::sleep(period).await;
            if let Err(e) = ensurer.pass().await {
                tracing::debug!(error = %e.message, "APF bootstrap ensurer failed; will retry later");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(mut o: Value, generation: i64) -> Value {
        o["metadata"]["generation"] = json!(generation);
        if o["kind"] == "FlowSchema" {
            crate::defaults::flowschema_defaults(&mut o);
        } else {
            crate::defaults::priority_level_defaults(&mut o);
        }
        o
    }

    #[test]
    fn parse_bool_is_gos() {
        for t in ["1", "t", "T", "TRUE", "true", "True"] {
            assert_eq!(parse_bool(t), Some(true));
        }
        for f in ["0", "f", "F", "FALSE", "false", "False"] {
            assert_eq!(parse_bool(f), Some(false));
        }
        assert_eq!(parse_bool("yes"), None);
    }

    #[test]
    fn mandatory_objects_are_always_put_back() {
        let fs = FLOW_SCHEMAS;
        let boot = flowcontrol_objects::mandatory_flow_schemas()[1].clone();
        let current = stored(boot.clone(), 1);
        assert!(fs.revise(Strategy::Mandatory, &current, &boot).is_none());
        let mut off = current.clone();
        off["metadata"]["annotations"][AUTOUPDATE_ANNOTATION] = json!("false");
        off["spec"]["matchingPrecedence"] = json!(9999);
        let r = fs
            .revise(Strategy::Mandatory, &off, &boot)
            .expect("revised");
        assert_eq!(r["metadata"]["annotations"][AUTOUPDATE_ANNOTATION], "true");
        assert_eq!(r["spec"]["matchingPrecedence"], 10000);
        // The exempt level's own member is the operator's.
        let pl = LEVELS;
        let boot = flowcontrol_objects::mandatory_priority_levels()[1].clone();
        let mut changed = stored(boot.clone(), 2);
        changed["spec"]["exempt"]["nominalConcurrencyShares"] = json!(7);
        assert!(pl.revise(Strategy::Mandatory, &changed, &boot).is_none());
        changed["spec"]["exempt"] = Value::Null;
        assert!(pl.revise(Strategy::Mandatory, &changed, &boot).is_some());
    }

    #[test]
    fn suggested_objects_follow_the_annotation() {
        let pl = LEVELS;
        let boot = flowcontrol_objects::suggested_priority_levels()[0].clone();
        let mut edited = stored(boot.clone(), 2);
        edited["spec"]["limited"]["nominalConcurrencyShares"] = json!(1);
        let r = pl
            .revise(Strategy::Suggested, &edited, &boot)
            .expect("revised");
        assert_eq!(r["spec"]["limited"]["nominalConcurrencyShares"], 30);
        edited["metadata"]["annotations"][AUTOUPDATE_ANNOTATION] = json!("false");
        assert!(pl.revise(Strategy::Suggested, &edited, &boot).is_none());
        // No annotation: generation 1 means untouched (spec put back, annotation true);
        // a later generation means the operator's (annotation false, spec kept).
        let mut bare = edited.clone();
        bare["metadata"]["annotations"] = json!({});
        let r = pl
            .revise(Strategy::Suggested, &bare, &boot)
            .expect("revised");
        assert_eq!(r["metadata"]["annotations"][AUTOUPDATE_ANNOTATION], "false");
        assert_eq!(r["spec"]["limited"]["nominalConcurrencyShares"], 1);
        bare["metadata"]["generation"] = json!(1);
        let r = pl
            .revise(Strategy::Suggested, &bare, &boot)
            .expect("revised");
        assert_eq!(r["metadata"]["annotations"][AUTOUPDATE_ANNOTATION], "true");
        assert_eq!(r["spec"]["limited"]["nominalConcurrencyShares"], 30);
    }
}
