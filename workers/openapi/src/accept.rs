//! `Accept` header negotiation as kube-openapi does it: clauses sorted by quality, then by
//! specificity; the first clause matching an offered media type wins.

use http::header::ACCEPT;
use http::HeaderMap;

#[derive(Debug, PartialEq)]
struct Clause {
    kind: String,
    subtype: String,
    q: f32,
}

fn parse(header: &str) -> Vec<Clause> {
    let mut clauses = Vec::new();
    for part in header.split(',') {
        let mut pieces = part.split(';');
        let range = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
        if range.is_empty() {
            continue;
        }
        let (kind, subtype) = match range.split_once('/') {
            Some((kind, subtype)) => (kind.trim().to_owned(), subtype.trim().to_owned()),
            None if range == "*" => ("*".to_owned(), "*".to_owned()),
            None => (range.clone(), "*".to_owned()),
        };
        let mut q = 1.0;
        for param in pieces {
            if let Some((key, value)) = param.split_once('=') {
                if key.trim().eq_ignore_ascii_case("q") {
                    q = value.trim().parse::<f32>().unwrap_or(-1.0);
                }
            }
        }
        // q=0 means "not acceptable"; an unreadable q drops the clause.
        if q > 0.0 && q <= 1.0 {
            clauses.push(Clause { kind, subtype, q });
        }
    }
    // Stable: equal clauses keep the client's order.
    clauses.sort_by(|a, b| {
        b.q.total_cmp(&a.q)
            .then((a.kind == "*").cmp(&(b.kind == "*")))
            .then((a.subtype == "*").cmp(&(b.subtype == "*")))
    });
    clauses
}

/// Index into `offered` (`(type, subtype)` pairs, lower case) of the media type to
/// answer with, or `None` for 406. A missing `Accept` means `*/*`.
pub(crate) fn negotiate(headers: &HeaderMap, offered: &[(&str, &str)]) -> Option<usize> {
    let values: Vec<String> = headers
        .get_all(ACCEPT)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    let joined = values.join(",");
    let header = if joined.trim().is_empty() {
        "*/*"
    } else {
        joined.as_str()
    };
    for clause in parse(header) {
        for (i, (kind, subtype)) in offered.iter().enumerate() {
            let kind_ok = clause.kind == "*" || clause.kind == *kind;
            let subtype_ok = clause.subtype == "*" || clause.subtype == *subtype;
            if kind_ok && subtype_ok {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    const JSON: &[(&str, &str)] = &[("application", "json")];

    fn accept(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn negotiates_like_kube_openapi() {
        assert_eq!(negotiate(&HeaderMap::new(), JSON), Some(0));
        assert_eq!(negotiate(&accept("application/json"), JSON), Some(0));
        assert_eq!(negotiate(&accept("*/*"), JSON), Some(0));
        assert_eq!(negotiate(&accept("application/*"), JSON), Some(0));
        assert_eq!(
            negotiate(&accept("Application/JSON; charset=utf-8"), JSON),
            Some(0)
        );
        assert_eq!(
            negotiate(
                &accept("application/com.github.proto-openapi.spec.v2@v1.0+protobuf"),
                JSON
            ),
            None
        );
        assert_eq!(
            negotiate(&accept("application/com.github.proto-openapi.spec.v2.v1.0+protobuf, application/json;q=0.5"), JSON),
            Some(0)
        );
        assert_eq!(negotiate(&accept("application/json;q=0"), JSON), None);
        assert_eq!(negotiate(&accept("text/html"), JSON), None);
        assert_eq!(negotiate(&accept(",,;;q=,/,*"), JSON), Some(0));
        assert_eq!(negotiate(&accept("application/json;q=abc"), JSON), None);
    }

    #[test]
    fn sorts_by_quality_then_specificity() {
        let offered = &[("application", "json"), ("application", "yaml")];
        assert_eq!(
            negotiate(&accept("application/json;q=0.1, application/yaml"), offered),
            Some(1)
        );
        assert_eq!(
            negotiate(&accept("*/*, application/yaml"), offered),
            Some(1)
        );
        let mut headers = HeaderMap::new();
        headers.append(ACCEPT, HeaderValue::from_static("text/plain"));
        headers.append(ACCEPT, HeaderValue::from_static("application/yaml"));
        assert_eq!(negotiate(&headers, offered), Some(1));
        let mut bad = HeaderMap::new();
        bad.insert(ACCEPT, HeaderValue::from_bytes(b"\xff\xfe/json").unwrap());
        assert_eq!(negotiate(&bad, offered), None);
    }
}
