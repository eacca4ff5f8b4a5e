//! The fidelity matrix: every resource the server serves, checked against what
//! kube-apiserver v1.33 publishes for it. The expectations are data files beside this
//! module, taken from upstream v1.33.4's source (printers, generated discovery
//! documents) or recorded from a running v1.33.4 (`record-1.33.py`: what it answered to
//! new objects); each file's header names its columns and each test names its source.
//! A test reports every difference it finds at once, so one run shows the whole gap.

mod defaults;
mod discovery;
mod tables;
mod update_steps;
mod updates;

/// The rows of a tab-separated expectation file, without its header line.
fn rows(tsv: &str) -> Vec<Vec<&str>> {
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}

/// The API path of a group-version (`core` is the legacy group).
fn gv_path(group: &str, version: &str) -> String {
    if group == "core" || group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    }
}

/// Fails with every difference, one per line, when there are any.
fn report(what: &str, diffs: &[String]) {
    assert!(
        diffs.is_empty(),
        "{what}: {} difference(s) from kube-apiserver v1.33:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

/// A server as `record-1.33.py` ran kube-apiserver: a token file whose one token is in
/// `system:masters`, so requests are made as the recorder made them.
pub(super) struct Recorder {
    pub(super) server: crate::harness::Server,
    _dir: tempfile::TempDir,
}

const RECORDER_TOKEN: &str = "recorder-token";

impl Recorder {
    pub(super) async fn start() -> Recorder {
        let dir = tempfile::tempdir().expect("dir");
        let tokens = dir.path().join("tokens.csv");
        std::fs::write(
            &tokens,
            format!("{RECORDER_TOKEN},recorder,recorder-uid,\"system:masters\"\n"),
        )
        .expect("write");
        let server = crate::harness::Server::builder()
            .arg(format!("--token-auth-file={}", tokens.display()))
            .start()
            .await;
        Recorder { server, _dir: dir }
    }

    /// A request as the recorder sent it: its token, JSON accepted, `ctype` sent (a
    /// string body, YAML, as it is).
    pub(super) async fn call(
        &self,
        method: http::Method,
        path: &str,
        ctype: &str,
        body: Option<serde_json::Value>,
    ) -> crate::harness::Reply {
        let bytes = match body {
            Some(serde_json::Value::String(text)) => text,
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let auth = format!("Bearer {RECORDER_TOKEN}");
        let headers = [
            ("authorization", auth.as_str()),
            ("content-type", ctype),
            ("accept", "application/json"),
            ("user-agent", "recorder"),
        ];
        self.server
            .request_full(method, path, &headers, bytes.as_bytes(), true, true)
            .await
            .expect("answered")
    }
}
