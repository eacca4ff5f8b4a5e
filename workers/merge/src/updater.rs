//! The managers' field sets through a write, as structured-merge-diff's `Updater`: an
//! update takes the fields it changed from everyone else; an apply owns exactly the
//! fields of its configuration, conflicts with other owners of fields it would change,
//! and removes what it stopped applying when nobody else owns it.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::compare::{compare, Comparison};
use crate::fieldset::{ensure_named_fields_are_members as ensure, to_field_set};
use crate::items::values_equal;
use crate::merge::{merge, remove_items};
use crate::path::Path;
use crate::schema::Schema;
use crate::set::Set;

/// One manager's fields, with the version they were written in and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionedSet {
    pub set: Set,
    pub api_version: String,
    pub applied: bool,
}

/// The field sets by manager identifier.
pub type Managers = BTreeMap<String, VersionedSet>;

/// A field another manager owns that an apply would change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub manager: String,
    pub path: Path,
}

/// What a write is measured against.
pub struct Updater<'a, S> {
    pub schema: &'a S,
    /// The version the request is written in (`apps/v1`).
    pub version: &'a str,
    /// Fields the request's endpoint resets (a status write's `spec`), owned by nobody
    /// through it.
    pub reset: &'a Set,
}

impl<S: Schema> Updater<'_, S> {
    /// Records that `manager` wrote `new` over `live`.
    pub fn update(&self, live: &Value, new: &Value, managers: &mut Managers, manager: &str) {
        let cmp = match self.settle(live, new, managers, manager, true) {
            Ok(c) => c,
            Err(_) => unreachable!("a forced update has no conflicts"),
        };
        let previous = managers.remove(manager).map(|v| v.set).unwrap_or_default();
        let set = previous
            .difference(&cmp.removed)
            .union(&cmp.modified)
            .union(&cmp.added)
            .recursive_difference(self.reset);
        if !set.is_empty() {
            managers.insert(
                manager.to_owned(),
                VersionedSet {
                    set,
                    api_version: self.version.to_owned(),
                    applied: false,
                },
            );
        }
    }

    /// Applies `config` for `manager` over `live`: the new object, or `None` when nothing
    /// changes.
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        managers: &mut Managers,
        manager: &str,
        force: bool,
    ) -> Result<Option<Value>, Vec<Conflict>> {
        let merged = merge(live, config, self.schema);
        let last = managers.get(manager).cloned();
        let set = to_field_set(config, self.schema).recursive_difference(self.reset);
        managers.insert(
            manager.to_owned(),
            VersionedSet {
                set,
                api_version: self.version.to_owned(),
                applied: true,
            },
        );
        let new = self.prune(merged, managers, last.as_ref());
        self.settle(live, &new, managers, manager, force)?;
        if values_equal(live, &new) {
            return Ok(None);
        }
        Ok(Some(new))
    }

    /// Takes the fields `workflow` changes from every other manager (conflicts unless
    /// forced) and the removed fields from everyone.
    fn settle(
        &self,
        old: &Value,
        new: &Value,
        managers: &mut Managers,
        workflow: &str,
        force: bool,
    ) -> Result<Comparison, Vec<Conflict>> {
        let cmp = compare(old, new, self.schema).excluding(self.reset);
        let changed = cmp.modified.union(&cmp.added);
        let mut conflicts = Vec::new();
        let mut taken: Vec<(String, Set)> = Vec::new();
        for (name, vs) in managers.iter() {
            if name == workflow {
                continue;
            }
            let clash = vs.set.intersection(&changed);
            if !clash.is_empty() {
                for path in clash.paths() {
                    conflicts.push(Conflict {
                        manager: name.clone(),
                        path,
                    });
                }
                taken.push((name.clone(), clash));
            }
        }
        if !force && !conflicts.is_empty() {
            return Err(conflicts);
        }
        for (name, clash) in taken {
            if let Some(vs) = managers.get_mut(&name) {
                vs.set = vs.set.difference(&clash);
            }
        }
        if !cmp.removed.is_empty() {
            for (name, vs) in managers.iter_mut() {
                if name != workflow {
                    vs.set = vs.set.difference(&cmp.removed);
                }
            }
        }
        managers.retain(|_, vs| !vs.set.is_empty());
        Ok(cmp)
    }

    /// Removes from `merged` what the applier owned last time and owns no more, unless
    /// another manager owns it.
    fn prune(&self, merged: Value, managers: &Managers, last: Option<&VersionedSet>) -> Value {
        let Some(last) = last.filter(|l| !l.set.is_empty()) else {
            return merged;
        };
        let s = self.schema;
        let fields = |v: &Value| ensure(&to_field_set(v, s), s);
        let pruned = remove_items(&merged, &ensure(&last.set, s), s);
        // Add back what any manager (the applier's new set included) owns.
        let owned = managers
            .values()
            .fold(Set::new(), |acc, vs| acc.union(&vs.set));
        let merged_set = fields(&merged);
        let keep = fields(&pruned).union(&ensure(&owned, s));
        let pruned = remove_items(&merged, &merged_set.difference(&keep), s);
        // Add back what nobody owns and the applier did not own (defaults, dangling).
        let gone = merged_set
            .difference(&fields(&pruned))
            .intersection(&ensure(&last.set, s));
        remove_items(&merged, &gone, s)
    }
}
