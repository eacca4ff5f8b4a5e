//! A follower across a store hand-over (a reload): its watch ends with the old store
//! and is resumed on the successor from the last revision it delivered — no second
//! listing, no event lost.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{oneshot, Notify};

use super::{start_on, Follower, Synced};
use crate::storage::{Storage, StorageConfig};

#[derive(Default)]
struct Seen {
    resets: Mutex<usize>,
    applied: Mutex<Vec<String>>,
}

impl Follower for Seen {
    const WHAT: &'static str = "test";

    fn resources(&self) -> &'static [&'static str] {
        &["configmaps"]
    }

    fn reset(&self, _listed: Vec<Vec<(String, Value)>>) {
        *self.resets.lock().expect("resets") += 1;
    }

    fn apply(&self, _resource: usize, key: &str, _object: Option<Value>) {
        self.applied.lock().expect("applied").push(key.to_owned());
    }
}

/// Serves `store` on a clone of `listener` (both stores accept on one socket, as under
/// the supervisor) until `stop` fires.
fn serve(
    store: kas_storage::Store,
    listener: &std::os::unix::net::UnixListener,
    path: &std::path::Path,
) -> (oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let listener = listener
        .try_clone()
        .and_then(|l| {
            l.set_nonblocking(true)?;
            tokio::net::UnixListener::from_std(l)
        })
        .expect("listener");
    let (tx, rx) = oneshot::channel::<()>();
    let path = path.to_path_buf();
    let task = tokio::spawn(async move {
        let _ = kas_storage::serve_on(store, listener, &path, async {
            let _ = rx.await;
        })
        .await;
    });
    (tx, task)
}

async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_resumes_its_watch_on_the_stores_successor_without_listing_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let socket = dir.path().join("store.sock");
    let cfg = kas_storage::StoreConfig::new(dir.path().join("data"), socket.clone());
    let listener = kas_storage::bind_socket(&socket).expect("bind");
    let old = kas_storage::Store::open(&cfg).expect("open");
    let old_control = old.control();
    let (stop_old, old_task) = serve(old, &listener, &socket);

    let storage = Storage::new(&StorageConfig {
        endpoints: vec![format!("unix://{}", socket.display())],
        prefix: "/registry".into(),
        ca_file: None,
        cert_file: None,
        key_file: None,
        encryption: None,
        media_type: Default::default(),
    })
    .await
    .expect("client");
    let prefix = storage.list_prefix("configmaps", None);
    let object = || br#"{"kind":"ConfigMap"}"#.to_vec();
    storage
        .create(&format!("{prefix}default/a"), object(), None)
        .await
        .expect("create a");

    let seen = Arc::new(Seen::default());
    let (synced, tx) = Synced::new();
    start_on(&seen, storage.clone(), tx, Arc::new(Notify::new()));
    synced.wait().await;
    storage
        .create(&format!("{prefix}default/b"), object(), None)
        .await
        .expect("create b");
    until("b applied", || {
        seen.applied.lock().expect("applied").len() == 1
    })
    .await;

    // The hand-over: released, the successor opens the data, the old one stops.
    old_control.release().await;
    let next_cfg = cfg.clone();
    let new = kas_storage::open_when_free(Duration::from_secs(5), move || {
        kas_storage::Store::open(&next_cfg)
    })
    .await
    .expect("successor");
    let new_control = new.control();
    new_control.wait_for_predecessor();
    let (stop_new, new_task) = serve(new, &listener, &socket);
    old_control.stop_writes();
    let _ = stop_old.send(());
    old_task.await.expect("old store stopped");
    old_control.stop();
    new_control.take_writes();

    storage
        .create(&format!("{prefix}default/c"), object(), None)
        .await
        .expect("create c on the successor");
    until("c applied", || {
        seen.applied.lock().expect("applied").len() == 2
    })
    .await;
    assert_eq!(
        *seen.applied.lock().expect("applied"),
        ["default/b", "default/c"]
    );
    assert_eq!(synced.listings(), 1, "listed again instead of resuming");
    assert_eq!(*seen.resets.lock().expect("resets"), 1);
    let _ = stop_new.send(());
    let _ = new_task.await;
}
