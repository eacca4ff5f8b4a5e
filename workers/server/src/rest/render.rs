//! How a response object is rendered (the object, a Table, PartialObjectMetadata), as
//! the client's `Accept` asks, for reads and for the answers to writes.

use http::{HeaderMap, Response};
use serde_json::{json, Value};

use super::{table, Query, RestStore};
use crate::body::Body;
use crate::encode;
use crate::negotiate::{self, Conversion as As, Media};
use crate::status::Status;

/// How a response object is rendered, from the `Accept` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Render {
    /// The object itself.
    Object,
    /// A `meta.k8s.io/v1` Table.
    Table {
        /// `includeObject=None|Metadata|Object`.
        include: table::Include,
    },
    /// PartialObjectMetadata(List).
    Metadata,
}

impl Render {
    /// The rendering and media type `Accept` asks for. Tables are JSON or YAML only;
    /// watches are never YAML (it has no stream framing); protobuf only for types the
    /// schema table can encode (`protobuf`).
    pub(super) fn negotiate(
        headers: &HeaderMap,
        q: &Query,
        watch: bool,
        protobuf: bool,
    ) -> Result<(Render, Media), Status> {
        let media: &[Media] = match (watch, protobuf) {
            (false, true) => negotiate::ALL_MEDIA,
            (false, false) => &[Media::Json, Media::Yaml],
            (true, true) => &[Media::Json, Media::Protobuf],
            (true, false) => &[Media::Json],
        };
        let chosen = negotiate::negotiate(headers, media, |m, c| match c {
            As::Table => m != Media::Protobuf,
            As::AggregatedDiscovery => false,
            _ => true,
        });
        let chosen = match chosen {
            Ok(n) => n,
            Err(_) if watch => return Err(negotiate::not_acceptable(media, ";stream=watch")),
            Err(e) => return Err(e),
        };
        let render = match chosen.conversion {
            As::Table => Render::Table {
                include: table::Include::parse(q.get("includeObject"))?,
            },
            As::PartialObjectMetadata | As::PartialObjectMetadataList => Render::Metadata,
            _ => Render::Object,
        };
        Ok((render, chosen.media))
    }
}

impl RestStore {
    /// A write's answer (the object written) as the client asked to see it: a Table of
    /// it, or its PartialObjectMetadata, as upstream transforms every response object.
    pub(super) async fn rendered(&self, resp: Response<Body>, render: Render) -> Response<Body> {
        encode::rewrite_json(
            resp,
            |obj| {
                if obj.get("kind").and_then(Value::as_str) == Some("Status") {
                    return None;
                }
                if render == Render::Object {
                    return None;
                }
                let out = self.object_rendered(obj.clone(), render);
                Some(encode::json_document(&out))
            },
            None,
        )
        .await
    }

    /// One object as `render` asks: itself, a Table of it, or its PartialObjectMetadata.
    pub(super) fn object_rendered(&self, obj: Value, render: Render) -> Value {
        match render {
            Render::Object => obj,
            Render::Table { include } => table::table(
                &self.resource,
                self.dyn_columns().as_deref(),
                std::slice::from_ref(&obj),
                include,
                None,
            ),
            Render::Metadata => table::partial_metadata(&obj),
        }
    }

    /// Objects as a typed list holds them: a built-in list's items carry no kind and
    /// apiVersion upstream (their Go structs' TypeMeta is empty); a custom resource
    /// list's items, unstructured maps, keep theirs.
    pub(super) fn list_items(&self, mut items: Vec<Value>) -> Vec<Value> {
        if !self.resource.definition.is_empty() {
            for item in &mut items {
                if let Some(o) = item.as_object_mut() {
                    o.remove("kind");
                    o.remove("apiVersion");
                }
            }
        }
        items
    }

    /// A list of `items` with list `metadata`, as `render` asks.
    pub(super) fn list_rendered(
        &self,
        items: Vec<Value>,
        metadata: Value,
        render: Render,
    ) -> Value {
        match render {
            Render::Object => json!({
                "kind": format!("{}List", self.resource.kind),
                "apiVersion": self.resource.api_version(),
                "metadata": metadata,
                "items": self.list_items(items),
            }),
            Render::Table { include } => table::table(
                &self.resource,
                self.dyn_columns().as_deref(),
                &items,
                include,
                Some(metadata),
            ),
            Render::Metadata => json!({
                "kind": "PartialObjectMetadataList",
                "apiVersion": "meta.k8s.io/v1",
                "metadata": metadata,
                "items": items.iter().map(table::partial_metadata).collect::<Vec<_>>(),
            }),
        }
    }
}
