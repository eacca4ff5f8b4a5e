//! Admission through kubectl: the plugin chain of `--enable-admission-plugins` /
//! `--disable-admission-plugins` on clients' writes.

mod certificates;
mod class_defaults;
mod event_rate_limit;
mod namespace_lifecycle;
mod node_restriction;
mod owner_references;
mod pod_admission;
mod pod_defaults;
mod policies;
mod resource_quota;
mod service_account;
mod webhooks;
