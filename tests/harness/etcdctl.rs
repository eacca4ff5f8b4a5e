//! etcdctl against a test's etcd: the raw bytes under a key, and bytes put as they are.

use std::io::Write;
use std::process::{Command, Stdio};

use super::Etcd;

/// `etcdctl` (v3 API) pointed at `etcd`.
pub fn command(etcd: &Etcd) -> Command {
    let mut c = Command::new("etcdctl");
    c.env("ETCDCTL_API", "3")
        .arg(format!("--endpoints={}", etcd.url()));
    c
}

/// The raw value of `key` in etcd.
pub fn raw(etcd: &Etcd, key: &str) -> Vec<u8> {
    let out = command(etcd)
        .args(["get", key, "--print-value-only"])
        .output()
        .expect("run etcdctl");
    assert!(out.status.success(), "{out:?}");
    let mut v = out.stdout;
    // etcdctl ends the value with a newline of its own.
    if v.last() == Some(&b'\n') {
        v.pop();
    }
    v
}

/// Stores `value` under `key` in etcd, bytes as they are (etcdctl reads it from stdin),
/// and checks they read back so.
pub fn put(etcd: &Etcd, key: &str, value: &[u8]) {
    put_unchecked(etcd, key, value);
    assert_eq!(raw(etcd, key), value, "etcdctl stored the bytes as given");
}

/// Stores `value` under `key` in etcd, bytes as they are.
pub fn put_unchecked(etcd: &Etcd, key: &str, value: &[u8]) {
    let mut child = command(etcd)
        .args(["put", key])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run etcdctl");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(value)
        .expect("write value");
    assert!(child.wait().expect("etcdctl").success(), "put {key}");
}
