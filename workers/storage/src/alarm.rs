//! etcd's alarms and space quota on this one-member store.
//!
//! NOSPACE: a write that adds data (a put, a txn that may put, a lease grant) and would
//! take the database file past the quota raises it and is refused; while it is raised
//! every such write is refused with `database space exceeded`, and reads, deletes,
//! compaction and lease revokes go on so that an operator can make room (compact,
//! defragment, then `etcdctl alarm disarm`). CORRUPT refuses every write. Alarms live in
//! memory: a restart clears them, and an over-quota store raises NOSPACE again at its
//! next write.

use crate::error::EtcdError;
use crate::mvcc::State;
use crate::pb::etcdserverpb::{alarm_request::AlarmAction, AlarmRequest, AlarmType, TxnRequest};
use crate::writer::WriteOp;

/// etcd's estimate of what storing a key's metadata costs, beyond its key and value.
const KV_OVERHEAD: u64 = 256;
/// etcd's estimate of what storing a lease costs.
const LEASE_OVERHEAD: u64 = 64;

fn raised(st: &State, alarm: AlarmType) -> bool {
    st.alarms.contains(&(alarm as i32))
}

/// What an operation adds to the database as etcd's quota counts it; 0 for one that
/// adds nothing.
fn cost(op: &WriteOp) -> u64 {
    let put = |key: &[u8], value: &[u8], lease: i64| {
        let lease = if lease == 0 { 0 } else { LEASE_OVERHEAD };
        KV_OVERHEAD + key.len() as u64 + value.len() as u64 + lease
    };
    let txn_branch = |ops: &[crate::pb::etcdserverpb::RequestOp]| -> u64 {
        ops.iter()
            .filter_map(|op| match &op.request {
                Some(crate::pb::etcdserverpb::request_op::Request::RequestPut(p)) => {
                    Some(put(&p.key, &p.value, p.lease))
                }
                _ => None,
            })
            .sum()
    };
    match op {
        WriteOp::Put(p) => put(&p.key, &p.value, p.lease),
        WriteOp::LeaseGrant { .. } => LEASE_OVERHEAD,
        WriteOp::Txn(TxnRequest {
            success, failure, ..
        }) => txn_branch(success).max(txn_branch(failure)),
        _ => 0,
    }
}

/// Refuses what a raised alarm forbids.
pub(crate) fn refused(st: &State, op: &WriteOp) -> Result<(), EtcdError> {
    if raised(st, AlarmType::Corrupt) && !matches!(op, WriteOp::Alarm(_)) {
        return Err(EtcdError::Corrupt);
    }
    // As etcd's capped applier: what costs space is refused.
    if cost(op) > 0 && raised(st, AlarmType::Nospace) {
        return Err(EtcdError::NoSpace);
    }
    Ok(())
}

/// Raises NOSPACE and refuses `op` when it would take a `db_size`-byte file past `quota`.
pub(crate) fn check_quota(
    st: &mut State,
    op: &WriteOp,
    quota: u64,
    db_size: u64,
) -> Result<(), EtcdError> {
    let cost = cost(op);
    if cost == 0 || db_size.saturating_add(cost) < quota {
        return Ok(());
    }
    if st.alarms.insert(AlarmType::Nospace as i32) {
        tracing::warn!(
            quota_bytes = quota,
            db_size_bytes = db_size,
            "embedded store: space quota exhausted, NOSPACE alarm raised; writes that add data \
             are refused until it is compacted, defragmented and the alarm disarmed"
        );
    }
    Err(EtcdError::NoSpace)
}

/// Carries out an alarm request on this member (the only one; `memberID` 0 means every
/// member) and returns the raised alarms it asks about (every one for `NONE`).
pub(crate) fn request(st: &mut State, req: &AlarmRequest, member_id: u64) -> Vec<i32> {
    let ours = req.member_id == 0 || req.member_id == member_id;
    let kind = req.alarm;
    match AlarmAction::try_from(req.action) {
        Ok(AlarmAction::Activate) if ours && kind != AlarmType::None as i32 => {
            st.alarms.insert(kind);
        }
        Ok(AlarmAction::Deactivate) if ours => {
            st.alarms.remove(&kind);
        }
        _ => {}
    }
    st.alarms
        .iter()
        .copied()
        .filter(|a| kind == AlarmType::None as i32 || *a == kind)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb::etcdserverpb::{request_op::Request, PutRequest, RequestOp};
    use bytes::Bytes;

    fn put(value: usize) -> PutRequest {
        PutRequest {
            key: Bytes::from_static(b"k"),
            value: Bytes::from(vec![b'v'; value]),
            ..PutRequest::default()
        }
    }

    #[test]
    fn costs_count_what_is_added_as_etcd() {
        assert_eq!(cost(&WriteOp::Put(put(10))), 256 + 1 + 10);
        let op = |v| RequestOp {
            request: Some(Request::RequestPut(put(v))),
        };
        let txn = TxnRequest {
            success: vec![op(10), op(20)],
            failure: vec![op(1000)],
            ..TxnRequest::default()
        };
        assert_eq!(cost(&WriteOp::Txn(txn)), 256 + 1 + 1000);
        assert_eq!(cost(&WriteOp::Compact(5)), 0);
    }

    #[test]
    fn the_quota_raises_nospace_and_refuses_until_disarmed() {
        let mut st = State::empty();
        let op = WriteOp::Put(put(100));
        assert_eq!(check_quota(&mut st, &op, 1000, 500), Ok(()));
        assert_eq!(
            check_quota(&mut st, &op, 1000, 700),
            Err(EtcdError::NoSpace)
        );
        assert!(raised(&st, AlarmType::Nospace));
        assert_eq!(refused(&st, &op), Err(EtcdError::NoSpace));
        assert_eq!(refused(&st, &WriteOp::Compact(3)), Ok(()));
        let disarm = AlarmRequest {
            action: AlarmAction::Deactivate as i32,
            member_id: 0,
            alarm: AlarmType::Nospace as i32,
        };
        assert!(request(&mut st, &disarm, 7).is_empty());
        assert_eq!(refused(&st, &op), Ok(()));
    }
}
