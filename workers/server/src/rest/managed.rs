//! `metadata.managedFields` and server-side apply for a store's writes, through
//! kas-merge's field manager: the type from [`Pos`], the endpoint's reset fields, and
//! upstream's statuses for what apply refuses.

use kas_merge::{ApplyError, FieldManager, Path, Set};
use serde_json::{json, Value};

use super::apply_schema::Pos;
use super::{ObjectStrategy, Resource, RestStore};
use crate::status::{Reason, Status, StatusCause, StatusDetails};

/// The field managers of one resource's endpoints.
pub(crate) struct Fields<'a> {
    pub(crate) resource: &'a Resource,
    pub(crate) strategy: Option<&'a dyn ObjectStrategy>,
}

impl Fields<'_> {
    /// The type writes are merged by.
    fn merge_schema(&self) -> Pos<'_> {
        match self.strategy {
            Some(st) if self.resource.definition.is_empty() => Pos::custom(st.apply_schema()),
            _ => Pos::builtin(self.resource.definition),
        }
    }

    /// What the type looks like before anything is set (Go's zero object), which a
    /// create is compared with.
    fn empty_object(&self) -> Value {
        let mut v = json!({"metadata": {}});
        if let Some(def) = kas_schema::type_def(self.resource.definition) {
            kas_schema::fill_zero_fields(def, &mut v);
        }
        v
    }

    /// The fields a write through `sub` resets, so nobody owns them through it: a main
    /// resource with a status subresource resets `status`; `status` resets the rest.
    fn reset_fields(&self, sub: &str, obj: &Value) -> Set {
        match sub {
            "" => {
                let status = self.resource.status_split().then_some("status");
                let resets = self.resource.resets.iter().copied().chain(status);
                Set::of(resets.map(|f| Path::fields(&[f])))
            }
            "status" => {
                // The metadata the type's status strategy takes from the client is owned
                // through `status` (upstream's GetResetFields name the rest).
                let from_client = super::subresource_write::status_metadata(self.resource);
                let whole_metadata = from_client.is_empty();
                let top = obj
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.keys())
                    .filter(|k| !matches!(k.as_str(), "status" | "apiVersion" | "kind"))
                    .filter(|k| whole_metadata || k.as_str() != "metadata")
                    .map(|k| Path::fields(&[k]));
                let kept = ["labels", "annotations", "finalizers", "ownerReferences"]
                    .into_iter()
                    .filter(|k| !whole_metadata && !from_client.contains(k))
                    .map(|k| Path::fields(&["metadata", k]));
                Set::of(top.chain(kept))
            }
            _ => Set::new(),
        }
    }

    /// Runs `f` with the field manager of `sub`, which resets `reset`.
    fn with_manager<R>(
        &self,
        sub: &str,
        reset: Set,
        f: impl FnOnce(&FieldManager<'_, Pos<'_>>, &Value) -> R,
    ) -> R {
        let schema = self.merge_schema();
        let api_version = self.resource.api_version();
        let fm = FieldManager {
            schema: &schema,
            api_version: &api_version,
            kind: self.resource.kind,
            subresource: sub,
            reset: &reset,
        };
        f(&fm, &self.empty_object())
    }

    /// Records an update by `manager` (`live` is `None` on create).
    pub(crate) fn record_update(
        &self,
        live: Option<&Value>,
        new: &mut Value,
        manager: &str,
        sub: &str,
        now: &str,
    ) {
        let reset = self.reset_fields(sub, new);
        self.with_manager(sub, reset, |fm, empty| {
            fm.update(live, empty, new, manager, now)
        });
    }

    /// The object `config` applied by `manager` makes of `live` (`None`: it is created).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply(
        &self,
        live: Option<&Value>,
        config: &Value,
        manager: &str,
        force: bool,
        sub: &str,
        now: &str,
    ) -> Result<Value, Status> {
        self.with_manager(sub, self.reset_fields(sub, config), |fm, empty| {
            fm.apply(live, empty, config, manager, force, now)
        })
        .map_err(apply_status)
    }
}

impl RestStore {
    pub(super) fn fields(&self) -> Fields<'_> {
        Fields {
            resource: &self.resource,
            strategy: self.strategy.as_deref(),
        }
    }
}

pub(crate) fn apply_status(e: ApplyError) -> Status {
    match e {
        ApplyError::BadRequest(m) => Status::new(Reason::BadRequest, m),
        // A client's configuration: 400, where upstream answers a plain 500 (README).
        ApplyError::Typed(m) => Status::new(Reason::BadRequest, m),
        ApplyError::Internal(m) => Status::new(Reason::Unknown, m),
        ApplyError::Conflict { message, causes } => Status {
            details: Some(StatusDetails {
                causes: causes
                    .into_iter()
                    .map(|(field, message)| StatusCause {
                        reason: "FieldManagerConflict".into(),
                        message,
                        field,
                    })
                    .collect(),
                ..Default::default()
            }),
            ..Status::new(Reason::Conflict, message)
        },
    }
}

/// The manager of a request with no `fieldManager`: the user agent up to its first `/`,
/// as upstream derives it.
pub(crate) fn manager_from_user_agent(ua: &str) -> String {
    let name: String = ua
        .split('/')
        .next()
        .unwrap_or("")
        .chars()
        .take(128)
        .collect();
    if name.is_empty() {
        "unknown".into()
    } else {
        name
    }
}
