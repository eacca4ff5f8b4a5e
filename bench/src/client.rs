//! One HTTPS client connection (HTTP/1.1 or HTTP/2 over tokio-rustls) and the target it
//! talks to: the piece the load generator, the readiness probe and `fetch` share.

use std::sync::Arc;

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, HOST};
use http::{Method, Request, Response, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::ServerName;
use rustls::ClientConfig;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::tls::{ALPN_H2, ALPN_HTTP1};
use crate::Error;

/// The HTTP version spoken on a connection, fixed by ALPN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// HTTP/1.1 with keep-alive, one request at a time.
    Http1,
    /// HTTP/2, one stream at a time per connection.
    Http2,
}

impl Protocol {
    /// The ALPN id offered for this protocol.
    pub fn alpn(self) -> &'static [u8] {
        match self {
            Self::Http1 => ALPN_HTTP1,
            Self::Http2 => ALPN_H2,
        }
    }

    /// Name as printed in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Http1 => "http/1.1",
            Self::Http2 => "h2",
        }
    }
}

/// An `https://host:port/path?query` URL, parsed once.
#[derive(Debug, Clone)]
pub struct Target {
    uri: Uri,
    addr: String,
    server_name: ServerName<'static>,
    host_header: HeaderValue,
}

impl Target {
    /// Parses an https URL; the port defaults to 443.
    pub fn parse(url: &str) -> Result<Self, Error> {
        let bad = |why| Error::Url {
            url: url.to_string(),
            why,
        };
        let uri: Uri = url.parse().map_err(|_| bad("not a URI"))?;
        if uri.scheme_str() != Some("https") {
            return Err(bad("only https is supported"));
        }
        let authority = uri.authority().ok_or(bad("no host"))?.clone();
        let host = authority.host();
        let port = authority.port_u16().unwrap_or(443);
        // `Uri` keeps IPv6 literals bracketed; SNI and connect want them bare.
        let bare = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let server_name = ServerName::try_from(bare.clone()).map_err(|_| bad("bad host"))?;
        let addr = if bare.contains(':') {
            format!("[{bare}]:{port}")
        } else {
            format!("{bare}:{port}")
        };
        let host_header =
            HeaderValue::from_str(authority.as_str()).map_err(|_| bad("bad authority"))?;
        Ok(Self {
            uri,
            addr,
            server_name,
            host_header,
        })
    }

    /// The same server with another path and query.
    pub fn with_path(&self, path_and_query: &str) -> Result<Self, Error> {
        let mut parts = self.uri.clone().into_parts();
        parts.path_and_query = Some(path_and_query.parse().map_err(|_| Error::Url {
            url: path_and_query.to_string(),
            why: "bad path",
        })?);
        let uri = Uri::from_parts(parts).map_err(|_| Error::Url {
            url: path_and_query.to_string(),
            why: "bad path",
        })?;
        Ok(Self {
            uri,
            ..self.clone()
        })
    }

    /// The full URL.
    pub fn uri(&self) -> &Uri {
        &self.uri
    }

    /// Builds a request for this target in the form `protocol` wants: absolute URI for
    /// HTTP/2 (hyper derives `:scheme` and `:authority` from it), origin form plus `Host`
    /// for HTTP/1.1.
    pub fn request(
        &self,
        protocol: Protocol,
        method: &Method,
        headers: &[(HeaderName, HeaderValue)],
        body: Bytes,
    ) -> Result<Request<Full<Bytes>>, Error> {
        let mut builder = Request::builder().method(method.clone());
        builder = match protocol {
            Protocol::Http2 => builder.uri(self.uri.clone()),
            Protocol::Http1 => {
                let path = self
                    .uri
                    .path_and_query()
                    .map_or("/", |p| p.as_str())
                    .to_string();
                builder.uri(path).header(HOST, self.host_header.clone())
            }
        };
        for (name, value) in headers {
            builder = builder.header(name, value);
        }
        Ok(builder.body(Full::new(body))?)
    }
}

/// A ready-to-use client connection.
pub enum Conn {
    /// HTTP/1.1 sender.
    Http1(http1::SendRequest<Full<Bytes>>),
    /// HTTP/2 sender.
    Http2(http2::SendRequest<Full<Bytes>>),
}

impl Conn {
    /// Connects over TCP (no Nagle), does the TLS handshake and checks that the server
    /// picked `protocol` by ALPN. `tls` must offer that protocol's ALPN id.
    pub async fn connect(
        target: &Target,
        tls: Arc<ClientConfig>,
        protocol: Protocol,
    ) -> Result<Self, Error> {
        let tcp = TcpStream::connect(&target.addr)
            .await
            .map_err(|source| Error::Connect {
                addr: target.addr.clone(),
                source,
            })?;
        tcp.set_nodelay(true).map_err(|source| Error::Connect {
            addr: target.addr.clone(),
            source,
        })?;
        let stream = TlsConnector::from(tls)
            .connect(target.server_name.clone(), tcp)
            .await
            .map_err(Error::Handshake)?;
        let negotiated = stream.get_ref().1.alpn_protocol();
        if negotiated != Some(protocol.alpn()) {
            return Err(Error::Alpn {
                wanted: protocol.name(),
                got: negotiated.map(|p| String::from_utf8_lossy(p).into_owned()),
            });
        }
        let io = TokioIo::new(stream);
        Ok(match protocol {
            Protocol::Http1 => {
                let (sender, conn) = http1::handshake(io).await?;
                // The connection task ends with the connection; its error, if any, shows
                // up on the next request instead.
                tokio::spawn(async move {
                    let _ = conn.await;
                });
                Self::Http1(sender)
            }
            Protocol::Http2 => {
                let (sender, conn) = http2::handshake(TokioExecutor::new(), io).await?;
                tokio::spawn(async move {
                    let _ = conn.await;
                });
                Self::Http2(sender)
            }
        })
    }

    /// Another handle on the same HTTP/2 connection (each request a new stream); `None`
    /// for HTTP/1.1, which carries one request at a time.
    pub fn share(&self) -> Option<Self> {
        match self {
            Self::Http1(_) => None,
            Self::Http2(s) => Some(Self::Http2(s.clone())),
        }
    }

    /// Sends one request once the connection can take it and returns the response head;
    /// the body is still to be read.
    pub async fn send(&mut self, req: Request<Full<Bytes>>) -> Result<Response<Incoming>, Error> {
        Ok(match self {
            Self::Http1(s) => {
                s.ready().await?;
                s.send_request(req).await?
            }
            Self::Http2(s) => {
                s.ready().await?;
                s.send_request(req).await?
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_https_urls() {
        let t = Target::parse("https://127.0.0.1:6443/readyz?verbose").expect("valid");
        assert_eq!(t.addr, "127.0.0.1:6443");
        assert_eq!(t.uri().path(), "/readyz");

        let t = Target::parse("https://localhost/api").expect("valid");
        assert_eq!(t.addr, "localhost:443");
        assert_eq!(t.host_header, "localhost");

        let t = Target::parse("https://[::1]:8443/").expect("valid");
        assert_eq!(t.addr, "[::1]:8443");

        assert!(Target::parse("http://127.0.0.1:80/").is_err());
        assert!(Target::parse("/just/a/path").is_err());
    }

    #[test]
    fn requests_take_the_form_of_their_protocol() {
        let t = Target::parse("https://localhost:6443/api?x=1").expect("valid");
        let h1 = t
            .request(Protocol::Http1, &Method::GET, &[], Bytes::new())
            .expect("request");
        assert_eq!(h1.uri(), "/api?x=1");
        assert_eq!(h1.headers()[HOST], "localhost:6443");
        let h2 = t
            .request(Protocol::Http2, &Method::GET, &[], Bytes::new())
            .expect("request");
        assert_eq!(h2.uri(), "https://localhost:6443/api?x=1");
        assert_eq!(
            t.with_path("/version").expect("path").uri(),
            "https://localhost:6443/version"
        );
    }
}
