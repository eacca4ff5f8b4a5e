//! A test's HTTPS client straight to an [`ExtensionServer`](super::ExtensionServer):
//! trusts its CA, presents a client certificate (the front proxy's, another, or none),
//! sends `X-Remote-*` headers as a test writes them, and reads watches event by event.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::Value;

use crate::harness::{Reply, REQUEST_TIMEOUT};

/// A client of one extension server (a fresh connection per request).
#[derive(Clone)]
pub struct ExtClient {
    addr: std::net::SocketAddr,
    ca_pem: String,
    identity: Option<(String, String)>,
    h2: bool,
    server_name: String,
}

impl ExtClient {
    /// A client of the server at `addr` whose serving certificate `ca_pem` signed.
    pub fn new(
        addr: std::net::SocketAddr,
        ca_pem: &str,
        identity: Option<(String, String)>,
    ) -> ExtClient {
        ExtClient {
            addr,
            ca_pem: ca_pem.to_owned(),
            identity,
            h2: false,
            server_name: "localhost".to_owned(),
        }
    }

    /// Speak HTTP/2 (ALPN h2) instead of HTTP/1.1.
    pub fn http2(mut self) -> Self {
        self.h2 = true;
        self
    }

    /// The name to verify the serving certificate for (default `localhost`).
    pub fn server_name(mut self, name: &str) -> Self {
        self.server_name = name.to_owned();
        self
    }

    fn tls(&self) -> Arc<rustls::ClientConfig> {
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(self.ca_pem.as_bytes()) {
            roots.add(cert.expect("ca cert")).expect("add root");
        }
        let builder = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots);
        let mut config = match &self.identity {
            None => builder.with_no_client_auth(),
            Some((cert, key)) => {
                let certs: Vec<_> = CertificateDer::pem_slice_iter(cert.as_bytes())
                    .collect::<Result<_, _>>()
                    .expect("client cert");
                let key = PrivateKeyDer::from_pem_slice(key.as_bytes()).expect("client key");
                builder
                    .with_client_auth_cert(certs, key)
                    .expect("client auth")
            }
        };
        config.alpn_protocols = if self.h2 {
            vec![b"h2".to_vec()]
        } else {
            vec![b"http/1.1".to_vec()]
        };
        Arc::new(config)
    }

    /// Sends one request; the response head.
    async fn send(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<http::Response<Incoming>> {
        let tcp = tokio::net::TcpStream::connect(self.addr).await?;
        let name = ServerName::try_from(self.server_name.clone()).map_err(std::io::Error::other)?;
        let tls = tokio_rustls::TlsConnector::from(self.tls())
            .connect(name, tcp)
            .await?;
        let io = TokioIo::new(tls);
        let mut req = Request::builder()
            .method(method)
            .uri(format!("https://localhost:{}{path}", self.addr.port()))
            .header("host", format!("localhost:{}", self.addr.port()));
        let typed = headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"));
        if !body.is_empty() && !typed {
            req = req.header("content-type", "application/json");
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Full::new(Bytes::copy_from_slice(body)))
            .map_err(std::io::Error::other)?;
        let resp = if self.h2 {
            let (mut send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            send.send_request(req).await
        } else {
            let (mut send, conn) = hyper::client::conn::http1::handshake(io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn.with_upgrades());
            send.send_request(req).await
        };
        resp.map_err(std::io::Error::other)
    }

    /// One request, fully read, within [`REQUEST_TIMEOUT`] (or `timeout`).
    pub async fn request_within(
        &self,
        timeout: Duration,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        let call = async {
            let resp = self.send(method, path, headers, body).await?;
            let (status, version, headers) =
                (resp.status(), resp.version(), resp.headers().clone());
            let body = resp
                .into_body()
                .collect()
                .await
                .map_err(std::io::Error::other)?
                .to_bytes();
            Ok(Reply {
                status,
                headers,
                body,
                version,
            })
        };
        tokio::time::timeout(timeout, call)
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "request timed out"))?
    }

    pub async fn request(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        self.request_within(REQUEST_TIMEOUT, method, path, headers, body)
            .await
    }

    /// GET as the user `X-Remote-User: admin` names (panics on a transport error).
    pub async fn get(&self, path: &str) -> Reply {
        self.request(Method::GET, path, &[("x-remote-user", "admin")], b"")
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    /// A JSON body sent as `X-Remote-User: admin` (panics on a transport error).
    pub async fn send_json(&self, method: Method, path: &str, body: &Value) -> Reply {
        let bytes = serde_json::to_vec(body).expect("json");
        self.request(method.clone(), path, &[("x-remote-user", "admin")], &bytes)
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// An upgrade request over HTTP/1.1 (`Connection: Upgrade`, `Upgrade: protocol`, plus
    /// `headers`): the answer and, on a 101, the upgraded connection.
    pub async fn upgrade(
        &self,
        path: &str,
        protocol: &str,
        headers: &[(&str, &str)],
    ) -> std::io::Result<Upgrade> {
        let mut all = vec![("connection", "Upgrade"), ("upgrade", protocol)];
        all.extend_from_slice(headers);
        let resp = tokio::time::timeout(REQUEST_TIMEOUT, self.send(Method::GET, path, &all, b""))
            .await
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::TimedOut, "upgrade timed out")
            })??;
        let (status, headers) = (resp.status(), resp.headers().clone());
        let io = if status == http::StatusCode::SWITCHING_PROTOCOLS {
            let upgraded = hyper::upgrade::on(resp)
                .await
                .map_err(std::io::Error::other)?;
            Some(TokioIo::new(upgraded))
        } else {
            None
        };
        Ok(Upgrade {
            status,
            headers,
            io,
        })
    }

    /// A persistent connection (re-dialled after a failure), for load loops and
    /// benchmarks; every request carries `headers`.
    pub fn conn(&self, headers: &[(&str, &str)]) -> ExtConn {
        ExtConn {
            client: self.clone(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            h1: None,
            h2: None,
        }
    }

    /// Starts a watch (`path` carries `?watch=1` and any selectors); the stream of events.
    pub async fn watch(
        &self,
        path: &str,
        headers: &[(&str, &str)],
    ) -> std::io::Result<WatchStream> {
        let resp =
            tokio::time::timeout(REQUEST_TIMEOUT, self.send(Method::GET, path, headers, b""))
                .await
                .map_err(|_| {
                    std::io::Error::new(std::io::ErrorKind::TimedOut, "watch timed out")
                })??;
        Ok(WatchStream {
            status: resp.status(),
            headers: resp.headers().clone(),
            body: resp.into_body(),
            buf: Vec::new(),
        })
    }
}

/// A kept-alive connection to an extension server (see [`ExtClient::conn`]).
pub struct ExtConn {
    client: ExtClient,
    headers: Vec<(String, String)>,
    h1: Option<hyper::client::conn::http1::SendRequest<Full<Bytes>>>,
    h2: Option<hyper::client::conn::http2::SendRequest<Full<Bytes>>>,
}

impl ExtConn {
    async fn dial(&mut self) -> std::io::Result<()> {
        let c = &self.client;
        let tcp = tokio::net::TcpStream::connect(c.addr).await?;
        let _ = tcp.set_nodelay(true);
        let name = ServerName::try_from(c.server_name.clone()).map_err(std::io::Error::other)?;
        let tls = tokio_rustls::TlsConnector::from(c.tls())
            .connect(name, tcp)
            .await?;
        let io = TokioIo::new(tls);
        if c.h2 {
            let (send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            self.h2 = Some(send);
        } else {
            let (send, conn) = hyper::client::conn::http1::handshake(io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            self.h1 = Some(send);
        }
        Ok(())
    }

    /// GET `path` within [`REQUEST_TIMEOUT`]; a broken connection is dropped so the next
    /// call dials again.
    pub async fn get(&mut self, path: &str) -> std::io::Result<Reply> {
        let result = tokio::time::timeout(REQUEST_TIMEOUT, self.get_inner(path)).await;
        let result = result.unwrap_or_else(|_| {
            Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "request timed out",
            ))
        });
        if result.is_err() {
            (self.h1, self.h2) = (None, None);
        }
        result
    }

    async fn get_inner(&mut self, path: &str) -> std::io::Result<Reply> {
        if self.h1.is_none() && self.h2.is_none() {
            self.dial().await?;
        }
        let port = self.client.addr.port();
        let mut req = Request::builder()
            .method(Method::GET)
            .uri(format!("https://localhost:{port}{path}"))
            .header("host", format!("localhost:{port}"));
        for (k, v) in &self.headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let req = req
            .body(Full::new(Bytes::new()))
            .map_err(std::io::Error::other)?;
        let resp = match (&mut self.h2, &mut self.h1) {
            (Some(s), _) => s.send_request(req).await,
            (None, Some(s)) => match s.ready().await {
                Ok(()) => s.send_request(req).await,
                Err(e) => Err(e),
            },
            (None, None) => return Err(std::io::Error::other("not connected")),
        }
        .map_err(std::io::Error::other)?;
        let (status, version, headers) = (resp.status(), resp.version(), resp.headers().clone());
        let body = resp
            .into_body()
            .collect()
            .await
            .map_err(std::io::Error::other)?
            .to_bytes();
        Ok(Reply {
            status,
            headers,
            body,
            version,
        })
    }
}

/// The answer to an upgrade request.
pub struct Upgrade {
    pub status: http::StatusCode,
    pub headers: http::HeaderMap,
    /// The upgraded connection (AsyncRead + AsyncWrite), on a 101.
    pub io: Option<TokioIo<hyper::upgrade::Upgraded>>,
}

/// A watch response read one JSON line at a time.
pub struct WatchStream {
    pub status: http::StatusCode,
    pub headers: http::HeaderMap,
    body: Incoming,
    buf: Vec<u8>,
}

impl WatchStream {
    /// The next event within [`REQUEST_TIMEOUT`]; `None` when the stream ended (panics
    /// when nothing came in time or a line is not JSON).
    pub async fn next(&mut self) -> Option<Value> {
        match self.next_within(REQUEST_TIMEOUT).await {
            Ok(e) => e,
            Err(_) => panic!("no watch event within {REQUEST_TIMEOUT:?}"),
        }
    }

    /// The next event, `Ok(None)` at the end of the stream, `Err` when `d` passed first.
    pub async fn next_within(
        &mut self,
        d: Duration,
    ) -> Result<Option<Value>, tokio::time::error::Elapsed> {
        tokio::time::timeout(d, self.read_event()).await
    }

    async fn read_event(&mut self) -> Option<Value> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Some(serde_json::from_slice(&line).unwrap_or_else(|e| {
                    panic!(
                        "watch line is not JSON ({e}): {}",
                        String::from_utf8_lossy(&line)
                    )
                }));
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Some(data) = frame.data_ref() {
                        self.buf.extend_from_slice(data);
                    }
                }
                Some(Err(_)) | None => return None,
            }
        }
    }
}
