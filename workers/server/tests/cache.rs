//! The watch cache against the embedded store (served in-process on a unix socket, as in
//! `tests/storage.rs`): LIST equals storage's LIST, consistent reads see the latest write,
//! watches replay from the past or are refused as too old, and one write reaches 1,000
//! watchers (the latencies are printed).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kas_server::cache::{
    CacheConfig, CacheEvent, Cacher, Delegate, Outcome, WatchOptions, WatchStart,
};
use kas_server::storage::{
    Filter, ListOptions, ListPage, ReadVersion, Storage, StorageConfig, StorageError, Stored,
    WatchEvent,
};
use tokio::sync::oneshot;

/// The embedded store on a temp socket, stopped on drop.
struct Embedded {
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    _dir: tempfile::TempDir,
    socket: PathBuf,
}

impl Drop for Embedded {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

impl Embedded {
    fn start() -> Embedded {
        let dir = tempfile::tempdir().expect("tempdir");
        let socket = dir.path().join("store.sock");
        let cfg = kas_storage::StoreConfig::new(dir.path().join("data"), socket.clone());
        let store = kas_storage::Store::open(&cfg).expect("open store");
        let (stop, stopped) = oneshot::channel::<()>();
        let sock = socket.clone();
        let task = tokio::spawn(async move {
            let _ = kas_storage::serve(store, &sock, async {
                let _ = stopped.await;
            })
            .await;
        });
        Embedded {
            stop: Some(stop),
            task: Some(task),
            _dir: dir,
            socket,
        }
    }

    async fn storage(&self) -> Storage {
        let storage = Storage::new(&StorageConfig {
            endpoints: vec![format!("unix://{}", self.socket.display())],
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
        storage
    }
}

fn quick() -> CacheConfig {
    CacheConfig {
        fresh_timeout: Duration::from_millis(500),
        ..CacheConfig::default()
    }
}

async fn cacher(s: &Storage, resource: &str, config: CacheConfig) -> Cacher {
    let c = Cacher::new(s.clone(), &s.list_prefix(resource, None), config);
    assert!(
        c.wait_ready(Duration::from_secs(10)).await,
        "cache not ready"
    );
    c
}

fn obj(n: u64) -> Vec<u8> {
    format!("{{\"n\":{n}}}").into_bytes()
}

fn served<T: std::fmt::Debug>(o: Outcome<T>) -> T {
    match o {
        Outcome::Served(t) => t,
        Outcome::Delegate(d) => panic!("delegated: {d:?}"),
    }
}

async fn storage_all(s: &Storage, prefix: &str, rev: i64, filter: Option<&Filter>) -> Vec<Stored> {
    s.list(
        prefix,
        ReadVersion::Exact(rev),
        &ListOptions::default(),
        filter,
    )
    .await
    .expect("storage list")
    .items
}

/// The next change (bookmarks skipped), within a few seconds.
async fn next_change(
    w: &mut kas_server::cache::CacheWatch,
) -> Result<Option<WatchEvent>, StorageError> {
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(5), w.next())
            .await
            .expect("an event in time")?;
        match ev {
            Some(WatchEvent::Progress(_)) => continue,
            other => return Ok(other),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_initial_list_reads_storage_in_pages_at_one_revision() {
    let store = Embedded::start();
    let s = store.storage().await;
    for i in 0..50u64 {
        let key = s.key("configmaps", Some("ns"), &format!("cm{i:03}"));
        s.create(&key, obj(i), None).await.expect("create");
    }
    let config = CacheConfig {
        list_page: 7,
        ..quick()
    };
    let c = cacher(&s, "configmaps", config).await;
    let prefix = s.list_prefix("configmaps", None);
    let all = ListOptions {
        limit: 0,
        continue_token: None,
    };
    let cached = served(
        c.list(&prefix, ReadVersion::Latest, &all, None)
            .await
            .expect("list"),
    );
    let stored = s
        .list(&prefix, ReadVersion::Latest, &all, None)
        .await
        .expect("storage list");
    assert_eq!(cached.items.len(), 50);
    assert_eq!(cached.items, stored.items);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_matches_storage_for_many_objects_and_pages() {
    let store = Embedded::start();
    let s = store.storage().await;
    let c = cacher(&s, "configmaps", quick()).await;
    for i in 0..240u64 {
        let key = s.key(
            "configmaps",
            Some(&format!("ns{}", i % 3)),
            &format!("cm{i:03}"),
        );
        s.create(&key, obj(i), None).await.expect("create");
        // Objects of another resource share the store, never the cache.
        if i % 40 == 0 {
            s.create(
                &s.key("secrets", Some("ns0"), &format!("s{i}")),
                obj(i),
                None,
            )
            .await
            .expect("create");
        }
    }
    let prefix = s.list_prefix("configmaps", None);
    let all = served(
        c.list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
            .await
            .expect("list"),
    );
    assert_eq!(all.items.len(), 240);
    assert_eq!(
        all.items,
        storage_all(&s, &prefix, all.revision, None).await
    );
    assert_eq!((all.continue_token.as_deref(), all.remaining), (None, None));

    // One namespace, and a selector.
    let ns1 = s.list_prefix("configmaps", Some("ns1"));
    let page = served(
        c.list(&ns1, ReadVersion::Latest, &ListOptions::default(), None)
            .await
            .expect("list"),
    );
    assert_eq!(page.items, storage_all(&s, &ns1, page.revision, None).await);
    let every_seventh: &Filter = &|v: &[u8]| {
        let n: u64 = String::from_utf8_lossy(v)
            .trim_start_matches("{\"n\":")
            .trim_end_matches('}')
            .parse()
            .unwrap_or(1);
        n.is_multiple_of(7)
    };
    let page = served(
        c.list(
            &prefix,
            ReadVersion::Latest,
            &ListOptions::default(),
            Some(every_seventh),
        )
        .await
        .expect("list"),
    );
    assert_eq!(page.items.len(), 35);
    assert_eq!(
        page.items,
        storage_all(&s, &prefix, page.revision, Some(every_seventh)).await
    );

    // Pages: the first from the cache equals storage's at the same revision; storage
    // continues from the cache's token to the same whole list.
    for (limit, filter) in [(7, None), (50, None), (4, Some(every_seventh))] {
        let opts = ListOptions {
            limit,
            continue_token: None,
        };
        let first = served(
            c.list(&prefix, ReadVersion::Latest, &opts, filter)
                .await
                .expect("list"),
        );
        let theirs = s
            .list(&prefix, ReadVersion::Exact(first.revision), &opts, filter)
            .await
            .expect("storage");
        assert_eq!(first.items, theirs.items, "limit {limit}");
        assert_eq!(first.remaining, theirs.remaining, "limit {limit}");
        let mut items = first.items.clone();
        let mut token = first.continue_token.clone();
        while let Some(t) = token {
            let next_opts = ListOptions {
                limit,
                continue_token: Some(t),
            };
            assert_eq!(
                c.list(&prefix, ReadVersion::Latest, &next_opts, filter)
                    .await,
                Ok(Outcome::Delegate(Delegate::Continue))
            );
            let next: ListPage = s
                .list(&prefix, ReadVersion::Latest, &next_opts, filter)
                .await
                .expect("continue");
            assert_eq!(next.revision, first.revision);
            items.extend(next.items);
            token = next.continue_token;
        }
        assert_eq!(
            items,
            storage_all(&s, &prefix, first.revision, filter).await,
            "limit {limit}"
        );
    }

    // resourceVersion="0" ignores the limit; Exact is served only at the cache's revision.
    let opts = ListOptions {
        limit: 5,
        continue_token: None,
    };
    let any = served(
        c.list(&prefix, ReadVersion::Any, &opts, None)
            .await
            .expect("list"),
    );
    assert_eq!((any.items.len(), any.continue_token), (240, None));
    let exact = c
        .list(&prefix, ReadVersion::Exact(c.revision()), &opts, None)
        .await
        .expect("list");
    assert_eq!(served(exact).items.len(), 5);
    assert_eq!(
        c.list(&prefix, ReadVersion::Exact(2), &opts, None).await,
        Ok(Outcome::Delegate(Delegate::Exact))
    );
    let not_older = served(
        c.list(
            &prefix,
            ReadVersion::NotOlderThan(all.revision),
            &opts,
            None,
        )
        .await
        .expect("list"),
    );
    assert_eq!(not_older.items.len(), 5);

    // A revision the store has not reached is refused after the wait, as upstream does.
    let far = c.revision() + 1000;
    assert_eq!(
        c.list(&prefix, ReadVersion::NotOlderThan(far), &opts, None)
            .await,
        Err(StorageError::TooLargeResourceVersion {
            requested: far,
            current: c.revision()
        })
    );
    // A prefix outside the cache is an error, not a panic.
    assert!(c
        .list("/registry/secrets/", ReadVersion::Any, &opts, None)
        .await
        .is_err());

    // A negative limit is no limit; initial events at an exact revision are refused.
    let negative = ListOptions {
        limit: -3,
        continue_token: None,
    };
    let all_again = served(
        c.list(&prefix, ReadVersion::Latest, &negative, None)
            .await
            .expect("list"),
    );
    assert_eq!(all_again.items.len(), 240);
    let refused = c
        .watch_with(WatchOptions {
            prefix: prefix.clone(),
            start: WatchStart::WithState {
                version: ReadVersion::Exact(1),
                end_marker: true,
            },
            filter: None,
        })
        .await;
    assert!(matches!(refused, Err(StorageError::Internal(_))));
    assert!(c.watch("/elsewhere/", 0).await.is_err());

    // GET with a resourceVersion.
    let key = s.key("configmaps", Some("ns0"), "cm000");
    let got = served(c.get(&key, ReadVersion::Any).await.expect("get")).expect("cached");
    assert_eq!(got.value, obj(0));
    assert_eq!(
        c.get(&key, ReadVersion::Latest).await,
        Ok(Outcome::Delegate(Delegate::Unversioned))
    );
    assert_eq!(
        served(
            c.get(&s.key("configmaps", Some("ns0"), "nope"), ReadVersion::Any)
                .await
                .expect("get")
        ),
        None
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consistent_list_sees_a_write_made_just_before() {
    let store = Embedded::start();
    let s = store.storage().await;
    let c = cacher(&s, "configmaps", quick()).await;
    let prefix = s.list_prefix("configmaps", None);
    for i in 0..20u64 {
        let key = s.key("configmaps", Some("default"), &format!("cm{i}"));
        let rev = s.create(&key, obj(i), None).await.expect("create");
        let page = served(
            c.list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
                .await
                .expect("list"),
        );
        assert!(page.revision >= rev);
        assert_eq!(page.items.len() as u64, i + 1);
        assert!(page.items.iter().any(|o| o.key == key));
        // A write elsewhere moves the store's revision without an event here: the cache
        // catches up through a progress notification, not by falling back.
        let other = s
            .create(
                &s.key("secrets", Some("default"), &format!("s{i}")),
                obj(i),
                None,
            )
            .await
            .expect("create");
        let page = served(
            c.list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
                .await
                .expect("list"),
        );
        assert!(page.revision >= other, "{} < {other}", page.revision);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_from_an_old_revision_replays_what_storage_would() {
    let store = Embedded::start();
    let s = store.storage().await;
    let c = cacher(&s, "configmaps", quick()).await;
    let prefix = s.list_prefix("configmaps", None);
    let start = c.revision();
    let key = s.key("configmaps", Some("default"), "a");
    let r1 = s.create(&key, obj(1), None).await.expect("create");
    let r2 = s.update(&key, obj(2), r1, None).await.expect("update");
    s.create(&s.key("configmaps", Some("other"), "b"), obj(3), None)
        .await
        .expect("create");
    s.delete(&key, Some(r2)).await.expect("delete");
    s.create(&key, obj(4), None).await.expect("create again");
    let mut ours = c.watch(&prefix, start).await.expect("watch");
    let mut theirs = s.watch(&prefix, start).await.expect("storage watch");
    for _ in 0..5 {
        let want = loop {
            match theirs.next().await.expect("storage event") {
                Some(WatchEvent::Progress(_)) => continue,
                other => break other,
            }
        };
        assert_eq!(next_change(&mut ours).await.expect("event"), want);
    }
    // One namespace only, from the middle.
    let mut ns = c
        .watch(&s.list_prefix("configmaps", Some("default")), r2)
        .await
        .expect("watch");
    assert!(
        matches!(next_change(&mut ns).await, Ok(Some(WatchEvent::Deleted(o))) if o.value == obj(2))
    );
    assert!(
        matches!(next_change(&mut ns).await, Ok(Some(WatchEvent::Added(o))) if o.value == obj(4))
    );
    // Live changes follow the replay.
    s.create(&s.key("configmaps", Some("default"), "c"), obj(5), None)
        .await
        .expect("create");
    assert!(
        matches!(next_change(&mut ns).await, Ok(Some(WatchEvent::Added(o))) if o.value == obj(5))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_older_than_the_window_is_too_old() {
    let store = Embedded::start();
    let s = store.storage().await;
    let config = CacheConfig {
        min_events: 10,
        max_events: 10,
        ..quick()
    };
    let c = cacher(&s, "configmaps", config).await;
    let prefix = s.list_prefix("configmaps", None);
    let start = c.revision();
    let mut last = 0;
    for i in 0..30u64 {
        last = s
            .create(
                &s.key("configmaps", Some("d"), &format!("cm{i}")),
                obj(i),
                None,
            )
            .await
            .expect("create");
    }
    let p = served(
        c.list(
            &prefix,
            ReadVersion::NotOlderThan(last),
            &ListOptions::default(),
            None,
        )
        .await
        .expect("list"),
    );
    assert_eq!(p.items.len(), 30);
    let mut w = c.watch(&prefix, start).await.expect("watch");
    match w.next().await {
        Err(StorageError::Compacted {
            requested,
            compacted,
        }) => {
            assert_eq!((requested, compacted), (start, last - 10));
            assert_eq!(
                StorageError::watch_expired(requested, compacted).message,
                format!("too old resource version: {start} ({})", last - 10)
            );
        }
        other => panic!("expected too old, got {other:?}"),
    }
    // The oldest revision in the window still works.
    let mut ok = c.watch(&prefix, last - 10).await.expect("watch");
    assert!(
        matches!(next_change(&mut ok).await, Ok(Some(WatchEvent::Added(o))) if o.revision == last - 9)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initial_events_then_the_end_marker_then_changes() {
    let store = Embedded::start();
    let s = store.storage().await;
    let c = cacher(&s, "configmaps", quick()).await;
    let mut last = 0;
    for i in 0..5u64 {
        last = s
            .create(
                &s.key("configmaps", Some("d"), &format!("cm{i}")),
                obj(i),
                None,
            )
            .await
            .expect("create");
    }
    let odd: Box<Filter> = Box::new(|v: &[u8]| v.ends_with(b"1}") || v.ends_with(b"3}"));
    let mut w = c
        .watch_with(WatchOptions {
            prefix: s.list_prefix("configmaps", Some("d")),
            start: WatchStart::WithState {
                version: ReadVersion::Latest,
                end_marker: true,
            },
            filter: Some(odd),
        })
        .await
        .expect("watch");
    let mut seen = Vec::new();
    let end = loop {
        match w.next_event().await.expect("ok").expect("event") {
            CacheEvent::Added(o) => seen.push(o.stored().value.clone()),
            CacheEvent::InitialEventsEnd(rev) => break rev,
            other => panic!("unexpected {other:?}"),
        }
    };
    assert_eq!(seen, vec![obj(1), obj(3)]);
    assert!(end >= last, "{end} < {last}");
    // cm0 enters the selector: ADDED; cm1 leaves it: DELETED with its old content.
    let k0 = s.key("configmaps", Some("d"), "cm0");
    let k1 = s.key("configmaps", Some("d"), "cm1");
    let cur0 = s
        .get(&k0, ReadVersion::Latest)
        .await
        .expect("get")
        .expect("exists");
    let cur1 = s
        .get(&k1, ReadVersion::Latest)
        .await
        .expect("get")
        .expect("exists");
    s.update(&k0, obj(11), cur0.revision, None)
        .await
        .expect("update");
    let r = s
        .update(&k1, obj(10), cur1.revision, None)
        .await
        .expect("update");
    assert!(
        matches!(next_change(&mut w).await, Ok(Some(WatchEvent::Added(o))) if o.value == obj(11))
    );
    assert!(
        matches!(next_change(&mut w).await, Ok(Some(WatchEvent::Deleted(o))) if o.value == obj(1) && o.revision == r)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_write_reaches_a_thousand_watchers() {
    let store = Embedded::start();
    let s = store.storage().await;
    let c = cacher(&s, "configmaps", quick()).await;
    let prefix = s.list_prefix("configmaps", None);
    const WATCHERS: usize = 1000;
    let mut tasks = Vec::with_capacity(WATCHERS);
    for _ in 0..WATCHERS {
        let mut w = c.watch(&prefix, 0).await.expect("watch");
        tasks.push(tokio::spawn(async move {
            loop {
                match w.next_event().await {
                    Ok(Some(CacheEvent::Added(o))) => {
                        return Some((Instant::now(), o.stored().key.clone()))
                    }
                    Ok(Some(_)) => continue,
                    _ => return None,
                }
            }
        }));
    }
    let key = s.key("configmaps", Some("default"), "fanout");
    let started = Instant::now();
    s.create(&key, obj(1), None).await.expect("create");
    let write = started.elapsed();
    let mut latencies = Vec::with_capacity(WATCHERS);
    for t in tasks {
        let (at, got) = tokio::time::timeout(Duration::from_secs(30), t)
            .await
            .expect("in time")
            .expect("task")
            .expect("an ADDED event");
        assert_eq!(got, key);
        latencies.push(at.duration_since(started));
    }
    latencies.sort();
    let pct = |p: usize| latencies[(latencies.len() * p / 100).min(latencies.len() - 1)];
    let spread = latencies[latencies.len() - 1].saturating_sub(latencies[0]);
    println!(
        "note: WATCH fan-out from the cache, {WATCHERS} watchers, one write (debug build): \
         p50 {:?}, p99 {:?}, max {:?} from the write's start (the write itself took \
         {write:?}); first to last watcher {spread:?}",
        pct(50),
        pct(99),
        latencies[latencies.len() - 1]
    );
}
