//! Label and field selectors with kube-apiserver's syntax, matched against stored JSON
//! objects. A parsed selector becomes the storage layer's list [`Filter`].
//!
//! Labels: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`, `!a`, joined by
//! commas. Fields: `path=value`, `path==value`, `path!=value`, joined by commas, where
//! `path` is a dotted path into the object (`metadata.name`, `status.phase`); which paths
//! a resource allows is the resource's business ([`FieldSelector::check_fields`]).
//!
//! [`Filter`]: crate::storage::Filter

use serde_json::Value;

use crate::status::{Reason, Status};

/// One label requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LabelOp {
    Equals(String),
    NotEquals(String),
    In(Vec<String>),
    NotIn(Vec<String>),
    Exists,
    DoesNotExist,
}

/// A parsed label selector; empty matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSelector {
    requirements: Vec<(String, LabelOp)>,
}

/// A parsed field selector; empty matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSelector {
    requirements: Vec<(String, bool, String)>,
    fields: FieldSet,
}

/// How an object's selectable fields read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FieldSet {
    /// The value at the dotted path, a missing one empty (metadata fields, and custom
    /// resources' `selectableFields`, which print numbers and booleans as Go's
    /// `fmt.Sprint`).
    #[default]
    Paths,
    /// Upstream's field sets of the built-in types: unset booleans read `false` and
    /// unset counts `0` (`spec.unschedulable==false` matches a node without the field),
    /// and the fields that are not a path of their own (`status.successful` is a Job's
    /// `status.succeeded`, `status.podIP` the first of `status.podIPs`, an Event's
    /// `source` its source component else its reporting controller, `spec.host` a pod's
    /// `spec.nodeName`).
    BuiltIn,
}

/// The value of `field` of a built-in object, as its type's field set has it.
fn built_in_field(object: &Value, field: &str) -> String {
    let count = |p: &str| {
        object
            .pointer(p)
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .to_string()
    };
    let flag = |p: &str| {
        object
            .pointer(p)
            .and_then(Value::as_bool)
            .unwrap_or(false)
            .to_string()
    };
    let text = |p: &str| {
        object
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    match field {
        "spec.unschedulable" => flag("/spec/unschedulable"),
        "spec.hostNetwork" => flag("/spec/hostNetwork"),
        "status.replicas" => count("/status/replicas"),
        "status.successful" => count("/status/succeeded"),
        "status.podIP" => text("/status/podIPs/0/ip"),
        "spec.host" => text("/spec/nodeName"),
        "source" => match text("/source/component") {
            c if c.is_empty() => text("/reportingComponent"),
            c => c,
        },
        _ => path_field(object, field),
    }
}

/// The value at `field`'s dotted path: strings as they are, numbers and booleans as
/// text, anything missing or null empty.
fn path_field(object: &Value, field: &str) -> String {
    let pointer = format!("/{}", field.replace('.', "/"));
    match object.pointer(&pointer) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn bad(msg: String) -> Status {
    Status::new(Reason::BadRequest, msg)
}

/// Splits on commas that are not inside parentheses.
fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// A label key: an optional DNS-subdomain prefix and `/`, then a name of at most 63
/// alphanumerics, `-`, `_`, `.`, starting and ending alphanumeric.
fn valid_key(k: &str) -> bool {
    let (prefix, name) = match k.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, k),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|l| {
                !l.is_empty()
                    && l.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !l.starts_with('-')
                    && !l.ends_with('-')
            })
    });
    name_ok && prefix_ok
}

/// A label value: empty, or at most 63 alphanumerics, `-`, `_`, `.`, starting and ending
/// alphanumeric.
fn valid_value(v: &str) -> bool {
    v.is_empty()
        || (v.len() <= 63
            && v.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && v.starts_with(|c: char| c.is_ascii_alphanumeric())
            && v.ends_with(|c: char| c.is_ascii_alphanumeric()))
}

impl LabelSelector {
    /// Parses `labelSelector`.
    pub fn parse(s: &str) -> Result<LabelSelector, Status> {
        let mut requirements = Vec::new();
        for part in split_top(s)
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let req = Self::requirement(part)
                .map_err(|why| bad(format!("unable to parse requirement: {why}")))?;
            requirements.push(req);
        }
        Ok(LabelSelector { requirements })
    }

    fn requirement(part: &str) -> Result<(String, LabelOp), String> {
        let check_key = |k: &str| {
            if valid_key(k) {
                Ok(k.to_owned())
            } else {
                Err(format!("invalid label key {k:?}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"))
            }
        };
        let check_value = |v: &str| {
            if valid_value(v) {
                Ok(v.to_owned())
            } else {
                Err(format!("invalid label value: {v:?}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"))
            }
        };
        if let Some(k) = part.strip_prefix('!') {
            return Ok((check_key(k.trim())?, LabelOp::DoesNotExist));
        }
        for (op, neg) in [(" notin ", true), (" in ", false)] {
            if let Some((k, set)) = part.split_once(op) {
                let set = set.trim();
                let inner = set
                    .strip_prefix('(')
                    .and_then(|s| s.strip_suffix(')'))
                    .ok_or_else(|| format!("expected a parenthesised set of values in {part:?}"))?;
                let values = inner
                    .split(',')
                    .map(|v| check_value(v.trim()))
                    .collect::<Result<Vec<_>, _>>()?;
                if values.iter().all(String::is_empty) {
                    return Err(format!(
                        "for 'in', 'notin' operators, values set can't be empty in {part:?}"
                    ));
                }
                let key = check_key(k.trim())?;
                return Ok((
                    key,
                    if neg {
                        LabelOp::NotIn(values)
                    } else {
                        LabelOp::In(values)
                    },
                ));
            }
        }
        for (op, neg) in [("!=", true), ("==", false), ("=", false)] {
            if let Some((k, v)) = part.split_once(op) {
                let key = check_key(k.trim())?;
                let value = check_value(v.trim())?;
                return Ok((
                    key,
                    if neg {
                        LabelOp::NotEquals(value)
                    } else {
                        LabelOp::Equals(value)
                    },
                ));
            }
        }
        Ok((check_key(part)?, LabelOp::Exists))
    }

    /// Whether the selector is empty (matches everything).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// Whether an object's `metadata.labels` satisfy the selector.
    pub fn matches(&self, object: &Value) -> bool {
        let labels = object.pointer("/metadata/labels");
        self.requirements.iter().all(|(key, op)| {
            let value = labels.and_then(|l| l.get(key)).and_then(Value::as_str);
            match op {
                LabelOp::Equals(v) => value == Some(v.as_str()),
                LabelOp::NotEquals(v) => value != Some(v.as_str()),
                LabelOp::In(vs) => value.is_some_and(|x| vs.iter().any(|v| v == x)),
                LabelOp::NotIn(vs) => value.is_none_or(|x| !vs.iter().any(|v| v == x)),
                LabelOp::Exists => value.is_some(),
                LabelOp::DoesNotExist => value.is_none(),
            }
        })
    }
}

impl FieldSelector {
    /// Parses `fieldSelector` as upstream's `fields.ParseSelector` does: terms split at
    /// commas not escaped by a backslash, each at its first operator (`!=`, `==`, `=`),
    /// values unescaped (a backslash before `\\`, `,` or `=`; an unescaped `,` or `=` or
    /// another escape is an error). Nothing is trimmed: `metadata.name = x` names the
    /// field `metadata.name ` (unknown), as upstream.
    pub fn parse(s: &str) -> Result<FieldSelector, Status> {
        let mut requirements = Vec::new();
        for part in split_terms(s) {
            if part.is_empty() {
                continue;
            }
            let Some((field, negate, value)) = split_term(part) else {
                return Err(bad(format!(
                    "invalid selector: '{s}'; can't understand '{part}'"
                )));
            };
            let value = unescape_field_value(value).map_err(bad)?;
            requirements.push((field.to_owned(), negate, value));
        }
        Ok(FieldSelector {
            requirements,
            fields: FieldSet::Paths,
        })
    }

    /// The selector reading objects' fields as `fields` says.
    pub fn reading(mut self, fields: FieldSet) -> FieldSelector {
        self.fields = fields;
        self
    }

    /// Refuses fields the resource does not support, with kube-apiserver's message.
    /// Refuses fields outside `allowed`. Resources with field selectors of their own
    /// (`custom`) word it as upstream's per-resource converters do; the others as the
    /// generic one, listing what is allowed.
    pub fn check_fields(&self, allowed: &[&str], custom: bool) -> Result<(), Status> {
        for (field, _, _) in &self.requirements {
            if !allowed.contains(&field.as_str()) {
                if custom {
                    return Err(bad(format!("field label not supported: {field}")));
                }
                let list: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
                return Err(bad(format!(
                    "{field:?} is not a known field selector: only {}",
                    list.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Whether the selector is empty (matches everything).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// Whether the object's fields satisfy the selector.
    pub fn matches(&self, object: &Value) -> bool {
        self.requirements.iter().all(|(field, negate, want)| {
            let got = match self.fields {
                FieldSet::Paths => path_field(object, field),
                FieldSet::BuiltIn => built_in_field(object, field),
            };
            (got == *want) != *negate
        })
    }
}

/// The terms of a field selector: split at commas that no backslash escapes.
fn split_terms(s: &str) -> Vec<&str> {
    let (mut terms, mut start, mut escaped) = (Vec::new(), 0, false);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            ',' => {
                terms.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    terms.push(&s[start..]);
    terms
}

/// A term split at its first operator: (field, negated, raw value).
fn split_term(term: &str) -> Option<(&str, bool, &str)> {
    term.char_indices().find_map(|(i, _)| {
        let rest = &term[i..];
        if let Some(v) = rest.strip_prefix("!=") {
            Some((&term[..i], true, v))
        } else if let Some(v) = rest.strip_prefix("==") {
            Some((&term[..i], false, v))
        } else {
            rest.strip_prefix('=').map(|v| (&term[..i], false, v))
        }
    })
}

/// A field selector value with its escapes resolved, in upstream's words when it cannot be
/// (Go prints the offending rune as its number).
fn unescape_field_value(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            if !matches!(c, '\\' | ',' | '=') {
                return Err(format!(
                    "invalid field selector: invalid escape sequence: \\{c}"
                ));
            }
            out.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            ',' | '=' => {
                return Err(format!(
                    "invalid field selector: unescaped character in value: {}",
                    u32::from(c)
                ))
            }
            _ => out.push(c),
        }
    }
    if escaped {
        return Err("invalid field selector: invalid escape sequence: \\".to_owned());
    }
    Ok(out)
}

/// A value escaped for a field selector (`\\`, `,` and `=` behind a backslash), as
/// upstream's `fields.EscapeValue`.
pub fn escape_field_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | ',' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Both selectors of a LIST or WATCH, as one predicate on stored bytes. `None` when both
/// are empty (the list is unfiltered and reports `remainingItemCount`).
pub fn filter(labels: LabelSelector, fields: FieldSelector) -> Option<Box<crate::storage::Filter>> {
    if labels.is_empty() && fields.is_empty() {
        return None;
    }
    Some(Box::new(move |bytes: &[u8]| {
        serde_json::from_slice::<Value>(bytes)
            .map(|obj| labels.matches(&obj) && fields.matches(&obj))
            .unwrap_or(false)
    }))
}

/// A `metav1.LabelSelector` object (`matchLabels`, `matchExpressions`) in the string form
/// of `labelSelector` queries, as upstream prints it for Scale's `status.selector`:
/// requirements sorted by key.
pub fn label_selector_string(selector: &Value) -> String {
    let mut reqs: Vec<(String, String)> = Vec::new();
    if let Some(m) = selector.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in m {
            reqs.push((k.clone(), format!("{k}={}", v.as_str().unwrap_or(""))));
        }
    }
    for e in selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = e.get("key").and_then(Value::as_str).unwrap_or("");
        let mut values: Vec<&str> = e
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        values.sort_unstable();
        let text = match e.get("operator").and_then(Value::as_str).unwrap_or("") {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.to_owned(),
            "DoesNotExist" => format!("!{key}"),
            _ => continue,
        };
        reqs.push((key.to_owned(), text));
    }
    reqs.sort();
    reqs.into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join(",")
}

/// One requirement as `metav1.LabelSelectorRequirement` / `FieldSelectorRequirement`
/// write it.
fn requirement_json(key: &str, operator: &str, values: &[String]) -> Value {
    let mut r = serde_json::json!({"key": key, "operator": operator});
    if !values.is_empty() {
        r["values"] = serde_json::json!(values);
    }
    r
}

impl LabelSelector {
    /// The requirements as an authorizer is told them (a SubjectAccessReview's
    /// `labelSelector.requirements`): equality as `In`, inequality as `NotIn`.
    pub fn authorization_requirements(&self) -> Vec<Value> {
        self.requirements
            .iter()
            .map(|(key, op)| match op {
                LabelOp::Equals(v) => requirement_json(key, "In", std::slice::from_ref(v)),
                LabelOp::In(vs) => requirement_json(key, "In", vs),
                LabelOp::NotEquals(v) => requirement_json(key, "NotIn", std::slice::from_ref(v)),
                LabelOp::NotIn(vs) => requirement_json(key, "NotIn", vs),
                LabelOp::Exists => requirement_json(key, "Exists", &[]),
                LabelOp::DoesNotExist => requirement_json(key, "DoesNotExist", &[]),
            })
            .collect()
    }
}

impl FieldSelector {
    /// The requirements as an authorizer is told them (a SubjectAccessReview's
    /// `fieldSelector.requirements`): `In` or `NotIn` one value.
    pub fn authorization_requirements(&self) -> Vec<Value> {
        self.requirements
            .iter()
            .map(|(field, negate, value)| {
                let op = if *negate { "NotIn" } else { "In" };
                requirement_json(field, op, std::slice::from_ref(value))
            })
            .collect()
    }
}

/// The key, operator and values of one requirement object.
fn requirement_parts(r: &Value) -> Option<(&str, &str, Vec<&str>)> {
    let key = r.get("key")?.as_str()?;
    let op = r.get("operator")?.as_str()?;
    let values = r
        .get("values")
        .and_then(Value::as_array)
        .map(|vs| vs.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Some((key, op, values))
}

/// The label selector a SubjectAccessReview's `labelSelector.requirements` stand for.
/// A requirement with an operator this server does not know is left out: requirements
/// only narrow, so the check is as broad as or broader than asked (as upstream).
pub fn label_selector_from_requirements(requirements: &[Value]) -> String {
    requirements
        .iter()
        .filter_map(requirement_parts)
        .filter_map(|(key, op, values)| match op {
            "In" if !values.is_empty() => Some(format!("{key} in ({})", values.join(","))),
            "NotIn" if !values.is_empty() => Some(format!("{key} notin ({})", values.join(","))),
            "Exists" => Some(key.to_owned()),
            "DoesNotExist" => Some(format!("!{key}")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The field selector a SubjectAccessReview's `fieldSelector.requirements` stand for
/// (`In` / `NotIn` one value; others left out, as for labels).
pub fn field_selector_from_requirements(requirements: &[Value]) -> String {
    requirements
        .iter()
        .filter_map(requirement_parts)
        .filter_map(|(key, op, values)| match (op, values.as_slice()) {
            ("In", [v]) => Some(format!("{key}={}", escape_field_value(v))),
            ("NotIn", [v]) => Some(format!("{key}!={}", escape_field_value(v))),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
#[path = "selectors_tests.rs"]
mod tests;
