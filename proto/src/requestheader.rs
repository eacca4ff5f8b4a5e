//! The request-header (front proxy) authenticator's configuration.

use serde::{Deserialize, Serialize};

/// `--requestheader-*`: who may assert a user in request headers, and which headers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestHeaderConfig {
    /// `--requestheader-client-ca-file`, read: the CA a front proxy's client
    /// certificate must chain to (PEM).
    pub client_ca_pem: String,
    /// `--requestheader-allowed-names`: common names a front proxy's certificate may have;
    /// empty means any certificate from the CA.
    pub allowed_names: Vec<String>,
    /// `--requestheader-username-headers`, in order (the first non-empty one wins).
    pub username_headers: Vec<String>,
    /// `--requestheader-uid-headers`.
    pub uid_headers: Vec<String>,
    /// `--requestheader-group-headers`: every value of each is a group.
    pub group_headers: Vec<String>,
    /// `--requestheader-extra-headers-prefix`: `<prefix><key>` headers give extra `key`.
    pub extra_headers_prefix: Vec<String>,
}
