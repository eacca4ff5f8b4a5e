//! The queue set's tests: dealing, refusing, queuing and fairness between flows.

use super::*;

fn descr(schema: &str) -> Descr {
    Descr {
        schema: schema.into(),
        distinguisher: String::new(),
        user: "u".into(),
        info: Arc::new(kas_proto::RequestInfo::default()),
        arrived: SystemTime::now(),
        work: Work::ONE,
    }
}

fn shape(queues: usize, hand_size: usize, queue_length_limit: usize) -> Option<QueueShape> {
    Some(QueueShape {
        queues,
        hand_size,
        queue_length_limit,
    })
}

#[test]
fn rejects_without_queues() {
    let set = QueueSet::new(Some(1), None);
    let Start::Execute(seat) = set.start(1, Work::ONE, descr("a")) else {
        panic!("a free seat");
    };
    assert!(matches!(
        set.start(1, Work::ONE, descr("a")),
        Start::Refused(Refusal::ConcurrencyLimit)
    ));
    drop(seat);
    assert!(matches!(
        set.start(1, Work::ONE, descr("a")),
        Start::Execute(_)
    ));
    // Exempt: no limit.
    let exempt = QueueSet::new(None, None);
    let seats: Vec<_> = (0..100)
        .map(|_| exempt.start(1, Work::ONE, descr("e")))
        .collect();
    assert!(seats.iter().all(|s| matches!(s, Start::Execute(_))));
}

#[tokio::test]
async fn queues_then_refuses_when_full() {
    let set = QueueSet::new(Some(1), shape(1, 1, 2));
    let Start::Queued(first) = set.start(1, Work::ONE, descr("a")) else {
        panic!("queued");
    };
    let far = tokio::time::Instant::now() + Duration::from_secs(5);
    let seat = first.wait(far).await.expect("dispatched at once");
    let Start::Queued(second) = set.start(1, Work::ONE, descr("a")) else {
        panic!("queued");
    };
    let Start::Queued(third) = set.start(1, Work::ONE, descr("a")) else {
        panic!("queued");
    };
    assert!(matches!(
        set.start(1, Work::ONE, descr("a")),
        Start::Refused(Refusal::QueueFull)
    ));
    assert_eq!(set.counts(), (2, 1));
    // The waiter that times out leaves; the other gets the seat when it is free.
    let soon = tokio::time::Instant::now() + Duration::from_millis(20);
    assert_eq!(third.wait(soon).await.err(), Some(Refusal::TimeOut));
    drop(seat);
    let seat = second.wait(far).await.expect("the freed seat");
    assert_eq!(set.counts(), (0, 1));
    // A waiter dropped (its client gone) leaves its queue.
    let Start::Queued(gone) = set.start(1, Work::ONE, descr("a")) else {
        panic!("queued");
    };
    drop(gone);
    assert_eq!(set.counts(), (0, 1));
    drop(seat);
    assert_eq!(set.counts(), (0, 0));
    let d = set.dump();
    assert_eq!(d.totals.timed_out, 1);
    assert_eq!(d.totals.cancelled, 1);
    assert_eq!(d.totals.rejected, 3);
}

#[tokio::test]
async fn flows_share_seats_fairly() {
    // Two flows on their own queues, one seat: a flood from the first does not make
    // the second wait behind all of it.
    let set = QueueSet::new(Some(1), shape(2, 1, 100));
    let (heavy, light) = {
        let mut h = 0u64;
        while deal(h, 2, 1) != vec![0] {
            h += 1;
        }
        let mut l = 0u64;
        while deal(l, 2, 1) != vec![1] {
            l += 1;
        }
        (h, l)
    };
    let far = tokio::time::Instant::now() + Duration::from_secs(5);
    let Start::Queued(running) = set.start(heavy, Work::ONE, descr("heavy")) else {
        panic!()
    };
    let running = running.wait(far).await.expect("dispatched");
    let flood: Vec<_> = (0..10)
        .map(|_| match set.start(heavy, Work::ONE, descr("heavy")) {
            Start::Queued(q) => q,
            _ => panic!(),
        })
        .collect();
    let Start::Queued(other) = set.start(light, Work::ONE, descr("light")) else {
        panic!()
    };
    // The running request takes a while, as real ones do.
    tokio::time::sleep(Duration::from_millis(10)).await;
    drop(running);
    // The light flow's request is next, ahead of the heavy flow's queue.
    let seat = other.wait(far).await.expect("the light flow's turn");
    assert_eq!(set.counts(), (10, 1));
    drop(seat);
    drop(flood);
    assert_eq!(set.counts(), (0, 0));
}
