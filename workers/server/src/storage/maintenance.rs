//! Keeping storage healthy: compaction of etcd's history and the readiness probe.

use std::time::Duration;

use etcd_client::GetOptions;

use super::{metrics, Storage, StorageError};

impl Storage {
    /// Compacts history before `revision`.
    pub async fn compact(&self, revision: i64) -> Result<(), StorageError> {
        let kv = self.kv();
        match metrics::bounded(|| {
            let mut kv = kv.clone();
            async move { kv.compact(revision, None).await }
        })
        .await
        {
            Ok(_) | Err(StorageError::Compacted { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// The health check behind readyz's `etcd`: a read of one key, in time.
    pub async fn check(&self) -> Result<(), StorageError> {
        let mut kv = self.kv();
        let key = format!("{}/health", self.prefix);
        let resp = tokio::time::timeout(
            Duration::from_secs(2),
            kv.get(key, Some(GetOptions::new().with_count_only())),
        )
        .await
        .map_err(|_| StorageError::Unavailable("health check timed out".into()))?
        .map_err(StorageError::from)?;
        self.saw(resp.header());
        Ok(())
    }
}

/// Keeps readyz's `etcd` check current: probes storage every second, logging each change
/// and retrying with backoff while it is down (kube-apiserver's etcd preflight).
pub async fn monitor(storage: Storage, report: impl Fn(Result<(), String>) + Send + 'static) {
    // The first retries come fast: at start-up the storage worker binds its socket a few
    // milliseconds after this worker is up, and readiness waits for this check.
    let mut retry = crate::retry::Retry::new(Duration::from_millis(5), Duration::from_secs(1));
    let mut last: Option<bool> = None;
    loop {
        let result = storage.check().await;
        let ok = result.is_ok();
        if last != Some(ok) {
            match (&result, last) {
                (Ok(()), _) => tracing::info!("etcd is reachable"),
                // At start-up a failed probe is the preflight waiting, not an outage.
                (Err(e), None) => tracing::info!(error = %e, "waiting for etcd"),
                (Err(e), Some(_)) => tracing::warn!(error = %e, "etcd is not reachable; retrying"),
            }
            report(result.map_err(|e| e.to_string()));
            last = Some(ok);
        }
        if ok {
            retry.reset();
            tokio::time::sleep(Duration::from_secs(1)).await;
        } else {
            retry.wait().await;
        }
    }
}

/// Compacts etcd every `interval` up to the revision seen one interval earlier, so at
/// least one interval of history is always kept (kube-apiserver's compactor).
pub async fn compactor(storage: Storage, interval: Duration) {
    if interval.is_zero() {
        return;
    }
    let mut previous: Option<i64> = None;
    loop {
        tokio::time::sleep(interval).await;
        let now = match storage.current_revision().await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(error = %e, "compaction skipped");
                continue;
            }
        };
        if let Some(rev) = previous {
            match storage.compact(rev).await {
                Ok(()) => tracing::info!(revision = rev, "compacted etcd history"),
                Err(e) => tracing::warn!(error = %e, revision = rev, "compaction failed"),
            }
        }
        previous = Some(now);
    }
}
