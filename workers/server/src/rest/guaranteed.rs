//! Upstream's `GuaranteedUpdate`: read, change, compare-and-swap, again when another
//! writer got in first. A client's update that names no resourceVersion is made that way
//! ([`RestStore::update_object`]); a server's own change to a stored object without the
//! request path ([`RestStore::guaranteed_update`]) runs no strategy, validation,
//! admission or field manager, so nothing but what the change does moves (managedFields,
//! generation stay as they were) — what kube-apiserver writes this way (a pod's binding)
//! is written this way here.

use serde_json::Value;

use super::{parse_stored, storage_status, with_revision, RestStore, WriteOptions};
use crate::status::{Reason, Status};
use crate::storage::{ReadVersion, StorageError};

/// How often a change is tried again after another writer got in first.
const TRIES: usize = 5;

/// Whether `e` is the storage's compare-and-swap conflict (another write got in first).
fn is_write_conflict(e: &Status) -> bool {
    e.reason == Reason::Conflict && e.message.contains("the object has been modified")
}

/// The storage's preconditions on an update: the object's uid and resourceVersion, when
/// not empty.
#[derive(Clone, Copy, Debug, Default)]
pub struct Preconditions<'a> {
    pub uid: &'a str,
    pub resource_version: &'a str,
}

impl Preconditions<'_> {
    /// Upstream's storage Preconditions.Check text, for the object read.
    fn failed(&self, obj: &Value) -> Option<String> {
        let at = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("");
        let (uid, rv) = (at("/metadata/uid"), at("/metadata/resourceVersion"));
        if !self.uid.is_empty() && self.uid != uid {
            return Some(format!(
                "Precondition failed: UID in precondition: {}, UID in object meta: {uid}",
                self.uid
            ));
        }
        if !self.resource_version.is_empty() && self.resource_version != rv {
            return Some(format!(
                "Precondition failed: ResourceVersion in precondition: {}, ResourceVersion in object meta: {rv}",
                self.resource_version
            ));
        }
        None
    }
}

impl RestStore {
    /// Writes `obj` over the stored object `ns/name` through subresource `sub` (empty for
    /// the object itself), with `expected` as the resourceVersion precondition.
    pub async fn update_object(
        &self,
        ns: &str,
        name: &str,
        sub: &str,
        obj: Value,
        expected: Option<i64>,
        opts: &WriteOptions,
    ) -> Result<Value, Status> {
        // An update that names no resourceVersion replaces whatever is stored: when
        // another writer gets in between the read and the write, it is made again over
        // the newer object, as upstream's GuaranteedUpdate does without preconditions.
        let unconditional = expected.is_none()
            && obj
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty);
        if !unconditional {
            return self.update_once(ns, name, sub, obj, expected, opts).await;
        }
        let mut tries = 1;
        loop {
            match self
                .update_once(ns, name, sub, obj.clone(), None, opts)
                .await
            {
                Err(e) if tries < TRIES && is_write_conflict(&e) => tries += 1,
                other => return other,
            }
        }
    }

    /// Applies `change` to `ns/name` as stored and writes it over what was read; a
    /// change that fails stops with its status. Unmet preconditions are the storage's
    /// invalid-object error as a conflict on the resource, worded as upstream's
    /// (`StorageError: invalid object, Code: 4, Key: …, AdditionalErrorMsg: Precondition
    /// failed: …`). The object as stored.
    pub async fn guaranteed_update(
        &self,
        ns: &str,
        name: &str,
        preconditions: Preconditions<'_>,
        mut change: impl FnMut(&mut Value) -> Result<(), Status>,
    ) -> Result<Value, Status> {
        let key = self.key(ns, name);
        let mut last = None;
        for _ in 0..TRIES {
            let current = self.read(&key, name, ReadVersion::Latest).await?;
            let mut obj = match self.converter() {
                None => self.present(with_revision(parse_stored(&current)?, current.revision)),
                Some(_) => {
                    let obj = with_revision(parse_stored(&current)?, current.revision);
                    self.present_for_write(obj).await?
                }
            };
            if let Some(why) = preconditions.failed(&obj) {
                return Err(Status::conflict(
                    self.resource.group,
                    self.resource.plural,
                    name,
                    &format!(
                        "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: {why}"
                    ),
                ));
            }
            change(&mut obj)?;
            match self.store_over(&key, name, obj, current.revision).await {
                Err(e) if is_write_conflict(&e) => last = Some(e),
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| {
            storage_status(&self.resource, &StorageError::Conflict { current: 0 }, name)
        }))
    }
}
