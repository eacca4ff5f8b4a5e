//! Dialling the storage worker's unix socket. A call made while the socket is not there
//! yet (the store starting beside this worker) or refuses (the store being restarted,
//! ~10 ms) waits for it, a little while, instead of failing: the store is a sibling
//! process that is about to answer, and a failed call would wait out its caller's
//! backoff (tens of milliseconds at start-up) after the store is already up.

use std::future::Future;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::rt::TokioIo;
use tokio::net::UnixStream;
use tonic::transport::{Channel, Endpoint, Uri};

/// How long a dial waits for the socket to answer.
const WAIT: Duration = Duration::from_secs(1);

/// Between attempts: a connect to a missing socket costs a system call.
const EVERY: Duration = Duration::from_millis(1);

/// A channel to the store listening at `path`, dialled at its first call.
pub(super) fn unix_channel(endpoint: Endpoint, path: &Path) -> Channel {
    endpoint.connect_with_connector_lazy(Dialer(Arc::from(path)))
}

/// The `unix://` endpoint's path, if `url` is one.
pub(super) fn unix_path(url: &str) -> Option<PathBuf> {
    url.strip_prefix("unix://").map(PathBuf::from)
}

/// Connects to a unix socket, waiting up to [`WAIT`] for it to be there.
#[derive(Clone)]
struct Dialer(Arc<Path>);

impl tower_service::Service<Uri> for Dialer {
    type Response = TokioIo<UnixStream>;
    type Error = std::io::Error;
    type Future = Pin<Box<dyn Future<Output = std::io::Result<Self::Response>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Uri) -> Self::Future {
        let path = self.0.clone();
        Box::pin(async move { dial(&path, WAIT).await.map(TokioIo::new) })
    }
}

/// The connection, once the socket accepts within `wait`; other errors at once.
async fn dial(path: &Path, wait: Duration) -> std::io::Result<UnixStream> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match UnixStream::connect(path).await {
            Err(e)
                if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::ConnectionRefused)
                    && tokio::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(EVERY).await;
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waits_for_the_socket_to_appear_but_not_forever() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("store.sock");
        let bind = {
            let path = path.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(30)).await;
                let listener = tokio::net::UnixListener::bind(&path).expect("bind");
                listener.accept().await.expect("accept")
            })
        };
        dial(&path, Duration::from_secs(5)).await.expect("dialled");
        bind.await.expect("accepted");
        let missing = dir.path().join("missing.sock");
        let e = dial(&missing, Duration::from_millis(20))
            .await
            .expect_err("no socket");
        assert_eq!(e.kind(), ErrorKind::NotFound);
    }
}
