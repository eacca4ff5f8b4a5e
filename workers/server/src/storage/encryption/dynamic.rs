//! Transformers that can be replaced while the worker serves
//! (`--encryption-provider-config-automatic-reload`, upstream's DynamicTransformers).
//!
//! Each [`Transformers`] holds its current [`Set`] in a cell. A worker makes several
//! `Storage` clients (its REST stores, followers, the aggregator's availability
//! controller); those made for the same key prefix and configuration share one cell, so
//! a process has one set of providers — one KMS probe loop and one DEK seed per plugin,
//! as kube-apiserver has. A process-wide registry keeps a weak reference to every cell,
//! and one [`Registry::reload`] reaches them all: it builds the new sets, waits until
//! their KMS plugins are healthy, then swaps every cell at once. A read or write in flight
//! finishes with the set it started with (it holds that set's `Arc`); the old set, its
//! KMS clients and probes go when the last of those ends. Clients made after a reload
//! start with the reloaded configuration, not the one the worker started with.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, RwLock, Weak};
use std::time::Duration;

use kas_proto::EncryptionConfig;
use tokio::sync::watch;

use super::{Plain, Set};

/// How often the new transformers' health is checked before they are swapped in.
const HEALTH_POLL: Duration = Duration::from_millis(100);
/// The shortest wait for healthy new transformers (upstream's minKMSPluginCloseGracePeriod).
const MIN_HEALTH_WAIT: Duration = Duration::from_secs(10);
/// The first wait before a configuration whose transformers failed is tried again; it
/// doubles up to [`RETRY_MAX`] (upstream re-queues the file with a rate limit).
const RETRY_FIRST: Duration = Duration::from_secs(1);
const RETRY_MAX: Duration = Duration::from_secs(60);

/// The swappable set of the clients of one key prefix and configuration.
struct Cell {
    prefix: String,
    /// The configuration the current set was made from (the reloaded one after a
    /// reload), which a new client must have asked for to share this cell.
    config: Mutex<Option<EncryptionConfig>>,
    current: RwLock<Arc<Set>>,
    /// Marked after each KMS probe of the current set, and after each swap.
    changed: Arc<watch::Sender<u64>>,
}

/// The transformers one storage client applies: whichever [`Set`] is current.
pub struct Transformers {
    cell: Arc<Cell>,
    /// `--encryption-provider-config-automatic-reload` was on when these were made: the
    /// `kms-providers` check exists whatever the providers (they may change).
    follows_reloads: bool,
}

impl std::fmt::Debug for Transformers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.current().fmt(f)
    }
}

/// Every live cell of a process, and the configuration last reloaded.
pub(crate) struct Registry {
    inner: Mutex<Inner>,
    automatic_reload: AtomicBool,
    /// One reload at a time.
    reloading: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Inner {
    cells: Vec<Weak<Cell>>,
    /// The configuration of the last reload, for cells made after it.
    reloaded: Option<EncryptionConfig>,
}

static GLOBAL: LazyLock<Registry> = LazyLock::new(Registry::default);

impl Default for Registry {
    fn default() -> Registry {
        Registry {
            inner: Mutex::new(Inner::default()),
            automatic_reload: AtomicBool::new(false),
            reloading: tokio::sync::Mutex::new(()),
        }
    }
}

/// Declares that this process follows `--encryption-provider-config-automatic-reload`:
/// transformers made from now on keep one `kms-providers` health check, as upstream's.
pub fn set_automatic_reload(on: bool) {
    GLOBAL.set_automatic_reload(on);
}

impl Transformers {
    /// The transformers of `config` (or of the last reloaded configuration, once there
    /// was a reload) for keys under `prefix` (`/registry`).
    pub fn new(prefix: &str, config: Option<&EncryptionConfig>) -> Result<Transformers, String> {
        GLOBAL.make(prefix, config)
    }

    fn current(&self) -> Arc<Set> {
        let guard = self
            .cell
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        guard.clone()
    }

    /// Whether `self` and `other` apply the same set (they share a cell).
    #[cfg(test)]
    pub(crate) fn shares_with(&self, other: &Transformers) -> bool {
        Arc::ptr_eq(&self.cell, &other.cell)
    }

    /// Probes every KMS plugin of the current set once, then keeps probing them.
    pub async fn start_kms(&self) {
        self.current().start_kms().await;
    }

    /// A receiver marked changed after every KMS probe and every reload; `None` without
    /// KMS providers unless reloads are followed.
    pub fn kms_changes(&self) -> Option<watch::Receiver<u64>> {
        (self.follows_reloads || self.current().has_kms()).then(|| self.cell.changed.subscribe())
    }

    /// The `kms-providers` health check of the current set.
    pub fn kms_health(&self) -> Result<(), String> {
        self.current().kms_health()
    }

    /// The bytes to store for `plain` under `key`.
    pub(crate) fn encrypt(&self, key: &str, plain: Vec<u8>) -> Result<Vec<u8>, String> {
        self.current().encrypt(key, plain)
    }

    /// The plain bytes of the value stored under `key`, or upstream's reason it cannot
    /// be read.
    pub(crate) async fn decrypt(&self, key: &str, stored: Vec<u8>) -> Result<Plain, String> {
        // The set is held for the whole read, so a swap meanwhile does not cut it short.
        let set = self.current();
        set.decrypt(key, stored).await
    }
}

impl Registry {
    /// See [`set_automatic_reload`].
    pub(crate) fn set_automatic_reload(&self, on: bool) {
        self.automatic_reload.store(on, Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Transformers for `prefix` and `config`: the live cell made for the same ones, or
    /// a new cell registered for reloads.
    pub(crate) fn make(
        &self,
        prefix: &str,
        config: Option<&EncryptionConfig>,
    ) -> Result<Transformers, String> {
        let mut inner = self.lock();
        let config = inner.reloaded.as_ref().or(config).cloned();
        inner.cells.retain(|c| c.strong_count() > 0);
        let shared = inner.cells.iter().filter_map(Weak::upgrade).find(|c| {
            c.prefix == prefix && *c.config.lock().unwrap_or_else(PoisonError::into_inner) == config
        });
        let cell = match shared {
            Some(cell) => cell,
            None => {
                let changed = Arc::new(watch::Sender::new(0));
                let set = Set::new(prefix, config.as_ref(), changed.clone())?;
                let cell = Arc::new(Cell {
                    prefix: prefix.to_owned(),
                    config: Mutex::new(config),
                    current: RwLock::new(Arc::new(set)),
                    changed,
                });
                inner.cells.push(Arc::downgrade(&cell));
                cell
            }
        };
        Ok(Transformers {
            cell,
            follows_reloads: self.automatic_reload.load(Ordering::Relaxed),
        })
    }

    fn live(&self) -> Vec<Arc<Cell>> {
        self.lock().cells.iter().filter_map(Weak::upgrade).collect()
    }

    /// Replaces the transformers of every live client with `config`'s, once the new KMS
    /// plugins (if any) are healthy; waits for them up to `min_wait` or twice the sum of
    /// their timeouts, whichever is longer. On failure the current ones stay.
    pub(crate) async fn reload(
        &self,
        config: &EncryptionConfig,
        min_wait: Duration,
    ) -> Result<(), String> {
        let _one = self.reloading.lock().await;
        let cells = self.live();
        let mut fresh = Vec::with_capacity(cells.len());
        for cell in &cells {
            let set = Set::new(&cell.prefix, Some(config), cell.changed.clone())
                .map_err(|e| format!("error while building transformers: {e}"))?;
            fresh.push(Arc::new(set));
        }
        futures_util::future::join_all(fresh.iter().map(|s| s.start_kms())).await;
        let wait = fresh
            .iter()
            .map(|s| s.kms_grace)
            .max()
            .unwrap_or_default()
            .max(min_wait);
        healthy(&fresh, wait).await?;

        let mut inner = self.lock();
        inner.reloaded = Some(config.clone());
        for (cell, set) in cells.iter().zip(fresh) {
            swap(cell, set, config);
        }
        // A client made while the new sets were being checked started with the older
        // configuration: it takes the new one now, its plugins probed in the background.
        let late: Vec<Arc<Cell>> = inner
            .cells
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|c| !cells.iter().any(|old| Arc::ptr_eq(old, c)))
            .collect();
        drop(inner);
        for cell in late {
            match Set::new(&cell.prefix, Some(config), cell.changed.clone()) {
                Ok(set) => {
                    let set = Arc::new(set);
                    swap(&cell, set.clone(), config);
                    tokio::spawn(async move { set.start_kms().await });
                }
                Err(e) => tracing::error!(error = %e, "encryption transformers of a new client"),
            }
        }
        Ok(())
    }
}

fn swap(cell: &Cell, set: Arc<Set>, config: &EncryptionConfig) {
    *cell.config.lock().unwrap_or_else(PoisonError::into_inner) = Some(config.clone());
    *cell.current.write().unwrap_or_else(PoisonError::into_inner) = set;
    cell.changed.send_modify(|n| *n += 1);
}

/// Polls the sets' `kms-providers` check every 100 ms until all pass, for up to `wait`;
/// upstream's message when they do not.
async fn healthy(sets: &[Arc<Set>], wait: Duration) -> Result<(), String> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let last = sets.iter().map(|s| s.kms_health()).find(Result::is_err);
        let Some(Err(e)) = last else {
            return Ok(());
        };
        if tokio::time::Instant::now() + HEALTH_POLL > deadline {
            return Err(format!(
                "health check for new transformers failed, polling error timed out waiting for the condition: {e}"
            ));
        }
        tokio::time::sleep(HEALTH_POLL).await;
    }
}

/// Applies each configuration the supervisor sends (`None` until the first) to every
/// storage client of this process. A configuration whose transformers fail is logged as
/// upstream logs it and tried again later, unless a newer one comes first; the
/// transformers in force stay meanwhile.
pub async fn apply_reloads(path: PathBuf, mut configs: watch::Receiver<Option<EncryptionConfig>>) {
    let mut retry = RETRY_FIRST;
    loop {
        let Some(config) = configs.borrow_and_update().clone() else {
            if configs.changed().await.is_err() {
                return;
            }
            continue;
        };
        match GLOBAL.reload(&config, MIN_HEALTH_WAIT).await {
            Ok(()) => {
                super::metrics::reload(true);
                tracing::info!(file = %path.display(), "loaded new encryption config");
                retry = RETRY_FIRST;
                if configs.changed().await.is_err() {
                    return;
                }
            }
            Err(e) => {
                super::metrics::reload(false);
                tracing::error!(
                    "error processing encryption config file {}: {e}",
                    path.display()
                );
                tokio::select! {
                    () = tokio::time::sleep(retry) => {}
                    r = configs.changed() => if r.is_err() { return },
                }
                retry = (retry * 2).min(RETRY_MAX);
            }
        }
    }
}
