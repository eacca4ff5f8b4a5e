//! The generic server that every worker of kube-apiserver-rs builds on: Kubernetes
//! `Status` errors, health checks with kube-apiserver's semantics, the worker side of the
//! control channel, lifecycle phases, HTTP/2 delegation over unix sockets, request info
//! parsing and logging.

#![forbid(unsafe_code)]

pub mod admission;
mod admission_metrics;
pub mod backend;
pub mod body;
pub mod cache;
pub mod certfiles;
pub mod compress;
pub mod control;
pub mod delegate;
pub mod discovery;
pub mod encode;
pub mod flowcontrol_objects;
pub mod follow;
pub mod go_json;
pub mod health;
pub mod identity;
pub mod lifecycle;
pub mod logging;
pub mod metrics;
pub mod negotiate;
pub mod outbound;
pub mod period;
pub mod request_info;
pub mod rest;
pub mod retry;
pub mod selectors;
pub mod service_resolver;
pub mod status;
pub mod storage;
pub mod upgrade;
pub mod webhook;

mod error;

/// Entry points for the fuzz targets (fuzz/); compiled only by cargo-fuzz.
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;

pub use error::Error;

/// The Kubernetes version this server emulates.
pub const KUBERNETES_VERSION: &str = "v1.33.0";
