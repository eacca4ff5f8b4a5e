//! This server's identity, as kube-apiserver v1.33 derives it with the APIServerIdentity
//! feature (on by default): `apiserver-` and the lower-case, unpadded base32 of the first
//! 16 bytes of SHA-256 over the host name and `kube-apiserver`, each preceded by its
//! length as a big-endian u16. Every process of one server on one host derives the same
//! identity. Metrics carry it only as its hash (`apiserver_id_hash`).

use std::sync::OnceLock;

/// The component name hashed into the identity.
const COMPONENT: &str = "kube-apiserver";

/// The identity of a server on host `hostname`.
fn derive(hostname: &str) -> String {
    let mut data = Vec::with_capacity(hostname.len() + COMPONENT.len() + 4);
    for part in [hostname, COMPONENT] {
        // A host name is at most 64 bytes (HOST_NAME_MAX); the cast cannot truncate.
        data.extend_from_slice(&(part.len().min(u16::MAX as usize) as u16).to_be_bytes());
        data.extend_from_slice(part.as_bytes());
    }
    let digest = ring::digest::digest(&ring::digest::SHA256, &data);
    let encoded = data_encoding::BASE32_NOPAD.encode(&digest.as_ref()[..16]);
    format!("apiserver-{}", encoded.to_ascii_lowercase())
}

/// The host's name (empty when it cannot be read).
pub fn hostname() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| match nix::unistd::gethostname() {
        Ok(h) => h.to_string_lossy().into_owned(),
        Err(e) => {
            tracing::warn!(error = %e, "the host name cannot be read");
            String::new()
        }
    })
}

/// This process's server identity (empty when the host name cannot be read).
pub fn apiserver_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| match hostname() {
        "" => String::new(),
        h => derive(h),
    })
}

/// `sha256:<hex>` of `data`, or "" for "": how upstream's metrics and logs show key IDs
/// and server identities.
pub fn sha256_label(data: &str) -> String {
    if data.is_empty() {
        return String::new();
    }
    let d = ring::digest::digest(&ring::digest::SHA256, data.as_bytes());
    format!("sha256:{}", data_encoding::HEXLOWER.encode(d.as_ref()))
}

/// [`sha256_label`] of [`apiserver_id`], computed once.
pub fn apiserver_id_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| sha256_label(apiserver_id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values computed independently (Python hashlib + base64.b32encode) from
    /// upstream's layout.
    #[test]
    fn identity_as_upstream_derives_it() {
        assert_eq!(derive("node-1"), "apiserver-lgabes5ywnaqeagh5dny4zlzs4");
        assert_eq!(sha256_label(""), "");
        assert_eq!(
            sha256_label("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
