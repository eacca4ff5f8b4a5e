//! The periods of background tasks that follow upstream's controllers (the APF ensurer,
//! the service repair, the KMS plugin probe): upstream's, or a shorter one a test asks
//! for through an environment variable (`KUBE_APISERVER_RS_*_MS`, in milliseconds).

use std::time::Duration;

/// `default`, or the milliseconds environment variable `var` gives (when a positive
/// integer).
pub fn from_env(var: &str, default: Duration) -> Duration {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .map_or(default, Duration::from_millis)
}
