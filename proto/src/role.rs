//! The roles a worker process can take.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which server of the chain a worker process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WorkerRole {
    /// The front door: TLS, handler chain, health, discovery, routing.
    Aggregator,
    /// The built-in Kubernetes API groups.
    KubeApi,
    /// apiextensions.k8s.io and every custom resource.
    Extensions,
    /// The embedded etcd-compatible store (only without `--etcd-servers`).
    Storage,
}

impl WorkerRole {
    /// Every role, in start order: storage first, the front door last.
    pub const ALL: [WorkerRole; 4] = [
        WorkerRole::Storage,
        WorkerRole::KubeApi,
        WorkerRole::Extensions,
        WorkerRole::Aggregator,
    ];

    /// The name used on the command line, in logs and in readyz check names.
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerRole::Aggregator => "aggregator",
            WorkerRole::KubeApi => "kube-api",
            WorkerRole::Extensions => "extensions",
            WorkerRole::Storage => "storage",
        }
    }

    /// The name of this worker's readyz check on the aggregator.
    pub fn check_name(self) -> String {
        format!("worker-{}", self.as_str())
    }
}

impl fmt::Display for WorkerRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A role name that is not one of [`WorkerRole::ALL`].
#[derive(Debug, thiserror::Error)]
#[error("unknown worker role {0:?}")]
pub struct UnknownRole(pub String);

impl FromStr for WorkerRole {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        WorkerRole::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownRole(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for role in WorkerRole::ALL {
            assert_eq!(role.as_str().parse::<WorkerRole>().ok(), Some(role));
        }
        assert!("nope".parse::<WorkerRole>().is_err());
    }
}
