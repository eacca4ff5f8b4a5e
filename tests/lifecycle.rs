//! Lifecycle across processes (signals, crash isolation, sd_notify, journald): placeholder
//! filled by the lifecycle work.

mod harness;
