//! Tests of the batching buffer, in Tokio's paused time.

use super::*;
use crate::audit::backend::test_event;
use tokio::sync::mpsc::UnboundedReceiver;

type Delivered = UnboundedReceiver<(Instant, Vec<String>)>;

/// A deliverer that reports each batch's audit IDs and when it came.
fn recorder() -> (Deliver, Delivered) {
    let (tx, rx) = mpsc::unbounded_channel();
    let deliver: Deliver = Arc::new(move |events: Vec<Arc<Event>>| {
        let tx = tx.clone();
        Box::pin(async move {
            let ids = events.iter().map(|e| e.audit_id.clone()).collect();
            let _ = tx.send((Instant::now(), ids));
        })
    });
    (deliver, rx)
}

fn config(buffer_size: usize, max_size: usize, max_wait: Duration) -> AuditBatch {
    AuditBatch {
        buffer_size,
        max_size,
        max_wait,
        throttle: None,
    }
}

fn ev(id: usize) -> Arc<Event> {
    Arc::new(test_event(&id.to_string()))
}

fn ids(r: std::ops::Range<usize>) -> Vec<String> {
    r.map(|i| i.to_string()).collect()
}

#[tokio::test(start_paused = true)]
async fn full_batches_go_at_once_the_rest_after_max_wait() {
    let (deliver, mut got) = recorder();
    let start = Instant::now();
    let b = Batcher::start(&config(100, 3, Duration::from_secs(10)), false, deliver);
    for i in 0..7 {
        assert_eq!(b.enqueue(ev(i)), Enqueued::Yes);
    }
    let (t, first) = got.recv().await.unwrap();
    assert_eq!((t - start, first), (Duration::ZERO, ids(0..3)));
    let (t, second) = got.recv().await.unwrap();
    assert_eq!((t - start, second), (Duration::ZERO, ids(3..6)));
    // The last one waits for the batch to fill until max_wait (from the batch's start).
    let (t, third) = got.recv().await.unwrap();
    assert_eq!((t - start, third), (Duration::from_secs(10), ids(6..7)));
}

#[tokio::test(start_paused = true)]
async fn a_partial_batch_goes_after_max_wait() {
    let (deliver, mut got) = recorder();
    let b = Batcher::start(&config(100, 400, Duration::from_secs(30)), true, deliver);
    // Let the worker start its batch (and timer) now.
    tokio::task::yield_now().await;
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(5)).await;
    b.enqueue(ev(0));
    b.enqueue(ev(1));
    let (t, batch) = got.recv().await.unwrap();
    assert_eq!((t - start, batch), (Duration::from_secs(30), ids(0..2)));
}

#[tokio::test(start_paused = true)]
async fn batches_of_one_go_at_once() {
    let (deliver, mut got) = recorder();
    let start = Instant::now();
    let b = Batcher::start(&config(100, 1, Duration::from_secs(30)), false, deliver);
    for i in 0..3 {
        b.enqueue(ev(i));
    }
    for i in 0..3 {
        let (t, batch) = got.recv().await.unwrap();
        assert_eq!((t - start, batch), (Duration::ZERO, ids(i..i + 1)));
    }
}

#[tokio::test(start_paused = true)]
async fn with_no_wait_a_batch_is_what_is_buffered() {
    let (deliver, mut got) = recorder();
    let start = Instant::now();
    let b = Batcher::start(&config(100, 10, Duration::ZERO), false, deliver);
    for i in 0..3 {
        b.enqueue(ev(i));
    }
    let (t, batch) = got.recv().await.unwrap();
    assert_eq!((t - start, batch), (Duration::ZERO, ids(0..3)));
    // An idle buffer is waited on, not polled (time could not move on otherwise).
    tokio::time::sleep(Duration::from_secs(60)).await;
    b.enqueue(ev(3));
    let (t, batch) = got.recv().await.unwrap();
    assert_eq!((t - start, batch), (Duration::from_secs(60), ids(3..4)));
}

#[tokio::test(start_paused = true)]
async fn a_full_buffer_refuses_without_waiting() {
    let (deliver, mut got) = recorder();
    let b = Batcher::start(&config(2, 10, Duration::from_secs(1)), false, deliver);
    // On this single-threaded runtime the worker has not run yet: the buffer holds 2.
    assert_eq!(b.enqueue(ev(0)), Enqueued::Yes);
    assert_eq!(b.enqueue(ev(1)), Enqueued::Yes);
    assert_eq!(b.enqueue(ev(2)), Enqueued::Full);
    let (_, batch) = got.recv().await.unwrap();
    assert_eq!(batch, ids(0..2));
    // Room again.
    assert_eq!(b.enqueue(ev(3)), Enqueued::Yes);
}

#[tokio::test(start_paused = true)]
async fn shutdown_delivers_what_is_buffered() {
    let (deliver, mut got) = recorder();
    let b = Batcher::start(&config(100, 2, Duration::from_secs(3600)), true, deliver);
    for i in 0..5 {
        b.enqueue(ev(i));
    }
    let start = Instant::now();
    assert!(b.shutdown(Duration::from_secs(5)).await);
    // Nothing waited for the hour.
    assert!(Instant::now() - start < Duration::from_secs(5));
    let mut all = Vec::new();
    while let Ok((_, batch)) = got.try_recv() {
        assert!(batch.len() <= 2);
        all.extend(batch);
    }
    assert_eq!(all, ids(0..5));
    assert_eq!(b.enqueue(ev(5)), Enqueued::Closed);
    // Twice is harmless.
    assert!(b.shutdown(Duration::from_secs(5)).await);
}

#[tokio::test(start_paused = true)]
async fn dropping_delivers_and_ends_the_task() {
    let (deliver, mut got) = recorder();
    let b = Batcher::start(&config(100, 10, Duration::from_secs(3600)), false, deliver);
    b.enqueue(ev(0));
    drop(b);
    assert_eq!(got.recv().await.unwrap().1, ids(0..1));
    // The task ended: it held the last sender of the recorder.
    assert!(got.recv().await.is_none());
}

#[tokio::test(start_paused = true)]
async fn shutdown_gives_up_after_its_grace() {
    let deliver: Deliver = Arc::new(|_| Box::pin(std::future::pending()));
    let b = Batcher::start(&config(100, 1, Duration::from_secs(1)), true, deliver);
    b.enqueue(ev(0));
    let start = Instant::now();
    assert!(!b.shutdown(Duration::from_secs(2)).await);
    assert_eq!(Instant::now() - start, Duration::from_secs(2));
}

#[tokio::test(start_paused = true)]
async fn throttle_spaces_batches() {
    let (deliver, mut got) = recorder();
    let mut cfg = config(100, 1, Duration::from_secs(30));
    cfg.throttle = Some((2.0, 2));
    let start = Instant::now();
    let b = Batcher::start(&cfg, false, deliver);
    for i in 0..5 {
        b.enqueue(ev(i));
    }
    let mut times = Vec::new();
    for _ in 0..5 {
        times.push(got.recv().await.unwrap().0 - start);
    }
    // A burst of two, then one every half second.
    let ms = |n| Duration::from_millis(n);
    assert_eq!(times, [ms(0), ms(0), ms(500), ms(1000), ms(1500)]);
}

#[test]
fn zero_sizes_do_not_panic() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    rt.block_on(async {
        let (deliver, mut got) = recorder();
        let b = Batcher::start(&config(0, 0, Duration::ZERO), false, deliver);
        assert_eq!(b.enqueue(ev(0)), Enqueued::Yes);
        assert_eq!(got.recv().await.unwrap().1, ids(0..1));
    });
}
