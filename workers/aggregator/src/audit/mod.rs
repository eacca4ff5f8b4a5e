//! Auditing at the front door: the policy decides each request's level, events are made
//! at each stage the front door sees, and the backends write them.

mod event;

pub(crate) use event::{Event, ObjectRef};
