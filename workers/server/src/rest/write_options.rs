//! The options every write (create, update, patch, apply, delete) takes from its query
//! string and headers: dry run, field validation, field manager, force, the requester.

use http::HeaderMap;
use kas_proto::{RequestContext, UserInfo};

use super::{bad_request, managed, FieldValidation, Query};
use crate::status::Status;

/// The options every write takes from its query and headers.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// `dryRun=All`.
    pub dry_run: bool,
    /// `fieldValidation`.
    pub validation: FieldValidation,
    /// `fieldManager`, or derived from the user agent.
    pub manager: String,
    /// Who asks; `None` for the server's own writes, which nothing restricts.
    pub user: Option<UserInfo>,
    /// Where admission leaves warnings for the response.
    pub recorder: crate::admission::Recorder,
    /// `force` (server-side apply only).
    pub force: Option<bool>,
    /// `fieldManager` was given (apply requires it).
    pub manager_given: bool,
    /// The write's managedFields are already settled (by server-side apply): the
    /// create or update must not record the write again.
    pub(crate) fields_recorded: bool,
    /// The front door audits this write's object: the object as decoded and defaulted
    /// is kept in the recorder for it.
    pub(crate) audit_request_object: bool,
}

impl WriteOptions {
    /// Options for writes made by the server itself.
    pub fn server(manager: &str) -> WriteOptions {
        WriteOptions {
            dry_run: false,
            validation: FieldValidation::Ignore,
            manager: manager.to_owned(),
            user: None,
            recorder: Default::default(),
            force: None,
            manager_given: true,
            fields_recorded: false,
            audit_request_object: false,
        }
    }

    pub(super) fn from_query(
        ctx: &RequestContext,
        q: &Query,
        headers: &HeaderMap,
        recorder: &crate::admission::Recorder,
    ) -> Result<WriteOptions, Status> {
        Ok(WriteOptions {
            user: Some(ctx.user.clone()),
            recorder: recorder.clone(),
            audit_request_object: ctx.audit_request_object,
            ..Self::from_query_params(q, headers)?
        })
    }

    /// The options a write's query sets (`dryRun`, `fieldValidation`, `fieldManager`,
    /// or the manager named by the user agent), for no user.
    pub(super) fn from_query_params(
        q: &Query,
        headers: &HeaderMap,
    ) -> Result<WriteOptions, Status> {
        let dry_run = match q.get("dryRun") {
            None => false,
            Some("All") => true,
            Some(other) => {
                return Err(bad_request(format!(
                    "Invalid dryRun value: {other:?}. Valid values are \"All\"."
                )))
            }
        };
        let validation = FieldValidation::parse(q.get("fieldValidation"))
            .map_err(|e| bad_request(e.to_string()))?;
        let manager = match q.get("fieldManager") {
            Some(m) if m.chars().count() > 128 => {
                return Err(bad_request(
                    "fieldManager: Invalid value: must be no more than 128 characters",
                ))
            }
            Some(m) => m.to_owned(),
            None => managed::manager_from_user_agent(
                headers
                    .get(http::header::USER_AGENT)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or(""),
            ),
        };
        let force = q.opt_flag("force");
        Ok(WriteOptions {
            dry_run,
            validation,
            manager,
            user: None,
            recorder: Default::default(),
            force,
            manager_given: q.get("fieldManager").is_some_and(|m| !m.is_empty()),
            fields_recorded: false,
            audit_request_object: false,
        })
    }
}
