//! Server-side apply and `metadata.managedFields`, as kube-apiserver keeps them with
//! structured-merge-diff (sigs.k8s.io/structured-merge-diff v6 and apimachinery's
//! `managedfields`): every write records which manager set which fields; an apply owns
//! exactly the fields of its configuration, merges it by the type's list and map kinds,
//! conflicts with other owners of fields it would change (409 unless forced), and
//! removes fields it stopped applying that nobody else owns.
//!
//! The type is seen through [`Schema`]; values are `serde_json::Value`s.
#![forbid(unsafe_code)]

mod compare;
mod fieldset;
mod items;
mod managed;
mod merge;
mod openapi;
mod path;
mod schema;
mod set;
mod updater;

#[cfg(test)]
mod tests;

pub use compare::{compare, Comparison};
pub use fieldset::{check_config, ensure_named_fields_are_members, to_field_set};
pub use managed::{decode, encode, identifier, ApplyError, FieldManager};
pub use merge::{merge, remove_items};
pub use openapi::OpenApi;
pub use path::{compare_values, Path, PathElement};
pub use schema::{Kind, ListKind, ScalarKind, Schema, Untyped};
pub use set::Set;
pub use updater::{Conflict, Managers, Updater, VersionedSet};
