//! Field paths relative to a schema node (`.spec.replicas`, `.labels['a.b']`, `.list[0]`), as
//! `fieldPath` of CEL rules and `selectableFields` use them: parsing and resolution.

use crate::structural::{AdditionalProperties, Structural};

/// One step of a path.
#[derive(Debug, PartialEq)]
enum Step {
    Field(String),
    Index(usize),
}

fn parse(path: &str) -> Option<Vec<Step>> {
    let b = path.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    if b.is_empty() {
        return None;
    }
    while i < b.len() {
        match b[i] {
            b'.' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'-')
                {
                    j += 1;
                }
                if j == start {
                    return None;
                }
                out.push(Step::Field(path[start..j].to_string()));
                i = j;
            }
            b'[' => {
                let close = path[i..].find(']')? + i;
                let inner = &path[i + 1..close];
                if let Some(q) = inner.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
                    out.push(Step::Field(q.to_string()));
                } else if let Some(q) = inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
                    out.push(Step::Field(q.to_string()));
                } else {
                    out.push(Step::Index(inner.parse().ok()?));
                }
                i = close + 1;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The schema a path leads to, or None when it does not refer to a field of `root`.
/// Without `allow_index`, `[N]` steps are refused.
pub(crate) fn resolve<'a>(
    root: &'a Structural,
    path: &str,
    allow_index: bool,
) -> Option<&'a Structural> {
    let mut node = root;
    for step in parse(path)? {
        node = match step {
            Step::Field(f) => match node.properties.get(&f) {
                Some(p) => p,
                None => match &node.additional_properties {
                    Some(AdditionalProperties::Schema(s)) => s,
                    _ => return None,
                },
            },
            Step::Index(_) if allow_index => node.items.as_deref()?,
            Step::Index(_) => return None,
        };
    }
    Some(node)
}

/// Whether `path` refers to a field below `root` (array indexes allowed).
pub(crate) fn valid(root: &Structural, path: &str) -> bool {
    resolve(root, path, true).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths() {
        let s = Structural::from_json(&json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "list": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}))
        .unwrap();
        assert!(valid(&s, ".spec.list[0].n"));
        assert!(valid(&s, ".spec.labels['a.b/c']"));
        assert!(valid(&s, "['spec']"));
        assert!(!valid(&s, ".spec.nope"));
        assert!(!valid(&s, "spec"));
        assert!(!valid(&s, ".spec..list"));
        assert!(!valid(&s, ".spec.list[x]"));
        assert!(!valid(&s, ""));
        assert!(resolve(&s, ".spec.list[0]", false).is_none());
    }
}
