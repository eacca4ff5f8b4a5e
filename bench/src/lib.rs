//! Load generation and baselines for the benchmarks.
//!
//! Everything here exists to measure kube-apiserver-rs as a *ratio* against a baseline
//! run in the same script: [`load`] is a closed-loop TLS load generator, [`baseline`]
//! a bare hyper + rustls server answering fixed bytes, [`startup`] times exec → `/readyz`
//! 200, [`restart`] times `kill -9` of a worker → `/readyz` 200 again, [`etcd`] loads an
//! etcd v3 endpoint (the embedded store or a real etcd), [`api`] loads ConfigMaps through
//! the built-in API and [`raw`] does the same operations straight on the store,
//! [`fanout`] times one write → many watchers, [`reload`] measures a reload and a binary
//! upgrade under load, [`kms_plugin`] is a KMS v2 plugin for the
//! encryption benchmark, [`procfs`] finds workers and their memory, [`hostile`] runs
//! slow, abusive HTTP/1.1, HTTP/2 and watch clients against a server,
//! and [`tls`] holds the certificate plumbing they share. The binaries in `src/bin` are
//! thin flag parsers over these modules.

#![forbid(unsafe_code)]

pub mod api;
pub mod baseline;
pub mod cli;
pub mod client;
pub mod error;
pub mod etcd;
pub mod fanout;
pub mod hostile;
pub mod kms_plugin;
pub mod load;
pub mod probe;
pub mod procfs;
pub mod raw;
pub mod reload;
pub mod restart;
pub mod startup;
pub mod stats;
pub mod tls;

pub use error::Error;
