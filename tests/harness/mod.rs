//! Black-box test harness: starts the real `kube-apiserver` binary on a free port with its
//! own temp data dir, polls for readiness (never sleeps for a state it can poll), and talks
//! to it over TLS with the generated admin client certificate, or with kubectl; `https`
//! serves the HTTPS webhooks and OIDC issuers tests point it at.

#![allow(dead_code, unreachable_pub)]

pub mod etcdctl;
pub mod extension;
pub mod https;
pub mod kms;
pub mod kubectl;
pub mod python;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_kube-apiserver");

/// How long a server may take to become ready in a test (debug build, busy CI machine).
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// No single test request may hang longer than this.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

/// Builds a server to start.
#[derive(Debug, Default)]
pub struct ServerBuilder {
    args: Vec<String>,
    env: Vec<(String, String)>,
    data_dir: Option<PathBuf>,
    stderr_to_file: bool,
    stdout: Option<PathBuf>,
    activate_on: Option<u16>,
    binary: Option<PathBuf>,
}

impl ServerBuilder {
    pub fn arg(mut self, a: impl Into<String>) -> Self {
        self.args.push(a.into());
        self
    }

    pub fn env(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }

    /// Writes the server's standard output to `path` (it is discarded otherwise).
    pub fn stdout_to(mut self, path: &Path) -> Self {
        self.stdout = Some(path.to_owned());
        self
    }

    /// Starts the server under `systemd-socket-activate`, which binds 127.0.0.1:`port`
    /// and passes the socket as `secure` (the caller gives the flags that should match).
    pub fn socket_activated(mut self, port: u16) -> Self {
        self.activate_on = Some(port);
        self
    }

    /// Runs the binary at `path` (a copy of the one under test, say) instead.
    pub fn binary(mut self, path: &Path) -> Self {
        self.binary = Some(path.to_owned());
        self
    }

    /// Reuse an existing data dir (for restart tests).
    pub fn data_dir(mut self, d: &Path) -> Self {
        self.data_dir = Some(d.to_owned());
        self
    }

    /// Starts the server and waits until `/readyz` is 200.
    pub async fn start(self) -> Server {
        let server = self.spawn().await;
        server.wait_ready().await;
        server
    }

    /// Starts the server and waits only until it is listening (kubeconfig written).
    pub async fn spawn(self) -> Server {
        let tmp = tempfile::tempdir().expect("tempdir");
        let data_dir = self
            .data_dir
            .clone()
            .unwrap_or_else(|| tmp.path().join("data"));
        let kubeconfig = data_dir.join("admin.kubeconfig");
        let _ = std::fs::remove_file(&kubeconfig);
        let log_path = tmp.path().join("server.log");
        let log = std::fs::File::create(&log_path).expect("log file");
        // KAS_TEST_BIN runs a test against another build (an older commit's, say).
        let bin = match &self.binary {
            Some(path) => path.display().to_string(),
            None => std::env::var("KAS_TEST_BIN").unwrap_or_else(|_| BIN.to_owned()),
        };
        let mut cmd = match self.activate_on {
            Some(port) => {
                let mut cmd = Command::new("systemd-socket-activate");
                cmd.arg(format!("--listen=127.0.0.1:{port}"))
                    .arg("--fdname=secure")
                    .arg(bin);
                cmd
            }
            None => Command::new(bin),
        };
        cmd.arg("--secure-port=0")
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--data-dir={}", data_dir.display()))
            .args(&self.args)
            .env_remove("NOTIFY_SOCKET")
            .env_remove("JOURNAL_STREAM")
            .env_remove("WATCHDOG_USEC")
            .env_remove("STATE_DIRECTORY")
            .env_remove("RUNTIME_DIRECTORY")
            .stdin(Stdio::null())
            .stdout(match &self.stdout {
                Some(path) => Stdio::from(std::fs::File::create(path).expect("stdout file")),
                None => Stdio::null(),
            })
            .stderr(log.try_clone().expect("clone log"));
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("spawn kube-apiserver");
        let deadline = Instant::now() + READY_TIMEOUT;
        if let Some(port) = self.activate_on {
            // systemd-socket-activate starts the program at the first connection; this
            // one waits in the backlog until the server accepts (and drops) it.
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(
                    Instant::now() < deadline,
                    "socket activation did not listen"
                );
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        let url = loop {
            if let Ok(text) = std::fs::read_to_string(&kubeconfig) {
                if let Some(line) = text.lines().find(|l| l.trim_start().starts_with("server:")) {
                    break line.trim().trim_start_matches("server:").trim().to_owned();
                }
            }
            assert!(
                Instant::now() < deadline,
                "server did not write its kubeconfig; log:\n{}",
                std::fs::read_to_string(&log_path).unwrap_or_default()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let port = url
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("port in kubeconfig");
        Server {
            child,
            _tmp: tmp,
            data_dir,
            url,
            port,
            log_path,
        }
    }
}

/// A running server.
pub struct Server {
    pub child: Child,
    _tmp: tempfile::TempDir,
    pub data_dir: PathBuf,
    pub url: String,
    pub port: u16,
    pub log_path: PathBuf,
}

/// A response, fully read.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub version: http::Version,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

impl Server {
    pub fn builder() -> ServerBuilder {
        ServerBuilder::default()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn kubeconfig(&self) -> PathBuf {
        self.data_dir.join("admin.kubeconfig")
    }

    pub fn pki(&self, file: &str) -> PathBuf {
        self.data_dir.join("pki").join(file)
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }

    /// TLS client configuration: trusts the generated CA, presents the admin certificate
    /// unless `anonymous`.
    pub fn tls_config(&self, alpn: &[&[u8]], anonymous: bool) -> Arc<rustls::ClientConfig> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_file_iter(self.pki("ca.crt")).expect("ca") {
            roots.add(cert.expect("ca cert")).expect("add root");
        }
        let builder = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_root_certificates(roots);
        let mut config = if anonymous {
            builder.with_no_client_auth()
        } else {
            let certs: Vec<_> = CertificateDer::pem_file_iter(self.pki("admin.crt"))
                .expect("admin cert")
                .collect::<Result<_, _>>()
                .expect("admin cert");
            let key = PrivateKeyDer::from_pem_file(self.pki("admin.key")).expect("admin key");
            builder
                .with_client_auth_cert(certs, key)
                .expect("client auth")
        };
        config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        Arc::new(config)
    }

    /// Opens a TLS connection; returns the stream and the negotiated ALPN protocol.
    pub async fn connect(
        &self,
        alpn: &[&[u8]],
        anonymous: bool,
    ) -> std::io::Result<(
        tokio_rustls::client::TlsStream<tokio::net::TcpStream>,
        Option<Vec<u8>>,
    )> {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await?;
        self.tls_over(tcp, alpn, anonymous).await
    }

    /// A connection whose receive buffer is fixed at `bytes` (no kernel autotuning, which
    /// on loopback may grow it to tens of MiB): for clients that stop reading.
    pub async fn connect_small_window(
        &self,
        alpn: &[&[u8]],
        bytes: u32,
    ) -> std::io::Result<tokio_rustls::client::TlsStream<tokio::net::TcpStream>> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.set_recv_buffer_size(bytes)?;
        let tcp = socket.connect(([127, 0, 0, 1], self.port).into()).await?;
        Ok(self.tls_over(tcp, alpn, true).await?.0)
    }

    async fn tls_over(
        &self,
        tcp: tokio::net::TcpStream,
        alpn: &[&[u8]],
        anonymous: bool,
    ) -> std::io::Result<(
        tokio_rustls::client::TlsStream<tokio::net::TcpStream>,
        Option<Vec<u8>>,
    )> {
        let connector = tokio_rustls::TlsConnector::from(self.tls_config(alpn, anonymous));
        let name = ServerName::try_from("localhost").expect("name");
        let tls = connector.connect(name, tcp).await?;
        let proto = tls.get_ref().1.alpn_protocol().map(|p| p.to_vec());
        Ok((tls, proto))
    }

    /// One request over a fresh connection (HTTP/2 when `h2`, else HTTP/1.1).
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        body: &[u8],
        h2: bool,
        anonymous: bool,
    ) -> std::io::Result<Reply> {
        tokio::time::timeout(
            REQUEST_TIMEOUT,
            self.request_inner(method, path, &[], body, h2, anonymous),
        )
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "request timed out"))?
    }

    /// One request with extra `headers` over a fresh connection.
    pub async fn request_with(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        h2: bool,
        anonymous: bool,
    ) -> std::io::Result<Reply> {
        self.request_full(method, path, headers, b"", h2, anonymous)
            .await
    }

    /// One request with extra `headers` and a `body` over a fresh connection.
    pub async fn request_full(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        h2: bool,
        anonymous: bool,
    ) -> std::io::Result<Reply> {
        tokio::time::timeout(
            REQUEST_TIMEOUT,
            self.request_inner(method, path, headers, body, h2, anonymous),
        )
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "request timed out"))?
    }

    /// `body` as JSON with `Content-Type: ctype`, as the admin over HTTP/2.
    pub async fn send_json(
        &self,
        method: Method,
        path: &str,
        ctype: &str,
        body: &serde_json::Value,
    ) -> Reply {
        let bytes = body.to_string();
        self.request_full(
            method,
            path,
            &[("content-type", ctype)],
            bytes.as_bytes(),
            true,
            false,
        )
        .await
        .expect("request")
    }

    /// GET as the admin over HTTP/2 with `Accept: accept` (none when empty).
    pub async fn get_accepting(&self, path: &str, accept: &str) -> Reply {
        let headers: &[(&str, &str)] = if accept.is_empty() {
            &[]
        } else {
            &[("accept", accept)]
        };
        let reply = tokio::time::timeout(
            REQUEST_TIMEOUT,
            self.request_inner(Method::GET, path, headers, b"", true, false),
        )
        .await;
        match reply {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => panic!("GET {path} ({accept}): {e}"),
            Err(_) => panic!("GET {path} ({accept}): timed out"),
        }
    }

    async fn request_inner(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        h2: bool,
        anonymous: bool,
    ) -> std::io::Result<Reply> {
        let alpn: &[&[u8]] = if h2 { &[b"h2"] } else { &[b"http/1.1"] };
        let (tls, _) = self.connect(alpn, anonymous).await?;
        let io = TokioIo::new(tls);
        let mut req = Request::builder()
            .method(method)
            .uri(format!("https://localhost:{}{path}", self.port))
            .header("host", format!("localhost:{}", self.port));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Full::new(Bytes::copy_from_slice(body)))
            .expect("request");
        let resp = if h2 {
            let (mut send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            send.send_request(req)
                .await
                .map_err(std::io::Error::other)?
        } else {
            let (mut send, conn) = hyper::client::conn::http1::handshake(io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            send.send_request(req)
                .await
                .map_err(std::io::Error::other)?
        };
        let status = resp.status();
        let version = resp.version();
        let headers = resp.headers().clone();
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

    /// GET as the admin over HTTP/2.
    pub async fn get(&self, path: &str) -> Reply {
        self.request(Method::GET, path, b"", true, false)
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    /// Polls `/readyz` until 200.
    pub async fn wait_ready(&self) {
        self.wait_for(|r| r.status == 200, "/readyz").await;
    }

    /// Polls `path` until `pred` holds for the reply.
    pub async fn wait_for(&self, pred: impl Fn(&Reply) -> bool, path: &str) -> Reply {
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            if let Ok(r) = self.request(Method::GET, path, b"", true, false).await {
                if pred(&r) {
                    return r;
                }
            }
            assert!(
                Instant::now() < deadline,
                "timed out polling {path}; log:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Runs kubectl against this server.
    pub fn kubectl(&self, args: &[&str]) -> std::process::Output {
        Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(self.kubeconfig())
            .args(args)
            .output()
            .expect("run kubectl")
    }

    /// The worker processes (role → pid), read from /proc.
    pub fn workers(&self) -> BTreeMap<String, u32> {
        workers_of(self.pid())
    }

    /// Sends `sig` to the supervisor.
    pub fn signal(&self, sig: nix::sys::signal::Signal) {
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(self.pid() as i32), sig).expect("signal");
    }

    /// Waits for the supervisor to exit.
    pub async fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let workers = self.workers();
        let _ = self.child.kill();
        let _ = self.child.wait();
        for pid in workers.values() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(*pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

/// Children of `parent` that are workers, by role.
pub fn workers_of(parent: u32) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the ")" that closes the command name: state, ppid, ...
        let Some(after) = stat.rsplit_once(')').map(|(_, a)| a) else {
            continue;
        };
        let mut fields = after.split_whitespace();
        let state = fields.next();
        let ppid: Option<u32> = fields.next().and_then(|p| p.parse().ok());
        if ppid != Some(parent) || state == Some("Z") {
            continue;
        }
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let args: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if let Some(i) = args.iter().position(|a| a == "__worker") {
            if let Some(role) = args.get(i + 1) {
                out.insert(role.clone(), pid);
            }
        }
    }
    out
}

/// Whether a process exists (and is not a zombie).
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, a)| a.split_whitespace().next())
            .is_some_and(|s| s != "Z"),
        Err(_) => false,
    }
}

/// How a request on a [`Conn`] failed.
enum Failure {
    /// Before any response: the server never took the request.
    Unanswered(std::io::Error),
    /// The response began (or the request timed out).
    Answered(std::io::Error),
}

/// A persistent client connection that re-dials after a failure (for load loops).
pub struct Conn {
    port: u16,
    tls: Arc<rustls::ClientConfig>,
    h2: bool,
    h2_send: Option<hyper::client::conn::http2::SendRequest<Full<Bytes>>>,
    h1_send: Option<hyper::client::conn::http1::SendRequest<Full<Bytes>>>,
}

impl Server {
    /// A persistent connection as the admin.
    pub fn conn(&self, h2: bool) -> Conn {
        let alpn: &[&[u8]] = if h2 { &[b"h2"] } else { &[b"http/1.1"] };
        Conn {
            port: self.port,
            tls: self.tls_config(alpn, false),
            h2,
            h2_send: None,
            h1_send: None,
        }
    }
}

impl Conn {
    async fn dial(&mut self) -> std::io::Result<()> {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await?;
        let tls = tokio_rustls::TlsConnector::from(self.tls.clone())
            .connect(ServerName::try_from("localhost").expect("name"), tcp)
            .await?;
        let io = TokioIo::new(tls);
        if self.h2 {
            let (send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            self.h2_send = Some(send);
        } else {
            let (send, conn) = hyper::client::conn::http1::handshake(io)
                .await
                .map_err(std::io::Error::other)?;
            tokio::spawn(conn);
            self.h1_send = Some(send);
        }
        Ok(())
    }

    /// GET `path`; a broken connection is dropped so the next call re-dials.
    pub async fn get(&mut self, path: &str) -> std::io::Result<Reply> {
        self.send(Method::GET, path, Bytes::new()).await
    }

    /// Sends one request. As Go's HTTP client does, a request that failed on a reused
    /// connection before any response arrived (the server closed the idle connection, or
    /// sent GOAWAY, as a draining server does) is sent once more on a fresh connection;
    /// a failure after the response began is returned.
    pub async fn send(
        &mut self,
        method: Method,
        path: &str,
        body: Bytes,
    ) -> std::io::Result<Reply> {
        match self.attempt(method.clone(), path, body.clone()).await {
            (_, Ok(reply)) => Ok(reply),
            (true, Err(Failure::Unanswered(_))) => match self.attempt(method, path, body).await.1 {
                Ok(reply) => Ok(reply),
                Err(Failure::Unanswered(e) | Failure::Answered(e)) => Err(e),
            },
            (_, Err(Failure::Unanswered(e) | Failure::Answered(e))) => Err(e),
        }
    }

    /// One try; says whether it went on a connection dialled before it.
    async fn attempt(
        &mut self,
        method: Method,
        path: &str,
        body: Bytes,
    ) -> (bool, Result<Reply, Failure>) {
        let reused = self.h2_send.is_some() || self.h1_send.is_some();
        match tokio::time::timeout(REQUEST_TIMEOUT, self.send_inner(method, path, body)).await {
            Ok(r) => (reused, r),
            Err(_) => {
                self.h2_send = None;
                self.h1_send = None;
                let e = std::io::Error::new(std::io::ErrorKind::TimedOut, "request timed out");
                (false, Err(Failure::Answered(e)))
            }
        }
    }

    async fn send_inner(
        &mut self,
        method: Method,
        path: &str,
        body: Bytes,
    ) -> Result<Reply, Failure> {
        if self.h2_send.is_none() && self.h1_send.is_none() {
            self.dial().await.map_err(Failure::Unanswered)?;
        }
        let mut req = Request::builder()
            .method(method)
            .uri(format!("https://localhost:{}{path}", self.port))
            .header("host", format!("localhost:{}", self.port));
        if !body.is_empty() {
            req = req.header("content-type", "application/json");
        }
        let req = req.body(Full::new(body)).expect("request");
        let sent = match (&mut self.h2_send, &mut self.h1_send) {
            (Some(s), _) => s.send_request(req).await,
            (None, Some(s)) => match s.ready().await {
                Ok(()) => s.send_request(req).await,
                Err(e) => Err(e),
            },
            (None, None) => unreachable!("dialled above"),
        };
        let resp = match sent {
            Ok(r) => r,
            Err(e) => {
                self.h2_send = None;
                self.h1_send = None;
                return Err(Failure::Unanswered(std::io::Error::other(e)));
            }
        };
        let status = resp.status();
        let version = resp.version();
        let headers = resp.headers().clone();
        let body = match resp.into_body().collect().await {
            Ok(b) => b.to_bytes(),
            Err(e) => {
                self.h2_send = None;
                self.h1_send = None;
                return Err(Failure::Answered(std::io::Error::other(e)));
            }
        };
        Ok(Reply {
            status,
            headers,
            body,
            version,
        })
    }
}

/// Fails loudly under CI when a tool the test needs is missing, else says it is skipped.
pub fn require_tool(tool: &str) -> bool {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false);
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is not on PATH; CI must install it"
        );
        eprintln!("skipping: {tool} is not on PATH");
    }
    found
}

/// A real etcd (Debian's etcd-server) on 127.0.0.1, with its data in a temp dir; it can be
/// stopped and started again on the same ports and data.
pub struct Etcd {
    pub dir: tempfile::TempDir,
    pub client_port: u16,
    pub peer_port: u16,
    child: Option<Child>,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// A free port below the kernel's ephemeral range (`ip_local_port_range` starts at
/// 32768 by default), for a server started later than clients that already dial it: a
/// port from the ephemeral range may meanwhile become the source port of one of those
/// clients' connection attempts (a TCP self-connect), and the server could not bind it.
fn free_port_outside_ephemeral_range() -> u16 {
    use std::hash::{BuildHasher, Hasher};
    for _ in 0..1000 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        let port = 20000 + (h.finish() % 12000) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    free_port()
}

impl Etcd {
    /// Ports and a data dir, not started yet.
    pub fn new() -> Etcd {
        let client_port = free_port_outside_ephemeral_range();
        let mut peer_port = free_port_outside_ephemeral_range();
        while peer_port == client_port {
            peer_port = free_port_outside_ephemeral_range();
        }
        Etcd {
            dir: tempfile::tempdir().expect("tempdir"),
            client_port,
            peer_port,
            child: None,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.client_port)
    }

    pub fn start(&mut self) {
        let peer = format!("http://127.0.0.1:{}", self.peer_port);
        let child = Command::new("etcd")
            .args(["--name", "test"])
            .arg("--data-dir")
            .arg(self.dir.path().join("etcd"))
            .args([
                "--listen-client-urls",
                &self.url(),
                "--advertise-client-urls",
                &self.url(),
            ])
            .args([
                "--listen-peer-urls",
                &peer,
                "--initial-advertise-peer-urls",
                &peer,
            ])
            .args(["--initial-cluster", &format!("test={peer}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start etcd");
        self.child = Some(child);
    }

    /// kill -9.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        self.kill();
    }
}
