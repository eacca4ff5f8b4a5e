//! OIDC (JWT) authentication through kubectl, against small HTTPS OIDC issuers on
//! 127.0.0.1 (their own CA, made with rcgen) that serve a discovery document and a key
//! set, and sign ID tokens (ES256, P-256 keys made here) with `jsonwebtoken`.

use std::collections::HashMap;
use std::path::Path;
use std::process::Output;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response};
use serde_json::{json, Value};

use super::harness::https::HttpsServer;
use super::harness::kubectl::Kubectl;
use super::harness::{alive, require_tool, Server, BIN};

/// A signing key and its JWK.
struct SigningKey {
    kid: String,
    encoding: jsonwebtoken::EncodingKey,
    jwk: Value,
}

impl SigningKey {
    fn new(kid: &str) -> SigningKey {
        let pair = rcgen::KeyPair::generate().expect("P-256 key");
        let point = pair.public_key_raw();
        SigningKey {
            kid: kid.to_owned(),
            encoding: jsonwebtoken::EncodingKey::from_ec_der(&pair.serialize_der()),
            jwk: json!({"kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
                "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
                "y": URL_SAFE_NO_PAD.encode(&point[33..65])}),
        }
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.encoding).expect("sign")
    }
}

/// HTTPS issuers on one 127.0.0.1 port: `https://127.0.0.1:<port>/<name>` serves
/// `/.well-known/openid-configuration` and `/keys` under that path.
struct Issuers {
    server: HttpsServer,
    /// Issuer name → the JWKs it publishes.
    keys: Arc<Mutex<HashMap<String, Vec<Value>>>>,
}

impl Issuers {
    async fn start() -> Issuers {
        let keys: Arc<Mutex<HashMap<String, Vec<Value>>>> = Arc::default();
        let keys2 = keys.clone();
        let server = HttpsServer::start_with(move |addr| {
            move |req: Request<Incoming>| {
                let keys = keys2.clone();
                async move {
                    let path = req.uri().path().trim_start_matches('/').to_owned();
                    let (name, rest) = path.split_once('/').unwrap_or((&path, ""));
                    let base = format!("https://{addr}/{name}");
                    let body = match rest {
                        ".well-known/openid-configuration" => Some(json!({
                            "issuer": base, "jwks_uri": format!("{base}/keys"),
                            "id_token_signing_alg_values_supported": ["ES256"]})),
                        "keys" => keys
                            .lock()
                            .expect("keys")
                            .get(name)
                            .map(|k| json!({"keys": k})),
                        _ => None,
                    };
                    let resp = match body {
                        Some(b) => Response::builder()
                            .header("content-type", "application/json")
                            .body(Full::new(Bytes::from(b.to_string()))),
                        None => Response::builder()
                            .status(404)
                            .body(Full::new(Bytes::from_static(b"404 page not found"))),
                    };
                    Ok::<_, hyper::Error>(resp.expect("response"))
                }
            }
        })
        .await;
        Issuers { server, keys }
    }

    fn url(&self, name: &str) -> String {
        self.server.url(&format!("/{name}"))
    }

    fn publish(&self, name: &str, keys: &[&SigningKey]) {
        self.keys.lock().expect("keys").insert(
            name.to_owned(),
            keys.iter().map(|k| k.jwk.clone()).collect(),
        );
    }

    /// Closes the listener and every connection: the issuers are down.
    fn stop(&self) {
        self.server.stop();
    }

    /// Starts a server taking ID tokens of the issuer at `url` for the client id
    /// `kubernetes`, trusting the issuers' CA (written in `dir`), with `args` besides.
    async fn start_server(&self, dir: &Path, url: &str, args: &[&str]) -> Server {
        let ca = dir.join("oidc-ca.pem");
        std::fs::write(&ca, self.server.ca_pem()).expect("write");
        let mut builder = Server::builder()
            .arg(format!("--oidc-issuer-url={url}"))
            .arg("--oidc-client-id=kubernetes")
            .arg(format!("--oidc-ca-file={}", ca.display()));
        for arg in args {
            builder = builder.arg(*arg);
        }
        builder.start().await
    }
}

/// An issuer `a` publishing the key `k1`, and a server taking its tokens.
struct IssuerA {
    issuers: Issuers,
    k1: SigningKey,
    /// The issuer's URL.
    url: String,
    server: Server,
    /// Holds the CA file.
    dir: tempfile::TempDir,
}

impl IssuerA {
    /// Starts both, the server with `args` besides the issuer's flags.
    async fn start(args: &[&str]) -> IssuerA {
        let issuers = Issuers::start().await;
        let k1 = SigningKey::new("k1");
        issuers.publish("a", &[&k1]);
        let dir = tempfile::tempdir().expect("dir");
        let url = issuers.url("a");
        let server = issuers.start_server(dir.path(), &url, args).await;
        IssuerA {
            issuers,
            k1,
            url,
            server,
            dir,
        }
    }
}

/// An ID token's claims: of `iss` for `kubernetes`, about `sub`, valid ten minutes.
fn id_claims(iss: &str, sub: &str) -> Value {
    json!({"iss": iss, "aud": "kubernetes", "sub": sub, "exp": now() + 600, "iat": now()})
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// kubectl as a user with only a bearer token.
fn as_token_user(server: &Server, token: &str, args: &[&str]) -> Output {
    let empty = tempfile::NamedTempFile::new().expect("empty kubeconfig");
    let cache = server.kubeconfig().with_file_name("kubectl-cache-oidc");
    std::process::Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(empty.path())
        .arg("--cache-dir")
        .arg(&cache)
        .args(["--server", &server.url, "--token", token])
        .arg("--certificate-authority")
        .arg(server.pki("ca.crt"))
        .args(args)
        .output()
        .expect("run kubectl")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn whoami(server: &Server, token: &str) -> Option<Value> {
    let out = as_token_user(server, token, &["auth", "whoami", "-o", "json"]);
    out.status
        .success()
        .then(|| serde_json::from_slice::<Value>(&out.stdout).expect("json"))
        .map(|v| v["status"]["userInfo"].clone())
}

/// Polls `check` until it holds, for at most 15 s; returns how long.
fn until(what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(15), "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
    start.elapsed()
}

const UNAUTHORIZED: &str = "error: You must be logged in to the server (Unauthorized)";

fn refused(server: &Server, token: &str) -> bool {
    let out = as_token_user(server, token, &["get", "--raw", "/version"]);
    !out.status.success() && stderr(&out).contains(UNAUTHORIZED)
}

/// `--oidc-*`: the ID token's user with upstream's default prefix (`<issuer>#`), groups
/// with the groups prefix; RBAC names the prefixed user; expired, wrong-audience,
/// unknown-issuer, tampered and required-claim-less tokens are 401; a rotated key (new
/// `kid`) is picked up; with the issuer down a token of an unknown key is 401 at once
/// while the admin keeps working.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oidc_flags() {
    if !require_tool("kubectl") {
        return;
    }
    let IssuerA {
        issuers,
        k1,
        url,
        server,
        dir: _dir,
    } = IssuerA::start(&[
        "--oidc-groups-claim=groups",
        "--oidc-groups-prefix=oidc:",
        "--oidc-signing-algs=ES256",
        "--oidc-required-claim=hd=example.com",
    ])
    .await;
    let claims = |extra: Value| {
        let mut c = json!({"iss": url, "aud": "kubernetes", "sub": "jane", "hd": "example.com",
            "groups": ["dev"], "exp": now() + 600, "iat": now(), "jti": "id-1"});
        for (k, v) in extra.as_object().expect("object") {
            c[k] = v.clone();
        }
        c
    };
    let token = k1.sign(&claims(json!({})));
    until("the issuer's tokens are accepted", || {
        whoami(&server, &token).is_some()
    });
    assert_eq!(
        whoami(&server, &token),
        Some(json!({"username": format!("{url}#jane"),
            "groups": ["oidc:dev", "system:authenticated"],
            "extra": {"authentication.kubernetes.io/credential-id": ["JTI=id-1"]}}))
    );
    let forbidden = as_token_user(&server, &token, &["get", "pods"]);
    assert!(
        stderr(&forbidden).contains(&format!(
            "pods is forbidden: User \"{url}#jane\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""
        )),
        "{forbidden:?}"
    );

    let mut tampered: Vec<String> = token.split('.').map(str::to_owned).collect();
    tampered[1] = URL_SAFE_NO_PAD.encode(claims(json!({"sub": "admin"})).to_string());
    let stranger = SigningKey::new("k1");
    for (what, bad) in [
        ("expired", k1.sign(&claims(json!({"exp": now() - 5})))),
        ("wrong audience", k1.sign(&claims(json!({"aud": "other"})))),
        (
            "unknown issuer",
            k1.sign(&claims(json!({"iss": issuers.url("zzz")}))),
        ),
        ("tampered", tampered.join(".")),
        ("signed by another key", stranger.sign(&claims(json!({})))),
        (
            "required claim missing",
            k1.sign(&claims(json!({"hd": null}))),
        ),
    ] {
        assert!(refused(&server, &bad), "{what} token not refused");
    }

    // A key rotation: the issuer publishes a new key; a token naming it is verified once
    // the key set is fetched again (at most one fetch per 2 s).
    let k2 = SigningKey::new("k2");
    issuers.publish("a", &[&k2]);
    let rotated = k2.sign(&claims(json!({"sub": "joe"})));
    let took = until("the rotated key is picked up", || {
        whoami(&server, &rotated).is_some()
    });
    eprintln!("rotated key picked up after {took:?}");

    issuers.stop();
    let k3 = SigningKey::new("k3");
    let unknown = k3.sign(&claims(json!({})));
    std::thread::sleep(Duration::from_millis(2100));
    let started = Instant::now();
    assert!(
        refused(&server, &unknown),
        "unknown key with the issuer down"
    );
    let took = started.elapsed();
    eprintln!("issuer down: 401 after {took:?}");
    assert!(took < Duration::from_secs(3), "slow refusal: {took:?}");
    // The keys held still verify; the admin is untouched.
    assert!(
        whoami(&server, &rotated).is_some(),
        "held key with the issuer down"
    );
    Kubectl::new(&server).ok(&["get", "namespaces"]);
    assert!(alive(server.pid()));
}

/// `--authentication-config` with two issuers (a claim with a prefix; CEL expressions
/// for the username, groups and a validation rule) and a third that is down: the server
/// starts anyway, the third's tokens are 401 at once, the others' users are mapped; a
/// change of the file is picked up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authentication_config_with_two_issuers() {
    if !require_tool("kubectl") {
        return;
    }
    let issuers = Issuers::start().await;
    let (k1, k2) = (SigningKey::new("one-1"), SigningKey::new("two-1"));
    issuers.publish("one", &[&k1]);
    issuers.publish("two", &[&k2]);
    let dir = tempfile::tempdir().expect("dir");
    let ca: String = issuers
        .server
        .ca_pem()
        .lines()
        .map(|l| format!("      {l}\n"))
        .collect();
    let file = dir.path().join("authn.yaml");
    std::fs::write(
        &file,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: {one}
    audiences: [kubernetes]
    certificateAuthority: |
{ca}  claimMappings:
    username: {{claim: sub, prefix: 'one:'}}
- issuer:
    url: {two}
    audiences: [other, kubernetes]
    audienceMatchPolicy: MatchAny
    certificateAuthority: |
{ca}  claimValidationRules:
  - expression: claims.tier != 'banned'
    message: banned tier
  claimMappings:
    username: {{expression: \"'two:' + claims.preferred_username\"}}
    groups: {{expression: \"claims.roles.map(r, 'role-' + r)\"}}
    uid: {{claim: sub}}
- issuer:
    url: https://127.0.0.1:9/down
    audiences: [kubernetes]
  claimMappings:
    username: {{claim: sub, prefix: ''}}
",
            one = issuers.url("one"),
            two = issuers.url("two"),
        ),
    )
    .expect("write");
    let server = Server::builder()
        .arg(format!("--authentication-config={}", file.display()))
        .start()
        .await;
    let base = |iss: String, extra: Value| {
        let mut c = json!({"iss": iss, "aud": "kubernetes", "sub": "s-1",
            "exp": now() + 600, "iat": now()});
        for (k, v) in extra.as_object().expect("object") {
            c[k] = v.clone();
        }
        c
    };
    let one = k1.sign(&base(issuers.url("one"), json!({})));
    until("issuer one's tokens are accepted", || {
        whoami(&server, &one).is_some()
    });
    assert_eq!(
        whoami(&server, &one),
        Some(json!({"username": "one:s-1", "groups": ["system:authenticated"]}))
    );
    let two = k2.sign(&base(
        issuers.url("two"),
        json!({"preferred_username": "ann", "roles": ["a", "b"], "tier": "gold"}),
    ));
    until("issuer two's tokens are accepted", || {
        whoami(&server, &two).is_some()
    });
    assert_eq!(
        whoami(&server, &two),
        Some(json!({"username": "two:ann", "uid": "s-1",
            "groups": ["role-a", "role-b", "system:authenticated"]}))
    );
    let banned = k2.sign(&base(
        issuers.url("two"),
        json!({"preferred_username": "bob", "roles": [], "tier": "banned"}),
    ));
    assert!(refused(&server, &banned));
    // Issuer one's key does not sign for issuer two.
    let crossed = k1.sign(&base(
        issuers.url("two"),
        json!({"preferred_username": "eve", "roles": []}),
    ));
    assert!(refused(&server, &crossed));
    // The issuer that is down: refused at once.
    let down = k1.sign(&base("https://127.0.0.1:9/down".into(), json!({})));
    let started = Instant::now();
    assert!(refused(&server, &down));
    assert!(started.elapsed() < Duration::from_secs(2), "slow refusal");
    Kubectl::new(&server).ok(&["get", "namespaces"]);

    // The file changes (issuer one's prefix; the issuer that is down goes): the new
    // authenticators take over once their issuers are initialized.
    let text = std::fs::read_to_string(&file).expect("read");
    let text = text.replace("prefix: 'one:'", "prefix: 'uno:'");
    let text = &text[..text
        .find("- issuer:\n    url: https://127.0.0.1:9/down")
        .expect("down")];
    std::fs::write(&file, text).expect("rewrite");
    let took = until("the changed file is in force", || {
        whoami(&server, &one).is_some_and(|u| u["username"] == "uno:s-1")
    });
    eprintln!("authentication config reloaded after {took:?}");
    assert!(whoami(&server, &two).is_some());
}

/// A bad `--authentication-config` refuses the start, naming the file and every problem,
/// with the other flag errors.
#[test]
fn bad_authentication_config_refuses_the_start() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("authn.yaml");
    std::fs::write(
        &file,
        "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: 'http://a.example', audiences: [k]}\n  claimMappings: {username: {expression: 'claims.sub +'}}\n- issuer: {url: 'http://a.example', audiences: [k]}\n  claimMappings: {username: {claim: sub, prefix: ''}}\n",
    )
    .expect("write");
    let out = std::process::Command::new(BIN)
        .arg(format!("--authentication-config={}", file.display()))
        .arg("--oidc-client-id=x")
        .arg("--request-timeout=never")
        .output()
        .expect("run");
    assert!(!out.status.success(), "{out:?}");
    let err = stderr(&out);
    for want in [
        "authentication-config file and oidc-* flags are mutually exclusive".to_owned(),
        format!("{}: invalid authentication configuration: [", file.display()),
        "jwt[0].issuer.url: Invalid value: \"http://a.example\": URL scheme must be https".to_owned(),
        "jwt[0].claimMappings.username.expression: Invalid value: \"claims.sub +\": compilation failed: ".to_owned(),
        "jwt[1].issuer.url: Duplicate value: \"http://a.example\"".to_owned(),
        "--request-timeout".to_owned(),
    ] {
        assert!(err.contains(&want), "{want} not in:\n{err}");
    }
}

/// TokenReview of OIDC tokens: the issuer's user for the API audiences (the JWT
/// authenticator is audience-agnostic), refused for other audiences; a refused token
/// carries the authenticator's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_review_of_oidc_tokens() {
    use super::token_review::{refused, review, API_AUDIENCE};
    let IssuerA {
        issuers: _issuers,
        k1,
        url,
        server,
        dir: _dir,
    } = IssuerA::start(&["--oidc-signing-algs=ES256", "--oidc-username-prefix=oidc:"]).await;
    let claims = id_claims(&url, "jane");
    let token = k1.sign(&claims);
    let start = Instant::now();
    loop {
        let out = review(&server, &token, &[]).await;
        if out["status"]["authenticated"] == true {
            assert_eq!(
                out["status"],
                json!({"authenticated": true, "audiences": [API_AUDIENCE],
                    "user": {"username": "oidc:jane", "groups": ["system:authenticated"]}})
            );
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "never accepted: {out}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let both = review(&server, &token, &["other", API_AUDIENCE]).await;
    assert_eq!(both["status"]["audiences"], json!([API_AUDIENCE]));
    assert_eq!(both["status"]["user"]["username"], "oidc:jane");
    let other = review(&server, &token, &["other"]).await;
    assert_eq!(other["status"], refused("invalid bearer token"));

    let mut expired = claims.clone();
    expired["exp"] = json!(now() - 5);
    let out = review(&server, &k1.sign(&expired), &[]).await;
    assert!(out["status"].get("authenticated").is_none(), "{out}");
    let error = out["status"]["error"].as_str().unwrap_or("");
    assert!(error.starts_with("oidc: "), "{error}");
}

/// An ES512 key (P-521), which ring lacks: signed here with RustCrypto's `p521`.
struct P521Key {
    kid: String,
    key: p521::ecdsa::SigningKey,
}

impl P521Key {
    fn new(kid: &str) -> P521Key {
        P521Key {
            kid: kid.to_owned(),
            key: p521::ecdsa::SigningKey::random(&mut p521::elliptic_curve::rand_core::OsRng),
        }
    }

    fn jwk(&self) -> Value {
        let point = p521::ecdsa::VerifyingKey::from(&self.key).to_encoded_point(false);
        let x = point.x().expect("x").to_vec();
        let y = point.y().expect("y").to_vec();
        assert_eq!((x.len(), y.len()), (66, 66));
        json!({"kty": "EC", "crv": "P-521", "use": "sig", "alg": "ES512", "kid": self.kid,
            "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y)})
    }

    fn sign(&self, claims: &Value) -> String {
        use p521::ecdsa::signature::Signer;
        let header = json!({"alg": "ES512", "typ": "JWT", "kid": self.kid});
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature: p521::ecdsa::Signature = self.key.sign(input.as_bytes());
        let raw = signature.to_bytes();
        assert_eq!(raw.len(), 132, "r||s");
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(raw))
    }
}

/// `--oidc-signing-algs=ES256,ES512` (accepted, as upstream): an ES512 ID token of a
/// P-521 key in the issuer's key set is kubectl's user; one signed by another P-521 key,
/// and ES512 tokens where only ES256 is allowed, are 401.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn es512_id_tokens() {
    if !require_tool("kubectl") {
        return;
    }
    let issuers = Issuers::start().await;
    let big = P521Key::new("big");
    let small = SigningKey::new("small");
    issuers
        .keys
        .lock()
        .expect("keys")
        .insert("es".to_owned(), vec![big.jwk(), small.jwk.clone()]);
    let dir = tempfile::tempdir().expect("dir");
    let url = issuers.url("es");
    let server = issuers
        .start_server(
            dir.path(),
            &url,
            &[
                "--oidc-signing-algs=ES256,ES512",
                "--oidc-username-prefix=-",
            ],
        )
        .await;
    let claims = id_claims(&url, "ada");
    let token = big.sign(&claims);
    until("the ES512 token is accepted", || {
        whoami(&server, &token).is_some()
    });
    assert_eq!(
        whoami(&server, &token),
        Some(json!({"username": "ada", "groups": ["system:authenticated"]}))
    );
    let stranger = P521Key::new("big");
    assert!(
        refused(&server, &stranger.sign(&claims)),
        "another key's token"
    );
    let mut tampered: Vec<String> = token.split('.').map(str::to_owned).collect();
    let mut admin = claims.clone();
    admin["sub"] = json!("admin");
    tampered[1] = URL_SAFE_NO_PAD.encode(admin.to_string());
    assert!(refused(&server, &tampered.join(".")), "tampered token");

    // Where only ES256 is allowed, ES512 tokens are refused.
    let strict = issuers
        .start_server(dir.path(), &url, &["--oidc-signing-algs=ES256"])
        .await;
    let es256 = small.sign(&claims);
    until("the strict server takes ES256 tokens", || {
        whoami(&strict, &es256).is_some()
    });
    assert!(refused(&strict, &token), "ES512 not allowed");
    // And the first server takes ES256 beside ES512.
    assert!(whoami(&server, &es256).is_some());
}
