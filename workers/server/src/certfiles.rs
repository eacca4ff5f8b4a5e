//! Certificate files that are re-read when they change on disk, as kube-apiserver's
//! dynamic certificate controllers do: the serving certificate and key, the client CA
//! and the request-header CA. The files are read again every second (they are small,
//! and reading follows symlink swaps and atomic renames that change notifications can
//! miss); a change is handed over only when every file reads and parses as PEM of the
//! right kind, so a half-written or broken file leaves the last good set in use.

use std::time::Duration;

use kas_proto::CertFiles;

/// How often the files are read again.
const POLL: Duration = Duration::from_secs(1);

/// The contents of the files (and what stands in for a file not given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertSnapshot {
    /// `--tls-cert-file` and `--tls-private-key-file`, when given.
    pub serving: Option<(String, String)>,
    /// The client CA bundle: the generated CA, then `--client-ca-file`.
    pub client_ca_pem: String,
    /// `--requestheader-client-ca-file`, when given.
    pub request_header_ca_pem: Option<String>,
}

impl CertSnapshot {
    /// The contents a worker started with.
    pub fn from_config(config: &kas_proto::WorkerConfig) -> CertSnapshot {
        let files = &config.cert_files;
        CertSnapshot {
            serving: files.tls_cert_file.as_ref().map(|_| {
                (
                    config.serving.cert_pem.clone(),
                    config.serving.key_pem.clone(),
                )
            }),
            client_ca_pem: config.serving.client_ca_pem.clone(),
            request_header_ca_pem: config
                .request_header
                .as_ref()
                .map(|rh| rh.client_ca_pem.clone()),
        }
    }
}

/// Whether `pem` holds at least one PEM block labelled `label`.
fn has_block(pem: &str, label: &str) -> bool {
    pem.contains(&format!("-----BEGIN {label}-----"))
}

/// Whether `pem` holds a private key block of any of the usual kinds.
fn has_key(pem: &str) -> bool {
    ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"]
        .iter()
        .any(|l| has_block(pem, l))
}

fn read(path: &std::path::Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the files now; an error names the file and what is wrong with it.
pub fn read_all(files: &CertFiles) -> Result<CertSnapshot, String> {
    let serving = match (&files.tls_cert_file, &files.tls_private_key_file) {
        (Some(c), Some(k)) => {
            let (cert, key) = (read(c)?, read(k)?);
            if !has_block(&cert, "CERTIFICATE") {
                return Err(format!("{}: no PEM certificate found", c.display()));
            }
            if !has_key(&key) {
                return Err(format!("{}: no PEM private key found", k.display()));
            }
            Some((cert, key))
        }
        _ => None,
    };
    let mut client_ca_pem = files.generated_ca_pem.clone();
    if let Some(p) = &files.client_ca_file {
        let pem = read(p)?;
        if !has_block(&pem, "CERTIFICATE") {
            return Err(format!("{}: no PEM certificate found", p.display()));
        }
        client_ca_pem.push_str(&pem);
    }
    let request_header_ca_pem = match &files.requestheader_client_ca_file {
        Some(p) => {
            let pem = read(p)?;
            if !has_block(&pem, "CERTIFICATE") {
                return Err(format!("{}: no PEM certificate found", p.display()));
            }
            Some(pem)
        }
        None => None,
    };
    Ok(CertSnapshot {
        serving,
        client_ca_pem,
        request_header_ca_pem,
    })
}

/// Whether any file is watched at all.
pub fn any(files: &CertFiles) -> bool {
    files.tls_cert_file.is_some()
        || files.client_ca_file.is_some()
        || files.requestheader_client_ca_file.is_some()
}

/// Watches the files for ever from `start` (the contents in use): `apply` gets each new
/// set; when it refuses one (`Err`), the reason is logged and the set is tried again
/// only after the files change once more.
pub fn watch<F>(files: CertFiles, start: CertSnapshot, apply: F)
where
    F: Fn(&CertSnapshot) -> Result<(), String> + Send + 'static,
{
    if !any(&files) {
        return;
    }
    tokio::spawn(async move {
        let mut current = start;
        let mut last_error: Option<String> = None;
        loop {
            tokio::time::sleep(POLL).await;
            let files = files.clone();
            let read = tokio::task::spawn_blocking(move || read_all(&files)).await;
            let next = match read {
                Ok(Ok(next)) => next,
                Ok(Err(e)) => {
                    if last_error.as_deref() != Some(e.as_str()) {
                        tracing::error!(error = %e, "certificate files changed but cannot be used; the previous ones stay in use");
                        last_error = Some(e);
                    }
                    continue;
                }
                Err(_) => continue,
            };
            if next == current {
                continue;
            }
            match apply(&next) {
                Ok(()) => {
                    tracing::info!(
                        serving = next.serving != current.serving,
                        client_ca = next.client_ca_pem != current.client_ca_pem,
                        request_header_ca =
                            next.request_header_ca_pem != current.request_header_ca_pem,
                        "certificates reloaded"
                    );
                    last_error = None;
                }
                Err(e) => {
                    tracing::error!(error = %e, "changed certificates were refused; the previous ones stay in use");
                    last_error = Some(e);
                }
            }
            // A refused set is not offered again until the files change.
            current = next;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_refuses_broken_files() {
        let dir = tempfile::tempdir().expect("dir");
        let ca = dir.path().join("ca.crt");
        std::fs::write(
            &ca,
            "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n",
        )
        .expect("write");
        let files = CertFiles {
            client_ca_file: Some(ca.clone()),
            generated_ca_pem: "generated\n".into(),
            ..CertFiles::default()
        };
        let snap = read_all(&files).expect("read");
        assert!(snap
            .client_ca_pem
            .starts_with("generated\n-----BEGIN CERTIFICATE-----"));
        assert_eq!(snap.serving, None);
        std::fs::write(&ca, "half a file").expect("write");
        let err = read_all(&files).expect_err("broken");
        assert!(err.contains("no PEM certificate found"), "{err}");
        std::fs::remove_file(&ca).expect("rm");
        assert!(read_all(&files).is_err());
        assert!(any(&files));
        assert!(!any(&CertFiles::default()));
    }
}
