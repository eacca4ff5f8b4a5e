//! One conformance suite for the storage layer, run against both backends: Debian's real
//! etcd (started on 127.0.0.1 on a free port with a temp data dir) and the embedded store
//! (served in-process on a unix socket). The API servers use the same code path for both.

use std::collections::{BTreeMap, BTreeSet};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use kas_server::storage::{
    ListOptions, ReadVersion, Storage, StorageConfig, StorageError, WatchEvent,
};
use tokio::sync::oneshot;

/// A running backend.
enum Backend {
    Etcd {
        child: Child,
        _dir: tempfile::TempDir,
        url: String,
    },
    Embedded {
        stop: Option<oneshot::Sender<()>>,
        task: Option<tokio::task::JoinHandle<()>>,
        _dir: tempfile::TempDir,
        socket: PathBuf,
    },
}

impl Drop for Backend {
    fn drop(&mut self) {
        match self {
            Backend::Etcd { child, .. } => {
                let _ = child.kill();
                let _ = child.wait();
            }
            Backend::Embedded { stop, task, .. } => {
                if let Some(s) = stop.take() {
                    let _ = s.send(());
                }
                if let Some(t) = task.take() {
                    t.abort();
                }
            }
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

fn etcd_on_path() -> bool {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join("etcd").is_file()))
        .unwrap_or(false);
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "etcd is not on PATH; CI must install etcd-server"
        );
        eprintln!("etcd not on PATH: running against the embedded store only");
    }
    found
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Etcd { .. } => "etcd",
            Backend::Embedded { .. } => "embedded",
        }
    }

    fn start_etcd() -> Backend {
        let dir = tempfile::tempdir().expect("tempdir");
        let (client, peer) = (free_port(), free_port());
        let url = format!("http://127.0.0.1:{client}");
        let child = Command::new("etcd")
            .args(["--name", "conformance"])
            .arg("--data-dir")
            .arg(dir.path().join("etcd"))
            .args([
                "--listen-client-urls",
                &url,
                "--advertise-client-urls",
                &url,
            ])
            .args(["--listen-peer-urls", &format!("http://127.0.0.1:{peer}")])
            .args([
                "--initial-advertise-peer-urls",
                &format!("http://127.0.0.1:{peer}"),
            ])
            .args([
                "--initial-cluster",
                &format!("conformance=http://127.0.0.1:{peer}"),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start etcd");
        Backend::Etcd {
            child,
            _dir: dir,
            url,
        }
    }

    fn start_embedded() -> Backend {
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
        Backend::Embedded {
            stop: Some(stop),
            task: Some(task),
            _dir: dir,
            socket,
        }
    }

    /// A storage client with its own prefix, once the backend answers.
    async fn storage(&self, prefix: &str) -> Storage {
        self.storage_with(prefix, None).await
    }

    /// [`Backend::storage`] with `--encryption-provider-config`'s rules.
    async fn storage_with(
        &self,
        prefix: &str,
        encryption: Option<kas_proto::EncryptionConfig>,
    ) -> Storage {
        let endpoint = match self {
            Backend::Etcd { url, .. } => url.clone(),
            Backend::Embedded { socket, .. } => format!("unix://{}", socket.display()),
        };
        let storage = Storage::new(&StorageConfig {
            endpoints: vec![endpoint],
            prefix: prefix.to_owned(),
            ca_file: None,
            cert_file: None,
            key_file: None,
            encryption,
            media_type: Default::default(),
        })
        .await
        .expect("client");
        let deadline = Instant::now() + Duration::from_secs(20);
        while storage.check().await.is_err() {
            assert!(Instant::now() < deadline, "{} did not come up", self.name());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        storage
    }
}

fn backends() -> Vec<Backend> {
    let mut out = vec![Backend::start_embedded()];
    if etcd_on_path() {
        out.push(Backend::start_etcd());
    }
    out
}

fn obj(n: u64) -> Vec<u8> {
    format!("{{\"n\":{n}}}").into_bytes()
}

fn n_of(v: &[u8]) -> u64 {
    let s = String::from_utf8_lossy(v);
    s.trim_start_matches("{\"n\":")
        .trim_end_matches('}')
        .parse()
        .expect("counter")
}

/// A list whose response is over gRPC's default 4 MiB arrives whole, as kube-apiserver's
/// etcd client takes responses of any size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_larger_than_grpcs_default_message_arrives() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        let b = backend.name();
        let value = vec![b'x'; 1_000_000];
        for i in 0..6 {
            let key = s.key("configmaps", Some("big"), &format!("cm{i}"));
            s.create(&key, value.clone(), None).await.expect("create");
        }
        let all = ListOptions {
            limit: 0,
            continue_token: None,
        };
        let page = s
            .list(
                &s.list_prefix("configmaps", Some("big")),
                ReadVersion::Latest,
                &all,
                None,
            )
            .await
            .unwrap_or_else(|e| panic!("{b}: {e}"));
        assert_eq!(page.items.len(), 6, "{b}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_get_update_delete_with_preconditions() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        let b = backend.name();
        let key = s.key("configmaps", Some("default"), "x");
        assert_eq!(key, "/registry/configmaps/default/x");
        let r1 = s.create(&key, obj(1), None).await.expect("create");
        assert_eq!(
            s.create(&key, obj(1), None).await,
            Err(StorageError::AlreadyExists),
            "{b}"
        );
        let got = s
            .get(&key, ReadVersion::Latest)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(
            (got.revision, got.create_revision, got.value),
            (r1, r1, obj(1)),
            "{b}"
        );
        let r2 = s.update(&key, obj(2), r1, None).await.expect("update");
        assert!(r2 > r1);
        assert!(
            matches!(
                s.update(&key, obj(3), r1, None).await,
                Err(StorageError::Conflict { current }) if current == r2
            ),
            "{b}"
        );
        assert!(
            matches!(
                s.delete(&key, Some(r1)).await,
                Err(StorageError::Conflict { .. })
            ),
            "{b}"
        );
        let gone = s.delete(&key, Some(r2)).await.expect("delete");
        assert_eq!(gone.value, obj(2));
        assert!(gone.revision > r2);
        assert_eq!(s.get(&key, ReadVersion::Latest).await, Ok(None), "{b}");
        assert_eq!(
            s.update(&key, obj(4), r2, None).await,
            Err(StorageError::NotFound),
            "{b}"
        );
        assert_eq!(
            s.delete(&key, None).await,
            Err(StorageError::NotFound),
            "{b}"
        );
        // Reads at an exact revision see history; a revision in the future is refused.
        let old = s
            .get(&key, ReadVersion::Exact(r1))
            .await
            .expect("old")
            .expect("was there");
        assert_eq!(old.value, obj(1), "{b}");
        assert!(
            matches!(
                s.get(&key, ReadVersion::NotOlderThan(r2 + 1000)).await,
                Err(StorageError::TooLargeResourceVersion { .. })
            ),
            "{b}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_and_swap_under_concurrency_loses_no_update() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        let key = s.key("counters", None, "c");
        s.create(&key, obj(0), None).await.expect("create");
        let (writers, each) = (8u64, 25u64);
        let mut tasks = Vec::new();
        for _ in 0..writers {
            let s = s.clone();
            let key = key.clone();
            tasks.push(tokio::spawn(async move {
                let mut conflicts = 0;
                for _ in 0..each {
                    loop {
                        let cur = s
                            .get(&key, ReadVersion::Latest)
                            .await
                            .expect("get")
                            .expect("exists");
                        match s
                            .update(&key, obj(n_of(&cur.value) + 1), cur.revision, None)
                            .await
                        {
                            Ok(_) => break,
                            Err(StorageError::Conflict { .. }) => conflicts += 1,
                            Err(e) => panic!("update: {e}"),
                        }
                    }
                }
                conflicts
            }));
        }
        let mut conflicts = 0;
        for t in tasks {
            conflicts += t.await.expect("writer");
        }
        let fin = s
            .get(&key, ReadVersion::Latest)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(
            n_of(&fin.value),
            writers * each,
            "{}: lost updates",
            backend.name()
        );
        assert!(conflicts > 0, "{}: the writers never raced", backend.name());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_delivers_every_event_once_in_order_and_resumes() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        let prefix = s.list_prefix("configmaps", None);
        let start = s.current_revision().await.expect("rev");
        let mut watch = s.watch(&prefix, start).await.expect("watch");
        let (writers, each) = (4u64, 25u64);
        let mut tasks = Vec::new();
        for w in 0..writers {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..each {
                    let key = s.key("configmaps", Some("ns"), &format!("w{w}-{i}"));
                    let rev = s.create(&key, obj(i), None).await.expect("create");
                    if i % 5 == 0 {
                        s.update(&key, obj(i + 100), rev, None)
                            .await
                            .expect("update");
                    }
                    if i % 7 == 0 {
                        s.delete(&key, None).await.expect("delete");
                    }
                }
            }));
        }
        for t in tasks {
            t.await.expect("writer");
        }
        let per_writer = (0..each)
            .map(|i| 1 + u64::from(i % 5 == 0) + u64::from(i % 7 == 0))
            .sum::<u64>();
        let expected = writers * per_writer;
        let mut seen: Vec<(i64, String, &'static str)> = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        while seen.len() < expected as usize {
            let ev = tokio::time::timeout_at(deadline.into(), watch.next())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "{}: only {} of {expected} events",
                        backend.name(),
                        seen.len()
                    )
                })
                .expect("watch")
                .expect("open");
            match ev {
                WatchEvent::Added(o) => seen.push((o.revision, o.key, "ADDED")),
                WatchEvent::Modified(o) => seen.push((o.revision, o.key, "MODIFIED")),
                WatchEvent::Deleted(o) => seen.push((o.revision, o.key, "DELETED")),
                WatchEvent::Progress(_) => {}
            }
        }
        assert!(
            seen.windows(2).all(|w| w[0].0 < w[1].0),
            "{}: out of order",
            backend.name()
        );
        let distinct: BTreeSet<i64> = seen.iter().map(|e| e.0).collect();
        assert_eq!(distinct.len(), seen.len(), "{}: duplicates", backend.name());
        let kinds: BTreeMap<&str, usize> = seen.iter().fold(BTreeMap::new(), |mut m, e| {
            *m.entry(e.2).or_default() += 1;
            m
        });
        assert_eq!(kinds["ADDED"], (writers * each) as usize);

        // Resume after a disconnect from the middle: exactly the rest, in order.
        drop(watch);
        let middle = seen[seen.len() / 2].0;
        let mut resumed = s.watch(&prefix, middle).await.expect("resume");
        let rest: Vec<i64> = seen.iter().map(|e| e.0).filter(|r| *r > middle).collect();
        let mut got = Vec::new();
        while got.len() < rest.len() {
            match tokio::time::timeout(Duration::from_secs(10), resumed.next()).await {
                Ok(Ok(Some(WatchEvent::Progress(_)))) => {}
                Ok(Ok(Some(
                    WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o),
                ))) => got.push(o.revision),
                other => panic!("{}: resume ended: {other:?}", backend.name()),
            }
        }
        assert_eq!(got, rest, "{}", backend.name());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pagination_stays_consistent_while_writes_go_on() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        for i in 0..50 {
            let key = s.key("secrets", Some("ns"), &format!("s{i:03}"));
            s.create(&key, obj(i), None).await.expect("create");
        }
        let prefix = s.list_prefix("secrets", Some("ns"));
        let opts = ListOptions {
            limit: 10,
            continue_token: None,
        };
        let first = s
            .list(&prefix, ReadVersion::Latest, &opts, None)
            .await
            .expect("list");
        assert_eq!(first.items.len(), 10);
        assert_eq!(first.remaining, Some(40), "{}", backend.name());
        let list_rev = first.revision;
        // Writes between pages must not show up in this list.
        for i in 50..70 {
            let key = s.key("secrets", Some("ns"), &format!("s{i:03}"));
            s.create(&key, obj(i), None).await.expect("create");
        }
        s.delete(&s.key("secrets", Some("ns"), "s049"), None)
            .await
            .expect("delete");
        let mut names: Vec<String> = first.items.iter().map(|o| o.key.clone()).collect();
        let mut token = first.continue_token;
        while let Some(t) = token {
            let page = s
                .list(
                    &prefix,
                    ReadVersion::Latest,
                    &ListOptions {
                        limit: 10,
                        continue_token: Some(t),
                    },
                    None,
                )
                .await
                .expect("page");
            assert_eq!(
                page.revision,
                list_rev,
                "{}: pages from one snapshot",
                backend.name()
            );
            names.extend(page.items.iter().map(|o| o.key.clone()));
            token = page.continue_token;
        }
        assert_eq!(names.len(), 50, "{}", backend.name());
        assert!(names.iter().any(|n| n.ends_with("s049")));
        assert!(!names.iter().any(|n| n.ends_with("s050")));

        // A filtered list fills its pages from further on and reports no count.
        let odd = |v: &[u8]| !v.is_empty() && n_of(v) % 2 == 1;
        let page = s
            .list(
                &prefix,
                ReadVersion::Latest,
                &ListOptions {
                    limit: 5,
                    continue_token: None,
                },
                Some(&odd),
            )
            .await
            .expect("filtered");
        assert_eq!(page.items.len(), 5);
        assert!(page.items.iter().all(|o| n_of(&o.value) % 2 == 1));
        assert_eq!(page.remaining, None);
        assert!(page.continue_token.is_some());
        let bad = ListOptions {
            limit: 5,
            continue_token: Some("not-a-token".into()),
        };
        assert!(matches!(
            s.list(&prefix, ReadVersion::Latest, &bad, None).await,
            Err(StorageError::InvalidContinue(_))
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn label_and_field_selectors_filter_lists() {
    use kas_server::selectors::{filter, FieldSelector, LabelSelector};
    for backend in backends() {
        let s = backend.storage("/registry").await;
        for (name, app, phase) in [
            ("a", "web", "Running"),
            ("b", "db", "Running"),
            ("c", "web", "Pending"),
        ] {
            let obj = format!(
                r#"{{"metadata":{{"name":"{name}","namespace":"ns","labels":{{"app":"{app}"}}}},"status":{{"phase":"{phase}"}}}}"#
            );
            s.create(&s.key("pods", Some("ns"), name), obj.into_bytes(), None)
                .await
                .expect("create");
        }
        let prefix = s.list_prefix("pods", Some("ns"));
        let names = |page: kas_server::storage::ListPage| -> Vec<String> {
            page.items
                .iter()
                .map(|o| o.key.rsplit('/').next().unwrap_or_default().to_owned())
                .collect()
        };
        let web = filter(
            LabelSelector::parse("app=web").expect("labels"),
            FieldSelector::default(),
        );
        let page = s
            .list(
                &prefix,
                ReadVersion::Latest,
                &ListOptions::default(),
                web.as_deref(),
            )
            .await
            .expect("list");
        assert_eq!(names(page), ["a", "c"], "{}", backend.name());
        let running_web = filter(
            LabelSelector::parse("app in (web)").expect("labels"),
            FieldSelector::parse("status.phase=Running").expect("fields"),
        );
        let page = s
            .list(
                &prefix,
                ReadVersion::Latest,
                &ListOptions::default(),
                running_web.as_deref(),
            )
            .await
            .expect("list");
        assert_eq!(names(page), ["a"], "{}", backend.name());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compaction_makes_old_revisions_gone() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        let prefix = s.list_prefix("events", None);
        for i in 0..6 {
            s.create(&s.key("events", None, &format!("e{i}")), obj(i), None)
                .await
                .expect("create");
        }
        let page = s
            .list(
                &prefix,
                ReadVersion::Latest,
                &ListOptions {
                    limit: 2,
                    continue_token: None,
                },
                None,
            )
            .await
            .expect("list");
        let old = page.revision;
        for i in 6..10 {
            s.create(&s.key("events", None, &format!("e{i}")), obj(i), None)
                .await
                .expect("create");
        }
        let now = s.current_revision().await.expect("rev");
        s.compact(now).await.expect("compact");
        let b = backend.name();
        assert!(
            matches!(
                s.list(
                    &prefix,
                    ReadVersion::Latest,
                    &ListOptions {
                        limit: 2,
                        continue_token: page.continue_token
                    },
                    None
                )
                .await,
                Err(StorageError::Compacted { .. })
            ),
            "{b}: continue at a compacted revision"
        );
        assert!(
            matches!(
                s.list(
                    &prefix,
                    ReadVersion::Exact(old),
                    &ListOptions::default(),
                    None
                )
                .await,
                Err(StorageError::Compacted { .. })
            ),
            "{b}: exact list at a compacted revision"
        );
        let mut watch = s.watch(&prefix, old).await.expect("watch");
        let r = tokio::time::timeout(Duration::from_secs(10), watch.next())
            .await
            .expect("answer");
        assert!(
            matches!(r, Err(StorageError::Compacted { compacted, .. }) if compacted >= now),
            "{b}: {r:?}"
        );
        // The current state is still there.
        let all = s
            .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
            .await
            .expect("list");
        assert_eq!(all.items.len(), 10);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_with_a_ttl_expire_through_leases() {
    for backend in backends() {
        let s = backend.storage("/registry").await;
        let key = s.key("events", Some("ns"), "short-lived");
        s.create(&key, obj(1), Some(2))
            .await
            .expect("create with ttl");
        let stored = s
            .get(&key, ReadVersion::Latest)
            .await
            .expect("get")
            .expect("exists");
        assert!(stored.lease != 0, "{}: no lease attached", backend.name());
        let deadline = Instant::now() + Duration::from_secs(15);
        while s
            .get(&key, ReadVersion::Latest)
            .await
            .expect("get")
            .is_some()
        {
            assert!(
                Instant::now() < deadline,
                "{}: ttl object never expired",
                backend.name()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_is_unavailable_not_a_hang_or_panic() {
    let s = {
        let backend = Backend::start_embedded();
        let s = backend.storage("/registry").await;
        s.create(&s.key("configmaps", None, "a"), obj(1), None)
            .await
            .expect("create");
        s
    };
    // The backend is stopping; connections already open are served through its shutdown
    // grace, so wait (bounded) until the outage is real.
    let deadline = Instant::now() + Duration::from_secs(20);
    while s.check().await.is_ok() {
        assert!(
            Instant::now() < deadline,
            "the stopped store kept answering"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Now calls fail as unavailable, quickly, and nothing panics.
    let t = Instant::now();
    let r = s
        .create(&s.key("configmaps", None, "b"), obj(1), None)
        .await;
    assert!(matches!(r, Err(StorageError::Unavailable(_))), "{r:?}");
    assert!(s.check().await.is_err());
    assert!(t.elapsed() < Duration::from_secs(12));
    let status = StorageError::Unavailable("x".into()).to_status("", "configmaps", "b");
    assert_eq!(status.code(), 503);
}

#[path = "storage/encryption.rs"]
mod encryption;
