//! The reflector against the embedded store: it survives a compaction of the history it
//! would resume from by relisting, ending the watchers it had.

use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::*;
use crate::storage::StorageConfig;

async fn embedded() -> (tempfile::TempDir, oneshot::Sender<()>, Storage) {
    let dir = tempfile::tempdir().expect("tempdir");
    let socket = dir.path().join("store.sock");
    let cfg = kas_storage::StoreConfig::new(dir.path().join("data"), socket.clone());
    let store = kas_storage::Store::open(&cfg).expect("open store");
    let (stop, stopped) = oneshot::channel::<()>();
    let sock = socket.clone();
    tokio::spawn(async move {
        let _ = kas_storage::serve(store, &sock, async {
            let _ = stopped.await;
        })
        .await;
    });
    let storage = Storage::new(&StorageConfig {
        endpoints: vec![format!("unix://{}", socket.display())],
        prefix: "/registry".to_owned(),
        ca_file: None,
        cert_file: None,
        key_file: None,
        encryption: None,
        media_type: Default::default(),
    })
    .await
    .expect("client");
    let deadline = Instant::now() + Duration::from_secs(20);
    while storage.check().await.is_err() {
        assert!(
            Instant::now() < deadline,
            "the embedded store did not come up"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    (dir, stop, storage)
}

fn obj(n: u64) -> Vec<u8> {
    format!("{{\"n\":{n}}}").into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflector_survives_a_compaction() {
    let (_dir, _stop, s) = embedded().await;
    let prefix = s.list_prefix("configmaps", None);
    let c = Cacher::new(s.clone(), &prefix, CacheConfig::default());
    assert!(c.wait_ready(Duration::from_secs(10)).await);
    let before = c.revision();
    let mut old_watch = c.watch(&prefix, 0).await.expect("watch");
    let mut last = 0;
    for i in 0..10 {
        let key = s.key("configmaps", Some("d"), &format!("cm{i}"));
        last = s.create(&key, obj(i), None).await.expect("create");
    }
    s.compact(last).await.expect("compact");
    // As if its connection dropped back at `before`: the store has no history there.
    c.rewatch_from(before);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let listed = c.shared.read().oldest_watchable();
        if listed >= last {
            break;
        }
        assert!(Instant::now() < deadline, "the cache did not relist");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The old watcher saw the writes, then was ended by the relist.
    let mut seen = 0;
    while let Some(ev) = old_watch.next().await.expect("no error") {
        if !matches!(ev, WatchEvent::Progress(_)) {
            seen += 1;
        }
    }
    assert_eq!(seen, 10);
    // The cache serves the store's state and follows new writes.
    let page = c
        .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
        .await
        .expect("list");
    let Outcome::Served(page) = page else {
        panic!("delegated: {page:?}");
    };
    assert_eq!(page.items.len(), 10);
    let rev = s
        .create(&s.key("configmaps", Some("d"), "after"), obj(99), None)
        .await
        .expect("create");
    let page = c
        .list(
            &prefix,
            ReadVersion::NotOlderThan(rev),
            &ListOptions::default(),
            None,
        )
        .await
        .expect("list");
    assert!(matches!(page, Outcome::Served(p) if p.items.len() == 11));
    // Watching from before the relist is too old now.
    let mut w = c.watch(&prefix, before).await.expect("watch");
    assert!(matches!(
        w.next().await,
        Err(StorageError::Compacted { requested, .. }) if requested == before
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_ready_reads_go_to_storage() {
    let (_dir, stop, s) = embedded().await;
    // Stop the store before the cache can list: it never becomes ready.
    let _ = stop.send(());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let prefix = s.list_prefix("configmaps", None);
    let config = CacheConfig {
        fresh_timeout: Duration::from_millis(200),
        ..CacheConfig::default()
    };
    let c = Cacher::new(s.clone(), &prefix, config);
    assert!(!c.wait_ready(Duration::from_millis(300)).await);
    assert!(c.is_empty());
    assert_eq!(
        c.list(&prefix, ReadVersion::Any, &ListOptions::default(), None)
            .await,
        Ok(Outcome::Delegate(Delegate::NotReady))
    );
    assert!(matches!(
        c.watch(&prefix, 0).await,
        Err(StorageError::Unavailable(_))
    ));
}
