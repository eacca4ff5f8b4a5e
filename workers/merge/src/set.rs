//! Sets of paths, as structured-merge-diff keeps a manager's fields: at each level the
//! elements that are members themselves and the elements with members below them, both
//! sorted. Written and read as `FieldsV1` (`{"f:spec": {".": {}, "f:replicas": {}}}`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::path::{Path, PathElement};

/// A set of paths. Children are never empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    pub fn new() -> Self {
        Self::default()
    }

    /// A set of these paths.
    pub fn of(paths: impl IntoIterator<Item = Path>) -> Self {
        let mut s = Set::new();
        for p in paths {
            s.insert(&p.0);
        }
        s
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// Adds a path (the empty path is not a member of anything).
    pub fn insert(&mut self, path: &[PathElement]) {
        match path {
            [] => {}
            [pe] => {
                self.members.insert(pe.clone());
            }
            [pe, rest @ ..] => self.children.entry(pe.clone()).or_default().insert(rest),
        }
    }

    pub fn has(&self, path: &[PathElement]) -> bool {
        match path {
            [] => false,
            [pe] => self.members.contains(pe),
            [pe, rest @ ..] => self.children.get(pe).is_some_and(|c| c.has(rest)),
        }
    }

    /// Whether `pe` is a member at this level.
    pub fn has_member(&self, pe: &PathElement) -> bool {
        self.members.contains(pe)
    }

    /// The paths below `pe`, relative to it.
    pub fn with_prefix(&self, pe: &PathElement) -> Option<&Set> {
        self.children.get(pe)
    }

    pub fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.members.extend(other.members.iter().cloned());
        for (pe, c) in &other.children {
            let merged = match out.children.get(pe) {
                Some(mine) => mine.union(c),
                None => c.clone(),
            };
            out.children.insert(pe.clone(), merged);
        }
        out
    }

    pub fn intersection(&self, other: &Set) -> Set {
        let members = self.members.intersection(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, c) in &self.children {
            if let Some(o) = other.children.get(pe) {
                let i = c.intersection(o);
                if !i.is_empty() {
                    children.insert(pe.clone(), i);
                }
            }
        }
        Set { members, children }
    }

    /// Paths of `self` not in `other`. A member of `other` does not remove the paths
    /// below it (see [`Set::recursive_difference`]).
    pub fn difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, c) in &self.children {
            let d = match other.children.get(pe) {
                Some(o) => c.difference(o),
                None => c.clone(),
            };
            if !d.is_empty() {
                children.insert(pe.clone(), d);
            }
        }
        Set { members, children }
    }

    /// Paths of `self` neither in `other` nor below one of its members.
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let mut children = BTreeMap::new();
        for (pe, c) in &self.children {
            if other.members.contains(pe) {
                continue;
            }
            let d = match other.children.get(pe) {
                Some(o) => c.recursive_difference(o),
                None => c.clone(),
            };
            if !d.is_empty() {
                children.insert(pe.clone(), d);
            }
        }
        Set { members, children }
    }

    /// Every path, members of a level before the levels below, each in order.
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect(&mut Vec::new(), &mut out);
        out
    }

    fn collect(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        for pe in &self.members {
            let mut p = prefix.clone();
            p.push(pe.clone());
            out.push(Path(p));
        }
        for (pe, c) in &self.children {
            prefix.push(pe.clone());
            c.collect(prefix, out);
            prefix.pop();
        }
    }

    pub(crate) fn members(&self) -> impl Iterator<Item = &PathElement> {
        self.members.iter()
    }

    pub(crate) fn children(&self) -> impl Iterator<Item = (&PathElement, &Set)> {
        self.children.iter()
    }

    pub(crate) fn insert_member(&mut self, pe: PathElement) {
        self.members.insert(pe);
    }

    pub(crate) fn replace_children(&mut self, children: BTreeMap<PathElement, Set>) {
        self.children = children;
    }

    /// The set as `FieldsV1`: each element a key, `{}` below a member without children,
    /// `".": {}` beside the children of an element that is also a member.
    pub fn to_fields_v1(&self) -> Value {
        Value::Object(self.emit(false))
    }

    fn emit(&self, include_self: bool) -> Map<String, Value> {
        let mut out = Map::new();
        if include_self && !self.is_empty() {
            out.insert(".".into(), Value::Object(Map::new()));
        }
        for pe in &self.members {
            if !self.children.contains_key(pe) {
                out.insert(pe.to_fields_key(), Value::Object(Map::new()));
            }
        }
        for (pe, c) in &self.children {
            let member = self.members.contains(pe);
            out.insert(pe.to_fields_key(), Value::Object(c.emit(member)));
        }
        out
    }

    /// Reads `FieldsV1`. Keys of unknown kinds are skipped, as upstream skips them.
    pub fn from_fields_v1(v: &Value) -> Result<Set, String> {
        let Value::Object(m) = v else {
            return Err("FieldsV1 must be a JSON object".into());
        };
        Self::check(m)?;
        Ok(Self::read(m).0.unwrap_or_default())
    }

    fn check(m: &Map<String, Value>) -> Result<(), String> {
        for (k, v) in m {
            if k == "." {
                continue;
            }
            PathElement::from_fields_key(k)
                .map_err(|e| format!("parsing key as path element: {e}"))?;
            match v {
                Value::Object(c) => Self::check(c)?,
                _ => return Err(format!("value of {k:?} must be a JSON object")),
            }
        }
        Ok(())
    }

    /// (children, is the node itself a member)
    fn read(m: &Map<String, Value>) -> (Option<Set>, bool) {
        let mut children: Option<Set> = None;
        let mut member = false;
        for (k, v) in m {
            if k == "." {
                member = true;
                continue;
            }
            let Ok(Some(pe)) = PathElement::from_fields_key(k) else {
                continue;
            };
            let (grand, child_member) = match v {
                Value::Object(c) => Self::read(c),
                _ => (None, true),
            };
            if child_member {
                children
                    .get_or_insert_with(Set::new)
                    .members
                    .insert(pe.clone());
            }
            if let Some(g) = grand {
                if !g.is_empty() {
                    children.get_or_insert_with(Set::new).children.insert(pe, g);
                }
            }
        }
        if children.is_none() {
            member = true;
        }
        (children, member)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(n: &str) -> PathElement {
        PathElement::Field(n.into())
    }

    #[test]
    fn fields_v1_round_trip() {
        let v = json!({
            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:containers": {"k:{\"name\":\"a\"}": {".": {}, "f:image": {}}}, "f:replicas": {}}
        });
        let s = Set::from_fields_v1(&v).unwrap();
        assert!(s.has(&[f("metadata"), f("labels")]));
        assert!(s.has(&[f("metadata"), f("labels"), f("app")]));
        assert!(!s.has(&[f("metadata")]));
        assert!(s.has(&[f("spec"), f("replicas")]));
        assert_eq!(s.to_fields_v1(), v);
        assert!(Set::from_fields_v1(&json!({"f:a": 1})).is_err());
        assert!(Set::from_fields_v1(&json!({"q": {}})).is_err());
    }

    #[test]
    fn differences() {
        let a = Set::of([
            Path::fields(&["a", "b"]),
            Path::fields(&["a", "c"]),
            Path::fields(&["d"]),
        ]);
        let b = Set::of([Path::fields(&["a"]), Path::fields(&["d"])]);
        assert_eq!(
            a.difference(&b),
            Set::of([Path::fields(&["a", "b"]), Path::fields(&["a", "c"])])
        );
        assert!(a.recursive_difference(&b).is_empty());
        let u = a.union(&b);
        assert!(u.has(&[f("a")]) && u.has(&[f("a"), f("b")]));
        assert_eq!(a.intersection(&b), Set::of([Path::fields(&["d"])]));
        assert_eq!(
            u.paths()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [".a", ".d", ".a.b", ".a.c"]
        );
    }
}
