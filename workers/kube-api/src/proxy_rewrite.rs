//! What a proxied answer's links become, as upstream's proxy transport rewrites them: a
//! `Location` header, and the URL attributes of a `text/html` page (plain, gzip or
//! deflate), that point at the proxied server itself (an absolute path, or its own host)
//! are made to go through the proxy path again (`/login` →
//! `/api/v1/namespaces/ns/services/web/proxy/login`); other hosts and relative URLs
//! are left alone.

use std::io::{Read, Write};

/// The tags whose attributes hold URLs, and those attributes (upstream's atomsToAttrs).
const URL_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("a", &["href"]),
    ("applet", &["codebase"]),
    ("area", &["href"]),
    ("audio", &["src"]),
    ("base", &["href"]),
    ("blockquote", &["cite"]),
    ("body", &["background"]),
    ("button", &["formaction"]),
    ("command", &["icon"]),
    ("del", &["cite"]),
    ("embed", &["src"]),
    ("form", &["action"]),
    ("frame", &["longdesc", "src"]),
    ("head", &["profile"]),
    ("html", &["manifest"]),
    ("iframe", &["longdesc", "src"]),
    ("img", &["longdesc", "src", "usemap"]),
    ("input", &["src", "usemap", "formaction"]),
    ("ins", &["cite"]),
    ("link", &["href"]),
    ("object", &["classid", "codebase", "data", "usemap"]),
    ("q", &["cite"]),
    ("script", &["src"]),
    ("source", &["src"]),
    ("video", &["poster", "src"]),
];

/// The most of an HTML page that is rewritten; a larger one passes unchanged.
pub(crate) const MAX_HTML: usize = 32 << 20;

/// Rewrites URLs of one proxied answer.
#[derive(Debug, Clone)]
pub(crate) struct Rewriter {
    /// The proxy path in front of the proxied server's paths (upstream's PathPrepend).
    pub(crate) prefix: String,
    /// `host[:port]` the request was sent to.
    pub(crate) backend_host: String,
}

impl Rewriter {
    /// `value` made to go through the proxy when it points at the proxied server (an
    /// absolute path, or a URL of the backend's own host); unchanged otherwise. None when
    /// it is not a URL.
    pub(crate) fn url(&self, value: &str) -> Option<String> {
        let (before_fragment, fragment) = match value.split_once('#') {
            Some((b, f)) => (b, Some(f)),
            None => (value, None),
        };
        let (before_query, query) = match before_fragment.split_once('?') {
            Some((b, q)) => (b, Some(q)),
            None => (before_fragment, None),
        };
        if before_query
            .bytes()
            .any(|b| b.is_ascii_control() || b == b' ')
        {
            return None;
        }
        valid_escapes(before_query)?;
        let (scheme, rest) = split_scheme(before_query);
        let (host, path) = match rest.strip_prefix("//") {
            Some(authority) => match authority.find('/') {
                Some(i) => (&authority[..i], &authority[i..]),
                None => (authority, ""),
            },
            None if scheme.is_some() && !rest.starts_with('/') => return Some(value.to_owned()),
            None => ("", rest),
        };
        let different_host = !host.is_empty() && host != self.backend_host;
        if different_host || !path.starts_with('/') {
            return Some(value.to_owned());
        }
        let path = if path.starts_with(&self.prefix) {
            path.to_owned()
        } else {
            let mut joined = clean(&format!("{}/{path}", self.prefix));
            if path.ends_with('/') && !joined.ends_with('/') {
                joined.push('/');
            }
            joined
        };
        let mut out = path;
        if let Some(q) = query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = fragment {
            out.push('#');
            out.push_str(f);
        }
        Some(out)
    }

    /// A `text/html` body with its URL attributes rewritten, in its `encoding` (gzip,
    /// deflate or none); None when the encoding is not understood or the page cannot be
    /// decoded (it then passes unchanged, as upstream's).
    pub(crate) fn html(&self, body: &[u8], encoding: &str) -> Option<Vec<u8>> {
        let plain = match encoding {
            "" => body.to_vec(),
            "gzip" => read_all(flate2::read::GzDecoder::new(body))?,
            "deflate" => read_all(flate2::read::DeflateDecoder::new(body))?,
            _ => return None,
        };
        let rewritten = self.rewrite_html(&plain)?;
        match encoding {
            "gzip" => {
                let mut w =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                w.write_all(&rewritten).ok()?;
                w.finish().ok()
            }
            "deflate" => {
                let mut w =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
                w.write_all(&rewritten).ok()?;
                w.finish().ok()
            }
            _ => Some(rewritten),
        }
    }

    fn rewrite_html(&self, page: &[u8]) -> Option<Vec<u8>> {
        use lol_html::{HtmlRewriter, Settings};
        let mut settings = Settings::new();
        for (tag, attributes) in URL_ATTRIBUTES {
            for attribute in *attributes {
                let selector = format!("{tag}[{attribute}]");
                let this = self.clone();
                settings = settings.append_element_content_handler(lol_html::element!(
                    selector,
                    move |el| {
                        if let Some(value) = el.get_attribute(attribute) {
                            if let Some(new) = this.url(&value).filter(|n| *n != value) {
                                el.set_attribute(attribute, &new)?;
                            }
                        }
                        Ok(())
                    }
                ));
            }
        }
        let mut out = Vec::with_capacity(page.len() + page.len() / 8);
        let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| out.extend_from_slice(chunk));
        rewriter.write(page).ok()?;
        rewriter.end().ok()?;
        Some(out)
    }
}

fn read_all(mut r: impl Read) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    r.by_ref()
        .take(MAX_HTML as u64 + 1)
        .read_to_end(&mut out)
        .ok()?;
    (out.len() <= MAX_HTML).then_some(out)
}

/// Whether every `%` starts a two-digit hex escape (Go's url.Parse refuses others).
fn valid_escapes(s: &str) -> Option<()> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let ok =
                b.len() > i + 2 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit();
            if !ok {
                return None;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    Some(())
}

/// A URL's scheme (letters, then letters, digits, `+`, `-`, `.`, then `:`) and the rest.
fn split_scheme(s: &str) -> (Option<&str>, &str) {
    let Some(colon) = s.find(':') else {
        return (None, s);
    };
    let scheme = &s[..colon];
    let valid = scheme
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if valid {
        (Some(scheme), &s[colon + 1..])
    } else {
        (None, s)
    }
}

/// A rooted path cleaned as Go's path.Clean: no empty, `.` or `..` elements, no trailing
/// slash (but `/` itself).
pub(crate) fn clean(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewriter() -> Rewriter {
        Rewriter {
            prefix: "/api/v1/namespaces/ns/services/web/proxy".into(),
            backend_host: "10.0.0.5:8080".into(),
        }
    }

    #[test]
    fn urls_of_the_backend_go_through_the_proxy() {
        let r = rewriter();
        let p = "/api/v1/namespaces/ns/services/web/proxy";
        assert_eq!(r.url("/login").as_deref(), Some(&*format!("{p}/login")));
        assert_eq!(
            r.url("/static/../app/?x=1#top").as_deref(),
            Some(&*format!("{p}/app/?x=1#top"))
        );
        assert_eq!(
            r.url("http://10.0.0.5:8080/a").as_deref(),
            Some(&*format!("{p}/a"))
        );
        assert_eq!(
            r.url(&format!("{p}/a")).as_deref(),
            Some(&*format!("{p}/a"))
        );
        for same in [
            "relative/path",
            "https://example.com/x",
            "//cdn.example.com/x.js",
            "mailto:a@example.com",
            "javascript:void(0)",
            "#top",
            "?q=1",
        ] {
            assert_eq!(r.url(same).as_deref(), Some(same), "{same}");
        }
        assert_eq!(r.url("/a%zz"), None);
    }

    #[test]
    fn html_attributes_are_rewritten_in_any_encoding() {
        let r = rewriter();
        let page = br#"<html><head><link href="/style.css"></head><body>
<a href="/next">next</a> <a href="other">rel</a> <img src="http://elsewhere/x.png">
<form action="/post"></form><p data-x="/untouched">text</p></body></html>"#;
        let out = String::from_utf8(r.html(page, "").unwrap()).unwrap();
        let p = "/api/v1/namespaces/ns/services/web/proxy";
        assert!(out.contains(&format!(r#"href="{p}/style.css""#)), "{out}");
        assert!(out.contains(&format!(r#"href="{p}/next""#)), "{out}");
        assert!(out.contains(r#"href="other""#), "{out}");
        assert!(out.contains(r#"src="http://elsewhere/x.png""#), "{out}");
        assert!(out.contains(&format!(r#"action="{p}/post""#)), "{out}");
        assert!(out.contains(r#"data-x="/untouched""#), "{out}");

        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(page).unwrap();
        let zipped = r.html(&gz.finish().unwrap(), "gzip").unwrap();
        let plain = read_all(flate2::read::GzDecoder::new(&zipped[..])).unwrap();
        assert!(String::from_utf8_lossy(&plain).contains(&format!(r#"href="{p}/next""#)));
        assert!(r.html(page, "br").is_none());
        assert!(r.html(b"not gzip", "gzip").is_none());
    }

    #[test]
    fn paths_clean_as_go() {
        assert_eq!(clean("/a//b/./c/../d"), "/a/b/d");
        assert_eq!(clean("/../.."), "/");
        assert_eq!(clean(""), "/");
    }
}
