//! `--authorization-config` followed while serving, as kube-apiserver (1.30+) follows it:
//! the file is read every second; a text that does not load or validate is logged and
//! not tried again until it changes once more; the non-webhook authorizer types the
//! server started with must stay (their caches and readiness depend on them); a valid
//! new chain that differs from the one in force replaces it in every worker that
//! authorizes. Requests keep the old chain until the new one is in place.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use kas_proto::AuthorizationChain;

/// How often the file is read.
const POLL: Duration = Duration::from_secs(1);

/// Why a new text of the file is not taken.
fn refusal(problems: &[String]) -> String {
    if problems.len() == 1 {
        problems.join("")
    } else {
        format!("[{}]", problems.join(", "))
    }
}

/// Checks `text` as a successor of a chain whose non-webhook types were `required`.
pub(crate) fn load(text: &str, required: &BTreeSet<String>) -> Result<AuthorizationChain, String> {
    let (modes, webhooks) = crate::authz_config::parse(text).map_err(|p| refusal(&p))?;
    let present: BTreeSet<&String> = modes.iter().collect();
    let missing: Vec<&str> = required
        .iter()
        .filter(|t| !present.contains(t))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        // Go's %v of a sorted []string.
        return Err(format!("missing required types: [{}]", missing.join(" ")));
    }
    Ok(AuthorizationChain { modes, webhooks })
}

/// Reads `path` every second from now on and calls `changed` with each valid chain that
/// differs from the one in force (`initial` at first), until `changed` returns false.
pub(crate) fn follow(
    path: PathBuf,
    initial: AuthorizationChain,
    changed: impl Fn(AuthorizationChain) -> bool + Send + 'static,
) {
    let required: BTreeSet<String> = initial
        .modes
        .iter()
        .filter(|m| *m != "Webhook")
        .cloned()
        .collect();
    tokio::spawn(async move {
        let mut last_read: Option<String> = None;
        let mut in_force = initial;
        loop {
            tokio::time::sleep(POLL).await;
            let text = match tokio::fs::read_to_string(&path).await {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!(file = %path.display(), error = %e, "reloading authorization config");
                    continue;
                }
            };
            if last_read.as_deref() == Some(text.as_str()) {
                continue;
            }
            // The first read is the text the server started with, or a change since.
            if last_read.is_some() {
                tracing::info!(file = %path.display(), "found new authorization config data");
            }
            let chain = load(&text, &required);
            last_read = Some(text);
            let chain = match chain {
                Ok(c) => c,
                Err(e) => {
                    tracing::error!(file = %path.display(), error = %e, "reloading authorization config");
                    continue;
                }
            };
            if chain == in_force {
                continue;
            }
            tracing::info!(file = %path.display(), modes = ?chain.modes, "found new authorization config");
            in_force = chain.clone();
            if !changed(chain) {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(authorizers: &str) -> String {
        format!("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n{authorizers}")
    }

    #[test]
    fn started_types_must_stay() {
        let required: BTreeSet<String> = ["Node".to_owned(), "RBAC".to_owned()].into();
        let ok = load(
            &config("- type: Node\n  name: node\n- type: AlwaysDeny\n  name: alwaysdeny\n- type: RBAC\n  name: rbac\n"),
            &required,
        )
        .expect("valid");
        assert_eq!(ok.modes, ["Node", "AlwaysDeny", "RBAC"]);
        let missing = load(
            &config("- type: AlwaysAllow\n  name: alwaysallow\n"),
            &required,
        )
        .expect_err("types dropped");
        assert_eq!(missing, "missing required types: [Node RBAC]");
        let broken = load(&config("- type: RBAC\n"), &required).expect_err("no name");
        assert_eq!(broken, "authorizers[0].name: Required value");
    }
}
