//! kube-apiserver's command line, black box: the real binary started with kubeadm v1.33's
//! static Pod flags (every file generated here, a real etcd over TLS when one is on the
//! machine) and with controller-runtime envtest's default flags, each then read by kubectl
//! as the cluster's admin with a certificate from that cluster's CA; unknown flags and bad
//! values refused with cobra's and pflag's words and exit status 1; flags this server does
//! not act on accepted with a warning. `audit`: the auditing flags and policy file.

mod audit;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::harness::{Server, BIN, READY_TIMEOUT};

/// A certificate authority made for a test.
struct Ca {
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
    pem: String,
}

fn dn(cn: &str, org: Option<&str>) -> rcgen::DistinguishedName {
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, cn);
    if let Some(org) = org {
        dn.push(rcgen::DnType::OrganizationName, org);
    }
    dn
}

impl Ca {
    fn new(cn: &str) -> Ca {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.distinguished_name = dn(cn, None);
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.key_usages = vec![
            rcgen::KeyUsagePurpose::KeyCertSign,
            rcgen::KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params.self_signed(&key).expect("self-sign");
        Ca {
            pem: cert.pem(),
            issuer: rcgen::Issuer::new(params, key),
        }
    }

    /// A leaf for `cn` (organization `org`): a serving certificate for `sans` when there
    /// are any, else a client certificate. Returns (certificate, key) PEM.
    fn leaf(&self, cn: &str, org: Option<&str>, sans: &[&str]) -> (String, String) {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params =
            rcgen::CertificateParams::new(sans.iter().map(|s| s.to_string()).collect::<Vec<_>>())
                .expect("params");
        params.distinguished_name = dn(cn, org);
        params.extended_key_usages = if sans.is_empty() {
            vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth]
        } else {
            vec![
                rcgen::ExtendedKeyUsagePurpose::ServerAuth,
                rcgen::ExtendedKeyUsagePurpose::ClientAuth,
            ]
        };
        let cert = params.signed_by(&key, &self.issuer).expect("sign");
        (cert.pem(), key.serialize_pem())
    }

    /// Writes the CA as `<name>.crt` and a leaf as `<leaf>.crt` / `<leaf>.key` in `dir`.
    fn write_leaf(&self, dir: &Path, leaf: &str, cn: &str, org: Option<&str>, sans: &[&str]) {
        let (cert, key) = self.leaf(cn, org, sans);
        write(&dir.join(format!("{leaf}.crt")), &cert);
        write(&dir.join(format!("{leaf}.key")), &key);
    }
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

fn flag(name: &str, path: &Path) -> String {
    format!("--{name}={}", path.display())
}

const SERVING_SANS: &[&str] = &[
    "localhost",
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    "kubernetes.default.svc.cluster.local",
    "127.0.0.1",
];

/// A kubeconfig for the cluster's admin: `CN=kubernetes-admin, O=system:masters` signed by
/// `client_ca`, trusting `server_ca`.
fn admin_kubeconfig(dir: &Path, port: u16, server_ca: &Path, client_ca: &Ca) -> PathBuf {
    client_ca.write_leaf(
        dir,
        "admin",
        "kubernetes-admin",
        Some("system:masters"),
        &[],
    );
    let path = dir.join("admin.conf");
    write(
        &path,
        &format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: \
             https://127.0.0.1:{port}\n    certificate-authority: {}\nusers:\n- name: admin\n  \
             user:\n    client-certificate: {}\n    client-key: {}\ncontexts:\n- name: admin@c\n  \
             context:\n    cluster: c\n    user: admin\ncurrent-context: admin@c\n",
            server_ca.display(),
            dir.join("admin.crt").display(),
            dir.join("admin.key").display(),
        ),
    );
    path
}

fn kubectl(kubeconfig: &Path, args: &[&str]) -> Output {
    Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(args)
        .output()
        .expect("run kubectl")
}

/// Polls `kubectl get --raw /readyz` as the admin until it answers `ok`.
async fn wait_ready_as_admin(server: &Server, kubeconfig: &Path) {
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        let out = kubectl(kubeconfig, &["get", "--raw", "/readyz"]);
        if out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "ok" {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "not ready for the admin: {}\nlog:\n{}",
            String::from_utf8_lossy(&out.stderr),
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A real etcd serving clients over TLS with client certificates from `ca`, when etcd is
/// on the machine (as tests/harness's etcd, with TLS); killed on drop.
struct TlsEtcd {
    child: std::process::Child,
    url: String,
    _dir: tempfile::TempDir,
}

impl TlsEtcd {
    fn start(ca: &Ca) -> Option<TlsEtcd> {
        let found = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).any(|d| d.join("etcd").is_file()))
            .unwrap_or(false);
        if !found {
            eprintln!("etcd is not on PATH: the kubeadm flags run on the embedded store");
            return None;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        ca.write_leaf(
            dir.path(),
            "server",
            "etcd",
            None,
            &["localhost", "127.0.0.1"],
        );
        write(&dir.path().join("ca.crt"), &ca.pem);
        let port = |_: ()| {
            std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .expect("free port")
        };
        let url = format!("https://127.0.0.1:{}", port(()));
        let peer = format!("http://127.0.0.1:{}", port(()));
        let child = Command::new("etcd")
            .args(["--name", "kubeadm"])
            .arg("--data-dir")
            .arg(dir.path().join("data"))
            .args([
                "--listen-client-urls",
                &url,
                "--advertise-client-urls",
                &url,
            ])
            .args([
                "--listen-peer-urls",
                &peer,
                "--initial-advertise-peer-urls",
                &peer,
            ])
            .args(["--initial-cluster", &format!("kubeadm={peer}")])
            .arg(flag("cert-file", &dir.path().join("server.crt")))
            .arg(flag("key-file", &dir.path().join("server.key")))
            .arg(flag("trusted-ca-file", &dir.path().join("ca.crt")))
            .arg("--client-cert-auth")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start etcd");
        Some(TlsEtcd {
            child,
            url,
            _dir: dir,
        })
    }
}

impl Drop for TlsEtcd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubeadm_static_pod_flags() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pki = tmp.path().join("pki");
    // kubeadm's /etc/kubernetes/pki, generated.
    let ca = Ca::new("kubernetes");
    write(&pki.join("ca.crt"), &ca.pem);
    ca.write_leaf(&pki, "apiserver", "kube-apiserver", None, SERVING_SANS);
    ca.write_leaf(
        &pki,
        "apiserver-kubelet-client",
        "kube-apiserver-kubelet-client",
        Some("kubeadm:cluster-admins"),
        &[],
    );
    let front_proxy = Ca::new("front-proxy-ca");
    write(&pki.join("front-proxy-ca.crt"), &front_proxy.pem);
    front_proxy.write_leaf(&pki, "front-proxy-client", "front-proxy-client", None, &[]);
    let etcd_ca = Ca::new("etcd-ca");
    write(&pki.join("etcd/ca.crt"), &etcd_ca.pem);
    etcd_ca.write_leaf(
        &pki,
        "apiserver-etcd-client",
        "kube-apiserver-etcd-client",
        None,
        &[],
    );
    let sa = rcgen::KeyPair::generate().expect("sa key");
    write(&pki.join("sa.key"), &sa.serialize_pem());
    write(&pki.join("sa.pub"), &sa.public_key_pem());

    let etcd = TlsEtcd::start(&etcd_ca);
    let mut server = Server::builder();
    for arg in [
        "--advertise-address=127.0.0.1".to_owned(),
        "--allow-privileged=true".to_owned(),
        "--authorization-mode=Node,RBAC".to_owned(),
        flag("client-ca-file", &pki.join("ca.crt")),
        "--enable-admission-plugins=NodeRestriction".to_owned(),
        "--enable-bootstrap-token-auth=true".to_owned(),
        flag("etcd-cafile", &pki.join("etcd/ca.crt")),
        flag("etcd-certfile", &pki.join("apiserver-etcd-client.crt")),
        flag("etcd-keyfile", &pki.join("apiserver-etcd-client.key")),
        flag(
            "kubelet-client-certificate",
            &pki.join("apiserver-kubelet-client.crt"),
        ),
        flag(
            "kubelet-client-key",
            &pki.join("apiserver-kubelet-client.key"),
        ),
        "--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname".to_owned(),
        flag(
            "proxy-client-cert-file",
            &pki.join("front-proxy-client.crt"),
        ),
        flag("proxy-client-key-file", &pki.join("front-proxy-client.key")),
        "--requestheader-allowed-names=front-proxy-client".to_owned(),
        flag(
            "requestheader-client-ca-file",
            &pki.join("front-proxy-ca.crt"),
        ),
        "--requestheader-extra-headers-prefix=X-Remote-Extra-".to_owned(),
        "--requestheader-group-headers=X-Remote-Group".to_owned(),
        "--requestheader-username-headers=X-Remote-User".to_owned(),
        // kubeadm says 6443; a test takes a free port.
        "--secure-port=0".to_owned(),
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local".to_owned(),
        flag("service-account-key-file", &pki.join("sa.pub")),
        flag("service-account-signing-key-file", &pki.join("sa.key")),
        "--service-cluster-ip-range=10.96.0.0/12".to_owned(),
        flag("tls-cert-file", &pki.join("apiserver.crt")),
        flag("tls-private-key-file", &pki.join("apiserver.key")),
    ] {
        server = server.arg(arg);
    }
    if let Some(etcd) = &etcd {
        server = server.arg(format!("--etcd-servers={}", etcd.url));
    }
    let server = server.spawn().await;
    let admin = admin_kubeconfig(tmp.path(), server.port, &pki.join("ca.crt"), &ca);
    wait_ready_as_admin(&server, &admin).await;

    let out = kubectl(&admin, &["get", "--raw", "/readyz?verbose"]);
    let verbose = String::from_utf8_lossy(&out.stdout);
    assert!(verbose.contains("[+]etcd ok"), "{verbose}");
    let out = kubectl(
        &admin,
        &["auth", "whoami", "-o", "jsonpath={.status.userInfo.groups}"],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("system:masters"),
        "{out:?}"
    );
    // The served certificate is kubeadm's, signed by its CA.
    let out = kubectl(&admin, &["get", "namespaces", "default", "-o", "name"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "namespace/default"
    );
    // The admin.kubeconfig the server writes trusts kubeadm's CA too (the client CA,
    // which signs kubeadm's serving certificate), so kubectl with it verifies the server.
    let out = kubectl(&server.kubeconfig(), &["get", "--raw", "/version"]);
    assert!(out.status.success(), "{out:?}");
    // No flag of kubeadm's is one this server ignores.
    assert!(!server.log().contains("has no effect"), "{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn envtest_default_flags() {
    // envtest's cert dir: a serving pair from its own CA and the service account signer
    // (a certificate and its key); its client CA for the admin user.
    let tmp = tempfile::tempdir().expect("tempdir");
    let cert_dir = tmp.path().join("certs");
    let serving_ca = Ca::new("envtest-serving-ca");
    write(&tmp.path().join("serving-ca.crt"), &serving_ca.pem);
    serving_ca.write_leaf(&cert_dir, "apiserver", "localhost", None, SERVING_SANS);
    let signer = Ca::new("envtest-sa-signer");
    let signer_key = {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.distinguished_name = dn("sa-signer", None);
        let cert = params.signed_by(&key, &signer.issuer).expect("sign");
        write(&cert_dir.join("sa-signer.crt"), &cert.pem());
        key.serialize_pem()
    };
    write(&cert_dir.join("sa-signer.key"), &signer_key);
    let client_ca = Ca::new("envtest-client-ca");
    write(&tmp.path().join("client-cert-auth-ca.crt"), &client_ca.pem);
    let served_before = std::fs::read_to_string(cert_dir.join("apiserver.crt")).expect("read");

    let mut etcd = crate::harness::Etcd::new();
    let with_etcd = crate::harness::require_tool("etcd");
    let mut server = Server::builder();
    for arg in [
        "--service-cluster-ip-range=10.0.0.0/24".to_owned(),
        "--allow-privileged=true".to_owned(),
        "--disable-admission-plugins=ServiceAccount".to_owned(),
        flag("cert-dir", &cert_dir),
        "--authorization-mode=RBAC".to_owned(),
        "--secure-port=0".to_owned(),
        "--bind-address=127.0.0.1".to_owned(),
        "--service-account-issuer=https://127.0.0.1:6443/".to_owned(),
        flag("service-account-key-file", &cert_dir.join("sa-signer.crt")),
        flag(
            "service-account-signing-key-file",
            &cert_dir.join("sa-signer.key"),
        ),
        flag(
            "client-ca-file",
            &tmp.path().join("client-cert-auth-ca.crt"),
        ),
    ] {
        server = server.arg(arg);
    }
    if with_etcd {
        etcd.start();
        server = server.arg(format!("--etcd-servers={}", etcd.url()));
    }
    let server = server.spawn().await;
    let admin = admin_kubeconfig(
        tmp.path(),
        server.port,
        &tmp.path().join("serving-ca.crt"),
        &client_ca,
    );
    wait_ready_as_admin(&server, &admin).await;
    // envtest's serving pair is served as it is, not replaced.
    assert_eq!(
        std::fs::read_to_string(cert_dir.join("apiserver.crt")).expect("read"),
        served_before
    );
    // A service account token signed with envtest's key verifies against its certificate.
    let out = kubectl(
        &admin,
        &["create", "serviceaccount", "envtest", "-n", "default"],
    );
    assert!(out.status.success(), "{out:?}");
    let out = kubectl(&admin, &["create", "token", "envtest", "-n", "default"]);
    assert!(out.status.success(), "{out:?}");
    let token = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let out = Command::new("kubectl")
        .arg(format!("--server=https://127.0.0.1:{}", server.port))
        .arg(flag(
            "certificate-authority",
            &tmp.path().join("serving-ca.crt"),
        ))
        .arg(format!("--token={token}"))
        .args([
            "auth",
            "whoami",
            "-o",
            "jsonpath={.status.userInfo.username}",
        ])
        .output()
        .expect("kubectl");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "system:serviceaccount:default:envtest",
        "{out:?}"
    );
    assert!(!server.log().contains("has no effect"), "{}", server.log());
}

#[test]
fn unknown_flags_and_bad_values_fail_as_cobra_and_pflag_say() {
    for (args, want) in [
        (&["--foo"][..], "Error: unknown flag: --foo\n"),
        (&["--cloud-provider=", "--foo=bar"], "Error: unknown flag: --foo\n"),
        (
            &["--secure-port=x"],
            "Error: invalid argument \"x\" for \"--secure-port\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\n",
        ),
        (
            &["--profiling=maybe"],
            "Error: invalid argument \"maybe\" for \"--profiling\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax\n",
        ),
        (&["--etcd-prefix"], "Error: flag needs an argument: --etcd-prefix\n"),
        (
            &["--allow-privileged", "true"],
            "Error: \"kube-apiserver\" does not take any arguments, got [\"true\"]\n",
        ),
    ] {
        let out = Command::new(BIN).args(args).output().expect("run");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).ends_with(want),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn admission_flags_are_checked_with_the_other_flags() {
    let out = Command::new(BIN)
        .args([
            "--enable-admission-plugins=NodeRestriction,Bogus",
            "--disable-admission-plugins=NodeRestriction",
            "--proxy-client-cert-file=/nonexistent/front-proxy-client.crt",
            "--secure-port=-1",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for want in [
        "enable-admission-plugins plugin \"Bogus\" is unknown",
        "[NodeRestriction] in enable-admission-plugins and disable-admission-plugins overlapped",
        "--proxy-client-cert-file and --proxy-client-key-file must be given together",
        "--secure-port",
    ] {
        assert!(stderr.contains(want), "{want} not in:\n{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ignored_flags_start_with_a_warning() {
    let server = Server::builder()
        .arg("--cloud-provider=")
        .arg("--profiling")
        .arg("--delete-collection-workers")
        .arg("3")
        .arg("--apiserver-count=1")
        .arg("--endpoint-reconciler-type=lease")
        .arg("--authorization-mode=Node,RBAC,AlwaysAllow")
        .start()
        .await;
    let log = server.log();
    for want in [
        "WARN --authorization-mode includes AlwaysAllow: every authenticated or anonymous request is allowed",
        "Flag --cloud-provider has been deprecated, will be removed in a future version",
        "Flag --profiling has no effect in kube-apiserver-rs: accepted and ignored",
        "Flag --delete-collection-workers has no effect in kube-apiserver-rs: accepted and ignored",
        "Flag --apiserver-count has been deprecated, apiserver-count is deprecated and will be removed in a future version.",
        "Flag --endpoint-reconciler-type has no effect in kube-apiserver-rs: accepted and ignored",
    ] {
        assert!(log.contains(want), "{want} not in:\n{log}");
    }
    let out = server.kubectl(&["get", "--raw", "/readyz"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok", "{out:?}");
}
