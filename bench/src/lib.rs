//! Load generation and baselines for the benchmarks.
//!
//! Everything here exists to measure kube-apiserver-rs as a *ratio* against a baseline
//! run in the same script: [`load`] is a closed-loop TLS load generator, [`baseline`]
//! a bare hyper + rustls server answering fixed bytes, [`startup`] times exec → `/readyz`
//! 200, and [`tls`] holds the certificate plumbing they share. The two binaries in
//! `src/bin` are thin flag parsers over these modules.

#![forbid(unsafe_code)]

pub mod baseline;
pub mod cli;
pub mod client;
pub mod error;
pub mod load;
pub mod probe;
pub mod startup;
pub mod tls;

pub use error::Error;
