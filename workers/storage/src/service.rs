//! The gRPC services (KV, Watch, Lease, Cluster, Maintenance) mapped onto the store.

use tokio::sync::{mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use crate::error::EtcdError;
use crate::lease;
use crate::pb::etcdserverpb::{
    cluster_server::Cluster, kv_server::Kv, lease_server::Lease, maintenance_server::Maintenance,
    response_op, watch_server::Watch, AlarmMember, AlarmRequest, AlarmResponse, AlarmType,
    CompactionRequest, CompactionResponse, DefragmentRequest, DefragmentResponse,
    DeleteRangeRequest, DeleteRangeResponse, LeaseGrantRequest, LeaseGrantResponse,
    LeaseKeepAliveRequest, LeaseKeepAliveResponse, LeaseLeasesRequest, LeaseLeasesResponse,
    LeaseRevokeRequest, LeaseRevokeResponse, LeaseStatus, LeaseTimeToLiveRequest,
    LeaseTimeToLiveResponse, Member, MemberListRequest, MemberListResponse, PutRequest,
    PutResponse, RangeRequest, RangeResponse, ResponseHeader, SnapshotRequest, SnapshotResponse,
    StatusRequest, StatusResponse, TxnRequest, TxnResponse, WatchRequest, WatchResponse,
};
use crate::store::{Handle, RAFT_TERM};
use crate::writer::{SnapshotView, WriteOp, WriteReply};

/// The etcd version the store claims to be (API-compatible with etcd 3.5).
pub(crate) const ETCD_VERSION: &str = "3.5.17";

/// Responses buffered per stream before the stream waits for its client.
const STREAM_BUFFER: usize = 64;

/// The one value behind every service.
#[derive(Debug, Clone)]
pub(crate) struct Etcd {
    pub(crate) handle: Handle,
    pub(crate) shutdown: watch::Receiver<bool>,
    pub(crate) client_url: String,
}

/// A write reply that is not the expected kind: a bug, reported instead of panicking.
fn mismatch() -> Status {
    Status::internal("embedded store: unexpected reply kind")
}

fn set_txn_headers(resp: &mut TxnResponse, header: &ResponseHeader) {
    resp.header = Some(*header);
    for op in &mut resp.responses {
        match &mut op.response {
            Some(response_op::Response::ResponseRange(r)) => r.header = Some(*header),
            Some(response_op::Response::ResponsePut(r)) => r.header = Some(*header),
            Some(response_op::Response::ResponseDeleteRange(r)) => r.header = Some(*header),
            Some(response_op::Response::ResponseTxn(r)) => set_txn_headers(r, header),
            None => {}
        }
    }
}

impl Etcd {
    fn check_size(&self, len: usize) -> Result<(), Status> {
        if len > self.handle.shared.config.max_request_bytes {
            return Err(EtcdError::RequestTooLarge.into());
        }
        Ok(())
    }
}

#[tonic::async_trait]
impl Kv for Etcd {
    async fn range(
        &self,
        request: Request<RangeRequest>,
    ) -> Result<Response<RangeResponse>, Status> {
        let req = request.into_inner();
        if req.key.is_empty() {
            return Err(EtcdError::EmptyKey.into());
        }
        let shared = &self.handle.shared;
        if shared.refusing() {
            return Err(EtcdError::NotApplied.into());
        }
        shared.metrics.range.inc();
        let resp = {
            let st = shared.read();
            let current = st.committed_rev;
            let rev = st.resolve_rev(req.revision, current)?;
            let mut resp = st.range(&req, rev);
            resp.header = Some(shared.header(current));
            resp
        };
        Ok(Response::new(resp))
    }

    async fn put(&self, request: Request<PutRequest>) -> Result<Response<PutResponse>, Status> {
        let req = request.into_inner();
        self.check_size(req.key.len() + req.value.len())?;
        let (reply, rev) = self.handle.write(WriteOp::Put(req)).await?;
        self.handle.shared.metrics.put.inc();
        let WriteReply::Put(mut resp) = reply else {
            return Err(mismatch());
        };
        resp.header = Some(self.handle.shared.header(rev));
        Ok(Response::new(resp))
    }

    async fn delete_range(
        &self,
        request: Request<DeleteRangeRequest>,
    ) -> Result<Response<DeleteRangeResponse>, Status> {
        let (reply, rev) = self
            .handle
            .write(WriteOp::DeleteRange(request.into_inner()))
            .await?;
        self.handle.shared.metrics.delete.inc();
        let WriteReply::DeleteRange(mut resp) = reply else {
            return Err(mismatch());
        };
        resp.header = Some(self.handle.shared.header(rev));
        Ok(Response::new(resp))
    }

    async fn txn(&self, request: Request<TxnRequest>) -> Result<Response<TxnResponse>, Status> {
        let req = request.into_inner();
        self.check_size(prost::Message::encoded_len(&req))?;
        let compares = req.compare.len();
        let (reply, rev) = self.handle.write(WriteOp::Txn(req)).await?;
        let WriteReply::Txn(mut resp) = reply else {
            return Err(mismatch());
        };
        self.handle.shared.metrics.count_txn(compares, &resp);
        set_txn_headers(&mut resp, &self.handle.shared.header(rev));
        Ok(Response::new(resp))
    }

    async fn compact(
        &self,
        request: Request<CompactionRequest>,
    ) -> Result<Response<CompactionResponse>, Status> {
        let (reply, rev) = self
            .handle
            .write(WriteOp::Compact(request.into_inner().revision))
            .await?;
        let WriteReply::Compact = reply else {
            return Err(mismatch());
        };
        Ok(Response::new(CompactionResponse {
            header: Some(self.handle.shared.header(rev)),
        }))
    }
}

#[tonic::async_trait]
impl Watch for Etcd {
    type WatchStream = ReceiverStream<Result<WatchResponse, Status>>;

    async fn watch(
        &self,
        request: Request<Streaming<WatchRequest>>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        tokio::spawn(crate::watch::run(
            self.handle.shared.clone(),
            request.into_inner(),
            tx,
            self.shutdown.clone(),
        ));
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}

#[tonic::async_trait]
impl Lease for Etcd {
    async fn lease_grant(
        &self,
        request: Request<LeaseGrantRequest>,
    ) -> Result<Response<LeaseGrantResponse>, Status> {
        let req = request.into_inner();
        let (reply, rev) = self
            .handle
            .write(WriteOp::LeaseGrant {
                id: req.id,
                ttl: req.ttl,
            })
            .await?;
        let WriteReply::LeaseGrant { id, ttl } = reply else {
            return Err(mismatch());
        };
        Ok(Response::new(LeaseGrantResponse {
            header: Some(self.handle.shared.header(rev)),
            id,
            ttl,
            error: String::new(),
        }))
    }

    async fn lease_revoke(
        &self,
        request: Request<LeaseRevokeRequest>,
    ) -> Result<Response<LeaseRevokeResponse>, Status> {
        let (reply, rev) = self
            .handle
            .write(WriteOp::LeaseRevoke(request.into_inner().id))
            .await?;
        let WriteReply::LeaseRevoke = reply else {
            return Err(mismatch());
        };
        Ok(Response::new(LeaseRevokeResponse {
            header: Some(self.handle.shared.header(rev)),
        }))
    }

    type LeaseKeepAliveStream = ReceiverStream<Result<LeaseKeepAliveResponse, Status>>;

    async fn lease_keep_alive(
        &self,
        request: Request<Streaming<LeaseKeepAliveRequest>>,
    ) -> Result<Response<Self::LeaseKeepAliveStream>, Status> {
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        tokio::spawn(lease::keep_alive_stream(
            self.handle.shared.clone(),
            request.into_inner(),
            tx,
            self.shutdown.clone(),
        ));
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn lease_time_to_live(
        &self,
        request: Request<LeaseTimeToLiveRequest>,
    ) -> Result<Response<LeaseTimeToLiveResponse>, Status> {
        let req = request.into_inner();
        let shared = &self.handle.shared;
        let header = Some(shared.header(shared.committed_rev()));
        // etcd answers an unknown lease with TTL -1 rather than an error.
        let resp = match lease::time_to_live(shared, req.id) {
            Some((ttl, granted_ttl, keys)) => LeaseTimeToLiveResponse {
                header,
                id: req.id,
                ttl,
                granted_ttl,
                keys: if req.keys { keys } else { Vec::new() },
            },
            None => LeaseTimeToLiveResponse {
                header,
                id: req.id,
                ttl: -1,
                granted_ttl: 0,
                keys: Vec::new(),
            },
        };
        Ok(Response::new(resp))
    }

    async fn lease_leases(
        &self,
        _request: Request<LeaseLeasesRequest>,
    ) -> Result<Response<LeaseLeasesResponse>, Status> {
        let shared = &self.handle.shared;
        let st = shared.read();
        let mut leases: Vec<LeaseStatus> = st.leases.keys().map(|&id| LeaseStatus { id }).collect();
        leases.sort_by_key(|l| l.id);
        Ok(Response::new(LeaseLeasesResponse {
            header: Some(shared.header(st.committed_rev)),
            leases,
        }))
    }
}

#[tonic::async_trait]
impl Cluster for Etcd {
    async fn member_list(
        &self,
        _request: Request<MemberListRequest>,
    ) -> Result<Response<MemberListResponse>, Status> {
        let shared = &self.handle.shared;
        Ok(Response::new(MemberListResponse {
            header: Some(shared.header(shared.committed_rev())),
            members: vec![Member {
                id: shared.member_id,
                name: "default".into(),
                peer_ur_ls: Vec::new(),
                client_ur_ls: vec![self.client_url.clone()],
                is_learner: false,
            }],
        }))
    }
}

#[tonic::async_trait]
impl Maintenance for Etcd {
    type SnapshotStream = ReceiverStream<Result<SnapshotResponse, Status>>;

    /// The whole store as of now, streamed in etcd's 32 KiB chunks: a redb file with the
    /// store's tables, which a store opens as its own `store.redb` (see the README for
    /// restoring it). Written to a file beside the store first, from a consistent view
    /// (writes go on meanwhile), so the size is known before the first chunk.
    async fn snapshot(
        &self,
        _request: Request<SnapshotRequest>,
    ) -> Result<Response<Self::SnapshotStream>, Status> {
        let (reply, rev) = self.handle.write(WriteOp::Snapshot).await?;
        let WriteReply::Snapshot(SnapshotView(Some(view))) = reply else {
            return Err(mismatch());
        };
        let shared = &self.handle.shared;
        let header = shared.header(rev);
        let path = shared
            .config
            .data_dir
            .join(format!(".snapshot-{:016x}.redb", rand::random::<u64>()));
        let (tx, rx) = mpsc::channel(4);
        tokio::task::spawn_blocking(move || {
            if let Err(e) = crate::snapshot::stream(&view, &path, header, &tx) {
                tracing::warn!(error = %e, "embedded store: snapshot failed");
                let _ = tx.blocking_send(Err(Status::internal(format!(
                    "etcdserver: snapshot failed: {e}"
                ))));
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn alarm(
        &self,
        request: Request<AlarmRequest>,
    ) -> Result<Response<AlarmResponse>, Status> {
        let (reply, rev) = self
            .handle
            .write(WriteOp::Alarm(request.into_inner()))
            .await?;
        let WriteReply::Alarm(raised) = reply else {
            return Err(mismatch());
        };
        let shared = &self.handle.shared;
        Ok(Response::new(AlarmResponse {
            header: Some(shared.header(rev)),
            alarms: raised
                .into_iter()
                .map(|alarm| AlarmMember {
                    member_id: shared.member_id,
                    alarm,
                })
                .collect(),
        }))
    }

    async fn defragment(
        &self,
        _request: Request<DefragmentRequest>,
    ) -> Result<Response<DefragmentResponse>, Status> {
        let (reply, rev) = self.handle.write(WriteOp::Defragment).await?;
        let WriteReply::Defragment = reply else {
            return Err(mismatch());
        };
        Ok(Response::new(DefragmentResponse {
            header: Some(self.handle.shared.header(rev)),
        }))
    }

    async fn status(
        &self,
        _request: Request<StatusRequest>,
    ) -> Result<Response<StatusResponse>, Status> {
        let shared = &self.handle.shared;
        let rev = shared.committed_rev();
        let db_size = crate::engine::Engine::file_size(&shared.db_path);
        let index = u64::try_from(rev).unwrap_or(0);
        Ok(Response::new(StatusResponse {
            header: Some(shared.header(rev)),
            version: ETCD_VERSION.into(),
            db_size,
            leader: shared.member_id,
            raft_index: index,
            raft_term: RAFT_TERM,
            raft_applied_index: index,
            // As etcd: each raised alarm, in the text form of its AlarmMember.
            errors: shared
                .read()
                .alarms
                .iter()
                .map(|&a| {
                    let name = AlarmType::try_from(a).map_or("NONE", |t| t.as_str_name());
                    format!("memberID:{} alarm:{name} ", shared.member_id)
                })
                .collect(),
            db_size_in_use: db_size,
            is_learner: false,
        }))
    }
}
