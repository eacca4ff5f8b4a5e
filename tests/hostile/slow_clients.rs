//! Slow clients (issue 21): request heads trickled a byte at a time, bodies trickled,
//! responses read slowly, and hundreds of connections that send nothing. kube-apiserver
//! bounds them with Go's http.Server (a 32 s ReadHeaderTimeout, 90 s IdleTimeout, 1 MiB
//! MaxHeaderBytes), `--request-timeout` (60 s) and `--max-requests-inflight` /
//! `--max-mutating-requests-inflight` (400 / 200); meanwhile another client's GET rate
//! stays at least half what it was.

use super::engine::{run, slow};
use super::setup::{check, serial, size, start};

#[test]
fn slowloris_heads_leave_other_clients_their_rate() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(&target, "slowloris", size(300), slow::slowloris).await;
        check(&server, &o, 128);
        assert_eq!(o.fact("connections"), 300, "{o:?}");
        // The header timeout is 32 s: none ends within a test's few seconds, none is answered.
        assert_eq!(o.fact("answered"), 0, "{o:?}");
    })
}

#[test]
fn slow_bodies_end_at_the_request_timeout() {
    serial(async {
        let (server, target) = start(&["--request-timeout=2s"]).await;
        let mut s = size(100);
        // The 504 is written at 2 s; the front door may then wait for the body it did not
        // read (up to 5 s) before closing, so all have ended by 10 s.
        s.hold = std::time::Duration::from_secs(10);
        let o = run(&target, "slow body", s, slow::slow_body).await;
        check(&server, &o, 128);
        assert_eq!(o.fact("connections"), 100, "{o:?}");
        assert_eq!(o.fact("answered_504"), 100, "{o:?}");
    })
}

#[test]
fn slow_readers_hold_no_more_than_their_socket() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(&target, "slow read", size(50), slow::slow_read).await;
        check(&server, &o, 128);
        assert_eq!(o.fact("connections"), 50, "{o:?}");
    })
}

#[test]
fn idle_connections_leave_other_clients_their_rate() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(&target, "idle connections", size(400), slow::idle).await;
        check(&server, &o, 128);
        assert_eq!(o.fact("connections"), 400, "{o:?}");
    })
}
