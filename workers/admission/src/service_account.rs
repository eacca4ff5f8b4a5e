//! ServiceAccount, as kube-apiserver v1.33's plugin, for new pods: the service account
//! defaults to `default` and must exist (the `default` one is waited for a little, as
//! its controller makes it just after the namespace); unless the pod or the account
//! turns automounting off, every container and init container mounts a projected
//! `kube-api-access-<suffix>` volume (a bound token, the cluster CA from the
//! `kube-root-ca.crt` ConfigMap, the namespace) at the usual path; the account's image
//! pull secrets are copied to a pod that names none. Mirror pods may not reference
//! accounts, secrets or token projections; an account annotated
//! `kubernetes.io/enforce-mountable-secrets: "true"` limits the secrets its pods use to
//! the ones it lists.

use std::time::Duration;

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

const DEFAULT_ACCOUNT: &str = "default";
/// Where the token volume is mounted.
const MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The token volume's name prefix.
const VOLUME_PREFIX: &str = "kube-api-access-";
const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";
const ENFORCE_ANNOTATION: &str = "kubernetes.io/enforce-mountable-secrets";
/// How often the `default` account is looked for in storage before giving up.
const DEFAULT_ATTEMPTS: u32 = 10;
/// The bound token's lifetime in the projection (upstream's warn-only expiration).
const TOKEN_EXPIRATION_SECONDS: i64 = 3607;

/// The ServiceAccount plugin.
pub struct ServiceAccount {
    accounts: RestStore,
}

impl ServiceAccount {
    /// The plugin, looking accounts up in `accounts`.
    pub fn new(accounts: RestStore) -> ServiceAccount {
        ServiceAccount { accounts }
    }

    /// The account `ns/name`: from the cache, else from storage (the `default` one a
    /// few times, 100–200 ms apart).
    async fn account(&self, ns: &str, name: &str) -> Result<Option<Value>, Status> {
        if let Some(sa) = self.accounts.read_cached(ns, name).await? {
            return Ok(Some(sa));
        }
        let attempts = if name == DEFAULT_ACCOUNT {
            DEFAULT_ATTEMPTS
        } else {
            1
        };
        let pause = Duration::from_millis(100 + u64::from(random_byte()) % 100);
        for attempt in 0..attempts {
            if attempt > 0 {
                tokio::time::sleep(pause).await;
            }
            if let Some(sa) = self.accounts.read_latest(ns, name).await? {
                return Ok(Some(sa));
            }
        }
        Ok(None)
    }

    async fn required_account(
        &self,
        req: &Request<'_>,
        pod: &Value,
        name: &str,
    ) -> Result<Value, Status> {
        let lookup = |why: String| {
            req.forbidden(
                pod,
                &format!(
                    "error looking up service account {}/{name}: {why}",
                    req.namespace
                ),
            )
        };
        match self.account(req.namespace, name).await {
            Ok(Some(sa)) => Ok(sa),
            Ok(None) => Err(lookup(format!("serviceaccount \"{name}\" not found"))),
            Err(e) => Err(lookup(e.message)),
        }
    }
}

fn random_byte() -> u8 {
    kas_server::rest::random_suffix()
        .bytes()
        .next()
        .unwrap_or(0)
}

fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// Whether this plugin looks at the request: a new pod (not a subresource).
fn applies(req: &Request<'_>, obj: &Value) -> bool {
    req.operation == Operation::Create
        && req.resource.group.is_empty()
        && req.resource.plural == "pods"
        && req.subresource.is_empty()
        && obj.is_object()
}

fn is_mirror(pod: &Value) -> bool {
    pod.pointer("/metadata/annotations")
        .and_then(|a| a.get(MIRROR_ANNOTATION))
        .is_some()
}

/// The pod's preference, else the account's, else true.
fn automount(sa: &Value, pod: &Value) -> bool {
    pod.pointer("/spec/automountServiceAccountToken")
        .and_then(Value::as_bool)
        .or_else(|| {
            sa.get("automountServiceAccountToken")
                .and_then(Value::as_bool)
        })
        .unwrap_or(true)
}

/// The projected volume upstream adds.
fn token_volume(name: &str) -> Value {
    json!({
        "name": name,
        "projected": {
            "defaultMode": 420,
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": TOKEN_EXPIRATION_SECONDS, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
            ],
        },
    })
}

/// Mounts the token volume into every container and init container that has nothing at
/// the mount path, adding the volume when one of them needed it.
fn mount_token(spec: &mut serde_json::Map<String, Value>) {
    let existing = spec
        .get("volumes")
        .and_then(Value::as_array)
        .and_then(|vs| {
            vs.iter()
                .map(|v| str_at(v, "/name"))
                .find(|n| n.starts_with(VOLUME_PREFIX))
                .map(str::to_owned)
        });
    let name = existing
        .clone()
        .unwrap_or_else(|| format!("{VOLUME_PREFIX}{}", kas_server::rest::random_suffix()));
    let mount = json!({"name": name, "readOnly": true, "mountPath": MOUNT_PATH});
    let mut needed = false;
    for list in ["initContainers", "containers"] {
        let Some(containers) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for c in containers.iter_mut().filter_map(Value::as_object_mut) {
            let mounts = c.entry("volumeMounts").or_insert_with(|| json!([]));
            let Some(mounts) = mounts.as_array_mut() else {
                continue;
            };
            if mounts.iter().any(|m| str_at(m, "/mountPath") == MOUNT_PATH) {
                continue;
            }
            mounts.push(mount.clone());
            needed = true;
        }
    }
    if existing.is_none() && needed {
        let volumes = spec.entry("volumes").or_insert_with(|| json!([]));
        if let Some(volumes) = volumes.as_array_mut() {
            volumes.push(token_volume(&name));
        }
    }
}

/// Why a mirror pod is refused, if it is.
fn mirror_problem(pod: &Value) -> Option<&'static str> {
    if !str_at(pod, "/spec/serviceAccountName").is_empty() {
        return Some("a mirror pod may not reference service accounts");
    }
    if !secret_names(pod).is_empty() {
        return Some("a mirror pod may not reference secrets");
    }
    let projects_token = pod
        .pointer("/spec/volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.pointer("/projected/sources").and_then(Value::as_array))
        .flatten()
        .any(|s| s.get("serviceAccountToken").is_some());
    projects_token.then_some("a mirror pod may not use ServiceAccountToken volume projections")
}

/// Every Secret a pod names (volumes, projections, env, envFrom, image pull secrets).
fn secret_names(pod: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |v: &str| {
        if !v.is_empty() {
            out.push(v.to_owned());
        }
    };
    let spec = pod.get("spec").unwrap_or(&Value::Null);
    for v in spec
        .get("volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        push(str_at(v, "/secret/secretName"));
        for s in v
            .pointer("/projected/sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            push(str_at(s, "/secret/name"));
        }
    }
    for s in spec
        .get("imagePullSecrets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        push(str_at(s, "/name"));
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for c in spec
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for e in c.get("env").and_then(Value::as_array).into_iter().flatten() {
                push(str_at(e, "/valueFrom/secretKeyRef/name"));
            }
            for e in c
                .get("envFrom")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                push(str_at(e, "/secretRef/name"));
            }
        }
    }
    out
}

/// With mountable secrets enforced: the first reference the account does not allow.
fn unlisted_secret(sa: &Value, pod: &Value) -> Option<String> {
    let names = |key: &str| -> Vec<&str> {
        sa.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|s| str_at(s, "/name"))
            .collect()
    };
    let (mountable, pull) = (names("secrets"), names("imagePullSecrets"));
    let account = str_at(sa, "/metadata/name");
    let spec = pod.get("spec").unwrap_or(&Value::Null);
    for v in spec
        .get("volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let secret = str_at(v, "/secret/secretName");
        if v.get("secret").is_some() && !mountable.contains(&secret) {
            return Some(format!("volume with secret.secretName=\"{secret}\" is not allowed because service account {account} does not reference that secret"));
        }
    }
    for (list, what) in [
        ("initContainers", "init container"),
        ("containers", "container"),
    ] {
        for c in spec
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for e in c.get("env").and_then(Value::as_array).into_iter().flatten() {
                let secret = str_at(e, "/valueFrom/secretKeyRef/name");
                if e.pointer("/valueFrom/secretKeyRef").is_some() && !mountable.contains(&secret) {
                    return Some(format!(
                        "{what} {} with envVar {} referencing secret.secretName=\"{secret}\" is not allowed because service account {account} does not reference that secret",
                        str_at(c, "/name"),
                        str_at(e, "/name")
                    ));
                }
            }
        }
    }
    for (i, s) in spec
        .get("imagePullSecrets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let name = str_at(s, "/name");
        if !pull.contains(&name) {
            return Some(format!("imagePullSecrets[{i}].name=\"{name}\" is not allowed because service account {account} does not reference that imagePullSecret"));
        }
    }
    None
}

impl Plugin for ServiceAccount {
    fn name(&self) -> &'static str {
        "ServiceAccount"
    }

    fn phases(&self) -> Phases {
        Phases::BOTH
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        pod: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if !applies(req, pod) || is_mirror(pod) {
                return Ok(());
            }
            let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
                return Ok(());
            };
            let name = match spec.get("serviceAccountName").and_then(Value::as_str) {
                Some(n) if !n.is_empty() => n.to_owned(),
                _ => {
                    spec.insert("serviceAccountName".into(), json!(DEFAULT_ACCOUNT));
                    DEFAULT_ACCOUNT.to_owned()
                }
            };
            // The deprecated field mirrors it, as the v1 conversion writes it.
            spec.insert("serviceAccount".into(), json!(name));
            let sa = self.required_account(req, pod, &name).await?;
            let mount = automount(&sa, pod);
            let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
                return Ok(());
            };
            if mount {
                mount_token(spec);
            }
            let has_pull_secrets = spec
                .get("imagePullSecrets")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            if !has_pull_secrets {
                if let Some(pull) = sa.get("imagePullSecrets").and_then(Value::as_array) {
                    let refs: Vec<Value> = pull
                        .iter()
                        .map(|s| json!({"name": str_at(s, "/name")}))
                        .collect();
                    if !refs.is_empty() {
                        spec.insert("imagePullSecrets".into(), Value::Array(refs));
                    }
                }
            }
            Ok(())
        })
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        pod: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if !applies(req, pod) {
                return Ok(());
            }
            if is_mirror(pod) {
                return match mirror_problem(pod) {
                    Some(why) => Err(req.forbidden(pod, why)),
                    None => Ok(()),
                };
            }
            let name = str_at(pod, "/spec/serviceAccountName");
            let sa = self.required_account(req, pod, name).await?;
            let enforced = sa
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(ENFORCE_ANNOTATION))
                .and_then(Value::as_str)
                .is_some_and(|v| matches!(v, "true" | "True" | "TRUE" | "1" | "t" | "T"));
            if enforced {
                if let Some(why) = unlisted_secret(&sa, pod) {
                    return Err(req.forbidden(pod, &why));
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod() -> Value {
        json!({"metadata": {"name": "p", "namespace": "ns"}, "spec": {
        "initContainers": [{"name": "init", "image": "i"}],
        "containers": [
            {"name": "a", "image": "a"},
            {"name": "b", "image": "b", "volumeMounts": [{"name": "own", "mountPath": MOUNT_PATH}]},
        ]}})
    }

    #[test]
    fn token_mounted_where_nothing_is() {
        let mut p = pod();
        let spec = p["spec"].as_object_mut().expect("spec");
        mount_token(spec);
        let volumes = p["spec"]["volumes"].as_array().expect("volumes");
        assert_eq!(volumes.len(), 1);
        let name = volumes[0]["name"].as_str().expect("name");
        assert!(name.starts_with(VOLUME_PREFIX) && name.len() == VOLUME_PREFIX.len() + 5);
        assert_eq!(
            volumes[0]["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
            3607
        );
        assert_eq!(
            p["spec"]["initContainers"][0]["volumeMounts"][0]["name"],
            name
        );
        assert_eq!(
            p["spec"]["containers"][0]["volumeMounts"][0]["mountPath"],
            MOUNT_PATH
        );
        // The container with its own mount there keeps it alone.
        assert_eq!(
            p["spec"]["containers"][1]["volumeMounts"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
        // Again: nothing more.
        let before = p.clone();
        mount_token(p["spec"].as_object_mut().expect("spec"));
        assert_eq!(p, before);
    }

    #[test]
    fn automount_preferences() {
        let sa_off = json!({"automountServiceAccountToken": false});
        let mut p = pod();
        assert!(!automount(&sa_off, &p));
        p["spec"]["automountServiceAccountToken"] = json!(true);
        assert!(automount(&sa_off, &p));
        assert!(automount(&json!({}), &pod()));
    }

    #[test]
    fn mirror_pods_and_mountable_secrets() {
        let mut p = pod();
        p["spec"]["serviceAccountName"] = json!("x");
        assert_eq!(
            mirror_problem(&p),
            Some("a mirror pod may not reference service accounts")
        );
        let mut p = pod();
        p["spec"]["volumes"] = json!([{"name": "s", "secret": {"secretName": "creds"}}]);
        assert_eq!(
            mirror_problem(&p),
            Some("a mirror pod may not reference secrets")
        );
        let sa = json!({"metadata": {"name": "robot"}, "secrets": [{"name": "ok"}]});
        assert_eq!(
            unlisted_secret(&sa, &p).as_deref(),
            Some("volume with secret.secretName=\"creds\" is not allowed because service account robot does not reference that secret")
        );
        p["spec"]["volumes"] = json!([{"name": "s", "secret": {"secretName": "ok"}}]);
        p["spec"]["imagePullSecrets"] = json!([{"name": "reg"}]);
        assert_eq!(
            unlisted_secret(&sa, &p).as_deref(),
            Some("imagePullSecrets[0].name=\"reg\" is not allowed because service account robot does not reference that imagePullSecret")
        );
    }
}
