//! Content negotiation of API responses, as kube-apiserver does it
//! (`k8s.io/apiserver/pkg/endpoints/handlers/negotiation`): the `Accept` clauses sorted by
//! quality (goautoneg), the first clause that names a media type the endpoint serves and
//! a conversion it allows wins; none is 406. The media type written back is the bare
//! serializer type (`application/json`, `application/yaml`,
//! `application/vnd.kubernetes.protobuf`), parameters only for aggregated discovery.

use http::header::ACCEPT;
use http::HeaderMap;

use crate::status::{Reason, Status};

/// A serializer of the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Media {
    /// `application/json`.
    Json,
    /// `application/yaml`.
    Yaml,
    /// `application/vnd.kubernetes.protobuf`.
    Protobuf,
}

impl Media {
    /// The media type as written in `Content-Type`.
    pub fn content_type(self) -> &'static str {
        match self {
            Media::Json => "application/json",
            Media::Yaml => "application/yaml",
            Media::Protobuf => "application/vnd.kubernetes.protobuf",
        }
    }

    fn subtype(self) -> &'static str {
        match self {
            Media::Json => "json",
            Media::Yaml => "yaml",
            Media::Protobuf => "vnd.kubernetes.protobuf",
        }
    }
}

/// What the response is converted to, from the clause's `as`, `g` and `v` parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// No parameters: the object itself.
    None,
    /// `as=Table;g=meta.k8s.io;v=v1|v1beta1`.
    Table,
    /// `as=PartialObjectMetadata;g=meta.k8s.io;v=v1`.
    PartialObjectMetadata,
    /// `as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`.
    PartialObjectMetadataList,
    /// `as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2`.
    AggregatedDiscovery,
}

/// The outcome of negotiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    pub media: Media,
    pub conversion: Conversion,
}

/// One clause of `Accept`.
#[derive(Debug)]
struct Clause<'a> {
    kind: &'a str,
    subtype: &'a str,
    q: f32,
    params: Vec<(&'a str, &'a str)>,
}

impl Clause<'_> {
    fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn conversion(&self) -> Option<Conversion> {
        let (group, version, as_kind) = (self.param("g"), self.param("v"), self.param("as"));
        Some(match (group, version, as_kind) {
            (None, None, None) => Conversion::None,
            (Some("meta.k8s.io"), Some("v1" | "v1beta1"), Some("Table")) => Conversion::Table,
            (Some("meta.k8s.io"), Some("v1"), Some("PartialObjectMetadata")) => {
                Conversion::PartialObjectMetadata
            }
            (Some("meta.k8s.io"), Some("v1"), Some("PartialObjectMetadataList")) => {
                Conversion::PartialObjectMetadataList
            }
            (Some("apidiscovery.k8s.io"), Some("v2"), Some("APIGroupDiscoveryList")) => {
                Conversion::AggregatedDiscovery
            }
            _ => return None,
        })
    }

    fn matches(&self, media: Media) -> bool {
        let kind_ok = self.kind == "*" || self.kind == "application";
        let subtype_ok = self.subtype == "*" || self.subtype == media.subtype();
        kind_ok && subtype_ok
    }
}

/// The clauses of `header`, best first: by quality, more specific before wildcards,
/// otherwise in the client's order. Media types compare case-sensitively, as upstream's.
fn clauses(header: &str) -> Vec<Clause<'_>> {
    let mut out = Vec::new();
    for part in header.split(',') {
        let mut pieces = part.split(';').map(str::trim);
        let range = pieces.next().unwrap_or("");
        if range.is_empty() {
            continue;
        }
        let (kind, subtype) = range.split_once('/').unwrap_or((range, "*"));
        let mut q = 1.0;
        let mut params = Vec::new();
        for p in pieces {
            let Some((k, v)) = p.split_once('=') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim());
            if k == "q" {
                q = v.parse::<f32>().unwrap_or(1.0);
            } else {
                params.push((k, v));
            }
        }
        out.push(Clause {
            kind,
            subtype,
            q,
            params,
        });
    }
    out.sort_by(|a, b| {
        b.q.total_cmp(&a.q)
            .then((a.kind == "*").cmp(&(b.kind == "*")))
            .then((a.subtype == "*").cmp(&(b.subtype == "*")))
    });
    out
}

/// Negotiates the response of an endpoint that serves `media` (in order of preference;
/// the first one answers a request without `Accept`) and the conversions `allowed`
/// accepts for a media type. Unknown parameters other than `as`, `g` and `v` are ignored.
pub fn negotiate(
    headers: &HeaderMap,
    media: &[Media],
    allowed: impl Fn(Media, Conversion) -> bool,
) -> Result<Negotiated, Status> {
    let values: Vec<&str> = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let header = values.join(",");
    if header.trim().is_empty() {
        if let Some(&m) = media.first() {
            return Ok(Negotiated {
                media: m,
                conversion: Conversion::None,
            });
        }
    }
    for clause in clauses(&header) {
        let Some(conversion) = clause.conversion() else {
            continue;
        };
        for &m in media {
            if clause.matches(m) && allowed(m, conversion) {
                return Ok(Negotiated {
                    media: m,
                    conversion,
                });
            }
        }
    }
    Err(not_acceptable(media, ""))
}

/// 406 naming what the endpoint serves (`suffix` is `;stream=watch` for watches).
pub fn not_acceptable(media: &[Media], suffix: &str) -> Status {
    let list: Vec<String> = media
        .iter()
        .map(|m| format!("{}{suffix}", m.content_type()))
        .collect();
    Status::new(
        Reason::NotAcceptable,
        format!(
            "only the following media types are accepted: {}",
            list.join(", ")
        ),
    )
}

/// Every serializer, JSON first.
pub const ALL_MEDIA: &[Media] = &[Media::Json, Media::Yaml, Media::Protobuf];

/// Legacy discovery (`/apis/<group>`, …), and aggregated discovery where `aggregated`
/// (`/api`, `/apis`): whether the answer is aggregated, and in which of `media`.
pub fn discovery(
    headers: &HeaderMap,
    media: &[Media],
    aggregated: bool,
) -> Result<Negotiated, Status> {
    negotiate(headers, media, |_, c| {
        c == Conversion::None || (aggregated && c == Conversion::AggregatedDiscovery)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn accept(v: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(ACCEPT, HeaderValue::from_static(v));
        h
    }

    fn resource(h: &HeaderMap) -> Result<Negotiated, Status> {
        negotiate(h, ALL_MEDIA, |m, c| match c {
            Conversion::Table => m != Media::Protobuf,
            Conversion::AggregatedDiscovery => false,
            _ => true,
        })
    }

    fn n(media: Media, conversion: Conversion) -> Negotiated {
        Negotiated { media, conversion }
    }

    #[test]
    fn what_clients_send() {
        let cases = [
            ("application/json", n(Media::Json, Conversion::None)),
            ("application/json, */*", n(Media::Json, Conversion::None)),
            ("*/*", n(Media::Json, Conversion::None)),
            ("application/yaml", n(Media::Yaml, Conversion::None)),
            (
                "application/vnd.kubernetes.protobuf,application/json",
                n(Media::Protobuf, Conversion::None),
            ),
            (
                "application/vnd.kubernetes.protobuf, */*",
                n(Media::Protobuf, Conversion::None),
            ),
            (
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
                n(Media::Json, Conversion::Table),
            ),
            (
                "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json",
                n(Media::Json, Conversion::None),
            ),
            (
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
                n(Media::Protobuf, Conversion::PartialObjectMetadataList),
            ),
            (
                "application/json;q=0.5, application/yaml",
                n(Media::Yaml, Conversion::None),
            ),
        ];
        for (header, want) in cases {
            assert_eq!(resource(&accept(header)).ok(), Some(want), "{header}");
        }
        assert_eq!(
            resource(&HeaderMap::new()).ok(),
            Some(n(Media::Json, Conversion::None))
        );
    }

    #[test]
    fn refusals_name_the_served_types() {
        for header in [
            "text/html",
            "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io",
            "application/json;as=Table;v=v2;g=meta.k8s.io",
        ] {
            let err = resource(&accept(header)).expect_err(header);
            assert_eq!(err.reason, Reason::NotAcceptable);
            assert_eq!(
                err.message,
                "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"
            );
        }
    }

    /// Arbitrary header values never panic and answer either a choice or 406.
    #[test]
    fn arbitrary_accept_headers_are_handled() {
        let alphabet = b"ab/*;=,q.0 1\"\tjsonyamlprotobuf-+@\\";
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 40) as usize;
            let value: Vec<u8> = (0..len)
                .map(|i| alphabet[((seed >> (i % 58)) as usize + i) % alphabet.len()])
                .collect();
            let Ok(v) = HeaderValue::from_bytes(&value) else {
                continue;
            };
            let mut h = HeaderMap::new();
            h.insert(ACCEPT, v);
            let _ = resource(&h);
            let _ = discovery(&h, ALL_MEDIA, true);
        }
    }

    #[test]
    fn aggregated_discovery_is_v2_only() {
        let v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
        assert_eq!(
            discovery(&accept(v2), ALL_MEDIA, true).ok(),
            Some(n(Media::Json, Conversion::AggregatedDiscovery))
        );
        assert_eq!(
            discovery(&accept(v2), ALL_MEDIA, false).ok(),
            Some(n(Media::Json, Conversion::None))
        );
        let beta = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
        assert!(discovery(&accept(beta), ALL_MEDIA, true).is_err());
        let pb = "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
        assert_eq!(
            discovery(&accept(pb), ALL_MEDIA, true).ok(),
            Some(n(Media::Protobuf, Conversion::AggregatedDiscovery))
        );
    }
}
