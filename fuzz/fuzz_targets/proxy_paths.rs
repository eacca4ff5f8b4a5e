//! The proxy subresources' parsers: the object name (`scheme:name:port`), the path after
//! `/proxy`, and a backend's `Location` and HTML page as the proxy rewrites them. Must
//! hold: no panic; a backend path is empty or rooted and clean (no empty, `.` or `..`
//! element); a rewritten absolute path without `..` stays under the proxy prefix; a rewritten page
//! is produced for any plain input.
#![no_main]

use kas_kube_api::fuzzing::{proxy_name, proxy_paths, proxy_rewrite_html, proxy_rewrite_url};
use libfuzzer_sys::fuzz_target;

const PREFIX: &str = "/api/v1/namespaces/ns/pods/web/proxy";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some((scheme, name, _port)) = proxy_name(&text) {
        assert!(!name.is_empty() && matches!(scheme.as_str(), "" | "http" | "https"));
    }
    let path = format!("{PREFIX}/{text}");
    let (backend, prepend, escaped) = proxy_paths(&path, 7);
    if !backend.is_empty() {
        let inner = backend.strip_prefix('/').expect("a rooted backend path");
        let inner = inner.strip_suffix('/').unwrap_or(inner);
        assert!(
            inner.is_empty() || !inner.split('/').any(|e| e.is_empty() || e == "." || e == ".."),
            "{backend:?}"
        );
        assert!(escaped.is_ascii(), "{escaped:?}");
    }
    assert!(path.starts_with(&prepend), "{prepend:?}");
    if let Some(url) = proxy_rewrite_url(PREFIX, "10.0.0.5:8080", &text) {
        // Joined as upstream's path.Join does: a `..` element may climb above the prefix
        // (`/../c/` becomes `.../pods/web/c/`), anything else stays under it.
        let path = text.split(['?', '#']).next().unwrap_or("");
        let climbs = path.split('/').any(|e| e == "..");
        if text.starts_with('/') && !text.starts_with("//") && !climbs {
            assert!(url.starts_with(PREFIX), "{text:?} -> {url:?}");
        }
    }
    assert!(proxy_rewrite_html(PREFIX, data, "").is_some());
    let _ = proxy_rewrite_html(PREFIX, data, "gzip");
});
