//! Client certificates and the front proxy (`--requestheader-*`), through curl and
//! kubectl: a proxy whose certificate the request-header CA vouches for (with an allowed
//! name) names the user in X-Remote-* headers; anyone else's X-Remote-* headers are
//! ignored; a certificate no CA vouches for is 401, never anonymous.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::harness::{require_tool, Server};

/// A CA that signs client certificates into `dir`.
struct Ca {
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
    dir: PathBuf,
}

impl Ca {
    fn new(dir: &Path, name: &str) -> Ca {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        let cert = params.self_signed(&key).expect("ca");
        std::fs::write(dir.join(format!("{name}.crt")), cert.pem()).expect("write");
        Ca {
            issuer: rcgen::Issuer::new(params, key),
            dir: dir.to_owned(),
        }
    }

    /// A client certificate for CN `cn`, O `orgs`; returns (cert, key) paths.
    fn client(&self, cn: &str, orgs: &[&str]) -> (PathBuf, PathBuf) {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, cn);
        for o in orgs {
            params
                .distinguished_name
                .push(rcgen::DnType::OrganizationName, *o);
        }
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
        let cert = params.signed_by(&key, &self.issuer).expect("cert");
        let (c, k) = (
            self.dir.join(format!("{cn}.crt")),
            self.dir.join(format!("{cn}.key")),
        );
        std::fs::write(&c, cert.pem()).expect("write");
        std::fs::write(&k, key.serialize_pem()).expect("write");
        (c, k)
    }
}

/// A JSON body compacted (the server indents JSON for curl, as kube-apiserver does).
fn compact(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| body.to_owned())
}

/// curl to the server with a client certificate (or none) and headers: (status, body).
fn curl(
    server: &Server,
    cert: Option<&(PathBuf, PathBuf)>,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> (u16, String) {
    let mut cmd = Command::new("curl");
    cmd.args(["-sS", "-o", "-", "-w", "\n%{http_code}", "-X", method])
        .arg("--cacert")
        .arg(server.pki("ca.crt"));
    if let Some((c, k)) = cert {
        cmd.arg("--cert").arg(c).arg("--key").arg(k);
    }
    for h in headers {
        cmd.args(["-H", h]);
    }
    if !body.is_empty() {
        cmd.args(["-H", "Content-Type: application/json", "--data", body]);
    }
    let out = cmd
        .arg(format!("https://127.0.0.1:{}{path}", server.port))
        .output()
        .expect("run curl");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "curl {path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (body, code) = text.rsplit_once('\n').unwrap_or(("", "0"));
    (code.trim().parse().unwrap_or(0), compact(body))
}

const WHOAMI: &str = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
const REVIEW: &str = r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_proxy_headers_and_client_certificates() {
    if !require_tool("kubectl") || !require_tool("curl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let proxy_ca = Ca::new(dir.path(), "front-proxy-ca");
    let proxy = proxy_ca.client("front-proxy-client", &[]);
    let intruder = proxy_ca.client("intruder", &[]);
    let stranger_ca = Ca::new(dir.path(), "stranger-ca");
    let mallory = stranger_ca.client("mallory", &["system:masters"]);
    let server = Server::builder()
        .arg(format!(
            "--requestheader-client-ca-file={}",
            dir.path().join("front-proxy-ca.crt").display()
        ))
        .arg("--requestheader-allowed-names=front-proxy-client")
        .arg("--requestheader-username-headers=X-Remote-User")
        .arg("--requestheader-uid-headers=X-Remote-Uid")
        .arg("--requestheader-group-headers=X-Remote-Group")
        .arg("--requestheader-extra-headers-prefix=X-Remote-Extra-")
        .start()
        .await;
    let asserted = [
        "X-Remote-User: alice",
        "X-Remote-Uid: alice-1",
        "X-Remote-Group: devs",
        "X-Remote-Group: ops",
        "X-Remote-Extra-Scopes: read",
        "X-Remote-Extra-Acme.com%2fTeam: blue",
    ];

    let (code, body) = curl(&server, Some(&proxy), "POST", WHOAMI, &asserted, REVIEW);
    assert_eq!(code, 201, "{body}");
    let review: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(
        review["status"]["userInfo"],
        serde_json::json!({
            "username": "alice",
            "uid": "alice-1",
            "groups": ["devs", "ops", "system:authenticated"],
            "extra": {"acme.com/team": ["blue"], "scopes": ["read"]},
        })
    );
    // The proxy without a user header, a certificate of that CA with another name, and a
    // certificate no CA vouches for: 401, not anonymous.
    for (cert, headers) in [
        (&proxy, &[][..]),
        (&intruder, &asserted[..]),
        (&mallory, &asserted[..]),
    ] {
        let (code, body) = curl(&server, Some(cert), "POST", WHOAMI, headers, REVIEW);
        assert_eq!(code, 401, "{}: {body}", cert.0.display());
        assert!(body.contains("\"reason\":\"Unauthorized\""), "{body}");
    }
    // Headers from a client the front proxy CA does not vouch for are ignored.
    let admin = (server.pki("admin.crt"), server.pki("admin.key"));
    let (code, body) = curl(&server, Some(&admin), "POST", WHOAMI, &asserted, REVIEW);
    assert_eq!(code, 201, "{body}");
    assert!(body.contains("\"username\":\"kubernetes-admin\""), "{body}");
    let (code, body) = curl(
        &server,
        None,
        "GET",
        "/api/v1/namespaces/default/secrets",
        &asserted,
        "",
    );
    assert_eq!(code, 403, "{body}");
    assert!(body.contains("User \\\"system:anonymous\\\""), "{body}");

    // Extension API servers learn the front proxy's settings from kube-system.
    let out = server.kubectl(&[
        "get",
        "configmap",
        "-n",
        "kube-system",
        "extension-apiserver-authentication",
        "-o",
        "json",
    ]);
    assert!(out.status.success(), "{out:?}");
    let cm: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let data = &cm["data"];
    assert_eq!(
        data["requestheader-allowed-names"],
        "[\"front-proxy-client\"]"
    );
    assert_eq!(
        data["requestheader-username-headers"],
        "[\"X-Remote-User\"]"
    );
    assert_eq!(
        data["requestheader-extra-headers-prefix"],
        "[\"X-Remote-Extra-\"]"
    );
    assert_eq!(
        data["requestheader-client-ca-file"].as_str(),
        std::fs::read_to_string(dir.path().join("front-proxy-ca.crt"))
            .ok()
            .as_deref()
    );
    assert!(data["client-ca-file"]
        .as_str()
        .is_some_and(|p| p.contains("BEGIN CERTIFICATE")));

    // kubectl with the stranger's certificate: Unauthorized.
    let out = Command::new("kubectl")
        .args(["--kubeconfig", "/dev/null", "--server"])
        .arg(format!("https://127.0.0.1:{}", server.port))
        .arg("--certificate-authority")
        .arg(server.pki("ca.crt"))
        .arg("--client-certificate")
        .arg(&mallory.0)
        .arg("--client-key")
        .arg(&mallory.1)
        .args(["get", "--raw", "/version"])
        .output()
        .expect("kubectl");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
        "{out:?}"
    );
}

/// A request-header CA file that is not PEM refuses the start, naming the file, and a
/// blank header name is refused with upstream's message.
#[test]
fn bad_request_header_flags_refuse_the_start() {
    let dir = tempfile::tempdir().expect("dir");
    let junk = dir.path().join("junk.crt");
    std::fs::write(&junk, "not a certificate").expect("write");
    let out = Command::new(super::harness::BIN)
        .arg(format!("--requestheader-client-ca-file={}", junk.display()))
        .arg("--requestheader-group-headers= ")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "--requestheader-client-ca-file: {}",
            junk.display()
        )) || err.contains(&junk.display().to_string()),
        "{err}"
    );
    assert!(
        err.contains("empty value in \"requestheader-group-headers\""),
        "{err}"
    );
}

impl Ca {
    /// A serving certificate for 127.0.0.1 written to `cert`/`key`.
    fn serving(&self, cert: &Path, key: &Path) {
        let k = rcgen::KeyPair::generate().expect("key");
        let mut params =
            rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
                .expect("params");
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        let c = params.signed_by(&k, &self.issuer).expect("cert");
        std::fs::write(cert, c.pem()).expect("write");
        std::fs::write(key, k.serialize_pem()).expect("write");
    }

    fn pem(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(format!("{name}.crt"))).expect("ca pem")
    }
}

/// curl as `cert` trusting `ca`: the status code, 0 when TLS fails.
fn curl_as(
    port: u16,
    ca: &Path,
    cert: Option<&(PathBuf, PathBuf)>,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String) {
    let mut cmd = Command::new("curl");
    cmd.args([
        "-s",
        "-o",
        "-",
        "-w",
        "\n%{http_code}",
        "-X",
        method,
        "--cacert",
    ])
    .arg(ca);
    if let Some((c, k)) = cert {
        cmd.arg("--cert").arg(c).arg("--key").arg(k);
    }
    if !body.is_empty() {
        cmd.args(["-H", "Content-Type: application/json", "--data", body]);
    }
    let out = cmd
        .arg(format!("https://127.0.0.1:{port}{path}"))
        .output()
        .expect("run curl");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, code) = text.rsplit_once('\n').unwrap_or(("", "0"));
    (code.trim().parse().unwrap_or(0), compact(body))
}

/// Certificates given as files are reloaded when they change, without a restart: a new
/// serving certificate is presented to new connections, a new client CA decides who is
/// who, and a broken file leaves the last good ones in use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn certificate_files_are_reloaded_when_they_change() {
    if !require_tool("curl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let (serving_ca_1, serving_ca_2) = (
        Ca::new(dir.path(), "serving-ca-1"),
        Ca::new(dir.path(), "serving-ca-2"),
    );
    let (clients_a, clients_b) = (
        Ca::new(dir.path(), "clients-a"),
        Ca::new(dir.path(), "clients-b"),
    );
    let alice = clients_a.client("alice", &["devs"]);
    let bob = clients_b.client("bob", &["devs"]);
    let (cert, key, client_ca) = (
        dir.path().join("serving.crt"),
        dir.path().join("serving.key"),
        dir.path().join("clients.crt"),
    );
    serving_ca_1.serving(&cert, &key);
    std::fs::write(&client_ca, clients_a.pem("clients-a")).expect("write");
    let server = Server::builder()
        .arg(format!("--tls-cert-file={}", cert.display()))
        .arg(format!("--tls-private-key-file={}", key.display()))
        .arg(format!("--client-ca-file={}", client_ca.display()))
        .spawn()
        .await;
    let port = server.port;
    let (ca1, ca2) = (
        dir.path().join("serving-ca-1.crt"),
        dir.path().join("serving-ca-2.crt"),
    );
    let until = |what: &str, check: &dyn Fn() -> bool| {
        let start = std::time::Instant::now();
        while !check() {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "never: {what}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        start.elapsed()
    };
    until("ready", &|| {
        curl_as(port, &ca1, None, "GET", "/readyz", "").0 == 200
    });
    let who = |ca: &Path, cert: &(PathBuf, PathBuf)| {
        curl_as(port, ca, Some(cert), "POST", WHOAMI, REVIEW)
    };
    assert_eq!(who(&ca1, &alice).0, 201);
    assert_eq!(who(&ca1, &bob).0, 401);

    serving_ca_2.serving(&cert, &key);
    std::fs::write(&client_ca, clients_b.pem("clients-b")).expect("write");
    let took = until("the new serving certificate", &|| {
        curl_as(port, &ca2, None, "GET", "/readyz", "").0 == 200
    });
    println!("certificates reloaded within {took:?}");
    assert_eq!(
        curl_as(port, &ca1, None, "GET", "/readyz", "").0,
        0,
        "the old serving CA no longer verifies"
    );
    until("the new client CA", &|| who(&ca2, &bob).0 == 201);
    assert_eq!(who(&ca2, &alice).0, 401);
    // Extension API servers see the new client CA too.
    let admin = (server.pki("admin.crt"), server.pki("admin.key"));
    until("the published client CA", &|| {
        let (code, body) = curl_as(
            port,
            &ca2,
            Some(&admin),
            "GET",
            "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication",
            "",
        );
        code == 200 && body.contains(&clients_b.pem("clients-b").replace('\n', "\\n"))
    });

    // A broken file changes nothing.
    std::fs::write(&client_ca, "-----BEGIN CERTIFI").expect("write");
    until("the broken file is read and refused", &|| {
        server.log().contains("cannot be used")
    });
    assert_eq!(who(&ca2, &bob).0, 201);
}
