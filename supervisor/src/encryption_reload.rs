//! `--encryption-provider-config` followed while serving
//! (`--encryption-provider-config-automatic-reload`), as kube-apiserver v1.33's reload
//! controller follows it, but every second rather than every minute (as our
//! `--authorization-config` reload): the file's content hash is compared with the last
//! one taken; a changed file is read and checked exactly as at start, with upstream's
//! reload rules; one that fails is logged (`error processing encryption config file …`)
//! and the configuration in force stays; a valid one goes to the workers that store
//! objects, which swap their transformers once the new KMS plugins are healthy.
//!
//! Only a hash of each text is kept (SipHash from std, in memory only, as upstream keeps
//! a SHA-256 it never writes out), so keys stay in the configuration in force alone.

use std::path::{Path, PathBuf};
use std::time::Duration;

use kas_proto::EncryptionConfig;

/// How often the file is read.
const POLL: Duration = Duration::from_secs(1);

type Hash = u64;

fn hash(data: &[u8]) -> Hash {
    use std::hash::{Hash as _, Hasher as _};
    let mut h = std::hash::DefaultHasher::new();
    data.hash(&mut h);
    h.finish()
}

fn same(a: &Option<Hash>, b: &Hash) -> bool {
    a.as_ref() == Some(b)
}

/// What one read of the file means.
#[derive(Debug, PartialEq)]
pub(crate) enum Step {
    /// The same text as last time (or a refused text again): nothing to do.
    Unchanged,
    /// The new text does not load; the configuration in force stays.
    Refused(String),
    /// A new valid configuration, now the one in force.
    Changed(EncryptionConfig),
}

/// The file's follower: the last text taken (as a hash) and the configuration in force.
pub(crate) struct Follower {
    path: PathBuf,
    /// The hash of the text in force; `None` until the first read.
    taken: Option<Hash>,
    /// The hash of the last text refused, so it is logged once.
    refused: Option<Hash>,
    in_force: EncryptionConfig,
}

/// Go's `utilerrors.Reduce(NewAggregate(errs))` of several messages.
fn aggregate(errs: Vec<String>) -> String {
    match errs.len() {
        1 => errs.concat(),
        _ => format!("[{}]", errs.join(", ")),
    }
}

impl Follower {
    /// A follower of `path`, the server having started with `initial`.
    pub(crate) fn new(path: PathBuf, initial: EncryptionConfig) -> Follower {
        Follower {
            path,
            taken: None,
            refused: None,
            in_force: initial,
        }
    }

    fn path(&self) -> &Path {
        &self.path
    }

    /// Takes one read of the file.
    pub(crate) fn step(&mut self, read: std::io::Result<Vec<u8>>) -> Step {
        let shown = self.path().display().to_string();
        let data = match read {
            Ok(d) => d,
            Err(e) => {
                return Step::Refused(format!(
                    "{shown}: error reading encryption provider configuration file: {e}"
                ))
            }
        };
        let hash = hash(&data);
        if same(&self.taken, &hash) || same(&self.refused, &hash) {
            return Step::Unchanged;
        }
        let loaded = match std::str::from_utf8(&data) {
            Err(e) => Err(vec![format!(
                "error decoding encryption provider configuration: {e}"
            )]),
            Ok(t) if t.trim().is_empty() => Err(vec![
                "encryption provider configuration file is empty".to_owned(),
            ]),
            // As at start, with upstream's reload rules.
            Ok(t) => crate::encryption_config::parse(t, true),
        };
        let config = match loaded {
            Ok(c) => c,
            Err(errs) => {
                self.refused = Some(hash);
                let errs = errs.into_iter().map(|e| format!("{shown}: {e}")).collect();
                return Step::Refused(aggregate(errs));
            }
        };
        self.refused = None;
        let first = self.taken.is_none();
        self.taken = Some(hash);
        // The first read is normally the text the server started with.
        if first && config == self.in_force {
            return Step::Unchanged;
        }
        // A new text is a new configuration even when it reads the same (upstream then
        // builds new transformers too).
        self.in_force = config.clone();
        Step::Changed(config)
    }
}

/// Reads `path` every second from now on and calls `changed` with each new valid
/// configuration, and with `None` for each new text refused, until `changed` returns
/// false.
pub(crate) fn follow(
    path: PathBuf,
    initial: EncryptionConfig,
    changed: impl Fn(Option<EncryptionConfig>) -> bool + Send + 'static,
) {
    let mut follower = Follower::new(path, initial);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(POLL).await;
            let read = tokio::fs::read(follower.path()).await;
            match follower.step(read) {
                Step::Unchanged => {}
                Step::Refused(e) => {
                    tracing::error!(
                        "error processing encryption config file {}: {e}",
                        follower.path().display()
                    );
                    if !changed(None) {
                        return;
                    }
                }
                Step::Changed(config) => {
                    tracing::info!(file = %follower.path().display(), "found new encryption config");
                    if !changed(Some(config)) {
                        return;
                    }
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n";
    const CBC: &str = "      - aescbc: {keys: [{name: key1, secret: MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=}]}\n";
    const GCM: &str = "      - aesgcm: {keys: [{name: key2, secret: MDEyMzQ1Njc4OWFiY2RlZg==}]}\n";

    fn text(providers: &[&str]) -> Vec<u8> {
        format!("{HEAD}{}", providers.concat()).into_bytes()
    }

    fn config(providers: &[&str]) -> EncryptionConfig {
        crate::encryption_config::parse(&format!("{HEAD}{}", providers.concat()), false)
            .expect("valid")
    }

    #[test]
    fn follows_valid_changes_and_refuses_bad_ones_once() {
        let mut f = Follower::new(PathBuf::from("/etc/enc.yaml"), config(&[CBC]));
        // The text the server started with.
        assert_eq!(f.step(Ok(text(&[CBC]))), Step::Unchanged);
        assert_eq!(f.step(Ok(text(&[CBC]))), Step::Unchanged);
        let Step::Changed(c) = f.step(Ok(text(&[GCM, CBC]))) else {
            panic!("a new key first")
        };
        assert_eq!(c, config(&[GCM, CBC]));
        assert_eq!(f.step(Ok(text(&[GCM, CBC]))), Step::Unchanged);
        // A bad text: the file, the field and the reason; logged once, not re-tried
        // until the text changes again.
        let bad = text(&["      - aesgcm: {keys: [{name: key3, secret: c2hvcnQ=}]}\n"]);
        assert_eq!(
            f.step(Ok(bad.clone())),
            Step::Refused("/etc/enc.yaml: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: \"REDACTED\": secret is not of the expected length, got 5, expected one of [16 24 32]".into())
        );
        assert_eq!(f.step(Ok(bad)), Step::Unchanged);
        let Step::Refused(e) = f.step(Ok(b"kind: Nope\n".to_vec())) else {
            panic!("another bad text")
        };
        assert!(e.starts_with("/etc/enc.yaml: "), "{e}");
        assert_eq!(
            f.step(Ok(b" \n".to_vec())),
            Step::Refused("/etc/enc.yaml: encryption provider configuration file is empty".into())
        );
        let gone = std::io::Error::from(std::io::ErrorKind::NotFound);
        let Step::Refused(e) = f.step(Err(gone)) else {
            panic!("unreadable")
        };
        assert!(
            e.starts_with("/etc/enc.yaml: error reading encryption provider configuration file: ")
        );
        // Back to the text in force: nothing to do.
        assert_eq!(f.step(Ok(text(&[GCM, CBC]))), Step::Unchanged);
        // Several problems at once, as Go aggregates them.
        let Step::Refused(e) = f.step(Ok(format!(
            "{HEAD}      - identity: {{}}\n      - nope: {{}}\n      - aescbc: {{}}\n"
        )
        .into_bytes())) else {
            panic!("two problems")
        };
        assert!(
            e.starts_with("[/etc/enc.yaml: ") && e.contains(", /etc/enc.yaml: "),
            "{e}"
        );
    }

    #[test]
    fn a_file_changed_before_the_first_read_is_taken() {
        let mut f = Follower::new(PathBuf::from("enc.yaml"), config(&[CBC]));
        assert_eq!(
            f.step(Ok(text(&[GCM, CBC]))),
            Step::Changed(config(&[GCM, CBC]))
        );
    }
}
