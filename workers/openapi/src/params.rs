//! The path and query parameters of the REST operations, and which operation takes which.

/// Where a parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum In {
    Path,
    Query,
}

/// The JSON type of a parameter's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    String,
    Boolean,
    Integer,
}

impl Type {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Type::String => "string",
            Type::Boolean => "boolean",
            Type::Integer => "integer",
        }
    }
}

/// One parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Param {
    pub(crate) name: &'static str,
    pub(crate) location: In,
    pub(crate) kind: Type,
    pub(crate) description: String,
}

fn query(name: &'static str, kind: Type, description: &str) -> Param {
    Param {
        name,
        location: In::Query,
        kind,
        description: description.to_owned(),
    }
}

/// `{namespace}`.
pub(crate) fn namespace() -> Param {
    Param {
        name: "namespace",
        location: In::Path,
        kind: Type::String,
        description: "object name and auth scope, such as for teams and projects".to_owned(),
    }
}

/// `{name}` of an object of `kind`.
pub(crate) fn name(kind: &str) -> Param {
    Param {
        name: "name",
        location: In::Path,
        kind: Type::String,
        description: format!("name of the {kind}"),
    }
}

/// `pretty`, accepted by every operation.
pub(crate) fn pretty() -> Param {
    query(
        "pretty",
        Type::String,
        "If 'true', then the output is pretty printed.",
    )
}

fn allow_watch_bookmarks() -> Param {
    query(
        "allowWatchBookmarks",
        Type::Boolean,
        "Requests watch events with type \"BOOKMARK\"; servers may send them at their discretion. Ignored unless watch is set.",
    )
}
fn continue_() -> Param {
    query(
        "continue",
        Type::String,
        "The continue token of the previous page of a paginated list.",
    )
}
fn field_selector() -> Param {
    query(
        "fieldSelector",
        Type::String,
        "A selector restricting the returned objects by their fields. Defaults to everything.",
    )
}
fn label_selector() -> Param {
    query(
        "labelSelector",
        Type::String,
        "A selector restricting the returned objects by their labels. Defaults to everything.",
    )
}
fn limit() -> Param {
    query(
        "limit",
        Type::Integer,
        "The maximum number of objects to return in one page; the response's continue token fetches the next page.",
    )
}
fn resource_version() -> Param {
    query(
        "resourceVersion",
        Type::String,
        "Constrains which resource versions the request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions.",
    )
}
fn resource_version_match() -> Param {
    query(
        "resourceVersionMatch",
        Type::String,
        "How resourceVersion applies to list calls: Exact or NotOlderThan.",
    )
}
fn send_initial_events() -> Param {
    query(
        "sendInitialEvents",
        Type::Boolean,
        "With watch=true, start the stream with synthetic ADDED events for the current state, followed by a BOOKMARK event.",
    )
}
fn timeout_seconds() -> Param {
    query(
        "timeoutSeconds",
        Type::Integer,
        "Timeout of the list or watch call, whatever the activity.",
    )
}
fn watch() -> Param {
    query(
        "watch",
        Type::Boolean,
        "Watch for changes to the described resources and return them as a stream of add, update and remove notifications.",
    )
}
fn dry_run() -> Param {
    query(
        "dryRun",
        Type::String,
        "When present, modifications are not persisted. Valid values are: - All: all dry run stages will be processed",
    )
}
fn field_manager() -> Param {
    query(
        "fieldManager",
        Type::String,
        "The name of the actor making these changes: at most 128 printable characters.",
    )
}
fn field_validation() -> Param {
    query(
        "fieldValidation",
        Type::String,
        "How the server handles unknown or duplicate fields in the request body: Ignore, Warn (the default) or Strict.",
    )
}
fn force() -> Param {
    query(
        "force",
        Type::Boolean,
        "Force an apply request to take fields owned by other managers. Only for apply patches.",
    )
}
fn grace_period_seconds() -> Param {
    query(
        "gracePeriodSeconds",
        Type::Integer,
        "Seconds before the object is deleted; zero deletes immediately, unset uses the type's default.",
    )
}
fn ignore_store_read_error() -> Param {
    query(
        "ignoreStoreReadErrorWithClusterBreakingPotential",
        Type::Boolean,
        "Delete an object that cannot be read from storage (unsafe: skips finalizers and preconditions).",
    )
}
fn orphan_dependents() -> Param {
    query(
        "orphanDependents",
        Type::Boolean,
        "Deprecated: use propagationPolicy. Whether dependents are orphaned.",
    )
}
fn propagation_policy() -> Param {
    query(
        "propagationPolicy",
        Type::String,
        "Whether and how garbage collection deletes dependents: Orphan, Background or Foreground.",
    )
}

/// Query parameters of a list (and of the watch paths).
pub(crate) fn list() -> Vec<Param> {
    vec![
        allow_watch_bookmarks(),
        continue_(),
        field_selector(),
        label_selector(),
        limit(),
        resource_version(),
        resource_version_match(),
        send_initial_events(),
        timeout_seconds(),
        watch(),
    ]
}

/// Query parameters of a read of a custom resource (`GetOptions`).
pub(crate) fn get() -> Vec<Param> {
    vec![resource_version()]
}

/// Query parameters of create and update.
pub(crate) fn write() -> Vec<Param> {
    vec![dry_run(), field_manager(), field_validation()]
}

/// Query parameters of patch.
pub(crate) fn patch() -> Vec<Param> {
    vec![dry_run(), field_manager(), field_validation(), force()]
}

/// Query parameters of delete.
pub(crate) fn delete() -> Vec<Param> {
    vec![
        dry_run(),
        grace_period_seconds(),
        ignore_store_read_error(),
        orphan_dependents(),
        propagation_policy(),
    ]
}

/// Query parameters of deletecollection.
pub(crate) fn delete_collection() -> Vec<Param> {
    vec![
        continue_(),
        dry_run(),
        field_selector(),
        grace_period_seconds(),
        ignore_store_read_error(),
        label_selector(),
        limit(),
        orphan_dependents(),
        propagation_policy(),
        resource_version(),
        resource_version_match(),
        send_initial_events(),
        timeout_seconds(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_operations_take_field_validation() {
        for params in [write(), patch()] {
            assert!(params.iter().any(|p| p.name == "fieldValidation"));
            assert!(params.iter().any(|p| p.name == "dryRun"));
            assert!(params.iter().any(|p| p.name == "fieldManager"));
        }
        assert!(patch().iter().any(|p| p.name == "force"));
        let names: Vec<_> = list().iter().map(|p| p.name).collect();
        for expected in [
            "labelSelector",
            "fieldSelector",
            "resourceVersion",
            "limit",
            "continue",
            "watch",
        ] {
            assert!(names.contains(&expected), "{expected}");
        }
        assert!(list().iter().all(|p| p.location == In::Query));
        assert_eq!(name("Pod").description, "name of the Pod");
    }
}
