//! Dialling a service reference for an HTTPS client, as upstream's webhook client
//! manager overrides its dialer: the request still goes to
//! `https://<name>.<namespace>.svc:<port>` (so TLS sends and verifies that name), but a
//! new connection to that host and port is made to wherever the service resolves now.
//! A resolution failure is the dial's failure, worded as the resolver words it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::{Endpoint, ServiceResolver};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How long a dial waits for the resolver's first listing.
const SYNC_WAIT: Duration = Duration::from_secs(10);

/// A service a client dials by reference.
#[derive(Debug)]
pub struct ServiceDial {
    resolver: Arc<ServiceResolver>,
    namespace: String,
    name: String,
    port: u16,
}

impl ServiceDial {
    /// Service `namespace`/`name` port `port`, resolved by `resolver` at each dial.
    pub fn new(
        resolver: Arc<ServiceResolver>,
        namespace: &str,
        name: &str,
        port: u16,
    ) -> ServiceDial {
        ServiceDial {
            resolver,
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            port,
        }
    }

    /// The service's DNS name, which its serving certificate must carry:
    /// `<name>.<namespace>.svc`.
    pub fn host(&self) -> String {
        format!("{}.{}.svc", self.name, self.namespace)
    }

    /// `https://<name>.<namespace>.svc:<port><path>`, the URL a client requests.
    pub fn url(&self, path: &str) -> String {
        format!("https://{}:{}{path}", self.host(), self.port)
    }

    /// Whether `dst` is this service (only those dials are redirected, as upstream).
    fn matches(&self, dst: &Uri) -> bool {
        let port = dst.port_u16().unwrap_or(443);
        dst.host()
            .is_some_and(|h| h.eq_ignore_ascii_case(&self.host()))
            && port == self.port
    }

    async fn resolve(&self) -> Result<Endpoint, super::ResolveError> {
        // Before the first listing every service would be "not found": wait for it.
        self.resolver.wait_synced(SYNC_WAIT).await;
        self.resolver
            .resolve(&self.namespace, &self.name, i32::from(self.port))
    }
}

/// A TCP connector that dials a [`ServiceDial`]'s service where it resolves, and every
/// other destination as a plain [`HttpConnector`] does. Wrap it in an HTTPS connector.
#[derive(Clone)]
pub struct ServiceConnector {
    http: HttpConnector,
    service: Option<Arc<ServiceDial>>,
}

impl ServiceConnector {
    /// Dials every destination as `http` does.
    pub fn direct(http: HttpConnector) -> ServiceConnector {
        ServiceConnector {
            http,
            service: None,
        }
    }

    /// Dials `service` where it resolves, anything else as `http` does.
    pub fn via(http: HttpConnector, service: Arc<ServiceDial>) -> ServiceConnector {
        ServiceConnector {
            http,
            service: Some(service),
        }
    }
}

/// A dial that failed, in Go's words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DialError(String);

impl tower_service::Service<Uri> for ServiceConnector {
    type Response = TokioIo<TcpStream>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.http.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let mut http = self.http.clone();
        let service = self.service.clone().filter(|s| s.matches(&dst));
        Box::pin(async move {
            let Some(service) = service else {
                return http.call(dst).await.map_err(Into::into);
            };
            let endpoint = service.resolve().await?;
            let target: Uri = format!("https://{endpoint}/")
                .parse()
                .map_err(|e| DialError(format!("dial tcp {endpoint}: {e}")))?;
            http.call(target)
                .await
                .map_err(|e| refused_at(&endpoint, e.into()))
        })
    }
}

/// A refused connection named by the address dialled, as Go's dialer says it (the
/// request's URL names the service instead).
fn refused_at(endpoint: &Endpoint, e: BoxError) -> BoxError {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e.as_ref());
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return Box::new(DialError(format!(
                    "dial tcp {endpoint}: connect: connection refused"
                )));
            }
        }
        cur = err.source();
    }
    e
}
