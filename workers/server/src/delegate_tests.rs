//! Tests of `delegate`.

use http_body_util::BodyExt;

use super::*;

/// A delegation server on a fresh socket with `handler`; stop it by sending on the
/// returned sender, then await the task.
fn start<F, Fut>(
    handler: F,
) -> (
    tempfile::TempDir,
    WorkerClient,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
)
where
    F: Fn(RequestContext, Request<Body>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("w.sock");
    let listener = bind(&path).expect("bind");
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(
        listener,
        handler,
        async {
            let _ = stop_rx.await;
        },
        Duration::from_secs(1),
    ));
    (
        dir,
        WorkerClient::new(WorkerRole::KubeApi, path),
        stop_tx,
        server,
    )
}

/// A delegated request to `uri` with an empty request context.
fn delegated(method: http::Method, uri: &str) -> http::request::Builder {
    Request::builder().method(method).uri(uri).header(
        CONTEXT_HEADER,
        RequestContext::default()
            .to_header_value()
            .expect("context"),
    )
}

/// HEAD over the delegation connection: the GET's head, no body, no reset.
#[tokio::test]
async fn head_is_answered_without_a_body() {
    let handler = |_ctx: RequestContext, _req: Request<Body>| async {
        Response::builder()
            .header(http::header::CONTENT_LENGTH, "10")
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(body::full(&b"{\"kind\":1}"[..]))
            .expect("response")
    };
    let (_dir, client, stop_tx, server) = start(handler);
    for method in [http::Method::HEAD, http::Method::GET, http::Method::HEAD] {
        let req = delegated(method.clone(), "http://kube-api/api/v1/namespaces")
            .body(body::empty())
            .expect("request");
        let resp = client.send(Traffic::Short, req).await.expect("answered");
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.headers()[http::header::CONTENT_LENGTH], "10");
        let got = resp
            .into_body()
            .collect()
            .await
            .expect("a body, not a reset");
        let want: &[u8] = if method == http::Method::HEAD {
            b""
        } else {
            b"{\"kind\":1}"
        };
        assert_eq!(got.to_bytes(), want, "{method}");
    }
    // As the front door does at a stop or a replacement: its connections go first.
    client.redial();
    let _ = stop_tx.send(());
    server.await.expect("server");
}

/// A request with a header of 1.2 MiB (more than the 1 MiB the front door's HTTP/1
/// buffer may let through) reaches the handler instead of h2's bodiless 431.
#[tokio::test]
async fn a_head_the_front_door_took_is_delegated() {
    let handler = |_ctx: RequestContext, req: Request<Body>| async move {
        let len = req.headers().get("x-big").map_or(0, |v| v.len());
        Response::new(body::full(len.to_string()))
    };
    let (_dir, client, stop_tx, server) = start(handler);
    let big = "b".repeat(1_200_000);
    let req = delegated(http::Method::GET, "http://kube-api/api")
        .header("x-big", big.as_str())
        .body(body::empty())
        .expect("request");
    let resp = client.send(Traffic::Short, req).await.expect("answered");
    assert_eq!(resp.status(), 200);
    let got = resp.into_body().collect().await.expect("body").to_bytes();
    assert_eq!(got, "1200000");
    // As the front door does at a stop or a replacement: its connections go first.
    client.redial();
    let _ = stop_tx.send(());
    server.await.expect("server");
}

/// Responses nobody reads hold their stream's window, never the connection's: with
/// 20 endless responses unread (80 MiB of stream windows over four connections), a
/// short request on every connection is still answered.
#[tokio::test]
async fn unread_responses_do_not_stop_the_others() {
    let handler = |_ctx: RequestContext, req: Request<Body>| async move {
        if req.uri().path() != "/endless" {
            return Response::new(body::full("ok"));
        }
        let (mut tx, rx) = http_body_util::channel::Channel::<bytes::Bytes, body::BoxError>::new(4);
        tokio::spawn(async move {
            let chunk = bytes::Bytes::from(vec![b'x'; 64 << 10]);
            while tx.send_data(chunk.clone()).await.is_ok() {}
        });
        Response::new(body::boxed(rx))
    };
    let (_dir, client, stop_tx, server) = start(handler);
    let mut unread = Vec::new();
    for i in 0..24 {
        let traffic = if i % 6 == 5 {
            Traffic::LongRunning
        } else {
            Traffic::Short
        };
        let req = delegated(http::Method::GET, "http://kube-api/endless")
            .body(body::empty())
            .expect("request");
        unread.push(client.send(traffic, req).await.expect("answered"));
    }
    // Let the windows fill.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for traffic in [Traffic::Short, Traffic::LongRunning].repeat(4) {
        let req = delegated(http::Method::GET, "http://kube-api/api")
            .body(body::empty())
            .expect("request");
        let got = tokio::time::timeout(Duration::from_secs(5), async {
            let resp = client.send(traffic, req).await.expect("answered");
            resp.into_body().collect().await.expect("body").to_bytes()
        })
        .await
        .expect("not stopped behind the unread responses");
        assert_eq!(got, "ok");
    }
    drop(unread);
    // As the front door does at a stop or a replacement: its connections go first.
    client.redial();
    let _ = stop_tx.send(());
    server.await.expect("server");
}
