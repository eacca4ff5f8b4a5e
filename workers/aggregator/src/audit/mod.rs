//! Auditing at the front door: the policy decides each request's level, events are made
//! at each stage the front door sees, and the backends write them.

// Nothing calls the backends until the handler chain does (the integration).
#[allow(dead_code)]
mod backend;
mod event;

pub(crate) use event::{Event, ObjectRef};
