//! Printer columns of the common built-in types, as kube-apiserver's table printers
//! define them (names, types, priorities, descriptions) and compute their cells, one
//! file per family of groups; this one holds the cell helpers they share.

use kas_server::rest::{age, Column};
use serde_json::{json, Value};

mod cluster;
mod core_v1;
mod workloads;

pub(crate) use cluster::*;
pub(crate) use core_v1::*;
pub(crate) use workloads::*;

const AGE_DESC: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// The name column's description, for the printers that place it themselves.
const NAME_DESC: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

const fn col(
    name: &'static str,
    kind: &'static str,
    priority: u8,
    description: &'static str,
    cell: fn(&Value) -> Value,
) -> Column {
    Column {
        name,
        kind,
        format: "",
        priority,
        description,
        cell,
    }
}

const AGE: Column = col("Age", "string", 0, AGE_DESC, |o| {
    age(o.pointer("/metadata/creationTimestamp"))
});

/// The container names of a workload's pod template (`-o wide`).
const TEMPLATE_CONTAINERS: Column = col(
    "Containers",
    "string",
    1,
    "Names of each container in the template.",
    |o| containers(o, "/spec/template/spec/containers"),
);

/// The images of a workload's pod template (`-o wide`).
const TEMPLATE_IMAGES: Column = col(
    "Images",
    "string",
    1,
    "Images referenced by each container in the template.",
    |o| images(o, "/spec/template/spec/containers"),
);

fn s<'a>(o: &'a Value, p: &str) -> &'a str {
    o.pointer(p).and_then(Value::as_str).unwrap_or("")
}

fn i(o: &Value, p: &str) -> i64 {
    o.pointer(p).and_then(Value::as_i64).unwrap_or(0)
}

fn arr<'a>(o: &'a Value, p: &str) -> &'a [Value] {
    o.pointer(p)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn none_if_empty(v: String) -> Value {
    if v.is_empty() {
        json!("<none>")
    } else {
        json!(v)
    }
}

fn map_string(o: &Value, p: &str) -> String {
    let mut pairs: Vec<String> = o
        .pointer(p)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    pairs.sort();
    pairs.join(",")
}

fn count(o: &Value, p: &str) -> Value {
    let n = o
        .pointer(p)
        .map(|v| match v {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        })
        .unwrap_or(0);
    json!(n)
}

fn containers(o: &Value, p: &str) -> Value {
    json!(arr(o, p)
        .iter()
        .map(|c| s(c, "/name"))
        .collect::<Vec<_>>()
        .join(","))
}

fn images(o: &Value, p: &str) -> Value {
    json!(arr(o, p)
        .iter()
        .map(|c| s(c, "/image"))
        .collect::<Vec<_>>()
        .join(","))
}

fn selector(o: &Value) -> Value {
    match o.pointer("/spec/selector") {
        Some(sel) => none_if_empty(kas_server::selectors::label_selector_string(sel)),
        None => json!("<none>"),
    }
}

fn short_duration(secs: u64) -> String {
    match secs {
        s if s < 60 * 2 => format!("{s}s"),
        s if s < 60 * 60 => format!("{}m", s / 60),
        s => format!("{}h", s / 3600),
    }
}
