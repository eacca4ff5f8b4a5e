//! Conversion through a [`Converter`] (a CRD's conversion webhook) where objects leave
//! and enter storage. Stores without one never get here: their callers branch on
//! [`RestStore::converter`] and keep the synchronous `present` / `storage_bytes`, so
//! built-in resources pay no await and no allocation for it.
//!
//! Upstream's wording is the converter's; how a failure reaches the client is the
//! store's: a read answers 500 with the message as it is, a write 500 "Internal error
//! occurred: …" (as kube-apiserver's storage codec reports it).

use bytes::Bytes;
use serde_json::Value;

use super::{with_revision, Converter, RestStore};
use crate::cache::CachedObject;
use crate::status::{Reason, Status};

/// A stored or sent object's apiVersion.
fn api_version_of(obj: &Value) -> &str {
    obj.get("apiVersion").and_then(Value::as_str).unwrap_or("")
}

/// How a failed conversion fails a read.
fn read_failure(message: String) -> Status {
    Status::new(Reason::InternalError, message)
}

impl RestStore {
    /// The converter of this resource's versions, if it has one besides the apiVersion
    /// rewrite.
    pub(crate) fn converter(&self) -> Option<&dyn Converter> {
        self.strategy.as_deref().and_then(|s| s.converter())
    }

    /// The apiVersion objects are stored in.
    fn storage_api_version(&self) -> String {
        match (self.resource.storage_version, self.resource.group) {
            ("", _) => self.resource.api_version(),
            (v, "") => v.to_owned(),
            (v, g) => format!("{g}/{v}"),
        }
    }

    /// `objs` in `want`: those in another version sent to `conv` in one request.
    async fn convert_to(
        &self,
        conv: &dyn Converter,
        mut objs: Vec<Value>,
        want: &str,
        list: bool,
    ) -> Result<Vec<Value>, String> {
        let pending: Vec<usize> = (0..objs.len())
            .filter(|&i| api_version_of(&objs[i]) != want)
            .collect();
        if pending.is_empty() {
            return Ok(objs);
        }
        let send = pending
            .iter()
            .map(|&i| std::mem::take(&mut objs[i]))
            .collect();
        let converted = conv.convert(send, want, list).await?;
        if converted.len() != pending.len() {
            // The converter checks this; a short answer must never drop objects.
            return Err(format!(
                "conversion returned {} objects, expected {}",
                converted.len(),
                pending.len()
            ));
        }
        for (i, obj) in pending.into_iter().zip(converted) {
            objs[i] = obj;
        }
        Ok(objs)
    }

    /// Objects read from storage (with their resourceVersion) as this version shows
    /// them: one request to the converter for all those stored in another version
    /// (`list` when they answer a LIST). Without a converter, [`RestStore::present`].
    pub(crate) async fn present_all(
        &self,
        objs: Vec<Value>,
        list: bool,
    ) -> Result<Vec<Value>, Status> {
        let Some(conv) = self.converter() else {
            return Ok(objs.into_iter().map(|o| self.present(o)).collect());
        };
        let want = self.resource.api_version();
        self.convert_to(conv, objs, &want, list)
            .await
            .map_err(read_failure)
    }

    /// One object read from storage as this version shows it (a read: failures 500).
    pub(crate) async fn present_one(&self, obj: Value) -> Result<Value, Status> {
        let Some(conv) = self.converter() else {
            return Ok(self.present(obj));
        };
        let want = self.resource.api_version();
        let mut out = self
            .convert_to(conv, vec![obj], &want, false)
            .await
            .map_err(read_failure)?;
        out.pop()
            .ok_or_else(|| Status::internal("conversion returned no object"))
    }

    /// The stored object a write starts from, in this version (failures 500
    /// InternalError, as upstream's writes report them).
    pub(crate) async fn present_for_write(&self, obj: Value) -> Result<Value, Status> {
        let Some(conv) = self.converter() else {
            return Ok(self.present(obj));
        };
        let want = self.resource.api_version();
        let mut out = self
            .convert_to(conv, vec![obj], &want, false)
            .await
            .map_err(Status::internal)?;
        out.pop()
            .ok_or_else(|| Status::internal("conversion returned no object"))
    }

    /// The bytes to store for `obj`, converted to the storage version by the converter
    /// when it is in another; with the converted object, which the write's answer is
    /// made from ([`RestStore::written`]). Without a converter, [`RestStore::storage_bytes`].
    pub(crate) async fn to_storage(
        &self,
        key: &str,
        obj: &Value,
    ) -> Result<(Vec<u8>, Option<Value>), Status> {
        let Some(conv) = self.converter() else {
            return Ok((self.storage_bytes(key, obj)?, None));
        };
        let want = self.storage_api_version();
        let encode = |o: &Value| self.storage.encode(key, o).map_err(Status::internal);
        if api_version_of(obj) == want {
            return Ok((encode(obj)?, None));
        }
        let stored = self
            .convert_to(conv, vec![obj.clone()], &want, false)
            .await
            .map_err(Status::internal)?
            .pop()
            .ok_or_else(|| Status::internal("conversion returned no object"))?;
        Ok((encode(&stored)?, Some(stored)))
    }

    /// A write's answer: `obj` at `rev`, or, when [`RestStore::to_storage`] converted it,
    /// what was stored converted back to this version (as upstream answers from what
    /// storage holds).
    pub(crate) async fn written(
        &self,
        obj: Value,
        stored: Option<Value>,
        rev: i64,
    ) -> Result<Value, Status> {
        match stored {
            None => Ok(with_revision(obj, rev)),
            Some(stored) => self.present_for_write(with_revision(stored, rev)).await,
        }
    }

    /// The shared encodings of cached objects as this version shows them, for a store
    /// with a converter: objects already in this version use the cache's shared
    /// encoding; the others are converted (one request) and encoded for this response
    /// only, since a conversion may fail and must then fail again.
    pub(crate) async fn encoded_all(
        &self,
        objs: &[&CachedObject],
        list: bool,
    ) -> Result<Vec<Bytes>, Status> {
        let Some(conv) = self.converter() else {
            return Ok(objs.iter().map(|o| self.encoded(o)).collect());
        };
        let want = self.resource.api_version();
        let mut out: Vec<Bytes> = Vec::with_capacity(objs.len());
        let mut pending: Vec<(usize, Value)> = Vec::new();
        for o in objs {
            let s = o.stored();
            match serde_json::from_slice::<Value>(&s.value) {
                Ok(v) if api_version_of(&v) == want => out.push(self.encoded(o)),
                Ok(v) => {
                    pending.push((out.len(), with_revision(v, s.revision)));
                    out.push(Bytes::new());
                }
                // As `encoded`: what is not JSON is left out.
                Err(_) => out.push(Bytes::new()),
            }
        }
        if pending.is_empty() {
            return Ok(out);
        }
        let (at, send): (Vec<usize>, Vec<Value>) = pending.into_iter().unzip();
        let converted = self
            .convert_to(conv, send, &want, list)
            .await
            .map_err(read_failure)?;
        for (i, obj) in at.into_iter().zip(converted) {
            out[i] = Bytes::from(obj.to_string());
        }
        Ok(out)
    }
}
