//! The KMS v2 plugin API (`v2.KeyManagementService`: Status, Encrypt, Decrypt) and the
//! `EncryptedObject` stored after a `k8s:enc:kms:v2:<name>:` prefix, generated from
//! workers/server/proto/kms_v2.proto. The server side is built only with the
//! `kms-plugin-server` feature (the test plugin).

#![allow(
    missing_docs,
    unreachable_pub,
    clippy::all,
    clippy::pedantic,
    clippy::derive_partial_eq_without_eq
)]

tonic::include_proto!("v2");
