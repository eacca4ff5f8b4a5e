//! Admission of clients' APIService writes: kube-apiserver's aggregator runs the same
//! admission chain (`--enable-admission-plugins`: webhooks, ValidatingAdmissionPolicy,
//! …) in front of its storage as the other servers do, so a policy or webhook matching
//! `apiregistration.k8s.io/apiservices` holds here too. The server's own writes
//! (autoregistration) are not admitted, as everywhere.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kas_server::rest::RestStore;
use kas_server::service_resolver::ServiceResolver;
use kas_server::storage::Storage;

use crate::front::Front;

/// How long the chain waits for the aggregator's service resolver before it calls
/// webhooks by their `.svc` names instead.
const RESOLVER_WAIT: Duration = Duration::from_secs(5);

/// The admission chain of the flags, over `storage`.
pub(super) async fn chain(front: &Front, storage: &Storage) -> Arc<kas_server::admission::Chain> {
    let config = &front.config;
    let timeout = config.min_request_timeout;
    let sources = kas_admission::Sources {
        namespaces: RestStore::new(kas_admission::NAMESPACES, storage.clone(), timeout)
            .with_cache(),
        service_accounts: None,
        priority_classes: None,
        limit_ranges: None,
        pods_and_nodes: None,
        served: Vec::new(),
        authorizer: None,
        resource_quotas: None,
        // ConfigMaps as ValidatingAdmissionPolicy params (read from storage).
        policy_stores: Some(vec![RestStore::new(
            kas_admission::CONFIG_MAPS,
            storage.clone(),
            timeout,
        )]),
        services: resolver(front).await,
    };
    Arc::new(kas_admission::chain(&config.admission, &sources))
}

/// The service resolver the remote APIService controller starts at once (storage is
/// connected lazily); one per process, so it is waited for rather than started twice.
async fn resolver(front: &Front) -> Option<Arc<ServiceResolver>> {
    let deadline = Instant::now() + RESOLVER_WAIT;
    loop {
        if let Some(r) = front.services.get() {
            return Some(r.clone());
        }
        if Instant::now() > deadline {
            tracing::warn!(
                "no service resolver: APIService admission webhooks are called by their .svc names"
            );
            return None;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
