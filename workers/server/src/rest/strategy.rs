//! Strategies known only at run time (custom resources): pruning, defaulting and
//! validation against a schema, printer columns from JSONPath, and where `scale` reads
//! and writes. Built-in resources describe theirs as static data in [`super::Resource`].

use std::future::Future;
use std::pin::Pin;

use serde_json::{json, Value};

use crate::status::StatusCause;

/// What a [`Converter`] returns: the converted objects, or upstream's whole message.
pub type ConvertFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<Value>, String>> + Send + 'a>>;

/// Converts objects between the versions of a resource outside the process (a CRD's
/// conversion webhook). The store calls it only for objects not already in the version
/// it wants, all of a request's objects at once.
pub trait Converter: Send + Sync {
    /// `objects` converted to `api_version`, as many and in the same order; `list` when
    /// they are a list's items (upstream's messages then name the list kind).
    fn convert<'a>(
        &'a self,
        objects: Vec<Value>,
        api_version: &'a str,
        list: bool,
    ) -> ConvertFuture<'a>;
}

/// A printer column whose cell is a JSONPath into the object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynColumn {
    /// Header.
    pub name: String,
    /// integer, number, string, boolean or date.
    pub kind: String,
    /// OpenAPI format.
    pub format: String,
    /// Description.
    pub description: String,
    /// 0, or more for `-o wide` only.
    pub priority: u8,
    /// e.g. `.spec.replicas`.
    pub json_path: String,
}

/// Where the `scale` subresource of a custom resource reads and writes (JSONPaths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScalePaths {
    /// `.spec.replicas`.
    pub spec_replicas: String,
    /// `.status.replicas`.
    pub status_replicas: String,
    /// `.status.selector`, if any.
    pub label_selector: Option<String>,
}

/// The run-time strategy of a resource.
pub trait ObjectStrategy: Send + Sync {
    /// The OpenAPI v3 schema server-side apply merges custom resources by (their
    /// version's `openAPIV3Schema`); `None` merges them untyped.
    fn apply_schema(&self) -> Option<&Value> {
        None
    }

    /// Whether an update without a resourceVersion (or with `0`) overwrites whatever is
    /// stored; `false` makes it a 422, as upstream's custom resources answer.
    fn allow_unconditional_update(&self) -> bool {
        true
    }

    /// Drops fields the schema does not know; returns their paths (`spec.foo`).
    fn prune(&self, _obj: &mut Value) -> Vec<String> {
        Vec::new()
    }

    /// Fills in the schema's defaults.
    fn default(&self, _obj: &mut Value) {}

    /// The object against its schema and rules; `old` on update.
    fn validate(&self, _obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
        Vec::new()
    }

    /// The fields a field selector may name besides the metadata ones (a custom
    /// resource version's `selectableFields`, without the leading dot).
    fn selectable_fields(&self) -> &[String] {
        &[]
    }

    /// Printer columns after `Name`, when the resource defines its own.
    fn columns(&self) -> Option<Vec<DynColumn>> {
        None
    }

    /// The scale subresource's paths.
    fn scale(&self) -> Option<ScalePaths> {
        None
    }

    /// The converter between versions, when it is not the store's apiVersion rewrite (a
    /// CRD with `spec.conversion.strategy: Webhook`).
    fn converter(&self) -> Option<&dyn Converter> {
        None
    }
}

/// One step of a simple JSONPath.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Field(String),
    Index(usize),
    /// `[?(@.a.b=="x")]`: the first element whose path equals the value.
    Filter(Vec<String>, String),
    All,
}

fn parse_path(path: &str) -> Option<Vec<Step>> {
    let p = path.trim();
    let p = p
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .unwrap_or(p);
    let p = p.strip_prefix('$').unwrap_or(p);
    let mut steps = Vec::new();
    let mut rest = p;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end > 0 {
                steps.push(Step::Field(r[..end].to_owned()));
            }
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let inner = r[..end].trim();
            rest = &r[end + 1..];
            if inner == "*" {
                steps.push(Step::All);
            } else if let Some(f) = inner.strip_prefix("?(@.").and_then(|f| f.strip_suffix(')')) {
                let (lhs, rhs) = f.split_once("==")?;
                let value = rhs
                    .trim()
                    .trim_matches(|c| c == '"' || c == '\'')
                    .to_owned();
                steps.push(Step::Filter(
                    lhs.trim().split('.').map(str::to_owned).collect(),
                    value,
                ));
            } else if let Ok(i) = inner.parse::<usize>() {
                steps.push(Step::Index(i));
            } else {
                let key = inner.trim_matches(|c| c == '\'' || c == '"');
                steps.push(Step::Field(key.to_owned()));
            }
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            steps.push(Step::Field(rest[..end].to_owned()));
            rest = &rest[end..];
        }
    }
    Some(steps)
}

fn eval<'a>(v: &'a Value, steps: &[Step], out: &mut Vec<&'a Value>) {
    let Some((first, rest)) = steps.split_first() else {
        out.push(v);
        return;
    };
    match first {
        Step::Field(f) => {
            if let Some(c) = v.get(f) {
                eval(c, rest, out);
            }
        }
        Step::Index(i) => {
            if let Some(c) = v.get(*i) {
                eval(c, rest, out);
            }
        }
        Step::All => {
            for c in v.as_array().into_iter().flatten() {
                eval(c, rest, out);
            }
        }
        Step::Filter(path, want) => {
            for c in v.as_array().into_iter().flatten() {
                let mut cur = Some(c);
                for p in path {
                    cur = cur.and_then(|x| x.get(p));
                }
                let matches = match cur {
                    Some(Value::String(s)) => s == want,
                    Some(other) => want.as_str() == other.to_string().as_str(),
                    None => false,
                };
                if matches {
                    eval(c, rest, out);
                }
            }
        }
    }
}

/// The values a simple JSONPath (`.a.b`, `[0]`, `[*]`, `[?(@.type=="Ready")]`) selects.
pub fn json_path<'a>(obj: &'a Value, path: &str) -> Vec<&'a Value> {
    let mut out = Vec::new();
    if let Some(steps) = parse_path(path) {
        eval(obj, &steps, &mut out);
    }
    out
}

/// Sets the value at a plain dotted path (`.spec.replicas`), creating objects on the way.
pub fn set_path(obj: &mut Value, path: &str, value: Value) {
    let mut cur = obj;
    let parts: Vec<&str> = path
        .trim_start_matches('.')
        .split('.')
        .filter(|p| !p.is_empty())
        .collect();
    let Some((last, init)) = parts.split_last() else {
        return;
    };
    for p in init {
        if !cur.get(*p).is_some_and(Value::is_object) {
            cur[*p] = json!({});
        }
        cur = &mut cur[*p];
    }
    cur[*last] = value;
}

/// A column's cell: the first selected value (several joined by `,` as kubectl shows
/// lists), typed as the column says; Null when nothing is selected.
pub fn cell(obj: &Value, column: &DynColumn) -> Value {
    let found = json_path(obj, &column.json_path);
    match found.as_slice() {
        [] => Value::Null,
        [one] => (*one).clone(),
        many => json!(many
            .iter()
            .map(|v| v
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| v.to_string()))
            .collect::<Vec<_>>()
            .join(",")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_json_paths() {
        let o = json!({"spec": {"replicas": 3, "list": [1, 2]},
            "status": {"conditions": [{"type": "A", "status": "False"}, {"type": "Ready", "status": "True"}]}});
        assert_eq!(json_path(&o, ".spec.replicas"), vec![&json!(3)]);
        assert_eq!(json_path(&o, ".spec.list[1]"), vec![&json!(2)]);
        assert_eq!(json_path(&o, ".spec.list[*]").len(), 2);
        assert_eq!(
            json_path(&o, r#".status.conditions[?(@.type=="Ready")].status"#),
            vec![&json!("True")]
        );
        assert!(json_path(&o, ".nope.x").is_empty());
        let mut v = json!({});
        set_path(&mut v, ".spec.replicas", json!(4));
        assert_eq!(v, json!({"spec": {"replicas": 4}}));
    }
}
