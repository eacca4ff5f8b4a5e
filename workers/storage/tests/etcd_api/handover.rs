//! A reload's hand-over of the data between two stores on one data dir: reads answered
//! throughout, writes waiting and then applied exactly once, and the old store taking
//! the data back when its successor fails.

use std::path::Path;
use std::time::Duration;

use etcd_client::Client;
use kas_storage::{open_when_free, Handover, Store, StoreConfig, NOT_APPLIED};
use tokio::task::JoinHandle;

use super::{code_and_message, tempdir, Server};

/// Serves `store` on `dir/name`, with a client.
async fn serve_store(store: Store, dir: &Path, name: &str) -> (Server, Client) {
    let server = Server::serving(store, dir, dir.join(name)).await;
    let client = server.client().await;
    (server, client)
}

async fn value(c: &mut Client, key: &str) -> Option<String> {
    let r = c.get(key, None).await.expect("get");
    r.kvs()
        .first()
        .map(|kv| String::from_utf8_lossy(kv.value()).into_owned())
}

/// Whether a spawned request is still waiting after a moment.
async fn still_waiting<T>(task: &mut JoinHandle<T>) -> bool {
    tokio::time::timeout(Duration::from_millis(150), task)
        .await
        .is_err()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hand_over_answers_reads_throughout_and_applies_each_write_once() {
    let dir = tempdir();
    let cfg = StoreConfig::new(dir.path().join("data"), dir.path().join("a.sock"));
    let old = Store::open(&cfg).expect("open");
    let old_control = old.control();
    let (a, mut ca) = serve_store(old, dir.path(), "a.sock").await;
    ca.put("/k", "v1", None).await.expect("put");

    // While the old store holds the data, a second one cannot open it.
    let locked = Store::open(&cfg).expect_err("the data is in use");
    assert!(locked.is_locked(), "{locked}");

    old_control.release().await;
    assert_eq!(old_control.state(), Handover::Released);
    assert_eq!(value(&mut ca, "/k").await.as_deref(), Some("v1"));
    let mut held_put = {
        let mut c = ca.clone();
        tokio::spawn(async move { c.put("/k", "from-old", None).await })
    };
    assert!(
        still_waiting(&mut held_put).await,
        "a write waits on a released store"
    );

    let new_cfg = cfg.clone();
    let new = open_when_free(Duration::from_secs(5), move || Store::open(&new_cfg))
        .await
        .expect("the successor opens the released data");
    let new_control = new.control();
    new_control.wait_for_predecessor();
    let (b, mut cb) = serve_store(new, dir.path(), "b.sock").await;
    // Both answer reads with the same state; neither applies a write.
    assert_eq!(value(&mut cb, "/k").await.as_deref(), Some("v1"));
    assert_eq!(value(&mut ca, "/k").await.as_deref(), Some("v1"));
    let mut waiting_put = {
        let mut c = cb.clone();
        tokio::spawn(async move { c.put("/k", "from-new", None).await })
    };
    assert!(
        still_waiting(&mut waiting_put).await,
        "a write waits on the successor"
    );

    // The old store stops writing: what waited is refused, reads are still answered.
    old_control.stop_writes();
    let refused = held_put.await.expect("task").expect_err("refused");
    assert_eq!(
        code_and_message(refused),
        (tonic::Code::Unavailable, NOT_APPLIED.to_owned())
    );
    let refused = ca.put("/k", "late", None).await.expect_err("refused");
    assert_eq!(
        code_and_message(refused),
        (tonic::Code::Unavailable, NOT_APPLIED.to_owned())
    );
    assert_eq!(value(&mut ca, "/k").await.as_deref(), Some("v1"));
    assert!(
        still_waiting(&mut waiting_put).await,
        "the successor waits for the old one"
    );
    // Then it stops answering altogether, and the successor takes the writes.
    old_control.stop();
    let refused = ca
        .get("/k", None)
        .await
        .expect_err("a stopped store answers nothing");
    assert_eq!(
        code_and_message(refused),
        (tonic::Code::Unavailable, NOT_APPLIED.to_owned())
    );

    new_control.take_writes();
    let put = waiting_put
        .await
        .expect("task")
        .expect("applied once taken");
    assert_eq!(put.header().expect("header").revision(), 3);
    assert_eq!(value(&mut cb, "/k").await.as_deref(), Some("from-new"));
    a.stop().await;
    cb.put("/k2", "x", None)
        .await
        .expect("put after the hand-over");
    b.stop().await;

    // Everything acknowledged is on disk, once.
    let reopened = Store::open(&cfg).expect("reopen");
    assert_eq!(reopened.revision(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_whose_successor_failed_takes_its_data_back() {
    let dir = tempdir();
    let cfg = StoreConfig::new(dir.path().join("data"), dir.path().join("a.sock"));
    let store = Store::open(&cfg).expect("open");
    let control = store.control();
    let (a, mut ca) = serve_store(store, dir.path(), "a.sock").await;
    ca.put("/k", "v1", None).await.expect("put");

    control.release().await;
    let mut held_put = {
        let mut c = ca.clone();
        tokio::spawn(async move { c.put("/k", "v2", None).await })
    };
    assert!(still_waiting(&mut held_put).await);
    // A successor opens the data and goes away without serving.
    drop(Store::open(&cfg).expect("the successor opens"));

    control
        .resume(Duration::from_secs(5))
        .await
        .expect("the data is taken back");
    assert_eq!(control.state(), Handover::Serving);
    let put = held_put
        .await
        .expect("task")
        .expect("the waiting write is applied");
    assert_eq!(put.header().expect("header").revision(), 3);
    ca.put("/k", "v3", None).await.expect("put");
    assert_eq!(value(&mut ca, "/k").await.as_deref(), Some("v3"));
    a.stop().await;
    assert_eq!(Store::open(&cfg).expect("reopen").revision(), 4);
}
