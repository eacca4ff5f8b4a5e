//! What the storage layer can fail with, and how each failure reads to a client.

use crate::status::{Reason, Status, StatusCause, StatusDetails};

/// A storage failure, before it is tied to a resource.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// No object at the key.
    #[error("not found")]
    NotFound,
    /// Create found an object at the key.
    #[error("already exists")]
    AlreadyExists,
    /// The object changed since the revision the caller read.
    #[error("the object has been modified (now at revision {current})")]
    Conflict {
        /// The object's revision now (0 when it was deleted).
        current: i64,
    },
    /// The revision asked for has been compacted away.
    #[error("required revision {requested} has been compacted (oldest kept: {compacted})")]
    Compacted {
        /// The revision asked for.
        requested: i64,
        /// The compaction revision.
        compacted: i64,
    },
    /// A `continue` token that cannot be decoded.
    #[error("invalid continue token: {0}")]
    InvalidContinue(String),
    /// A resourceVersion newer than anything stored.
    #[error("too large resource version: {requested}, current: {current}")]
    TooLargeResourceVersion {
        /// Asked for.
        requested: i64,
        /// The store's revision.
        current: i64,
    },
    /// etcd cannot be reached or did not answer in time.
    #[error("etcd is unavailable: {0}")]
    Unavailable(String),
    /// An error etcd answered with that has no meaning of its own here, such as
    /// `etcdserver: mvcc: database space exceeded`: kube-apiserver hands it on as it is.
    #[error("{0}")]
    Etcd(String),
    /// A failure of this server's own storage code.
    #[error("etcd: {0}")]
    Internal(String),
    /// A value that the encryption-at-rest transformers cannot read or write (upstream's
    /// reason: a wrong key, an unknown provider prefix, …).
    #[error("{0}")]
    Transform(String),
}

impl StorageError {
    /// The Kubernetes `Status` for this failure on `resource` (e.g. `configmaps`) of
    /// `group` ("" for core) named `name`, worded as kube-apiserver words it.
    pub fn to_status(&self, group: &str, resource: &str, name: &str) -> Status {
        let qualified = if group.is_empty() {
            resource.to_owned()
        } else {
            format!("{resource}.{group}")
        };
        let details = || {
            Some(StatusDetails {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: resource.to_owned(),
                ..Default::default()
            })
        };
        match self {
            StorageError::NotFound => Status::not_found(group, resource, name),
            StorageError::AlreadyExists => Status {
                details: details(),
                ..Status::new(
                    Reason::AlreadyExists,
                    format!("{qualified} \"{name}\" already exists"),
                )
            },
            StorageError::Conflict { .. } => Status::conflict(
                group,
                resource,
                name,
                "the object has been modified; please apply your changes to the latest version \
                 and try again",
            ),
            StorageError::Compacted { .. } => Status::new(
                Reason::Expired,
                "The resourceVersion for the provided list is too old.",
            ),
            StorageError::InvalidContinue(why) => Status::new(
                Reason::BadRequest,
                format!("continue key is not valid: {why}"),
            ),
            StorageError::TooLargeResourceVersion { requested, current } => Status {
                details: Some(StatusDetails {
                    retry_after_seconds: Some(1),
                    ..Default::default()
                }),
                retry_after: Some(1),
                ..Status::new(
                    Reason::Timeout,
                    format!("Too large resource version: {requested}, current: {current}"),
                )
            },
            StorageError::Unavailable(why) => {
                Status::service_unavailable(format!("storage is unavailable: {why}"), 1)
            }
            // Not a Status upstream: ErrorToAPIStatus makes it a 500 with no reason and
            // etcd's message.
            StorageError::Etcd(why) => Status::new(Reason::Unknown, why.clone()),
            StorageError::Internal(why) => Status::internal(why),
            // apierrors.NewInternalError: the reason also as the one cause.
            StorageError::Transform(why) => Status {
                details: Some(StatusDetails {
                    causes: vec![StatusCause {
                        reason: String::new(),
                        message: why.clone(),
                        field: String::new(),
                    }],
                    ..Default::default()
                }),
                ..Status::internal(why)
            },
        }
    }

    /// The status for a LIST whose `continue` token points at a compacted revision.
    pub fn continue_expired() -> Status {
        Status::new(
            Reason::Expired,
            "The provided continue parameter is too old to display a consistent list result. \
             You can start a new list without the continue parameter, or use the continue token \
             in this response to retrieve the remainder of the results. Continuing with the \
             provided token results in an inconsistent list - objects that were created, \
             modified, or deleted between the time the first chunk was returned and now may show \
             up in the list.",
        )
    }

    /// The status for a WATCH from a compacted resourceVersion.
    pub fn watch_expired(requested: i64, compacted: i64) -> Status {
        Status::new(
            Reason::Expired,
            format!("too old resource version: {requested} ({compacted})"),
        )
    }
}

impl From<etcd_client::Error> for StorageError {
    fn from(e: etcd_client::Error) -> Self {
        match &e {
            etcd_client::Error::GRpcStatus(status) => {
                let msg = status.message();
                match status.code() {
                    tonic::Code::OutOfRange if msg.contains("compacted") => {
                        StorageError::Compacted {
                            requested: 0,
                            compacted: 0,
                        }
                    }
                    tonic::Code::OutOfRange if msg.contains("future revision") => {
                        StorageError::TooLargeResourceVersion {
                            requested: 0,
                            current: 0,
                        }
                    }
                    tonic::Code::Unavailable
                    | tonic::Code::DeadlineExceeded
                    | tonic::Code::Cancelled
                    | tonic::Code::Unknown => StorageError::Unavailable(msg.to_owned()),
                    _ => StorageError::Etcd(msg.to_owned()),
                }
            }
            etcd_client::Error::TransportError(_) | etcd_client::Error::IoError(_) => {
                StorageError::Unavailable(e.to_string())
            }
            _ => StorageError::Internal(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_match_kube_apiserver() {
        let s = StorageError::Conflict { current: 3 }.to_status("", "configmaps", "x");
        assert_eq!(s.code(), 409);
        assert_eq!(s.message, "Operation cannot be fulfilled on configmaps \"x\": the object has been modified; please apply your changes to the latest version and try again");
        let s = StorageError::AlreadyExists.to_status("apps", "deployments", "web");
        assert_eq!(s.message, "deployments.apps \"web\" already exists");
        assert_eq!(s.reason, Reason::AlreadyExists);
        let s = StorageError::NotFound.to_status("", "configmaps", "x");
        assert_eq!(
            (s.code().as_u16(), s.message.as_str()),
            (404, "configmaps \"x\" not found")
        );
        let s = StorageError::Unavailable("down".into()).to_status("", "configmaps", "x");
        assert_eq!(s.code(), 503);
        assert_eq!(StorageError::continue_expired().code(), 410);
        assert_eq!(
            StorageError::watch_expired(5, 9).message,
            "too old resource version: 5 (9)"
        );
    }
}
