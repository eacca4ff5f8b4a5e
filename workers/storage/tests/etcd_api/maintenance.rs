//! The Maintenance service: alarms with etcd's semantics, defragmentation.

use etcd_client::{AlarmAction, AlarmType, Txn, TxnOp};

use super::{code_and_message, tempdir, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nospace_refuses_what_adds_data_until_disarmed() {
    let dir = tempdir();
    let server = Server::start(dir.path()).await;
    let mut c = server.client().await;
    c.put("/a", "1", None).await.expect("put");
    c.put("/b", "2", None).await.expect("put");
    let listed = c
        .alarm(AlarmAction::Get, AlarmType::None, None)
        .await
        .expect("list");
    assert!(listed.alarms().is_empty());

    let raised = c
        .alarm(AlarmAction::Activate, AlarmType::Nospace, None)
        .await
        .expect("activate");
    let member = c
        .status()
        .await
        .expect("status")
        .header()
        .expect("header")
        .member_id();
    assert_eq!(raised.alarms().len(), 1);
    assert_eq!(raised.alarms()[0].member_id(), member);
    assert_eq!(raised.alarms()[0].alarm(), AlarmType::Nospace);
    let status = c.status().await.expect("status");
    assert_eq!(
        status.errors(),
        [format!("memberID:{member} alarm:NOSPACE ")]
    );

    let space = (
        tonic::Code::ResourceExhausted,
        "etcdserver: mvcc: database space exceeded".to_owned(),
    );
    assert_eq!(
        code_and_message(c.put("/c", "3", None).await.unwrap_err()),
        space
    );
    let txn = Txn::new().and_then([TxnOp::put("/c", "3", None)]);
    assert_eq!(code_and_message(c.txn(txn).await.unwrap_err()), space);
    assert_eq!(
        code_and_message(c.lease_grant(60, None).await.unwrap_err()),
        space
    );
    // Reads, deletes, read-only txns and compaction go on: they make room.
    assert_eq!(c.get("/a", None).await.expect("get").kvs().len(), 1);
    let rev = c
        .delete("/b", None)
        .await
        .expect("delete")
        .header()
        .expect("header")
        .revision();
    c.txn(Txn::new().and_then([TxnOp::get("/a", None)]))
        .await
        .expect("read-only txn");
    c.compact(rev, None).await.expect("compact");

    let cleared = c
        .alarm(AlarmAction::Deactivate, AlarmType::Nospace, None)
        .await
        .expect("deactivate");
    assert!(cleared.alarms().is_empty());
    c.put("/c", "3", None).await.expect("put after disarm");
    assert!(c.status().await.expect("status").errors().is_empty());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defragment_gives_compacted_space_back() {
    let dir = tempdir();
    let server = Server::start(dir.path()).await;
    let mut c = server.client().await;
    let value = "x".repeat(64 * 1024);
    for round in 0..4 {
        let txn = Txn::new().and_then(
            (0..16)
                .map(|i| TxnOp::put(format!("/big/{i}"), value.clone(), None))
                .collect::<Vec<_>>(),
        );
        c.txn(txn)
            .await
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
    }
    let deleted = c
        .delete(
            "/big/",
            Some(etcd_client::DeleteOptions::new().with_prefix()),
        )
        .await
        .expect("delete");
    c.compact(deleted.header().expect("header").revision(), None)
        .await
        .expect("compact");
    let before = c.status().await.expect("status").db_size();
    c.defragment().await.expect("defragment");
    let after = c.status().await.expect("status").db_size();
    assert!(
        after < before / 2,
        "defragmentation left {after} of {before} bytes"
    );
    // The data is intact and writes go on.
    c.put("/after", "1", None).await.expect("put");
    assert_eq!(c.get("/after", None).await.expect("get").kvs().len(), 1);
    server.stop().await;
}

/// Past the space quota, an operator makes room: delete, compact, defragment, disarm.
/// The quota is then checked against the defragmented file, so writes go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_defragmentation_the_quota_counts_the_smaller_file() {
    let dir = tempdir();
    let server = Server::start_with(dir.path(), |cfg| cfg.quota_bytes = 3_000_000).await;
    let mut c = server.client().await;
    let value = "x".repeat(64 * 1024);
    let mut tripped = false;
    for round in 0..200 {
        let txn = Txn::new().and_then(
            (0..8)
                .map(|i| TxnOp::put(format!("/big/{round}/{i}"), value.clone(), None))
                .collect::<Vec<_>>(),
        );
        if let Err(e) = c.txn(txn).await {
            assert_eq!(code_and_message(e).0, tonic::Code::ResourceExhausted);
            tripped = true;
            break;
        }
    }
    assert!(tripped, "the quota never refused a write");
    let deleted = c
        .delete(
            "/big/",
            Some(etcd_client::DeleteOptions::new().with_prefix()),
        )
        .await
        .expect("delete");
    c.compact(deleted.header().expect("header").revision(), None)
        .await
        .expect("compact");
    c.defragment().await.expect("defragment");
    c.alarm(AlarmAction::Deactivate, AlarmType::Nospace, None)
        .await
        .expect("disarm");
    // As large a write as the one the quota refused.
    let txn = Txn::new().and_then(
        (0..8)
            .map(|i| TxnOp::put(format!("/after/{i}"), value.clone(), None))
            .collect::<Vec<_>>(),
    );
    c.txn(txn).await.expect("a write once there is room");
    server.stop().await;
}
