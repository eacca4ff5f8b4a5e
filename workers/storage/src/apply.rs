//! Applying writes to the in-memory state: Put, DeleteRange, Txn, lease grant and revoke.
//!
//! Only the writer thread calls these, holding the state's write lock. Each function
//! validates everything first and then mutates, so a rejected request changes nothing;
//! the changes it makes are returned as engine ops (to commit) and events (to publish).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::engine::EngineOp;
use crate::error::EtcdError;
use crate::mvcc::{encode_record, tombstone_kv, visible_at, Entry, KeyRange, Lease, State};
use crate::pb::etcdserverpb::{
    compare, request_op, response_op, Compare, DeleteRangeRequest, DeleteRangeResponse, PutRequest,
    PutResponse, RequestOp, ResponseOp, TxnRequest, TxnResponse,
};
use crate::pb::mvccpb::{event::EventType, Event, KeyValue};

/// etcd's largest lease TTL (`MaxLeaseTTL`), in seconds.
const MAX_LEASE_TTL: i64 = 9_000_000_000;

/// What one batch of writes produced: engine ops to commit and events to publish.
#[derive(Debug, Default)]
pub(crate) struct Output {
    pub(crate) ops: Vec<EngineOp>,
    pub(crate) events: Vec<Event>,
}

/// Limits the writer enforces on requests.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub(crate) max_txn_ops: usize,
    pub(crate) min_lease_ttl: i64,
    /// The space quota in bytes.
    pub(crate) quota_bytes: u64,
}

/// The changes of one request: they all share the next main revision.
struct RevWriter<'a> {
    st: &'a mut State,
    out: &'a mut Output,
    rev: i64,
    sub: i64,
}

impl<'a> RevWriter<'a> {
    fn new(st: &'a mut State, out: &'a mut Output) -> Self {
        let rev = st.current_rev + 1;
        RevWriter {
            st,
            out,
            rev,
            sub: 0,
        }
    }

    /// The revision reads inside this request see: its own changes included.
    fn read_rev(&self) -> i64 {
        if self.sub > 0 {
            self.rev
        } else {
            self.st.current_rev
        }
    }

    fn put(&mut self, key: Bytes, value: Bytes, lease: i64) -> Option<KeyValue> {
        let State { index, leases, .. } = &mut *self.st;
        // What is kept gets allocations of its own: the request's bytes are slices of the
        // connection's read buffer, and keeping one would pin the whole buffer (several
        // KiB per stored value). Every version of a key shares the index's copy.
        let key = match index.get_key_value(&key) {
            Some((stored, _)) => stored.clone(),
            None => Bytes::copy_from_slice(&key),
        };
        let value = Bytes::copy_from_slice(&value);
        let entries = index.entry(key.clone()).or_default();
        // Most keys have a version or two between compactions: grow their list by one
        // at first instead of to four.
        if entries.len() < 4 {
            entries.reserve_exact(1);
        }
        let prev = entries.last().and_then(|e| e.kv.clone());
        let (create_revision, version) = match &prev {
            Some(p) => (p.create_revision, p.version + 1),
            None => (self.rev, 1),
        };
        let kv = KeyValue {
            key: key.clone(),
            create_revision,
            mod_revision: self.rev,
            version,
            value,
            lease,
        };
        if let Some(p) = &prev {
            if p.lease != 0 && p.lease != lease {
                if let Some(l) = leases.get_mut(&p.lease) {
                    l.keys.remove(&key);
                }
            }
        }
        if lease != 0 {
            if let Some(l) = leases.get_mut(&lease) {
                l.keys.insert(key);
            }
        }
        entries.push(Entry {
            main: self.rev,
            sub: self.sub,
            kv: Some(kv.clone()),
        });
        self.out.ops.push(EngineOp::PutRev {
            main: self.rev,
            sub: self.sub,
            record: encode_record(&kv, false),
        });
        self.out.events.push(Event {
            r#type: EventType::Put as i32,
            kv: Some(kv),
            prev_kv: prev.clone(),
        });
        self.sub += 1;
        prev
    }

    fn delete(&mut self, range: &KeyRange) -> Vec<KeyValue> {
        let live: Vec<KeyValue> = self
            .st
            .iter_range(range)
            .filter_map(|(_, entries)| entries.last().and_then(|e| e.kv.clone()))
            .collect();
        for prev in &live {
            if prev.lease != 0 {
                if let Some(l) = self.st.leases.get_mut(&prev.lease) {
                    l.keys.remove(&prev.key);
                }
            }
            let tomb = tombstone_kv(prev.key.clone(), self.rev);
            if let Some(entries) = self.st.index.get_mut(&prev.key) {
                entries.push(Entry {
                    main: self.rev,
                    sub: self.sub,
                    kv: None,
                });
            }
            self.out.ops.push(EngineOp::PutRev {
                main: self.rev,
                sub: self.sub,
                record: encode_record(&tomb, true),
            });
            self.out.events.push(Event {
                r#type: EventType::Delete as i32,
                kv: Some(tomb),
                prev_kv: Some(prev.clone()),
            });
            self.sub += 1;
        }
        live
    }

    /// Makes the revision current if anything changed; returns the request's revision.
    fn finish(self) -> i64 {
        if self.sub > 0 {
            self.st.current_rev = self.rev;
        }
        self.st.current_rev
    }
}

fn check_put(st: &State, req: &PutRequest) -> Result<(), EtcdError> {
    if req.key.is_empty() {
        return Err(EtcdError::EmptyKey);
    }
    if req.ignore_value && !req.value.is_empty() {
        return Err(EtcdError::ValueProvided);
    }
    if req.ignore_lease && req.lease != 0 {
        return Err(EtcdError::LeaseProvided);
    }
    if req.lease != 0 && !st.leases.contains_key(&req.lease) {
        return Err(EtcdError::LeaseNotFound);
    }
    if req.ignore_value || req.ignore_lease {
        let exists = st
            .index
            .get(&req.key)
            .and_then(|e| e.last())
            .is_some_and(|e| e.kv.is_some());
        if !exists {
            return Err(EtcdError::KeyNotFound);
        }
    }
    Ok(())
}

fn do_put(w: &mut RevWriter<'_>, req: PutRequest) -> PutResponse {
    let current =
        w.st.index
            .get(&req.key)
            .and_then(|e| e.last())
            .and_then(|e| e.kv.as_ref());
    let value = match (req.ignore_value, current) {
        (true, Some(kv)) => kv.value.clone(),
        _ => req.value,
    };
    let lease = match (req.ignore_lease, current) {
        (true, Some(kv)) => kv.lease,
        _ => req.lease,
    };
    let prev = w.put(req.key, value, lease);
    PutResponse {
        header: None,
        prev_kv: if req.prev_kv { prev } else { None },
    }
}

fn do_delete(w: &mut RevWriter<'_>, req: &DeleteRangeRequest) -> DeleteRangeResponse {
    let prevs = w.delete(&KeyRange::new(&req.key, &req.range_end));
    DeleteRangeResponse {
        header: None,
        deleted: i64::try_from(prevs.len()).unwrap_or(i64::MAX),
        prev_kvs: if req.prev_kv { prevs } else { Vec::new() },
    }
}

/// Applies a Put; returns the response and its revision.
pub(crate) fn put(
    st: &mut State,
    out: &mut Output,
    req: PutRequest,
) -> Result<(PutResponse, i64), EtcdError> {
    check_put(st, &req)?;
    let mut w = RevWriter::new(st, out);
    let resp = do_put(&mut w, req);
    Ok((resp, w.finish()))
}

/// Applies a DeleteRange; returns the response and its revision.
pub(crate) fn delete_range(
    st: &mut State,
    out: &mut Output,
    req: &DeleteRangeRequest,
) -> Result<(DeleteRangeResponse, i64), EtcdError> {
    if req.key.is_empty() {
        return Err(EtcdError::EmptyKey);
    }
    let mut w = RevWriter::new(st, out);
    let resp = do_delete(&mut w, req);
    Ok((resp, w.finish()))
}

fn compare_kv(c: &Compare, kv: &KeyValue) -> bool {
    use compare::{CompareResult, CompareTarget, TargetUnion};
    let int = |v: i64, want: Option<i64>| v.cmp(&want.unwrap_or(0));
    let ord = match CompareTarget::try_from(c.target) {
        Ok(CompareTarget::Version) => int(
            kv.version,
            match c.target_union {
                Some(TargetUnion::Version(v)) => Some(v),
                _ => None,
            },
        ),
        Ok(CompareTarget::Create) => int(
            kv.create_revision,
            match c.target_union {
                Some(TargetUnion::CreateRevision(v)) => Some(v),
                _ => None,
            },
        ),
        Ok(CompareTarget::Mod) => int(
            kv.mod_revision,
            match c.target_union {
                Some(TargetUnion::ModRevision(v)) => Some(v),
                _ => None,
            },
        ),
        Ok(CompareTarget::Lease) => int(
            kv.lease,
            match c.target_union {
                Some(TargetUnion::Lease(v)) => Some(v),
                _ => None,
            },
        ),
        Ok(CompareTarget::Value) => match &c.target_union {
            Some(TargetUnion::Value(v)) => kv.value.as_ref().cmp(v.as_ref()),
            _ => std::cmp::Ordering::Equal,
        },
        Err(_) => return false,
    };
    match CompareResult::try_from(c.result) {
        Ok(CompareResult::Equal) => ord.is_eq(),
        Ok(CompareResult::Greater) => ord.is_gt(),
        Ok(CompareResult::Less) => ord.is_lt(),
        Ok(CompareResult::NotEqual) => ord.is_ne(),
        Err(_) => false,
    }
}

/// etcd's `applyCompare`: every key in the range must satisfy the comparison; a missing key
/// compares as a zero key-value, except that a VALUE comparison on it always fails.
fn compare_holds(st: &State, c: &Compare) -> bool {
    let range = KeyRange::new(&c.key, &c.range_end);
    let mut any = false;
    for (_, entries) in st.iter_range(&range) {
        if let Some(kv) = visible_at(entries, i64::MAX) {
            any = true;
            if !compare_kv(c, kv) {
                return false;
            }
        }
    }
    if any {
        return true;
    }
    if c.target == compare::CompareTarget::Value as i32 {
        return false;
    }
    compare_kv(c, &KeyValue::default())
}

/// etcd's `checkTxnReqs` for one branch: no nested txn, no key put twice, no delete that
/// covers a put key.
fn check_branch(ops: &[RequestOp]) -> Result<(), EtcdError> {
    let mut puts: BTreeSet<&Bytes> = BTreeSet::new();
    for op in ops {
        match &op.request {
            Some(request_op::Request::RequestPut(p)) => {
                if p.key.is_empty() {
                    return Err(EtcdError::EmptyKey);
                }
                if !puts.insert(&p.key) {
                    return Err(EtcdError::DuplicateKey);
                }
            }
            Some(request_op::Request::RequestTxn(_)) => return Err(EtcdError::NestedTxn),
            Some(request_op::Request::RequestRange(r)) if r.key.is_empty() => {
                return Err(EtcdError::EmptyKey)
            }
            Some(request_op::Request::RequestDeleteRange(d)) if d.key.is_empty() => {
                return Err(EtcdError::EmptyKey)
            }
            _ => {}
        }
    }
    for op in ops {
        if let Some(request_op::Request::RequestDeleteRange(d)) = &op.request {
            let range = KeyRange::new(&d.key, &d.range_end);
            if puts.iter().any(|k| range.contains(k)) {
                return Err(EtcdError::DuplicateKey);
            }
        }
    }
    Ok(())
}

/// Applies a Txn; returns the response (headers unset) and its revision.
pub(crate) fn txn(
    st: &mut State,
    out: &mut Output,
    req: TxnRequest,
    limits: Limits,
) -> Result<(TxnResponse, i64), EtcdError> {
    let max = limits.max_txn_ops;
    if req.compare.len() > max || req.success.len() > max || req.failure.len() > max {
        return Err(EtcdError::TooManyOps);
    }
    check_branch(&req.success)?;
    check_branch(&req.failure)?;
    let succeeded = req.compare.iter().all(|c| compare_holds(st, c));
    let ops = if succeeded { req.success } else { req.failure };
    // Validate the chosen branch against the state before anything changes.
    for op in &ops {
        match &op.request {
            Some(request_op::Request::RequestPut(p)) => check_put(st, p)?,
            Some(request_op::Request::RequestRange(r)) => {
                st.resolve_rev(r.revision, st.current_rev)?;
            }
            _ => {}
        }
    }
    let mut w = RevWriter::new(st, out);
    let mut responses = Vec::with_capacity(ops.len());
    for op in ops {
        let response = match op.request {
            Some(request_op::Request::RequestRange(r)) => {
                let rev = if r.revision > 0 {
                    r.revision
                } else {
                    w.read_rev()
                };
                Some(response_op::Response::ResponseRange(w.st.range(&r, rev)))
            }
            Some(request_op::Request::RequestPut(p)) => {
                Some(response_op::Response::ResponsePut(do_put(&mut w, p)))
            }
            Some(request_op::Request::RequestDeleteRange(d)) => Some(
                response_op::Response::ResponseDeleteRange(do_delete(&mut w, &d)),
            ),
            // Rejected by `check_branch`.
            Some(request_op::Request::RequestTxn(_)) | None => None,
        };
        responses.push(ResponseOp { response });
    }
    let rev = w.finish();
    Ok((
        TxnResponse {
            header: None,
            succeeded,
            responses,
        },
        rev,
    ))
}

/// Grants a lease; `id == 0` lets the store pick one. Returns `(id, ttl)`.
pub(crate) fn lease_grant(
    st: &mut State,
    out: &mut Output,
    id: i64,
    ttl: i64,
    limits: Limits,
) -> Result<(i64, i64), EtcdError> {
    if ttl > MAX_LEASE_TTL {
        return Err(EtcdError::LeaseTtlTooLarge);
    }
    let ttl = ttl.max(limits.min_lease_ttl);
    let id = if id == 0 {
        loop {
            // Positive and unused, like etcd's generated ids.
            let candidate = (rand::random::<u64>() >> 1) as i64;
            if candidate != 0 && !st.leases.contains_key(&candidate) {
                break candidate;
            }
        }
    } else if st.leases.contains_key(&id) {
        return Err(EtcdError::LeaseExist);
    } else {
        id
    };
    let deadline = Instant::now() + Duration::from_secs(ttl.unsigned_abs());
    st.leases.insert(
        id,
        Lease {
            ttl,
            deadline,
            keys: BTreeSet::new(),
        },
    );
    out.ops.push(EngineOp::PutLease { id, ttl });
    Ok((id, ttl))
}

/// Revokes a lease, deleting its keys in one revision. Returns the revision.
pub(crate) fn lease_revoke(st: &mut State, out: &mut Output, id: i64) -> Result<i64, EtcdError> {
    let lease = st.leases.remove(&id).ok_or(EtcdError::LeaseNotFound)?;
    out.ops.push(EngineOp::DelLease { id });
    let mut w = RevWriter::new(st, out);
    for key in lease.keys {
        w.delete(&KeyRange::Single(key));
    }
    Ok(w.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb::etcdserverpb::RangeRequest;

    const LIMITS: Limits = Limits {
        max_txn_ops: 128,
        min_lease_ttl: 2,
        quota_bytes: u64::MAX,
    };

    fn b(s: &str) -> Bytes {
        Bytes::copy_from_slice(s.as_bytes())
    }

    fn put_req(key: &str, value: &str) -> PutRequest {
        PutRequest {
            key: b(key),
            value: b(value),
            ..PutRequest::default()
        }
    }

    fn cmp(key: &str, target: compare::CompareTarget, union: compare::TargetUnion) -> Compare {
        Compare {
            result: compare::CompareResult::Equal as i32,
            target: target as i32,
            key: b(key),
            target_union: Some(union),
            range_end: Bytes::new(),
        }
    }

    #[test]
    fn versions_and_revisions_like_etcd() {
        let mut st = State::empty();
        let mut out = Output::default();
        assert_eq!(put(&mut st, &mut out, put_req("k", "a")).unwrap().1, 2);
        assert_eq!(put(&mut st, &mut out, put_req("k", "b")).unwrap().1, 3);
        let kv = st.index[&b("k")].last().unwrap().kv.clone().unwrap();
        assert_eq!((kv.create_revision, kv.mod_revision, kv.version), (2, 3, 2));
        let del = DeleteRangeRequest {
            key: b("k"),
            ..DeleteRangeRequest::default()
        };
        assert_eq!(delete_range(&mut st, &mut out, &del).unwrap().1, 4);
        // Deleting nothing takes no revision.
        assert_eq!(delete_range(&mut st, &mut out, &del).unwrap().1, 4);
        put(&mut st, &mut out, put_req("k", "c")).unwrap();
        let kv = st.index[&b("k")].last().unwrap().kv.clone().unwrap();
        assert_eq!((kv.create_revision, kv.version), (5, 1));
        assert_eq!(out.events.len(), 4);
    }

    #[test]
    fn stored_bytes_do_not_pin_the_request_buffer() {
        let buf = Bytes::from(vec![b'k'; 4096]);
        let inside = |b: &Bytes| buf.as_ptr_range().contains(&b.as_ptr());
        let req = |value: std::ops::Range<usize>| PutRequest {
            key: buf.slice(0..3),
            value: buf.slice(value),
            ..PutRequest::default()
        };
        let mut st = State::empty();
        let mut out = Output::default();
        put(&mut st, &mut out, req(10..20)).unwrap();
        put(&mut st, &mut out, req(20..40)).unwrap();
        let (key, entries) = st.index.iter().next().unwrap();
        assert!(!inside(key));
        for e in entries {
            let kv = e.kv.as_ref().unwrap();
            assert!(!inside(&kv.key) && !inside(&kv.value));
            assert_eq!(kv.key.as_ptr(), key.as_ptr(), "versions share the key");
        }
        assert_eq!(entries.capacity(), 2);
    }

    #[test]
    fn txn_compares_on_missing_keys_and_takes_one_revision() {
        use compare::{CompareTarget as T, TargetUnion as U};
        let mut st = State::empty();
        let mut out = Output::default();
        let create = TxnRequest {
            compare: vec![cmp("k", T::Create, U::CreateRevision(0))],
            success: vec![
                RequestOp {
                    request: Some(request_op::Request::RequestPut(put_req("k", "v"))),
                },
                RequestOp {
                    request: Some(request_op::Request::RequestPut(put_req("j", "w"))),
                },
                RequestOp {
                    request: Some(request_op::Request::RequestRange(RangeRequest {
                        key: b("k"),
                        ..RangeRequest::default()
                    })),
                },
            ],
            failure: vec![],
        };
        let (resp, rev) = txn(&mut st, &mut out, create.clone(), LIMITS).unwrap();
        assert!(resp.succeeded);
        assert_eq!(rev, 2);
        // The range inside the txn sees the txn's own put.
        match &resp.responses[2].response {
            Some(response_op::Response::ResponseRange(r)) => assert_eq!(r.kvs.len(), 1),
            other => panic!("unexpected {other:?}"),
        }
        let (resp, rev) = txn(&mut st, &mut out, create, LIMITS).unwrap();
        assert!(!resp.succeeded);
        assert_eq!(rev, 2);
        // VALUE on a missing key fails; VERSION == 0 on a missing key holds.
        let on_missing = |c| TxnRequest {
            compare: vec![c],
            ..TxnRequest::default()
        };
        let value = on_missing(cmp("nope", T::Value, U::Value(Bytes::new())));
        assert!(!txn(&mut st, &mut out, value, LIMITS).unwrap().0.succeeded);
        let version = on_missing(cmp("nope", T::Version, U::Version(0)));
        assert!(txn(&mut st, &mut out, version, LIMITS).unwrap().0.succeeded);
    }

    #[test]
    fn lease_revoke_deletes_attached_keys_in_one_revision() {
        let mut st = State::empty();
        let mut out = Output::default();
        let (id, ttl) = lease_grant(&mut st, &mut out, 0, 1, LIMITS).unwrap();
        assert!(id > 0);
        assert_eq!(ttl, 2);
        for k in ["a", "b"] {
            let req = PutRequest {
                lease: id,
                ..put_req(k, "v")
            };
            put(&mut st, &mut out, req).unwrap();
        }
        let missing = PutRequest {
            lease: id + 1,
            ..put_req("c", "v")
        };
        assert_eq!(
            put(&mut st, &mut out, missing),
            Err(EtcdError::LeaseNotFound)
        );
        assert_eq!(lease_revoke(&mut st, &mut out, id), Ok(4));
        assert!(st.index.values().all(|e| e.last().unwrap().kv.is_none()));
        assert_eq!(
            lease_revoke(&mut st, &mut out, id),
            Err(EtcdError::LeaseNotFound)
        );
    }
}
