//! What the proxy and the availability controller ask of services: the objects and an
//! address to send to, with `--enable-aggregator-routing` choosing endpoints or the
//! cluster IP as upstream's resolvers do.

use super::ServiceRef;
use crate::front::Front;

impl Front {
    /// `host:port` to send a request for `service` to.
    pub(crate) fn resolve(&self, service: &ServiceRef) -> Result<String, String> {
        let resolver = self
            .services
            .get()
            .ok_or("services are not known yet (storage unreachable)")?;
        resolver
            .resolve(&service.namespace, &service.name, i32::from(service.port))
            .map(|e| e.to_string())
            .map_err(|e| e.to_string())
    }

    /// Whether the user's uid travels in `X-Remote-Uid` (feature RemoteRequestHeaderUID,
    /// on by default since 1.33).
    pub(crate) fn remote_uid_header(&self) -> bool {
        !self
            .config
            .feature_gates
            .iter()
            .any(|(name, on)| name == "RemoteRequestHeaderUID" && !on)
    }

    /// A proxied request could not reach its remote server: check availability now.
    pub(crate) fn remotes_failed(&self) {
        self.remote_failures.notify_waiters();
    }
}
