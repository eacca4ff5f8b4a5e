//! A server's own change to a stored object without the request path (upstream's
//! `GuaranteedUpdate` on the storage): read, change, compare-and-swap, again on a
//! conflict. No strategy, validation, admission or field manager runs, so nothing but
//! what the change does moves (managedFields, generation stay as they were); what
//! kube-apiserver writes this way (a pod's binding) is written this way here.

use serde_json::Value;

use super::{parse_stored, storage_status, with_revision, RestStore};
use crate::status::Status;
use crate::storage::{ReadVersion, StorageError};

/// How often a change is tried again after another writer got in first.
const TRIES: usize = 5;

impl RestStore {
    /// Applies `change` to `ns/name` as stored and writes it over what was read; a
    /// change that fails stops with its status. The object as stored.
    pub async fn guaranteed_update(
        &self,
        ns: &str,
        name: &str,
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
            change(&mut obj)?;
            match self.store_over(&key, name, obj, current.revision).await {
                Err(e) if e.reason == crate::status::Reason::Conflict => last = Some(e),
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| {
            storage_status(&self.resource, &StorageError::Conflict { current: 0 }, name)
        }))
    }
}
