//! The aggregator: apiregistration.k8s.io, autoregistration and remote APIServices.

mod apiservice_checks;
mod apiservices;
mod discovery;
mod extension_control;
mod extension_kubectl;
mod extension_server;
mod remote;
mod remote_isolation;
