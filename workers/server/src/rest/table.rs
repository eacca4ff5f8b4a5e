//! Server-side printing: `meta.k8s.io/v1` Tables with a resource's printer columns (or
//! `Name` / `Created At` for resources with none), and PartialObjectMetadata.

use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::{Resource, Status};

/// What each Table row carries besides its cells (`includeObject`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Include {
    /// Nothing.
    None,
    /// PartialObjectMetadata (the default).
    Metadata,
    /// The whole object.
    Object,
}

impl Include {
    pub(crate) fn parse(v: Option<&str>) -> Result<Include, Status> {
        match v {
            None | Some("Metadata") => Ok(Include::Metadata),
            Some("None") => Ok(Include::None),
            Some("Object") => Ok(Include::Object),
            Some(other) => Err(super::bad_request(format!(
                "unsupported value for includeObject: {other:?}, must be one of None, Metadata, Object"
            ))),
        }
    }
}

/// An object reduced to PartialObjectMetadata.
pub(crate) fn partial_metadata(obj: &Value) -> Value {
    json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": obj.get("metadata").cloned().unwrap_or(json!({})),
    })
}

const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const CREATED_DESCRIPTION: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

fn column_json(name: &str, kind: &str, format: &str, description: &str, priority: u8) -> Value {
    json!({"name": name, "type": kind, "format": format, "description": description, "priority": priority})
}

/// A Table of `items` with the resource's columns.
pub(crate) fn table(
    resource: &Resource,
    dynamic: Option<&[super::DynColumn]>,
    items: &[Value],
    include: Include,
    list_meta: Option<Value>,
) -> Value {
    // Printers place the name column first, except those that place it themselves
    // (upstream's event printer puts it last, `-o wide` only).
    let own_name = resource
        .columns
        .iter()
        .any(|c| c.name == "Name" && c.format == "name");
    let mut columns = Vec::new();
    if dynamic.is_some() || !own_name {
        columns.push(column_json("Name", "string", "name", NAME_DESCRIPTION, 0));
    }
    if let Some(dynamic) = dynamic {
        columns.extend(
            dynamic
                .iter()
                .map(|c| column_json(&c.name, &c.kind, &c.format, &c.description, c.priority)),
        );
    } else if resource.columns.is_empty() {
        columns.push(column_json(
            "Created At",
            "date",
            "",
            CREATED_DESCRIPTION,
            0,
        ));
    } else {
        columns.extend(
            resource
                .columns
                .iter()
                .map(|c| column_json(c.name, c.kind, c.format, c.description, c.priority)),
        );
    }
    let mut ordered: Vec<&Value> = items.iter().collect();
    if let Some(order) = resource.row_order {
        ordered.sort_by(|a, b| order(a, b));
    }
    let rows: Vec<Value> = ordered
        .into_iter()
        .map(|obj| {
            let mut cells = Vec::new();
            if dynamic.is_some() || !own_name {
                cells.push(obj.pointer("/metadata/name").cloned().unwrap_or(json!("")));
            }
            if let Some(dynamic) = dynamic {
                // Date cells show the age, as kubectl prints them for custom resources.
                cells.extend(dynamic.iter().map(|c| match c.kind.as_str() {
                    "date" => age(Some(&super::cell(obj, c))),
                    _ => super::cell(obj, c),
                }));
            } else if resource.columns.is_empty() {
                cells.push(
                    obj.pointer("/metadata/creationTimestamp")
                        .cloned()
                        .unwrap_or(Value::Null),
                );
            } else {
                cells.extend(resource.columns.iter().map(|c| (c.cell)(obj)));
            }
            let mut row = Map::new();
            row.insert("cells".into(), Value::Array(cells));
            match include {
                Include::None => {}
                Include::Metadata => {
                    row.insert("object".into(), partial_metadata(obj));
                }
                Include::Object => {
                    row.insert("object".into(), obj.clone());
                }
            }
            Value::Object(row)
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": list_meta.unwrap_or(json!({})),
        "columnDefinitions": columns,
        "rows": rows,
    })
}

/// The `Age` cell of an RFC 3339 timestamp: how long ago, as kubectl prints durations
/// (`45s`, `3m12s`, `5h`, `2d3h`, `1y20d`); `<unknown>` when absent.
pub fn age(timestamp: Option<&Value>) -> Value {
    let Some(ts) = timestamp.and_then(Value::as_str) else {
        return json!("<unknown>");
    };
    let Ok(then) = humantime::parse_rfc3339_weak(ts) else {
        return json!("<unknown>");
    };
    let secs = match SystemTime::now().duration_since(then) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    };
    json!(human_duration(secs))
}

/// kubectl's short human duration of `secs` seconds.
pub(crate) fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    if secs < 0 {
        return "0s".into();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        return match secs % 60 {
            0 => format!("{minutes}m"),
            s => format!("{minutes}m{s}s"),
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        return match minutes % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 24 * 8 {
        return match hours % 24 {
            0 => format!("{days}d"),
            h => format!("{days}d{h}h"),
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{days}d");
    }
    let years = days / 365;
    if hours < 24 * 365 * 8 {
        return match days % 365 {
            0 => format!("{years}y"),
            d => format!("{years}y{d}d"),
        };
    }
    format!("{years}y")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_as_kubectl_does() {
        assert_eq!(human_duration(-5), "<invalid>");
        assert_eq!(human_duration(-1), "0s");
        assert_eq!(human_duration(45), "45s");
        assert_eq!(human_duration(119), "119s");
        assert_eq!(human_duration(192), "3m12s");
        assert_eq!(human_duration(600), "10m");
        assert_eq!(human_duration(3 * 3600 + 5 * 60), "3h5m");
        assert_eq!(human_duration(20 * 3600), "20h");
        assert_eq!(human_duration(51 * 3600), "2d3h");
        assert_eq!(human_duration(30 * 86400), "30d");
        assert_eq!(human_duration(800 * 86400), "2y70d");
        assert_eq!(human_duration(3000 * 86400), "8y");
    }

    #[test]
    fn a_resource_without_columns_gets_name_and_created_at() {
        let r = Resource::new("", "v1", "things", "thing", "Thing");
        let obj = json!({"metadata": {"name": "a", "creationTimestamp": "2024-01-01T00:00:00Z"}});
        let t = table(&r, None, &[obj], Include::Metadata, None);
        assert_eq!(t["columnDefinitions"][1]["name"], "Created At");
        assert_eq!(t["rows"][0]["cells"], json!(["a", "2024-01-01T00:00:00Z"]));
        assert_eq!(t["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    }

    #[test]
    fn rows_follow_the_resource_order() {
        let by_rank = |a: &Value, b: &Value| a["rank"].as_i64().cmp(&b["rank"].as_i64());
        let r = Resource::new("", "v1", "things", "thing", "Thing").row_order(by_rank);
        let items = [
            json!({"metadata": {"name": "a"}, "rank": 2}),
            json!({"metadata": {"name": "b"}, "rank": 1}),
        ];
        let t = table(&r, None, &items, Include::None, None);
        assert_eq!(t["rows"][0]["cells"][0], "b");
        assert_eq!(t["rows"][1]["cells"][0], "a");
    }
}
