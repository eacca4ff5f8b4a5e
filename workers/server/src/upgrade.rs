//! Upgraded connections (the SPDY and WebSocket streams of exec, attach, port-forward and
//! proxy) carried through the server's processes: an upgrade request goes from the front
//! door to its worker on a connection of its own (HTTP/1.1 over the worker's socket,
//! which switches protocols with the request), and two upgraded streams are joined until
//! either side closes.

use http::header::{CONNECTION, UPGRADE};
use http::{HeaderMap, Request, Response};
use hyper::body::Incoming;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use tokio::net::UnixStream;

use crate::body::Body;
use crate::delegate::WorkerClient;
use crate::Error;

/// Whether `headers` ask to switch protocols (`Connection: Upgrade` and `Upgrade`).
pub fn is_upgrade(headers: &HeaderMap) -> bool {
    headers.contains_key(UPGRADE)
        && headers
            .get_all(CONNECTION)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case("upgrade"))
}

/// Joins two upgraded connections (each once its side has switched) until either
/// closes; `what` names the join in the debug log.
pub async fn join(a: OnUpgrade, b: OnUpgrade, what: &'static str) {
    let (a, b) = match tokio::try_join!(a, b) {
        Ok(both) => both,
        Err(e) => {
            tracing::debug!(error = %e, what, "upgrade failed");
            return;
        }
    };
    let (mut a, mut b) = (TokioIo::new(a), TokioIo::new(b));
    if let Err(e) = tokio::io::copy_bidirectional(&mut a, &mut b).await {
        tracing::debug!(error = %e, what, "upgraded connection ended");
    }
}

impl WorkerClient {
    /// Sends an upgrade request to the worker on a new HTTP/1.1 connection of its own
    /// (the pooled HTTP/2 ones cannot switch protocols); the answer's upgrade, when it
    /// switches, is the worker's side of the stream.
    pub async fn send_upgrade(&self, req: Request<Body>) -> Result<Response<Incoming>, Error> {
        let role = self.role();
        let stream = UnixStream::connect(self.path())
            .await
            .map_err(|source| Error::Connect { role, source })?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|source| Error::Delegate { role, source })?;
        tokio::spawn(async move {
            if let Err(e) = conn.with_upgrades().await {
                tracing::debug!(%role, error = %e, "upgrade connection to a worker closed");
            }
        });
        sender
            .send_request(req)
            .await
            .map_err(|source| Error::Delegate { role, source })
    }
}
