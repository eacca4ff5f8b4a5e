//! The service account token controller (upstream runs it in kube-controller-manager;
//! with none beside this server it runs here): a Secret of type
//! `kubernetes.io/service-account-token` annotated `kubernetes.io/service-account.name`
//! gets a long-lived legacy token for that ServiceAccount, the cluster CA (`ca.crt`) and
//! its namespace, and the ServiceAccount's UID as an annotation. A token Secret whose
//! ServiceAccount does not exist (or is another one with the same name) is deleted, and
//! so are a ServiceAccount's token Secrets when it is deleted.

use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use kas_server::rest::{RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use kas_server::storage::WatchEvent;
use serde_json::{json, Value};

use crate::auth::TokenIssuer;

const TOKEN_TYPE: &str = "kubernetes.io/service-account-token";
const NAME_KEY: &str = "kubernetes.io/service-account.name";
const UID_KEY: &str = "kubernetes.io/service-account.uid";
/// The field manager of the controller's writes.
const MANAGER: &str = "tokens-controller";
/// How long to wait before trying again after storage failed.
const RETRY: Duration = Duration::from_millis(200);
/// How often everything is looked at again.
const RESYNC: Duration = Duration::from_secs(60);

/// What the controller works with.
pub(crate) struct TokensController {
    pub(crate) secrets: RestStore,
    pub(crate) accounts: RestStore,
    pub(crate) issuer: TokenIssuer,
    /// The CA bundle written as `ca.crt`, PEM: the CAs that verify this server.
    pub(crate) root_ca: String,
}

fn s<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn annotation<'a>(v: &'a Value, key: &str) -> &'a str {
    v.pointer("/metadata/annotations")
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// A stored object's JSON, if it is one.
fn parse(value: &[u8]) -> Option<Value> {
    serde_json::from_slice(value).ok()
}

impl TokensController {
    /// Runs the controller for ever.
    pub(crate) async fn run(self) {
        let secrets_prefix = self
            .secrets
            .storage()
            .list_prefix(self.secrets.resource().key_path, None);
        let accounts_prefix = self
            .accounts
            .storage()
            .list_prefix(self.accounts.resource().key_path, None);
        loop {
            let storage = self.secrets.storage();
            let watches = match storage.current_revision().await {
                Ok(rev) => match (
                    storage.watch(&secrets_prefix, rev).await,
                    self.accounts.storage().watch(&accounts_prefix, rev).await,
                ) {
                    (Ok(s), Ok(a)) => Some((s, a)),
                    _ => None,
                },
                Err(_) => None,
            };
            let Some((mut secret_watch, mut account_watch)) = watches else {
                tokio::time::sleep(RETRY).await;
                continue;
            };
            match self.secrets.list_objects("").await {
                Ok((all, _)) => {
                    for secret in all.iter().filter(|s| s["type"] == TOKEN_TYPE) {
                        self.sync_secret(secret).await;
                    }
                }
                Err(e) => {
                    tracing::debug!(error = %e.message, "listing secrets failed");
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
            }
            let resync = tokio::time::sleep(RESYNC);
            tokio::pin!(resync);
            loop {
                tokio::select! {
                    event = secret_watch.next() => match event {
                        Ok(Some(WatchEvent::Added(st) | WatchEvent::Modified(st))) => {
                            if let Some(mut secret) = parse(&st.value).filter(|s| s["type"] == TOKEN_TYPE) {
                                if let Some(meta) = secret.get_mut("metadata").and_then(Value::as_object_mut) {
                                    meta.insert("resourceVersion".into(), json!(st.revision.to_string()));
                                }
                                self.sync_secret(&secret).await;
                            }
                        }
                        Ok(Some(_)) => {}
                        _ => break,
                    },
                    event = account_watch.next() => match event {
                        Ok(Some(WatchEvent::Deleted(st))) => {
                            if let Some(sa) = parse(&st.value) {
                                self.delete_tokens_of(&sa).await;
                            }
                        }
                        Ok(Some(_)) => {}
                        _ => break,
                    },
                    _ = &mut resync => break,
                }
            }
        }
    }

    /// Fills in a token Secret, or deletes it when its ServiceAccount is not there.
    async fn sync_secret(&self, secret: &Value) {
        if secret.pointer("/metadata/deletionTimestamp").is_some() {
            return;
        }
        let ns = s(secret, "/metadata/namespace");
        let name = s(secret, "/metadata/name");
        let sa_name = annotation(secret, NAME_KEY);
        let sa_uid = annotation(secret, UID_KEY);
        let account = match self.accounts.read_object(ns, sa_name).await {
            Ok(sa) if sa_uid.is_empty() || s(&sa, "/metadata/uid") == sa_uid => Some(sa),
            Ok(_) => None,
            Err(e) if e.reason == Reason::NotFound => None,
            Err(e) => {
                tracing::debug!(secret = %name, namespace = %ns, error = %e.message, "could not read the service account of a token secret");
                return;
            }
        };
        let result = match account {
            None => self.delete(secret).await,
            Some(sa) => self.fill(secret, &sa).await,
        };
        if let Err(e) = result {
            if !matches!(e.reason, Reason::Conflict | Reason::NotFound) {
                tracing::info!(secret = %name, namespace = %ns, error = %e.message, "could not sync a service account token secret");
            }
        }
    }

    /// Writes the token, `ca.crt` and `namespace` a token Secret lacks.
    async fn fill(&self, secret: &Value, sa: &Value) -> Result<(), Status> {
        let ns = s(secret, "/metadata/namespace");
        let name = s(secret, "/metadata/name");
        let ca = STANDARD.encode(&self.root_ca);
        let namespace = STANDARD.encode(ns);
        let needs_token = s(secret, "/data/token").is_empty();
        let needs_ca = s(secret, "/data/ca.crt") != ca;
        let needs_ns = s(secret, "/data/namespace") != namespace;
        let sa_uid = s(sa, "/metadata/uid");
        let needs_uid = annotation(secret, UID_KEY) != sa_uid;
        if !(needs_token || needs_ca || needs_ns || needs_uid) {
            return Ok(());
        }
        let mut updated = secret.clone();
        if !updated.get("data").is_some_and(Value::is_object) {
            updated["data"] = json!({});
        }
        updated["data"]["ca.crt"] = json!(ca);
        updated["data"]["namespace"] = json!(namespace);
        if needs_token {
            let token = self
                .issuer
                .sign_legacy(ns, s(sa, "/metadata/name"), sa_uid, name)?;
            updated["data"]["token"] = json!(STANDARD.encode(token));
        }
        if !updated
            .pointer("/metadata/annotations")
            .is_some_and(Value::is_object)
        {
            updated["metadata"]["annotations"] = json!({});
        }
        updated["metadata"]["annotations"][UID_KEY] = json!(sa_uid);
        updated["metadata"]["annotations"][NAME_KEY] = json!(s(sa, "/metadata/name"));
        let opts = WriteOptions::server(MANAGER);
        let expected = kas_server::rest::revision_of(secret);
        self.secrets
            .update_object(ns, name, "", updated, expected, &opts)
            .await?;
        tracing::debug!(secret = %name, namespace = %ns, "service account token secret filled in");
        Ok(())
    }

    /// Deletes a token Secret (only the one seen: its UID is a precondition).
    async fn delete(&self, secret: &Value) -> Result<(), Status> {
        let ns = s(secret, "/metadata/namespace");
        let name = s(secret, "/metadata/name");
        let options = json!({"preconditions": {"uid": s(secret, "/metadata/uid")}});
        self.secrets
            .delete_object(ns, name, Some(&options), &WriteOptions::server(MANAGER))
            .await?;
        tracing::info!(secret = %name, namespace = %ns, "deleted a token secret whose service account does not exist");
        Ok(())
    }

    /// Deletes the token Secrets of a deleted ServiceAccount.
    async fn delete_tokens_of(&self, sa: &Value) {
        let ns = s(sa, "/metadata/namespace");
        let Ok((secrets, _)) = self.secrets.list_objects(ns).await else {
            return;
        };
        for secret in &secrets {
            let uid = annotation(secret, UID_KEY);
            let ours = secret["type"] == TOKEN_TYPE
                && annotation(secret, NAME_KEY) == s(sa, "/metadata/name")
                && (uid.is_empty() || uid == s(sa, "/metadata/uid"));
            if ours {
                if let Err(e) = self.delete(secret).await {
                    tracing::debug!(error = %e.message, "could not delete a token secret");
                }
            }
        }
    }
}
