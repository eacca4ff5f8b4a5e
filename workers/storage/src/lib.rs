//! The embedded etcd-v3-compatible store that the `storage` worker serves on a unix socket.
//!
//! [`Store::open`] recovers the store from its data dir (a redb file); [`serve`] answers the
//! subset of the etcd v3 gRPC API that kube-apiserver, `etcd-client` and `etcdctl` use (KV,
//! Watch, Lease, Maintenance.Status, Cluster.MemberList) until the shutdown future resolves.
//!
//! Layout: `mvcc` holds the in-memory multi-version index and applies writes, `writer` is
//! the single thread that applies and group-commits every write (nothing is acknowledged
//! before it is durable), `engine` is the durable log in redb, `watch` and `lease` serve
//! the two streaming APIs, `service` maps the gRPC calls onto the store, `handover`
//! passes the data to a successor process without a gap in reads.
#![forbid(unsafe_code)]

mod alarm;
mod apply;
mod authority;
mod config;
mod engine;
mod error;
mod grpc_metrics;
mod handover;
mod lease;
mod metrics;
mod mvcc;
mod serve;
mod service;
mod snapshot;
mod store;
mod watch;
mod writer;

/// The generated etcd v3 wire types and gRPC server traits (from `proto/`).
#[allow(unreachable_pub, clippy::all, clippy::pedantic, missing_docs)]
pub(crate) mod pb {
    pub mod mvccpb {
        tonic::include_proto!("mvccpb");
    }
    pub mod etcdserverpb {
        tonic::include_proto!("etcdserverpb");
    }
}

pub use authority::FixAuthority;
pub use config::{AutoCompaction, StoreConfig, DEFAULT_QUOTA_BYTES};
pub use error::{Error, NOT_APPLIED};
pub use handover::{open_when_free, Handover, StoreControl};
pub use serve::{bind_socket, serve, serve_on};
pub use snapshot::restore as restore_snapshot;
pub use store::Store;
