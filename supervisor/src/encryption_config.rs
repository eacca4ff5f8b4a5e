//! `--encryption-provider-config`: the EncryptionConfiguration file
//! (`apiserver.config.k8s.io/v1`, or the legacy `v1` `EncryptionConfig` upstream still
//! reads), YAML or JSON. Checked as kube-apiserver checks it (k8s.io/apiserver
//! pkg/apis/apiserver/validation), every problem at once with its field path, keys
//! decoded. KMS v2 providers become [`KmsProvider`]s (the worker dials the plugin); KMS
//! v1 is refused as kube-apiserver v1.33 refuses it without its deprecated feature gate.

use std::path::Path;

use base64::Engine;
use kas_proto::{EncryptionConfig, EncryptionKey, EncryptionProvider, EncryptionRule, KmsProvider};
use serde_json::Value;

use crate::validate::FlagError;

const FLAG: &str = "--encryption-provider-config";
const AES_KEY_SIZES: &[usize] = &[16, 24, 32];
const SECRETBOX_KEY_SIZES: &[usize] = &[32];
const PROVIDERS: [&str; 5] = ["aescbc", "aesgcm", "identity", "kms", "secretbox"];

/// Go's `%q` of a string.
fn q(s: &str) -> String {
    format!("{s:?}")
}

/// Go's `%#v` of a `[]string`, as field errors print a bad list.
fn go_strings(v: &[String]) -> String {
    let items: Vec<String> = v.iter().map(|s| q(s)).collect();
    format!("[]string{{{}}}", items.join(", "))
}

/// Upstream's `schema.ParseGroupResource`: `resource.group`, the group after the first dot.
pub(crate) fn group_resource(s: &str) -> (&str, &str) {
    match s.split_once('.') {
        Some((resource, group)) => (group, resource),
        None => ("", s),
    }
}

/// Reads and checks the file; on failure every problem, each naming the file. `reload`
/// is `--encryption-provider-config-automatic-reload` (see [`parse`]).
pub(crate) fn load(path: &Path, reload: bool) -> Result<EncryptionConfig, Vec<FlagError>> {
    let shown = path.display().to_string();
    let fail = |msgs: Vec<String>| {
        msgs.into_iter()
            .map(|m| FlagError {
                flag: FLAG,
                message: format!("{shown}: {m}"),
            })
            .collect::<Vec<_>>()
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        fail(vec![format!(
            "error reading encryption provider configuration file: {e}"
        )])
    })?;
    if text.trim().is_empty() {
        return Err(fail(vec![
            "encryption provider configuration file is empty".to_owned(),
        ]));
    }
    parse(&text, reload).map_err(fail)
}

/// Parses and checks the file's text; on failure every problem. With `reload` (as
/// upstream validates when the file is followed) KMS v1 names must be unique too.
pub(crate) fn parse(text: &str, reload: bool) -> Result<EncryptionConfig, Vec<String>> {
    // YAML is a superset of JSON: one parser reads both.
    let doc: Value = serde_yaml_ng::from_str(text).map_err(|e| {
        vec![format!(
            "error decoding encryption provider configuration: {e}"
        )]
    })?;
    let Some(top) = doc.as_object() else {
        return Err(vec![
            "error decoding encryption provider configuration: not an object".to_owned(),
        ]);
    };
    let mut errs = Vec::new();
    let api_version = top.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = top.get("kind").and_then(Value::as_str).unwrap_or("");
    match (api_version, kind) {
        ("apiserver.config.k8s.io/v1", "EncryptionConfiguration") | ("v1", "EncryptionConfig") => {}
        ("", _) | (_, "") => errs.push(format!(
            "error decoding encryption provider configuration: Object 'apiVersion' and 'Kind' must be set (got apiVersion {}, kind {})",
            q(api_version),
            q(kind)
        )),
        _ => errs.push(format!(
            "got unexpected config type: {api_version}, Kind={kind} (want apiserver.config.k8s.io/v1, Kind=EncryptionConfiguration)"
        )),
    }
    for key in top.keys() {
        if !matches!(key.as_str(), "apiVersion" | "kind" | "resources") {
            errs.push(format!("strict decoding error: unknown field {}", q(key)));
        }
    }
    let rules = match top.get("resources") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => {
            errs.push("resources: Invalid value: must be a list".to_owned());
            Vec::new()
        }
    };
    if rules.is_empty() && errs.is_empty() {
        errs.push("resources: Required value: at least one resources is required".to_owned());
    }
    let mut out = Vec::new();
    let mut kms_seen = KmsSeen {
        reload,
        ..KmsSeen::default()
    };
    for (i, rule) in rules.iter().enumerate() {
        if let Some(r) = check_rule(rule, i, &mut kms_seen, &mut errs) {
            out.push(r);
        }
    }
    masking(&out, &mut errs);
    if errs.is_empty() && kms_seen.v1 {
        // kube-apiserver v1.33 without --feature-gates=KMSv1=true (this server has no
        // KMS v1 client at all); upstream's words, double space included.
        errs.push("error while building transformers: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.".to_owned());
    }
    if errs.is_empty() {
        Ok(EncryptionConfig { rules: out })
    } else {
        Err(errs)
    }
}

fn strings(v: Option<&Value>, path: &str, errs: &mut Vec<String>) -> Vec<String> {
    match v {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .filter_map(|(j, s)| match s {
                Value::String(s) => Some(s.clone()),
                _ => {
                    errs.push(format!("{path}[{j}]: Invalid value: must be a string"));
                    None
                }
            })
            .collect(),
        Some(_) => {
            errs.push(format!("{path}: Invalid value: must be a list of strings"));
            Vec::new()
        }
    }
}

fn check_rule(
    rule: &Value,
    i: usize,
    kms_seen: &mut KmsSeen,
    errs: &mut Vec<String>,
) -> Option<EncryptionRule> {
    let at = format!("resources[{i}]");
    let Some(obj) = rule.as_object() else {
        errs.push(format!("{at}: Invalid value: must be an object"));
        return None;
    };
    for key in obj.keys() {
        if !matches!(key.as_str(), "resources" | "providers") {
            errs.push(format!(
                "strict decoding error: unknown field {}",
                q(&format!("{at}.{key}"))
            ));
        }
    }
    let rpath = format!("{at}.resources");
    let resources = strings(obj.get("resources"), &rpath, errs);
    if resources.is_empty() {
        errs.push(format!(
            "{rpath}: Required value: at least one {rpath} is required"
        ));
    }
    overlap(&resources, &rpath, errs);
    resource_names(&resources, &rpath, errs);

    let ppath = format!("{at}.providers");
    let list = match obj.get("providers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => {
            errs.push(format!("{ppath}: Invalid value: must be a list"));
            Vec::new()
        }
    };
    if list.is_empty() {
        errs.push(format!(
            "{ppath}: Required value: at least one {ppath} is required"
        ));
    }
    let mut providers = Vec::new();
    for (j, p) in list.iter().enumerate() {
        if let Some(p) = provider(p, &format!("{ppath}[{j}]"), kms_seen, errs) {
            providers.push(p);
        }
    }
    Some(EncryptionRule {
        resources,
        providers,
    })
}

/// Duplicates and wildcards that mask another entry of the same list.
fn overlap(resources: &[String], path: &str, errs: &mut Vec<String>) {
    if resources.len() < 2 {
        return;
    }
    let grs: Vec<(&str, &str)> = resources.iter().map(|r| group_resource(r)).collect();
    let (mut duplicate, mut overlapping) = (false, false);
    for (i, a) in grs.iter().enumerate() {
        for (j, b) in grs.iter().enumerate() {
            if i == j {
                continue;
            }
            if a == b {
                duplicate = true;
                continue;
            }
            if *a == ("*", "*") || (a.0 == b.0 && (a.1 == "*" || b.1 == "*")) {
                overlapping = true;
            }
        }
    }
    let shown = go_strings(resources);
    if duplicate {
        errs.push(format!(
            "{path}: Invalid value: {shown}: the same resource cannot be specified multiple times"
        ));
    }
    if overlapping {
        errs.push(format!(
            "{path}: Invalid value: {shown}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"
        ));
    }
}

/// The resources upstream refuses to encrypt or to name that way.
fn resource_names(resources: &[String], path: &str, errs: &mut Vec<String>) {
    for (j, res) in resources.iter().enumerate() {
        let (group, resource) = group_resource(res);
        let why = if res.to_lowercase() != *res {
            "resource name should not contain capital letters"
        } else if res == "*" {
            "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"
        } else if matches!(
            res.as_str(),
            "apiserveripinfo" | "serviceipallocations" | "servicenodeportallocations"
        ) {
            "resources which do not have REST API/s cannot be encrypted"
        } else if group == "events.k8s.io" {
            "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"
        } else if group == "extensions" {
            "'extensions' group has been removed and cannot be used for encryption"
        } else if group == "*" && resource != "*" {
            "encrypting the same resource across groups is not supported"
        } else {
            continue;
        };
        errs.push(format!("{path}[{j}]: Invalid value: {}: {why}", q(res)));
    }
}

/// A rule naming a resource an earlier rule's wildcard already covers (upstream refuses
/// these when it builds the transformers).
fn masking(rules: &[EncryptionRule], errs: &mut Vec<String>) {
    let mut seen: std::collections::BTreeSet<(&str, &str)> = Default::default();
    let yaml = |g: &str, r: &str| match (g, r) {
        ("", "*") => "*.".to_owned(),
        ("", r) => r.to_owned(),
        (g, r) => format!("{r}.{g}"),
    };
    for rule in rules {
        for res in &rule.resources {
            let (g, r) = group_resource(res);
            if seen.contains(&(g, "*")) {
                errs.push(format!(
                    "resource {} is masked by earlier rule {}",
                    q(&yaml(g, r)),
                    q(&yaml(g, "*"))
                ));
            } else if seen.contains(&("*", "*")) {
                errs.push(format!(
                    "resource {} is masked by earlier rule \"*.*\"",
                    q(&yaml(g, r))
                ));
            }
        }
        for res in &rule.resources {
            seen.insert(group_resource(res));
        }
    }
}

fn provider(
    p: &Value,
    path: &str,
    kms_seen: &mut KmsSeen,
    errs: &mut Vec<String>,
) -> Option<EncryptionProvider> {
    let Some(obj) = p.as_object() else {
        errs.push(format!("{path}: Invalid value: must be an object"));
        return None;
    };
    let mut found = Vec::new();
    for key in obj.keys() {
        if PROVIDERS.contains(&key.as_str()) {
            found.push(key.as_str());
        } else {
            errs.push(format!(
                "{path}: Invalid value: {}: unknown provider; the providers are {}",
                q(key),
                PROVIDERS.join(", ")
            ));
        }
    }
    match found.as_slice() {
        [] => {
            if obj.is_empty() {
                errs.push(format!("{path}: Invalid value: {{}}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity"));
            }
            None
        }
        [one] => {
            let body = &obj[*one];
            let kpath = format!("{path}.{one}.keys");
            match *one {
                "identity" => {
                    let extra: Vec<&String> = body
                        .as_object()
                        .map(|o| o.keys().collect())
                        .unwrap_or_default();
                    for f in &extra {
                        errs.push(format!(
                            "strict decoding error: unknown field {}",
                            q(&format!("{path}.identity.{f}"))
                        ));
                    }
                    extra.is_empty().then_some(EncryptionProvider::Identity)
                }
                "aescbc" => keys(body, &kpath, AES_KEY_SIZES, errs).map(EncryptionProvider::AesCbc),
                "aesgcm" => keys(body, &kpath, AES_KEY_SIZES, errs).map(EncryptionProvider::AesGcm),
                "secretbox" => {
                    keys(body, &kpath, SECRETBOX_KEY_SIZES, errs).map(EncryptionProvider::Secretbox)
                }
                _ => kms(body, &format!("{path}.kms"), kms_seen, errs),
            }
        }
        _ => {
            errs.push(format!("{path}: Invalid value: {}: more than one provider specified in a single element, should split into different list elements", found.join(", ")));
            None
        }
    }
}

fn keys(
    body: &Value,
    path: &str,
    sizes: &[usize],
    errs: &mut Vec<String>,
) -> Option<Vec<EncryptionKey>> {
    let before = errs.len();
    let list = body.get("keys").and_then(Value::as_array);
    if let Some(obj) = body.as_object() {
        for key in obj.keys().filter(|k| *k != "keys") {
            errs.push(format!(
                "strict decoding error: unknown field {}",
                q(&format!("{}.{key}", path.trim_end_matches(".keys")))
            ));
        }
    }
    let list = match list {
        Some(l) if !l.is_empty() => l,
        _ => {
            errs.push(format!(
                "{path}: Required value: at least one keys is required"
            ));
            return None;
        }
    };
    let mut out = Vec::new();
    for (i, k) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let name = k.get("name").and_then(Value::as_str).unwrap_or("");
        let secret = k.get("secret").and_then(Value::as_str).unwrap_or("");
        if let Some(obj) = k.as_object() {
            for f in obj
                .keys()
                .filter(|f| !matches!(f.as_str(), "name" | "secret"))
            {
                errs.push(format!(
                    "strict decoding error: unknown field {}",
                    q(&format!("{at}.{f}"))
                ));
            }
        }
        if name.is_empty() {
            errs.push(format!(
                "{at}.name: Required value: name is a mandatory field for a key"
            ));
        }
        if secret.is_empty() {
            errs.push(format!(
                "{at}.secret: Required value: secret is a mandatory field for a key"
            ));
            continue;
        }
        let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(secret) else {
            errs.push(format!(
                "{at}.secret: Invalid value: \"REDACTED\": secrets must be base64 encoded"
            ));
            continue;
        };
        if !sizes.contains(&decoded.len()) {
            let want: Vec<String> = sizes.iter().map(usize::to_string).collect();
            errs.push(format!(
                "{at}.secret: Invalid value: \"REDACTED\": secret is not of the expected length, got {}, expected one of [{}]",
                decoded.len(),
                want.join(" ")
            ));
            continue;
        }
        out.push(EncryptionKey {
            name: name.to_owned(),
            secret: decoded,
        });
    }
    (errs.len() == before).then_some(out)
}

/// What `kms` providers need besides field checks: their names (unique across the file,
/// v1 and v2 alike, as upstream) and whether a v1 provider appeared (refused once the
/// file is otherwise valid, as kube-apiserver refuses it when building transformers).
#[derive(Default)]
pub(crate) struct KmsSeen {
    names: std::collections::BTreeSet<String>,
    v1: bool,
    /// Following the file: a v1 name must be unique as well.
    reload: bool,
}

/// Upstream's default `timeout` of a kms provider.
const KMS_DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);
const KMS_FIELDS: [&str; 5] = ["apiVersion", "name", "endpoint", "cachesize", "timeout"];

/// Checks a KMS provider as upstream's validation does, in its order (name, timeout,
/// endpoint, cachesize, apiVersion); a v2 provider is returned, a v1 one only noted.
fn kms(
    body: &Value,
    path: &str,
    seen: &mut KmsSeen,
    errs: &mut Vec<String>,
) -> Option<EncryptionProvider> {
    let before = errs.len();
    if let Some(obj) = body.as_object() {
        for f in obj.keys().filter(|f| !KMS_FIELDS.contains(&f.as_str())) {
            errs.push(format!(
                "strict decoding error: unknown field {}",
                q(&format!("{path}.{f}"))
            ));
        }
    }
    let field = |f: &str| body.get(f).and_then(Value::as_str).unwrap_or("");
    let name = field("name");
    // Upstream defaults an unset apiVersion to v1 (and only v1 gets a cache size).
    let version = match field("apiVersion") {
        "" => "v1",
        v => v,
    };
    let npath = format!("{path}.name");
    if name.is_empty() {
        errs.push(format!(
            "{npath}: Required value: name is a mandatory field for a provider"
        ));
    }
    if version != "v1" && name.contains(':') {
        errs.push(format!(
            "{npath}: Invalid value: {}: invalid KMS provider name {name}, must not contain ':'",
            q(name)
        ));
    }
    if (seen.reload || version != "v1") && seen.names.contains(name) {
        errs.push(format!(
            "{npath}: Invalid value: {}: duplicate KMS provider name {name}, names must be unique",
            q(name)
        ));
    }
    seen.names.insert(name.to_owned());
    let timeout = kms_timeout(body.get("timeout"), &format!("{path}.timeout"), errs);
    let endpoint = field("endpoint");
    let epath = format!("{path}.endpoint");
    if endpoint.is_empty() {
        errs.push(format!(
            "{epath}: Invalid value: \"\": endpoint is a mandatory field for a kms"
        ));
    } else if !endpoint.starts_with("unix://") {
        let scheme = endpoint.split_once("://").map_or("", |(s, _)| s);
        errs.push(format!(
            "{epath}: Invalid value: {}: unsupported scheme {} for KMS provider, only unix is supported",
            q(endpoint),
            q(scheme)
        ));
    }
    let cpath = format!("{path}.cachesize");
    match (version, body.get("cachesize")) {
        ("v1", Some(Value::Number(n))) if n.as_i64() == Some(0) => errs.push(format!(
            "{cpath}: Invalid value: 0: cachesize should be a positive value, or negative to disable"
        )),
        ("v1", _) | (_, None | Some(Value::Null)) => {}
        (_, Some(size)) => errs.push(format!(
            "{cpath}: Invalid value: {size}: cachesize is not supported in v2"
        )),
    }
    if version != "v1" && version != "v2" {
        // Upstream prints the literal word "apiVersion" where the version belongs.
        errs.push(format!(
            "{path}.apiVersion: Invalid value: {}: unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported",
            q(version)
        ));
    }
    if version == "v1" {
        seen.v1 = true;
        return None;
    }
    (errs.len() == before).then(|| {
        EncryptionProvider::Kms(KmsProvider {
            name: name.to_owned(),
            socket: unix_path(endpoint),
            timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        })
    })
}

/// `timeout`: a Go duration, 3s when unset, and positive.
fn kms_timeout(v: Option<&Value>, path: &str, errs: &mut Vec<String>) -> std::time::Duration {
    let text = match v {
        None | Some(Value::Null) => return KMS_DEFAULT_TIMEOUT,
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            errs.push(format!(
                "{path}: Invalid value: {other}: must be a duration such as \"3s\""
            ));
            return KMS_DEFAULT_TIMEOUT;
        }
    };
    let (negative, magnitude) = match text.trim().strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    match crate::godur::parse(magnitude) {
        // A metav1.Duration prints as Go prints a time.Duration, unquoted.
        Ok(d) if negative || d.is_zero() => {
            let sign = if negative && !d.is_zero() { "-" } else { "" };
            errs.push(format!(
                "{path}: Invalid value: {sign}{}: timeout should be a positive value",
                crate::godur::format(d)
            ));
            KMS_DEFAULT_TIMEOUT
        }
        Ok(d) => d,
        Err(e) => {
            errs.push(format!("{path}: Invalid value: {}: {e}", q(text)));
            KMS_DEFAULT_TIMEOUT
        }
    }
}

/// The socket path of a `unix://` endpoint, as Go's url.Parse finds it (after any host).
fn unix_path(endpoint: &str) -> String {
    let rest = endpoint.strip_prefix("unix://").unwrap_or(endpoint);
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    match rest.find('/') {
        Some(i) => rest[i..].to_owned(),
        None => String::new(),
    }
}

#[cfg(test)]
#[path = "encryption_config_tests.rs"]
mod tests;
