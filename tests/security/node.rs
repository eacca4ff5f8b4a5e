//! The Node authorizer through kubectl with a kubelet's client certificate
//! (`CN=system:node:n1, O=system:nodes`, signed by the server's CA): a kubelet reads what
//! the pods bound to it use and nothing else, with kube-apiserver's refusal, and loses
//! it when the pod is deleted; SubjectAccessReviews (`kubectl auth can-i`) agree.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use super::harness::Server;
use super::rbac::until;
use super::setup;

/// The common name of the CA the server generates (the issuer name of what it signs).
const CA_COMMON_NAME: &str = "kube-apiserver-rs-ca";

/// A client certificate and key for `CN=common_name, O=organization`, signed by the
/// server's CA, written beside the server's PKI; returns (certificate, key) paths.
fn client_cert(server: &Server, common_name: &str, organization: &str) -> (PathBuf, PathBuf) {
    let ca_key_pem = std::fs::read_to_string(server.pki("ca.key")).expect("ca.key");
    let ca_key = rcgen::KeyPair::from_pem(&ca_key_pem).expect("CA key");
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, CA_COMMON_NAME);
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let issuer = rcgen::Issuer::new(ca, ca_key);

    let key = rcgen::KeyPair::generate().expect("key");
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, common_name);
    params
        .distinguished_name
        .push(rcgen::DnType::OrganizationName, organization);
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
    let cert = params.signed_by(&key, &issuer).expect("sign");
    let dir = server.pki("ca.crt").with_file_name("");
    let (crt, key_path) = (dir.join("kubelet-n1.crt"), dir.join("kubelet-n1.key"));
    std::fs::write(&crt, cert.pem()).expect("write cert");
    std::fs::write(&key_path, key.serialize_pem()).expect("write key");
    (crt, key_path)
}

/// kubectl as the holder of a client certificate, with its own discovery cache.
struct CertUser {
    server_url: String,
    ca: PathBuf,
    cert: PathBuf,
    key: PathBuf,
    cache: tempfile::TempDir,
    empty: tempfile::NamedTempFile,
}

impl CertUser {
    fn new(server: &Server, cert: &Path, key: &Path) -> CertUser {
        CertUser {
            server_url: format!("https://127.0.0.1:{}", server.port),
            ca: server.pki("ca.crt"),
            cert: cert.to_owned(),
            key: key.to_owned(),
            cache: tempfile::tempdir().expect("cache"),
            empty: tempfile::NamedTempFile::new().expect("empty kubeconfig"),
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        std::process::Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(self.empty.path())
            .arg("--cache-dir")
            .arg(self.cache.path())
            .args(["--server", &self.server_url, "--certificate-authority"])
            .arg(&self.ca)
            .arg("--client-certificate")
            .arg(&self.cert)
            .arg("--client-key")
            .arg(&self.key)
            .args(args)
            .output()
            .expect("run kubectl")
    }

    fn ok(&self, args: &[&str]) -> bool {
        self.run(args).status.success()
    }

    /// The refusal kubectl prints.
    fn refused(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(!out.status.success(), "kubectl {args:?} succeeded");
        String::from_utf8_lossy(&out.stderr).trim().to_owned()
    }
}

const OBJECTS: &str = r#"
apiVersion: v1
kind: Secret
metadata: {name: s1}
stringData: {password: one}
---
apiVersion: v1
kind: Secret
metadata: {name: s2}
stringData: {password: two}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c1}
data: {mode: fast}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web-sa}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: other-sa}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  nodeName: n1
  serviceAccountName: web-sa
  containers:
  - name: web
    image: nginx
    env:
    - name: MODE
      valueFrom: {configMapKeyRef: {name: c1, key: mode}}
    volumeMounts: [{name: creds, mountPath: /creds}]
  volumes:
  - name: creds
    secret: {secretName: s1}
"#;

/// A kubelet (node n1) reads the secret and config map of its pod, may list its pods by
/// node and create a token for its pod's service account; everything else is refused
/// with upstream's reason, the access reviews agree, and the pod's deletion ends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kubelet_reads_only_what_its_pods_use() {
    let Some((server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["apply", "-n", "default", "-f", "-"], OBJECTS);
    let (cert, key) = client_cert(&server, "system:node:n1", "system:nodes");
    let n1 = CertUser::new(&server, &cert, &key);

    let seen = until("node n1 reads secret s1", || {
        n1.ok(&["get", "secret", "s1", "-n", "default", "-o", "name"])
    });
    eprintln!("the pod's secret readable {seen:?} after the pod was written");
    assert!(n1.ok(&["get", "configmap", "c1", "-n", "default", "-o", "name"]));
    // A list of one object by name (as a kubelet watches its secrets).
    let listed = n1.run(&[
        "get",
        "secrets",
        "-n",
        "default",
        "--field-selector",
        "metadata.name=s1",
        "-o",
        "name",
    ]);
    assert!(listed.status.success(), "{listed:?}");
    assert_eq!(String::from_utf8_lossy(&listed.stdout).trim(), "secret/s1");

    assert_eq!(
        n1.refused(&["get", "secret", "s2", "-n", "default"]),
        "Error from server (Forbidden): secrets \"s2\" is forbidden: User \"system:node:n1\" cannot get resource \"secrets\" in API group \"\" in the namespace \"default\": no relationship found between node 'n1' and this object"
    );
    assert!(n1
        .refused(&["get", "secrets", "-n", "default"])
        .ends_with("cannot list resource \"secrets\" in API group \"\" in the namespace \"default\": No Object name found"));

    // Its pods by node, not everyone's.
    assert!(n1.ok(&["get", "pods", "-A", "--field-selector", "spec.nodeName=n1"]));
    assert!(n1
        .refused(&["get", "pods", "-A"])
        .ends_with("can only list/watch pods with spec.nodeName field selector"));
    // Static node rules (services); its own Node only (not created yet: NotFound).
    assert!(n1.ok(&["get", "services", "-A"]));
    let own = n1.run(&["get", "node", "n1"]);
    assert!(
        String::from_utf8_lossy(&own.stderr).contains("(NotFound)"),
        "{own:?}"
    );
    assert!(n1
        .refused(&["get", "node", "n2"])
        .ends_with("node 'n1' cannot read 'n2', only its own Node object"));

    // Tokens for its pod's service account only.
    assert!(n1.ok(&["create", "token", "web-sa", "-n", "default"]));
    assert_eq!(
        n1.refused(&["create", "token", "other-sa", "-n", "default"]),
        "error: failed to create token: serviceaccounts \"other-sa\" is forbidden: User \"system:node:n1\" cannot create resource \"serviceaccounts/token\" in API group \"\" in the namespace \"default\": no relationship found between node 'n1' and this object"
    );

    // The access reviews (kube-api's own graph) agree.
    let can_i = |what: &str| {
        let out = k.run(&[
            "auth",
            "can-i",
            "--as=system:node:n1",
            "--as-group=system:nodes",
            "get",
            what,
            "-n",
            "default",
        ]);
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    // kubectl prints the reviews' reason after a "no".
    const NO: &str = "no - no relationship found between node 'n1' and this object";
    until("can-i agrees", || can_i("secret/s1") == "yes");
    assert_eq!(can_i("secret/s2"), NO);

    // A pod bound to n1 terminates gracefully: while it does, its kubelet keeps what it
    // needs; the kubelet's own zero-grace delete ends it and the access with it.
    k.ok(&["delete", "pod", "web", "-n", "default", "--wait=false"]);
    assert!(n1.ok(&["get", "secret", "s1", "-n", "default", "-o", "name"]));
    assert!(n1.ok(&[
        "delete",
        "pod",
        "web",
        "-n",
        "default",
        "--grace-period=0",
        "--force"
    ]));
    let gone = until("node n1 loses secret s1", || {
        !n1.ok(&["get", "secret", "s1", "-n", "default", "-o", "name"])
    });
    eprintln!("the pod's secret refused {gone:?} after the pod was deleted");
    assert!(gone < Duration::from_secs(5));
    assert!(!n1.ok(&["get", "configmap", "c1", "-n", "default"]));
    assert!(!n1.ok(&["create", "token", "web-sa", "-n", "default"]));
    until("can-i agrees after the delete", || can_i("secret/s1") == NO);
}
