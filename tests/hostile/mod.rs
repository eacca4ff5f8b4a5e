//! Hostile and broken clients against the real binary (issue 21): a request-level fuzzer
//! and slow, abusive HTTP/1.1, HTTP/2 and watch clients. Loopback only, bounded in count
//! and time.

mod client;
/// The scenarios themselves, shared with the figures tool (`kas-hostile`) by path.
#[path = "../../bench/src/hostile/mod.rs"]
#[allow(dead_code, unreachable_pub)]
mod engine;
mod fairness;
mod http2_abuse;
mod inflight;
mod keep_alive;
mod limits;
mod request_fuzz;
mod setup;
mod slow_clients;
mod watch_abuse;
