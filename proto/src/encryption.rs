//! `--encryption-provider-config` as the workers receive it: the EncryptionConfiguration
//! file, parsed and checked by the supervisor, keys decoded. Each rule names resources in
//! upstream's spelling (`secrets`, `deployments.apps`, `*.apps`, `*.`, `*.*`) and lists
//! providers; the first provider writes, every one reads.

use serde::{Deserialize, Serialize};

/// The whole configuration, rules in file order (an earlier rule wins).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EncryptionConfig {
    /// `resources[]` of the file.
    pub rules: Vec<EncryptionRule>,
}

/// One `resources[]` entry: which resources, and how their values are stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncryptionRule {
    /// `resources`: `resource` or `resource.group`, with `*` for any resource or group.
    pub resources: Vec<String>,
    /// `providers`, never empty: the first writes.
    pub providers: Vec<EncryptionProvider>,
}

/// One provider of a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EncryptionProvider {
    /// `identity: {}`: values stored as they are.
    Identity,
    /// `aescbc`: AES-CBC with PKCS#7 padding, keys of 16, 24 or 32 bytes.
    AesCbc(Vec<EncryptionKey>),
    /// `aesgcm`: AES-GCM with a random nonce, keys of 16, 24 or 32 bytes.
    AesGcm(Vec<EncryptionKey>),
    /// `secretbox`: XSalsa20-Poly1305, keys of 32 bytes.
    Secretbox(Vec<EncryptionKey>),
    /// `kms` with `apiVersion: v2`: envelope encryption through a KMS v2 plugin.
    Kms(KmsProvider),
}

/// A KMS v2 provider: the plugin's gRPC endpoint and how long a call may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KmsProvider {
    /// `name`: unique across the file, written into each value's prefix
    /// (`k8s:enc:kms:v2:<name>:`).
    pub name: String,
    /// `endpoint`: the plugin's unix socket, as a path (the `unix://` removed).
    pub socket: String,
    /// `timeout` in milliseconds (upstream's default 3s): each Status, Encrypt or Decrypt
    /// call gets this long.
    pub timeout_ms: u64,
}

/// A named key, its secret decoded from base64.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncryptionKey {
    /// `name`: written into each value's prefix.
    pub name: String,
    /// `secret`, decoded.
    pub secret: Vec<u8>,
}

impl std::fmt::Debug for EncryptionKey {
    // A key never reaches a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EncryptionKey")
            .field("name", &self.name)
            .field("secret", &"REDACTED")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_redacted_in_debug() {
        let k = EncryptionKey {
            name: "key1".into(),
            secret: b"0123456789abcdef".to_vec(),
        };
        let shown = format!("{k:?}");
        assert!(shown.contains("key1") && shown.contains("REDACTED"));
        assert!(!shown.contains("48") && !shown.contains("0123"));
    }
}
