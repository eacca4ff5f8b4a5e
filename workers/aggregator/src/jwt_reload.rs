//! `--authentication-config` re-read when it changes, as kube-apiserver does: the file is
//! read every second; a new text that does not decode or validate is logged and not
//! tried again until the file changes once more; `anonymous` may not change; a valid
//! one replaces the JWT authenticators once all of the new issuers are initialized
//! (discovery and keys fetched), within upstream's one minute, else the old ones stay
//! and the change is tried again.

use std::sync::Arc;
use std::time::Duration;

use kas_proto::JwtAuthnConfig;

use crate::front::Front;
use crate::jwt_config;

/// How often the file is read.
const POLL: Duration = Duration::from_secs(1);
/// How long the new authenticators may take to initialize (upstream's
/// `UpdateAuthenticationConfigTimeout`).
const UPDATE_TIMEOUT: Duration = Duration::from_secs(60);

/// Starts watching the file, when one configures the authenticators.
pub(crate) fn watch(front: Arc<Front>) {
    let Some(path) = front.config.jwt.config_file.clone() else {
        return;
    };
    tokio::spawn(async move {
        let mut tracked: Option<String> = None;
        let mut anonymous = None;
        let mut current = front.config.jwt.authenticators.clone();
        loop {
            tokio::time::sleep(POLL).await;
            let text = match tokio::fs::read_to_string(&path).await {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!(file = %path.display(), error = %e, "failed to read authentication config file");
                    continue;
                }
            };
            if tracked.as_deref() == Some(text.as_str()) {
                continue;
            }
            let file = match jwt_config::decode(&text) {
                Ok(f) => f,
                Err(e) => {
                    tracing::error!(file = %path.display(), error = %e, "failed to load authentication config");
                    tracked = Some(text);
                    continue;
                }
            };
            // The first good read is the file the server started with (or its successor).
            let baseline = anonymous.get_or_insert_with(|| file.anonymous.clone());
            let mut problems = jwt_config::validate(
                &file.jwt,
                file.anonymous.as_ref(),
                &front.config.jwt.disallowed_issuers,
            );
            if *baseline != file.anonymous {
                problems.push(jwt_config::FieldError::forbidden(
                    "anonymous",
                    "changed from initial configuration file",
                ));
            }
            if !problems.is_empty() {
                tracing::error!(file = %path.display(), error = %jwt_config::aggregate(&problems), "failed to validate authentication config");
                tracked = Some(text);
                continue;
            }
            if file.jwt == current {
                tracked = Some(text);
                continue;
            }
            let next = JwtAuthnConfig {
                authenticators: file.jwt.clone(),
                ..front.config.jwt.clone()
            };
            match front.jwt.replace_when_ready(&next, UPDATE_TIMEOUT).await {
                Ok(()) => {
                    // Users the old authenticators mapped are not served from the cache.
                    front.tokens.clear();
                    tracing::info!(file = %path.display(), "reloaded authentication config");
                    current = file.jwt;
                    tracked = Some(text);
                }
                Err(e) => {
                    tracing::error!(file = %path.display(), error = %e, "failed to update authentication config")
                }
            }
        }
    });
}
