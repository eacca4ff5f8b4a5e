//! An HTTP(S) client for requests whose answer is streamed back to the client as it comes
//! (a kubelet's container logs, a proxied request to a pod, service or node), with the
//! TLS settings of a kubeconfig-like [`WebhookClientConfig`]; failures worded as Go's
//! `net/http` words them (`Get "https://…": dial tcp …: connect: connection refused`).

use std::time::Duration;

use http::{HeaderMap, Method, Request, Response, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use kas_proto::WebhookClientConfig;

use crate::body::{self, Body};
use crate::webhook::{cause_for, tls_config};

type Https = Client<hyper_rustls::HttpsConnector<HttpConnector>, Body>;

/// A pooled HTTP(S) client (HTTP/1.1, as kubelets' streaming endpoints are served).
#[derive(Clone)]
pub struct StreamClient {
    client: Https,
}

impl StreamClient {
    /// A client with `config`'s CA (or none verified), client certificate and server name.
    pub fn new(config: &WebhookClientConfig) -> Result<StreamClient, String> {
        let tls = tls_config(config)?;
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .build(connector);
        Ok(StreamClient { client })
    }

    /// GETs `url`; the answer's head within `timeout` (the body then streams without a
    /// bound), else why not, in Go's words.
    pub async fn get(&self, url: &str, timeout: Duration) -> Result<Response<Body>, String> {
        self.send(Method::GET, url, HeaderMap::new(), timeout).await
    }

    /// Sends a bodiless request with `headers` (an upgrade's included: the answer's
    /// upgrade is then the server's side of the stream); errors as [`StreamClient::get`].
    pub async fn send(
        &self,
        method: Method,
        url: &str,
        headers: HeaderMap,
        timeout: Duration,
    ) -> Result<Response<Body>, String> {
        self.send_body(method, url, headers, body::empty(), timeout)
            .await
    }

    /// Sends a request with `headers` and `body` (streamed); as [`StreamClient::send`].
    pub async fn send_body(
        &self,
        method: Method,
        url: &str,
        headers: HeaderMap,
        body: Body,
        timeout: Duration,
    ) -> Result<Response<Body>, String> {
        // Go's net/http names its methods so in errors ("Get", "Post", else as sent).
        let verb = match method.as_str() {
            "GET" => "Get".to_owned(),
            "POST" => "Post".to_owned(),
            "PUT" => "Put".to_owned(),
            "PATCH" => "Patch".to_owned(),
            "DELETE" => "Delete".to_owned(),
            "HEAD" => "Head".to_owned(),
            "OPTIONS" => "Options".to_owned(),
            m => m.to_owned(),
        };
        let failed = |cause: String| format!("{verb} {url:?}: {cause}");
        let uri: Uri = url.parse().map_err(|e| failed(format!("{e}")))?;
        let mut req = Request::builder()
            .method(method)
            .uri(uri.clone())
            .body(body)
            .map_err(|e| failed(e.to_string()))?;
        *req.headers_mut() = headers;
        let resp = match tokio::time::timeout(timeout, self.client.request(req)).await {
            Ok(Ok(resp)) => resp,
            Ok(Err(e)) => return Err(failed(cause_for(&uri, &e))),
            Err(_) => {
                return Err(failed(
                    "net/http: timeout awaiting response headers".to_owned(),
                ))
            }
        };
        let (parts, incoming) = resp.into_parts();
        Ok(Response::from_parts(parts, body::boxed(incoming)))
    }
}
