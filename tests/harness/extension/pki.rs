//! The front proxy's PKI for aggregation tests (a CA and the `front-proxy-client`
//! certificate the server under test presents to extension servers), the flags that give
//! it to the server under test, and the manifests that register an [`ExtensionServer`]
//! (Namespace, Service, EndpointSlice or ExternalName, APIService).

use std::path::{Path, PathBuf};

use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::{ExtensionServer, GROUP, SERVICE_NAME, SERVICE_NAMESPACE, VERSION};
use crate::harness::ServerBuilder;

/// The CN of the front proxy's client certificate, as kubeadm names it.
pub const CLIENT_CN: &str = "front-proxy-client";

/// A certificate authority made for a test.
pub struct Ca {
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
    pem: String,
}

fn dn(cn: &str, orgs: &[&str]) -> rcgen::DistinguishedName {
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, cn);
    for o in orgs {
        dn.push(rcgen::DnType::OrganizationName, *o);
    }
    dn
}

impl Ca {
    pub fn new(cn: &str) -> Ca {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.distinguished_name = dn(cn, &[]);
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

    /// The CA certificate, PEM.
    pub fn pem(&self) -> &str {
        &self.pem
    }

    /// A client certificate for CN `cn`, organizations `orgs`: (certificate, key) PEM.
    pub fn client(&self, cn: &str, orgs: &[&str]) -> (String, String) {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.distinguished_name = dn(cn, orgs);
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
        let cert = params.signed_by(&key, &self.issuer).expect("sign");
        (cert.pem(), key.serialize_pem())
    }

    /// A serving certificate for `sans` (IP addresses or DNS names): DER, key.
    pub fn serving_der(
        &self,
        cn: &str,
        sans: &[String],
    ) -> (CertificateDer<'static>, PrivateKeyDer<'static>) {
        let key = rcgen::KeyPair::generate().expect("key");
        let mut params = rcgen::CertificateParams::new(sans.to_vec()).expect("params");
        params.distinguished_name = dn(cn, &[]);
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        let cert = params.signed_by(&key, &self.issuer).expect("sign");
        let key = PrivateKeyDer::try_from(key.serialize_der()).expect("key der");
        (cert.der().clone(), key)
    }
}

/// The front proxy's CA and client certificate, written to a directory as
/// `front-proxy-ca.crt`, `front-proxy-client.crt` and `front-proxy-client.key`.
pub struct FrontProxyPki {
    dir: PathBuf,
    ca: Ca,
    client: (String, String),
    _tmp: Option<tempfile::TempDir>,
}

impl FrontProxyPki {
    /// Written to a temp dir of its own (removed when dropped).
    pub fn new() -> FrontProxyPki {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut pki = FrontProxyPki::in_dir(tmp.path());
        pki._tmp = Some(tmp);
        pki
    }

    /// Written to `dir` (created if missing).
    pub fn in_dir(dir: &Path) -> FrontProxyPki {
        std::fs::create_dir_all(dir).expect("mkdir");
        let ca = Ca::new("front-proxy-ca");
        let client = ca.client(CLIENT_CN, &[]);
        let pki = FrontProxyPki {
            dir: dir.to_owned(),
            ca,
            client,
            _tmp: None,
        };
        std::fs::write(pki.ca_file(), pki.ca.pem()).expect("write");
        std::fs::write(pki.client_cert_file(), &pki.client.0).expect("write");
        std::fs::write(pki.client_key_file(), &pki.client.1).expect("write");
        pki
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn ca(&self) -> &Ca {
        &self.ca
    }

    pub fn ca_pem(&self) -> &str {
        self.ca.pem()
    }

    pub fn ca_file(&self) -> PathBuf {
        self.dir.join("front-proxy-ca.crt")
    }

    pub fn client_cert_file(&self) -> PathBuf {
        self.dir.join(format!("{CLIENT_CN}.crt"))
    }

    pub fn client_key_file(&self) -> PathBuf {
        self.dir.join(format!("{CLIENT_CN}.key"))
    }

    /// The `front-proxy-client` certificate and key, PEM.
    pub fn client_pem(&self) -> (String, String) {
        self.client.clone()
    }

    /// The flags that make the server under test a front proxy to extension servers (as
    /// kubeadm sets them). `aggregator_routing`: `--enable-aggregator-routing=<value>`
    /// when `Some`, nothing when `None` (for servers without the flag).
    pub fn server_flags(&self, aggregator_routing: Option<bool>) -> Vec<String> {
        let mut flags = vec![
            format!(
                "--requestheader-client-ca-file={}",
                self.ca_file().display()
            ),
            format!("--requestheader-allowed-names={CLIENT_CN}"),
            "--requestheader-username-headers=X-Remote-User".to_owned(),
            "--requestheader-group-headers=X-Remote-Group".to_owned(),
            "--requestheader-extra-headers-prefix=X-Remote-Extra-".to_owned(),
            "--requestheader-uid-headers=X-Remote-Uid".to_owned(),
            format!(
                "--proxy-client-cert-file={}",
                self.client_cert_file().display()
            ),
            format!(
                "--proxy-client-key-file={}",
                self.client_key_file().display()
            ),
        ];
        if let Some(on) = aggregator_routing {
            flags.push(format!("--enable-aggregator-routing={on}"));
        }
        flags
    }
}

impl Default for FrontProxyPki {
    fn default() -> Self {
        FrontProxyPki::new()
    }
}

impl ServerBuilder {
    /// [`FrontProxyPki::server_flags`] added to this server's flags.
    pub fn front_proxy(mut self, pki: &FrontProxyPki, aggregator_routing: Option<bool>) -> Self {
        for flag in pki.server_flags(aggregator_routing) {
            self = self.arg(flag);
        }
        self
    }
}

/// How the Service of a [`Registration`] reaches the extension server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A ClusterIP Service (port 443, named `https`) and v1 Endpoints with the server's
    /// address and port: what kube-apiserver 1.33 dials with
    /// `--enable-aggregator-routing=true`. Endpoints may not name a loopback address:
    /// start the server on [`routable_ip`](super::routable_ip) for this.
    Endpoints,
    /// The same Service with an EndpointSlice instead (what 1.34 reads); EndpointSlices
    /// may name 127.0.0.1.
    EndpointSlice,
    /// An ExternalName Service naming [`Registration::external_name`] (`localhost`); the
    /// APIService's port is the server's. Dialled with `--enable-aggregator-routing=false`
    /// (with it on, upstream refuses the ExternalName type).
    ExternalName,
    /// The Service alone, no endpoints (for the `MissingEndpoints` condition).
    NoEndpoints,
}

/// The objects that register an extension server for a group-version; fields are public
/// so a test can make any of them wrong.
#[derive(Clone, Debug)]
pub struct Registration {
    pub group: String,
    pub version: String,
    pub namespace: String,
    pub service: String,
    pub port: u16,
    /// The address the Endpoints or EndpointSlice name (the server's).
    pub address: String,
    /// The host an ExternalName Service names (`localhost`; the server listens on IPv4
    /// only, so name its address where localhost may resolve to ::1 first).
    pub external_name: String,
    /// base64 PEM; `None` leaves `caBundle` out.
    pub ca_bundle: Option<String>,
    pub insecure_skip_tls_verify: bool,
    pub group_priority_minimum: u32,
    pub version_priority: u32,
    pub reach: Reach,
    /// Whether to include the Namespace and Service (false: only the APIService).
    pub with_service: bool,
}

impl Registration {
    /// `v1alpha1.wardle.example.com` served by `ext` through `wardle/api`.
    pub fn for_server(ext: &ExtensionServer, reach: Reach) -> Registration {
        Registration {
            group: GROUP.to_owned(),
            version: VERSION.to_owned(),
            namespace: SERVICE_NAMESPACE.to_owned(),
            service: SERVICE_NAME.to_owned(),
            port: ext.port(),
            address: ext.addr().ip().to_string(),
            external_name: "localhost".to_owned(),
            ca_bundle: Some(ext.ca_bundle()),
            insecure_skip_tls_verify: false,
            group_priority_minimum: 1000,
            version_priority: 15,
            reach,
            with_service: true,
        }
    }

    /// The APIService's name, `<version>.<group>`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.version, self.group)
    }

    /// The manifests, as one multi-document YAML for `kubectl apply -f -`.
    pub fn yaml(&self) -> String {
        let (ns, svc, port) = (&self.namespace, &self.service, self.port);
        let mut docs = Vec::new();
        if self.with_service {
            docs.push(format!(
                "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n"
            ));
            docs.push(match self.reach {
                Reach::ExternalName => format!(
                    "apiVersion: v1\nkind: Service\nmetadata:\n  name: {svc}\n  namespace: {ns}\n\
                     spec:\n  type: ExternalName\n  externalName: {}\n  ports:\n  \
                     - name: https\n    port: {port}\n    protocol: TCP\n",
                    self.external_name
                ),
                Reach::Endpoints | Reach::EndpointSlice | Reach::NoEndpoints => format!(
                    "apiVersion: v1\nkind: Service\nmetadata:\n  name: {svc}\n  namespace: {ns}\n\
                     spec:\n  ports:\n  - name: https\n    port: 443\n    protocol: TCP\n    \
                     targetPort: {port}\n"
                ),
            });
            let ip = &self.address;
            if self.reach == Reach::EndpointSlice {
                let family = if self.address.contains(':') {
                    "IPv6"
                } else {
                    "IPv4"
                };
                docs.push(format!(
                    "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  \
                     name: {svc}-direct\n  namespace: {ns}\n  labels:\n    \
                     kubernetes.io/service-name: {svc}\naddressType: {family}\nports:\n\
                     - name: https\n  port: {port}\n  protocol: TCP\nendpoints:\n\
                     - addresses: [\"{ip}\"]\n  conditions:\n    ready: true\n"
                ));
            }
            if self.reach == Reach::Endpoints {
                docs.push(format!(
                    "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: {svc}\n  namespace: {ns}\n\
                     subsets:\n- addresses:\n  - ip: \"{ip}\"\n  ports:\n  - name: https\n    \
                     port: {port}\n    protocol: TCP\n"
                ));
            }
        }
        let service_port = match self.reach {
            Reach::ExternalName => port,
            Reach::Endpoints | Reach::EndpointSlice | Reach::NoEndpoints => 443,
        };
        let mut spec = format!(
            "  group: {}\n  version: {}\n  groupPriorityMinimum: {}\n  versionPriority: {}\n  \
             service:\n    namespace: {ns}\n    name: {svc}\n    port: {service_port}\n",
            self.group, self.version, self.group_priority_minimum, self.version_priority
        );
        if let Some(ca) = &self.ca_bundle {
            spec.push_str(&format!("  caBundle: {ca}\n"));
        }
        if self.insecure_skip_tls_verify {
            spec.push_str("  insecureSkipTLSVerify: true\n");
        }
        docs.push(format!(
            "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: {}\n\
             spec:\n{spec}",
            self.name()
        ));
        docs.join("---\n")
    }
}

/// The manifests registering `ext` for `wardle.example.com/v1alpha1`.
pub fn apiservice_yaml(ext: &ExtensionServer, reach: Reach) -> String {
    Registration::for_server(ext, reach).yaml()
}

impl ExtensionServer {
    /// A kubeconfig in `dir` for kubectl straight to this server, presenting `pki`'s
    /// front-proxy certificate (start the server with
    /// [`direct_user`](super::Builder::direct_user) so such requests have a user).
    pub fn kubeconfig(&self, pki: &FrontProxyPki, dir: &Path) -> PathBuf {
        use base64::Engine;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let (cert, key) = pki.client_pem();
        let path = dir.join("wardle.kubeconfig");
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: wardle\n  cluster:\n    \
             server: {}\n    certificate-authority-data: {}\nusers:\n- name: proxy\n  user:\n    \
             client-certificate-data: {}\n    client-key-data: {}\ncontexts:\n- name: wardle\n  \
             context: {{cluster: wardle, user: proxy, namespace: default}}\n\
             current-context: wardle\n",
            self.url(""),
            self.ca_bundle(),
            b64(&cert),
            b64(&key)
        );
        std::fs::write(&path, text).expect("write kubeconfig");
        path
    }
}
