//! Watch abuse (issue 21): hundreds of watches from one client, and watches whose client
//! never reads while ConfigMaps of 32 KiB change under them. Another client keeps at
//! least half its GET rate, a watcher that reads keeps getting events, and the server's
//! memory stays bounded.

use super::engine::{run, watch};
use super::setup::{check, serial, size, start};

#[test]
fn hundreds_of_watches_from_one_client() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(&target, "many watches", size(300), watch::many_watches).await;
        check(&server, &o, 256);
        assert_eq!(o.fact("watches_200"), 300, "{o:?}");
        assert!(o.fact("writes") > 0, "{o:?}");
        assert!(o.fact("healthy_watcher_events") > 0, "{o:?}");
    })
}

#[test]
fn watches_that_never_read() {
    serial(async {
        let (server, target) = start(&[]).await;
        let o = run(&target, "unread watches", size(100), watch::unread_watches).await;
        check(&server, &o, 256);
        assert_eq!(o.fact("watches"), 100, "{o:?}");
        assert!(o.fact("writes") > 0, "{o:?}");
        assert!(o.fact("healthy_watcher_events") > 0, "{o:?}");
    })
}
