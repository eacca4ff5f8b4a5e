//! HTTP/2 abuse (issue 21) over raw frames: rapid reset (CVE-2023-44487), CONTINUATION
//! floods (CVE-2024-27316 class), header lists past 1 MiB, windows that never open, and
//! more streams than `--http2-max-streams-per-connection` (100 by default, as
//! kube-apiserver's). The server stays up, its memory bounded, and another client keeps
//! at least half its GET rate.

use super::engine::{frames, h2_abuse, run};
use super::setup::{check, serial, size, start};

#[test]
fn rapid_reset_leaves_other_clients_their_rate() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(&target, "rapid reset", size(100_000), h2_abuse::rapid_reset).await;
        check(&server, &o, 128);
        assert!(o.fact("streams_sent") >= 1000, "{o:?}");
    })
}

#[test]
fn continuation_floods_are_cut_off() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(
            &target,
            "CONTINUATION flood",
            size(64),
            h2_abuse::continuation_flood,
        )
        .await;
        check(&server, &o, 128);
        // The header block may not pass the 1 MiB header list limit: the connection is
        // ended long before the 64 MiB the client would send.
        assert!(o.fact("growing_bytes_sent") < 8 << 20, "{o:?}");
        assert!(
            o.fact("growing_closed") == 1
                || o.facts.keys().any(|k| k.starts_with("growing_goaway")),
            "{o:?}"
        );
    })
}

#[test]
fn header_lists_past_one_mebibyte_are_refused() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(
            &target,
            "huge header lists",
            size(20),
            h2_abuse::huge_headers,
        )
        .await;
        check(&server, &o, 128);
        // None of the 2 MiB lists is served.
        assert_eq!(o.fact("responses_200"), 0, "{o:?}");
    })
}

#[test]
fn starved_windows_leave_other_clients_their_rate() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(
            &target,
            "window starvation",
            size(180),
            h2_abuse::window_starvation,
        )
        .await;
        check(&server, &o, 128);
        assert_eq!(o.fact("data_bytes"), 0, "{o:?}");
    })
}

#[test]
fn streams_past_the_limit_are_refused() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(
            &target,
            "streams past the limit",
            size(150),
            h2_abuse::too_many_streams,
        )
        .await;
        check(&server, &o, 128);
        // 100 watches run; the 50 past the limit are refused.
        assert_eq!(o.fact("responses_200"), 100, "{o:?}");
        assert_eq!(
            o.fact(&format!("rst_code_{}", frames::REFUSED_STREAM)),
            50,
            "{o:?}"
        );
    })
}
