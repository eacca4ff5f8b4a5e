//! `--audit-policy-file`: the `audit.k8s.io/v1` Policy, YAML or JSON, read as
//! kube-apiserver v1.33 reads it (k8s.io/apiserver pkg/audit/policy/reader.go) and checked
//! as pkg/apis/audit/validation checks it, every problem at once with its field path.
//! Only `audit.k8s.io/v1` is known (v1alpha1 and v1beta1 went in 1.24). Upstream decodes
//! strictly and, on an unknown field only, decodes again leniently with a warning: an
//! unknown field is therefore a warning here too, never a refusal.

use std::path::Path;

use kas_proto::{AuditGroupResources, AuditLevel, AuditPolicy, AuditRule, AuditStage};
use serde_json::{Map, Value};

/// What upstream names its audit scheme in "no kind is registered" errors.
const SCHEME: &str = "k8s.io/apiserver/pkg/audit/scheme.go:30";
const LEVELS: [&str; 4] = ["None", "Metadata", "Request", "RequestResponse"];
const STAGES: [&str; 4] = [
    "RequestReceived",
    "ResponseStarted",
    "ResponseComplete",
    "Panic",
];
const POLICY_FIELDS: [&str; 6] = [
    "apiVersion",
    "kind",
    "metadata",
    "rules",
    "omitStages",
    "omitManagedFields",
];
const RULE_FIELDS: [&str; 9] = [
    "level",
    "users",
    "userGroups",
    "verbs",
    "resources",
    "namespaces",
    "nonResourceURLs",
    "omitStages",
    "omitManagedFields",
];
const GROUP_RESOURCES_FIELDS: [&str; 3] = ["group", "resources", "resourceNames"];

/// A Policy read and checked, with what upstream would log as a warning about it.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) policy: AuditPolicy,
    pub(crate) warning: Option<String>,
}

/// Reads and checks the file; every message names the file first.
pub(crate) fn load(path: &Path) -> Result<Loaded, Vec<String>> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![format!("failed to read file path {shown:?}: {e}")])?;
    let named = |m: String| format!("{shown}: {m}");
    match parse(&text) {
        Ok(loaded) => Ok(Loaded {
            policy: loaded.policy,
            warning: loaded.warning.map(named),
        }),
        Err(errs) => Err(errs.into_iter().map(named).collect()),
    }
}

/// Parses and checks a Policy's text; on failure every problem.
pub(crate) fn parse(text: &str) -> Result<Loaded, Vec<String>> {
    // YAML is a superset of JSON: one parser reads both.
    let doc: Value = serde_yaml_ng::from_str(text).map_err(|e| {
        vec![format!(
            "failed decoding: error converting YAML to JSON: {e}"
        )]
    })?;
    let empty = Map::new();
    let top = match &doc {
        Value::Object(o) => o,
        // An empty file decodes as an empty object does.
        Value::Null => &empty,
        other => {
            return Err(vec![format!(
                "failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal {} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
                json_kind(other)
            )])
        }
    };
    let mut d = Decoder::default();
    d.type_meta(top);
    d.unknown_fields(top, "", &POLICY_FIELDS);
    let omit_stages = d.stages(top.get("omitStages"), "omitStages", "Policy", "omitStages");
    let rules = match top.get("rules") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, r)| d.rule(r, i))
            .collect(),
        Some(other) => {
            d.type_error(other, "Policy", "rules", "[]v1.PolicyRule");
            Vec::new()
        }
    };
    let omit_managed_fields = d
        .bool(top.get("omitManagedFields"), "Policy", "omitManagedFields")
        .unwrap_or(false);
    if d.errs.is_empty() && rules.is_empty() {
        d.errs.push("loaded illegal policy with 0 rules".to_owned());
    }
    // Upstream's error list drops repeated messages.
    let mut errs: Vec<String> = Vec::new();
    for e in d.errs {
        if !errs.contains(&e) {
            errs.push(e);
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let warning = (!d.unknown.is_empty()).then(|| {
        format!(
            "Audit policy contains errors, falling back to lenient decoding: strict decoding error: {}",
            d.unknown.join(", ")
        )
    });
    Ok(Loaded {
        policy: AuditPolicy {
            rules,
            omit_stages: omit_stages.into_iter().flatten().collect(),
            omit_managed_fields,
        },
        warning,
    })
}

/// Go's `%q` of a string.
fn q(s: &str) -> String {
    format!("{s:?}")
}

/// Go's `%#v` of a `[]string`, as field errors print a list.
fn go_strings(v: &[String]) -> String {
    let items: Vec<String> = v.iter().map(|s| q(s)).collect();
    format!("[]string{{{}}}", items.join(", "))
}

/// The JSON type name Go's decoder uses in "cannot unmarshal" errors.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A lower-case RFC 1123 subdomain's problems, in upstream's words.
fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut msgs = Vec::new();
    if s.len() > 253 {
        msgs.push("must be no more than 253 characters".to_owned());
    }
    let ok = s.split('.').all(|label| {
        !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    });
    if !ok {
        msgs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_owned());
    }
    msgs
}

/// Decoding state: the errors (decoding, then validation, as found) and the unknown
/// fields upstream's strict decoder would name.
#[derive(Default)]
struct Decoder {
    errs: Vec<String>,
    unknown: Vec<String>,
}

impl Decoder {
    /// `apiVersion` and `kind`, as upstream's decoder defaults and checks them.
    fn type_meta(&mut self, top: &Map<String, Value>) {
        let before = self.errs.len();
        let mut meta = |field: &str| match top.get(field) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.errs.push(format!(
                    "failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal {} into Go struct field .{field} of type string",
                    json_kind(other)
                ));
                String::new()
            }
        };
        let api_version = meta("apiVersion");
        let kind = meta("kind");
        if self.errs.len() > before {
            return;
        }
        // The decoder fills what is missing from the type decoded into: kind Policy, and
        // the internal version, which the reader then refuses.
        let kind = if kind.is_empty() { "Policy" } else { &kind };
        match api_version.as_str() {
            "audit.k8s.io/v1" => match kind {
                "Policy" => {}
                "PolicyList" | "Event" | "EventList" => self.errs.push(format!(
                    "failed decoding: converting (v1.{kind}) to (audit.Policy): unknown conversion"
                )),
                _ => self.errs.push(format!(
                    "failed decoding: no kind {} is registered for version \"audit.k8s.io/v1\" in scheme {}",
                    q(kind),
                    q(SCHEME)
                )),
            },
            "" => self.errs.push(format!(
                "unknown group version field audit.k8s.io/__internal, Kind={kind} in policy"
            )),
            other if other.matches('/').count() > 1 => self.errs.push(format!(
                "failed decoding: couldn't get version/kind; json parse error: unexpected GroupVersion string: {other}"
            )),
            other => self.errs.push(format!(
                "failed decoding: no kind {} is registered for version {} in scheme {}",
                q(kind),
                q(other),
                q(SCHEME)
            )),
        }
    }

    /// Notes every field of `obj` not in `known`, with its path (`rules[0].levle`).
    fn unknown_fields(&mut self, obj: &Map<String, Value>, at: &str, known: &[&str]) {
        for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
            let path = if at.is_empty() {
                key.clone()
            } else {
                format!("{at}.{key}")
            };
            self.unknown.push(format!("unknown field {}", q(&path)));
        }
    }

    /// Go's decoding error for a value of the wrong JSON type.
    fn type_error(&mut self, v: &Value, go_struct: &str, json_path: &str, go_type: &str) {
        self.errs.push(format!(
            "failed decoding: json: cannot unmarshal {} into Go struct field {go_struct}.{json_path} of type {go_type}",
            json_kind(v)
        ));
    }

    /// A string field; `null` or absent is `""`.
    fn string(
        &mut self,
        v: Option<&Value>,
        go_struct: &str,
        json_path: &str,
        go_type: &str,
    ) -> String {
        match v {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.type_error(other, go_struct, json_path, go_type);
                String::new()
            }
        }
    }

    /// A `[]string` field.
    fn strings(&mut self, v: Option<&Value>, go_struct: &str, json_path: &str) -> Vec<String> {
        match v {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| self.string(Some(item), go_struct, json_path, "string"))
                .collect(),
            Some(other) => {
                self.type_error(other, go_struct, json_path, "[]string");
                Vec::new()
            }
        }
    }

    /// A bool field; `None` when absent or `null`.
    fn bool(&mut self, v: Option<&Value>, go_struct: &str, json_path: &str) -> Option<bool> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                self.type_error(other, go_struct, json_path, "bool");
                None
            }
        }
    }

    /// An `omitStages` list, checked: `None` for each invalid stage.
    fn stages(
        &mut self,
        v: Option<&Value>,
        field_path: &str,
        go_struct: &str,
        json_path: &str,
    ) -> Vec<Option<AuditStage>> {
        let names = match v {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| self.string(Some(item), go_struct, json_path, "v1.Stage"))
                .collect(),
            Some(other) => {
                self.type_error(other, go_struct, json_path, "[]v1.Stage");
                Vec::new()
            }
        };
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let stage = AuditStage::parse(name);
                if stage.is_none() {
                    self.errs.push(format!(
                        "{field_path}[{i}]: Invalid value: {}: allowed stages are {}",
                        q(name),
                        STAGES.join(",")
                    ));
                }
                stage
            })
            .collect()
    }

    /// One `rules[]` entry, decoded and checked in upstream's order (level,
    /// nonResourceURLs, resources, omitStages, then the mix of resources and URLs).
    fn rule(&mut self, v: &Value, i: usize) -> Option<AuditRule> {
        let at = format!("rules[{i}]");
        let Value::Object(obj) = v else {
            if !v.is_null() {
                self.type_error(v, "Policy", "rules", "v1.PolicyRule");
            }
            return None;
        };
        self.unknown_fields(obj, &at, &RULE_FIELDS);
        const S: &str = "PolicyRule";
        let before = self.errs.len();
        let level_name = self.string(obj.get("level"), S, "rules.level", "v1.Level");
        // A level of the wrong type is a decoding error only, as upstream stops there.
        let level_decoded = self.errs.len() == before;
        let users = self.strings(obj.get("users"), S, "rules.users");
        let user_groups = self.strings(obj.get("userGroups"), S, "rules.userGroups");
        let verbs = self.strings(obj.get("verbs"), S, "rules.verbs");
        let resources = self.group_resources(obj.get("resources"), &at);
        let namespaces = self.strings(obj.get("namespaces"), S, "rules.namespaces");
        let urls = self.strings(obj.get("nonResourceURLs"), S, "rules.nonResourceURLs");
        let omit_managed_fields =
            self.bool(obj.get("omitManagedFields"), S, "rules.omitManagedFields");

        let level = AuditLevel::parse(&level_name);
        if level_decoded && level_name.is_empty() {
            self.errs.push(format!("{at}.level: Required value"));
        } else if level_decoded && level.is_none() {
            let supported: Vec<String> = LEVELS.iter().map(|l| q(l)).collect();
            self.errs.push(format!(
                "{at}.level: Unsupported value: {}: supported values: {}",
                q(&level_name),
                supported.join(", ")
            ));
        }
        self.non_resource_urls(&urls, &at);
        self.check_group_resources(&resources, &at);
        let omit_stages = self.stages(
            obj.get("omitStages"),
            &format!("{at}.omitStages"),
            S,
            "rules.omitStages",
        );
        if !urls.is_empty() && (!resources.is_empty() || !namespaces.is_empty()) {
            self.errs.push(format!(
                "{at}.nonResourceURLs: Invalid value: {}: rules cannot apply to both regular resources and non-resource URLs",
                go_strings(&urls)
            ));
        }
        Some(AuditRule {
            level: level?,
            users,
            user_groups,
            verbs,
            resources,
            namespaces,
            non_resource_urls: urls,
            omit_stages: omit_stages.into_iter().collect::<Option<_>>()?,
            omit_managed_fields,
        })
    }

    /// `nonResourceURLs`: `*` alone, or a path starting with `/` whose only `*` is last.
    fn non_resource_urls(&mut self, urls: &[String], at: &str) {
        for (j, url) in urls.iter().enumerate().filter(|(_, u)| *u != "*") {
            let path = format!("{at}.nonResourceURLs[{j}]");
            if !url.starts_with('/') {
                self.errs.push(format!(
                    "{path}: Invalid value: {}: non-resource URL rules must begin with a '/' character",
                    q(url)
                ));
            }
            if url.len() > 1 && url.as_bytes()[..url.len() - 1].contains(&b'*') {
                self.errs.push(format!(
                    "{path}: Invalid value: {}: non-resource URL wildcards '*' must be the final character of the rule",
                    q(url)
                ));
            }
        }
    }

    /// A rule's `resources` list, decoded.
    fn group_resources(&mut self, v: Option<&Value>, at: &str) -> Vec<AuditGroupResources> {
        const S: &str = "GroupResources";
        let items = match v {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.type_error(
                    other,
                    "PolicyRule",
                    "rules.resources",
                    "[]v1.GroupResources",
                );
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for (j, item) in items.iter().enumerate() {
            let obj = match item {
                Value::Object(obj) => obj,
                // Go decodes null into an empty entry.
                Value::Null => {
                    out.push(AuditGroupResources::default());
                    continue;
                }
                other => {
                    self.type_error(other, "PolicyRule", "rules.resources", "v1.GroupResources");
                    continue;
                }
            };
            self.unknown_fields(
                obj,
                &format!("{at}.resources[{j}]"),
                &GROUP_RESOURCES_FIELDS,
            );
            out.push(AuditGroupResources {
                group: self.string(obj.get("group"), S, "rules.resources.group", "string"),
                resources: self.strings(obj.get("resources"), S, "rules.resources.resources"),
                resource_names: self.strings(
                    obj.get("resourceNames"),
                    S,
                    "rules.resources.resourceNames",
                ),
            });
        }
        out
    }

    /// Upstream's checks of a rule's resources. Its paths name the list, not the entry
    /// (`rules[0].resources.group`), and so do these.
    fn check_group_resources(&mut self, resources: &[AuditGroupResources], at: &str) {
        for gr in resources {
            if !gr.group.is_empty() {
                let msgs = dns1123_subdomain(&gr.group);
                if !msgs.is_empty() {
                    self.errs.push(format!(
                        "{at}.resources.group: Invalid value: {}: {}",
                        q(&gr.group),
                        msgs.join(",")
                    ));
                }
            }
            if !gr.resource_names.is_empty() && gr.resources.is_empty() {
                self.errs.push(format!(
                    "{at}.resources.resourceNames: Invalid value: {}: using resourceNames requires at least one resource",
                    go_strings(&gr.resource_names)
                ));
            }
        }
    }
}

#[cfg(test)]
#[path = "audit_policy_tests.rs"]
mod tests;
