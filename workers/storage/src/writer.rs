//! The writer thread: applies every write in arrival order and group-commits them, so that
//! a write is acknowledged (and seen by reads and watches) only once it is durable.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};

use crate::apply::{self, Limits, Output};
use crate::engine::Engine;
use crate::error::EtcdError;
use crate::mvcc::State;
use crate::pb::etcdserverpb::{
    DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, TxnRequest, TxnResponse,
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
}

/// The answer to a [`WriteOp`]; headers are filled in by the services.
#[derive(Debug)]
pub(crate) enum WriteReply {
    Put(PutResponse),
    DeleteRange(DeleteRangeResponse),
    Txn(TxnResponse),
    Compact,
    LeaseGrant { id: i64, ttl: i64 },
    LeaseRevoke,
}

/// The reply and the revision it reports in its header.
pub(crate) type WriteResult = Result<(WriteReply, i64), EtcdError>;

/// A queued write and where to send its result.
#[derive(Debug)]
pub(crate) struct WriteCmd {
    pub(crate) op: WriteOp,
    pub(crate) reply: oneshot::Sender<WriteResult>,
}

fn apply_one(st: &mut State, out: &mut Output, op: WriteOp, limits: Limits) -> WriteResult {
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
    }
}

/// The writer loop: runs until every sender is gone, then returns.
pub(crate) fn run(
    shared: &Arc<Shared>,
    engine: &Engine,
    mut rx: mpsc::Receiver<WriteCmd>,
    limits: Limits,
) {
    while let Some(first) = rx.blocking_recv() {
        let mut cmds = vec![first];
        while cmds.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(cmd) => cmds.push(cmd),
                Err(_) => break,
            }
        }
        let mut out = Output::default();
        let mut replies = Vec::with_capacity(cmds.len());
        let last_rev = {
            let mut st = shared.write();
            for cmd in cmds {
                let result = if st.stopped {
                    Err(EtcdError::Stopped)
                } else {
                    apply_one(&mut st, &mut out, cmd.op, limits)
                };
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
                // The in-memory state is now ahead of the disk: refuse every later write;
                // reads keep answering at the last durable revision.
                tracing::error!(error = %e, "commit failed; the embedded store stops accepting writes");
                shared.write().stopped = true;
                for (reply, _) in replies {
                    let _ = reply.send(Err(EtcdError::Stopped));
                }
                continue;
            }
        }
        shared.write().committed_rev = last_rev;
        if !out.events.is_empty() {
            // No receivers is fine: nobody is watching.
            let _ = shared.events.send(Arc::new(CommitBatch {
                last_rev,
                events: out.events,
            }));
        }
        for (reply, result) in replies {
            // The client may have gone away; the write is durable regardless.
            let _ = reply.send(result);
        }
    }
}
