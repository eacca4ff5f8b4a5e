//! The writer thread: applies every write in arrival order and group-commits them, so that
//! a write is acknowledged (and seen by reads and watches) only once it is durable.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};

use crate::alarm;
use crate::apply::{self, Limits, Output};
use crate::engine::Engine;
use crate::error::EtcdError;
use crate::mvcc::State;
use crate::pb::etcdserverpb::{
    AlarmRequest, DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, TxnRequest,
    TxnResponse,
};
use crate::store::{CommitBatch, Shared};

/// Most requests in one group commit.
const MAX_BATCH: usize = 1024;

/// A write the writer thread applies.
#[derive(Debug)]
pub(crate) enum WriteOp {
    Put(PutRequest),
    DeleteRange(DeleteRangeRequest),
    Txn(TxnRequest),
    Compact(i64),
    LeaseGrant {
        id: i64,
        ttl: i64,
    },
    LeaseRevoke(i64),
    /// Revoke if the lease's deadline has passed (a keep-alive may have won the race).
    LeaseExpire(i64),
    /// Lists, raises or clears an alarm.
    Alarm(AlarmRequest),
    /// Rewrites the database file without its free pages.
    Defragment,
    /// A consistent view of the database for a snapshot, taken after the writes before it.
    Snapshot,
}

/// The answer to a [`WriteOp`]; headers are filled in by the services.
#[derive(Debug)]
pub(crate) enum WriteReply {
    Put(PutResponse),
    DeleteRange(DeleteRangeResponse),
    Txn(TxnResponse),
    Compact,
    LeaseGrant {
        id: i64,
        ttl: i64,
    },
    LeaseRevoke,
    /// The alarms raised after the request.
    Alarm(Vec<i32>),
    Defragment,
    Snapshot(SnapshotView),
}

/// What a snapshot is read from; filled in by the writer loop, which owns the engine.
pub(crate) struct SnapshotView(pub(crate) Option<redb::ReadTransaction>);

impl std::fmt::Debug for SnapshotView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SnapshotView")
    }
}

/// The reply and the revision it reports in its header.
pub(crate) type WriteResult = Result<(WriteReply, i64), EtcdError>;

/// A queued write and where to send its result.
#[derive(Debug)]
pub(crate) struct WriteCmd {
    pub(crate) op: WriteOp,
    pub(crate) reply: oneshot::Sender<WriteResult>,
}

fn apply_one(
    st: &mut State,
    out: &mut Output,
    op: WriteOp,
    limits: Limits,
    member_id: u64,
    db_size: u64,
) -> WriteResult {
    alarm::refused(st, &op)?;
    alarm::check_quota(st, &op, limits.quota_bytes, db_size)?;
    match op {
        WriteOp::Put(req) => apply::put(st, out, req).map(|(r, rev)| (WriteReply::Put(r), rev)),
        WriteOp::DeleteRange(req) => {
            apply::delete_range(st, out, &req).map(|(r, rev)| (WriteReply::DeleteRange(r), rev))
        }
        WriteOp::Txn(req) => {
            apply::txn(st, out, req, limits).map(|(r, rev)| (WriteReply::Txn(r), rev))
        }
        WriteOp::Compact(rev) => {
            st.compact(rev, &mut out.ops)?;
            Ok((WriteReply::Compact, st.current_rev))
        }
        WriteOp::LeaseGrant { id, ttl } => apply::lease_grant(st, out, id, ttl, limits)
            .map(|(id, ttl)| (WriteReply::LeaseGrant { id, ttl }, st.current_rev)),
        WriteOp::LeaseRevoke(id) => {
            apply::lease_revoke(st, out, id).map(|rev| (WriteReply::LeaseRevoke, rev))
        }
        WriteOp::LeaseExpire(id) => {
            let expired = st
                .leases
                .get(&id)
                .is_some_and(|l| l.deadline <= Instant::now());
            if !expired {
                return Err(EtcdError::LeaseNotFound);
            }
            apply::lease_revoke(st, out, id).map(|rev| (WriteReply::LeaseRevoke, rev))
        }
        WriteOp::Alarm(req) => {
            let raised = alarm::request(st, &req, member_id);
            Ok((WriteReply::Alarm(raised), st.current_rev))
        }
        // Done by the writer loop, which owns the engine.
        WriteOp::Defragment => Ok((WriteReply::Defragment, st.current_rev)),
        WriteOp::Snapshot => Ok((WriteReply::Snapshot(SnapshotView(None)), st.current_rev)),
    }
}

/// The writer loop: runs until every sender is gone, then returns.
pub(crate) fn run(
    shared: &Arc<Shared>,
    engine: Engine,
    mut rx: mpsc::Receiver<WriteCmd>,
    limits: Limits,
) {
    // What the space quota is checked against: the file's size after the last commit.
    let mut db_size = Engine::file_size(engine.path()).unsigned_abs();
    // `None` after a failed commit whose database could not be opened again.
    let mut slot = Some(engine);
    // Set by a failed commit: the database is opened again before the next batch.
    let mut broken = false;
    while let Some(first) = rx.blocking_recv() {
        let mut cmds = vec![first];
        while cmds.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(cmd) => cmds.push(cmd),
                Err(_) => break,
            }
        }
        if broken || slot.is_none() {
            // Closed first: the file lock is the process's own.
            drop(slot.take());
            slot = reopen(shared);
            broken = false;
        }
        let Some(engine) = slot.as_mut() else {
            for cmd in cmds {
                let _ = cmd.reply.send(Err(EtcdError::NotPersisted(
                    "its database cannot be opened again".to_owned(),
                )));
            }
            continue;
        };
        let mut out = Output::default();
        let mut replies = Vec::with_capacity(cmds.len());
        let mut defragment = false;
        let last_rev = {
            let mut st = shared.write();
            for cmd in cmds {
                defragment |= matches!(cmd.op, WriteOp::Defragment);
                let result =
                    apply_one(&mut st, &mut out, cmd.op, limits, shared.member_id, db_size);
                replies.push((cmd.reply, result));
            }
            st.current_rev
        };
        if !out.ops.is_empty() {
            let started = Instant::now();
            let committed = engine.commit(&out.ops);
            shared
                .metrics
                .commit
                .observe(started.elapsed().as_secs_f64());
            if let Err(e) = committed {
                // The in-memory state is now ahead of the disk (reads still answer at the
                // last durable revision): the batch is refused, and the state rebuilt from
                // what is durable once the database is open again.
                tracing::error!(
                    error = %e,
                    "embedded store: commit failed, its writes are refused; reopening the \
                     database to go on from what is durable"
                );
                let why = e.to_string();
                for (reply, _) in replies {
                    let _ = reply.send(Err(EtcdError::NotPersisted(why.clone())));
                }
                broken = true;
                continue;
            }
        }
        shared.write().committed_rev = last_rev;
        if !out.ops.is_empty() || defragment {
            db_size = Engine::file_size(engine.path()).unsigned_abs();
        }
        if defragment {
            // Writes wait meanwhile, as etcd's do; reads go on from memory.
            let before = db_size;
            let started = Instant::now();
            match engine.defragment() {
                Ok(()) => {
                    // The quota is checked against the smaller file from now on.
                    db_size = Engine::file_size(engine.path()).unsigned_abs();
                    tracing::info!(
                        before_bytes = before,
                        after_bytes = db_size,
                        took_ms = started.elapsed().as_millis(),
                        "embedded store defragmented"
                    );
                }
                Err(e) => tracing::warn!(error = %e, "embedded store: defragmentation failed"),
            }
        }
        if !out.events.is_empty() {
            // No receivers is fine: nobody is watching.
            let _ = shared.events.send(Arc::new(CommitBatch {
                last_rev,
                events: out.events,
            }));
        }
        for (reply, result) in replies {
            let result = match result {
                Ok((WriteReply::Snapshot(_), rev)) => engine
                    .begin_snapshot()
                    .map(|view| (WriteReply::Snapshot(SnapshotView(Some(view))), rev))
                    .map_err(|e| EtcdError::Snapshot(e.to_string())),
                other => other,
            };
            // The client may have gone away; the write is durable regardless.
            let _ = reply.send(result);
        }
    }
}

/// Opens the database again after a failed commit and rebuilds the state from what is
/// durable (the failed batch is not there); the raised alarms are kept. `None` when it
/// cannot be opened: writes are refused, and the next one tries again.
fn reopen(shared: &Shared) -> Option<Engine> {
    match crate::store::recover(&shared.config) {
        Ok((engine, _, state)) => {
            let mut st = shared.write();
            let alarms = std::mem::take(&mut st.alarms);
            *st = state;
            st.alarms = alarms;
            tracing::info!(
                revision = st.committed_rev,
                "embedded store: database open again, writes go on"
            );
            Some(engine)
        }
        Err(e) => {
            tracing::error!(error = %e, "embedded store: cannot open the database again");
            None
        }
    }
}
