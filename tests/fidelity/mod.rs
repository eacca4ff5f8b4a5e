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
