//! The watches open now, by what they watch, as upstream's watch tracker counts them for
//! the work estimate of writes: a write to an object is also the work of sending its
//! event to every watch interested in it (of the resource everywhere, of its namespace,
//! of the object itself). Pod watches of one node (`fieldSelector=spec.nodeName=…`,
//! the kubelets') are not counted, as upstream's index leaves them out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kas_proto::RequestInfo;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct WatchId {
    group: String,
    resource: String,
    namespace: String,
    name: String,
}

/// The open watches' counts.
#[derive(Debug, Default)]
pub(crate) struct WatchTracker {
    counts: Mutex<HashMap<WatchId, usize>>,
}

/// A counted watch; it stops counting when dropped.
pub(crate) struct Registered {
    tracker: Arc<WatchTracker>,
    id: WatchId,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut counts = self.tracker.lock();
        if let Some(n) = counts.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.id);
            }
        }
    }
}

impl WatchTracker {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<WatchId, usize>> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a watch that starts now, unless it is one node's pods.
    pub(crate) fn register(
        self: &Arc<Self>,
        info: &RequestInfo,
        query: Option<&str>,
    ) -> Option<Registered> {
        if info.verb != "watch" || (info.resource == "pods" && one_node(query)) {
            return None;
        }
        let id = WatchId {
            group: info.api_group.clone(),
            resource: info.resource.clone(),
            namespace: info.namespace.clone(),
            name: info.name.clone(),
        };
        *self.lock().entry(id.clone()).or_default() += 1;
        Some(Registered {
            tracker: self.clone(),
            id,
        })
    }

    /// The watches a write described by `info` sends an event to.
    pub(crate) fn interested(&self, info: &RequestInfo) -> usize {
        let counts = self.lock();
        let mut id = WatchId {
            group: info.api_group.clone(),
            resource: info.resource.clone(),
            namespace: String::new(),
            name: String::new(),
        };
        let mut n = counts.get(&id).copied().unwrap_or(0);
        if !info.namespace.is_empty() {
            id.namespace = info.namespace.clone();
            n += counts.get(&id).copied().unwrap_or(0);
        }
        if !info.name.is_empty() {
            id.name = info.name.clone();
            n += counts.get(&id).copied().unwrap_or(0);
        }
        n
    }
}

/// Whether the query's field selector asks for exactly one `spec.nodeName`.
fn one_node(query: Option<&str>) -> bool {
    form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .filter(|(k, _)| k == "fieldSelector")
        .any(|(_, v)| {
            v.split(',').any(|term| {
                let value = term
                    .strip_prefix("spec.nodeName==")
                    .or_else(|| term.strip_prefix("spec.nodeName="));
                value.is_some_and(|v| !v.is_empty())
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Method;
    use kas_server::request_info;

    fn info(method: &Method, path: &str, query: &str) -> RequestInfo {
        request_info::parse(method, path, Some(query))
    }

    #[test]
    fn counts_the_watches_a_write_reaches() {
        let t = Arc::new(WatchTracker::default());
        let all = t.register(
            &info(&Method::GET, "/api/v1/configmaps", "watch=1"),
            Some("watch=1"),
        );
        let ns = t.register(
            &info(&Method::GET, "/api/v1/namespaces/a/configmaps", "watch=1"),
            Some("watch=1"),
        );
        let other = t.register(
            &info(&Method::GET, "/api/v1/namespaces/b/configmaps", "watch=1"),
            Some("watch=1"),
        );
        let kubelet = "watch=1&fieldSelector=spec.nodeName%3Dnode-1";
        let node = t.register(&info(&Method::GET, "/api/v1/pods", kubelet), Some(kubelet));
        assert!(node.is_none());
        let write = info(&Method::PUT, "/api/v1/namespaces/a/configmaps/x", "");
        assert_eq!(t.interested(&write), 2);
        drop((all, ns, other));
        assert_eq!(t.interested(&write), 0);
        assert!(t.lock().is_empty());
    }
}
