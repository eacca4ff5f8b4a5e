//! How many seats a request takes, as upstream's work estimator judges it: a LIST (or a
//! watch that sends its initial events) takes one seat per 100 objects it will go
//! through, between 1 and the level's maximum (at most 10); a LIST served from the watch
//! cache goes through every stored object, one from etcd through twice its limit (or
//! every object plus its limit when filtered). A write takes one seat, and when ten or
//! more watches will get its event, one more seat per ten of them (up to the maximum)
//! held 5 ms per ten watches after it ends, the work of sending the events. Anything
//! else takes one seat.
//! Object counts come from the workers' `apiserver_storage_objects`, read once a minute
//! (upstream counts in etcd once a minute); a count three minutes old is stale and the
//! LIST takes the maximum, an unknown resource the minimum.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use kas_proto::RequestInfo;

use super::watches::WatchTracker;

const MIN_SEATS: usize = 1;
const MAX_SEATS: usize = 10;
const OBJECTS_PER_SEAT: f64 = 100.0;
/// A count older than this is not trusted.
const STALE: Duration = Duration::from_secs(180);
/// A write's events: a seat per this many watches …
const WATCHES_PER_SEAT: f64 = 10.0;
/// … each busy this long per event.
const EVENT_DURATION: Duration = Duration::from_millis(5);

/// A request's estimated work: seats while it runs, and seats held for `extra` after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Work {
    pub(crate) initial: usize,
    pub(crate) final_seats: usize,
    pub(crate) extra: Duration,
}

impl Work {
    pub(crate) const ONE: Work = Work {
        initial: MIN_SEATS,
        final_seats: 0,
        extra: Duration::ZERO,
    };

    /// The seats the request occupies (upstream's MaxSeats).
    pub(crate) fn seats(&self) -> usize {
        self.initial.max(self.final_seats)
    }
}

/// The stored objects per resource (`configmaps`, `deployments.apps`), with when each
/// count was taken.
#[derive(Debug, Default)]
pub(crate) struct ObjectCounts {
    counts: RwLock<HashMap<String, (u64, Instant)>>,
}

enum Count {
    Known(u64),
    Stale,
    Unknown,
}

impl ObjectCounts {
    /// New counts, taken now; a negative count (the worker could not count) is skipped,
    /// so that the last good one goes stale.
    pub(crate) fn update(&self, counts: impl IntoIterator<Item = (String, i64)>) {
        let now = Instant::now();
        let mut map = self.counts.write().unwrap_or_else(|e| e.into_inner());
        for (resource, count) in counts {
            if let Ok(count) = u64::try_from(count) {
                map.insert(resource, (count, now));
            }
        }
        // Resources not counted for an hour (a CRD deleted) are forgotten.
        map.retain(|_, (_, at)| at.elapsed() < Duration::from_secs(3600));
    }

    fn get(&self, resource: &str) -> Count {
        let map = self.counts.read().unwrap_or_else(|e| e.into_inner());
        match map.get(resource) {
            Some((_, at)) if at.elapsed() > STALE => Count::Stale,
            Some((n, _)) => Count::Known(*n),
            None => Count::Unknown,
        }
    }
}

/// The most seats one request of a level may take: 15 % of its nominal seats, no more
/// than a queue's share of them, at least 1 (upstream's rule); at most 10.
pub(crate) fn max_seats(nominal: usize, hand_size: Option<usize>) -> usize {
    let Some(hand) = hand_size else {
        return MAX_SEATS;
    };
    let fifteen_percent = (nominal as f64 * 0.15).ceil() as usize;
    fifteen_percent
        .min(nominal / hand.max(1))
        .clamp(1, MAX_SEATS)
}

/// The work of a request, at most `max` seats; `watchers` is told how many watches a
/// write reaches.
pub(crate) fn estimate(
    info: &RequestInfo,
    query: Option<&str>,
    counts: &ObjectCounts,
    watches: &WatchTracker,
    max: usize,
    watchers: impl FnOnce(usize),
) -> Work {
    let max = max.clamp(MIN_SEATS, MAX_SEATS);
    match info.verb.as_str() {
        "list" | "watch" => Work {
            initial: list_seats(info, query, counts, max),
            ..Work::ONE
        },
        "create" | "update" | "patch" | "delete" => write_work(info, watches, max, watchers),
        _ => Work::ONE,
    }
}

/// A write's work: the events it sends.
fn write_work(
    info: &RequestInfo,
    watches: &WatchTracker,
    max: usize,
    observe: impl FnOnce(usize),
) -> Work {
    // Service account tokens are made, not stored: no event.
    if info.resource == "serviceaccounts" && info.subresource == "token" {
        return Work::ONE;
    }
    let watchers = watches.interested(info);
    observe(watchers);
    let watchers = watchers as f64;
    if watchers < WATCHES_PER_SEAT {
        return Work::ONE;
    }
    let seats = (watchers / WATCHES_PER_SEAT).ceil();
    // The events' work, spread over at most `max` seats.
    let work = seats * EVENT_DURATION.as_secs_f64();
    let final_seats = (seats as usize).min(max);
    Work {
        initial: MIN_SEATS,
        final_seats,
        extra: Duration::from_secs_f64(work / final_seats as f64),
    }
}

/// The seats of a LIST (or of a watch's initial events).
fn list_seats(info: &RequestInfo, query: Option<&str>, counts: &ObjectCounts, max: usize) -> usize {
    if !info.name.is_empty() {
        return MIN_SEATS;
    }
    let mut opts = ListQuery::default();
    for (k, v) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match &*k {
            "limit" => opts.limit = v.parse().unwrap_or(0),
            "continue" => opts.continued = !v.is_empty(),
            "resourceVersion" => opts.resource_version = v.into_owned(),
            "resourceVersionMatch" => opts.match_ = v.into_owned(),
            "labelSelector" | "fieldSelector" => opts.filtered |= !v.is_empty(),
            "sendInitialEvents" => opts.initial_events = v == "true",
            _ => {}
        }
    }
    if info.verb == "watch" && !opts.initial_events {
        return MIN_SEATS;
    }
    let from_storage = match opts.match_.as_str() {
        "Exact" => true,
        "NotOlderThan" => false,
        "" => {
            opts.continued
                || (opts.limit > 0 && !matches!(opts.resource_version.as_str(), "" | "0"))
        }
        // Upstream lets storage refuse an unknown match.
        _ => true,
    };
    let from_cache = info.verb == "watch" || !from_storage;
    let resource = if info.api_group.is_empty() {
        info.resource.clone()
    } else {
        format!("{}.{}", info.resource, info.api_group)
    };
    let stored = match counts.get(&resource) {
        Count::Known(n) => n,
        Count::Stale => return max,
        Count::Unknown => return MIN_SEATS,
    };
    let limit = if opts.limit > 0 && opts.limit < stored {
        opts.limit
    } else {
        stored
    };
    let objects = if from_cache {
        stored
    } else if opts.filtered {
        stored + limit
    } else {
        2 * limit
    };
    ((objects as f64 / OBJECTS_PER_SEAT).ceil() as usize).clamp(MIN_SEATS, max)
}

#[derive(Default)]
struct ListQuery {
    limit: u64,
    continued: bool,
    resource_version: String,
    match_: String,
    filtered: bool,
    initial_events: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Method;
    use kas_server::request_info;

    fn list(path: &str, query: &str, counts: &ObjectCounts) -> usize {
        let info = request_info::parse(&Method::GET, path, Some(query));
        let w = estimate(
            &info,
            Some(query),
            counts,
            &WatchTracker::default(),
            10,
            |_| {},
        );
        assert_eq!((w.final_seats, w.extra), (0, Duration::ZERO));
        w.initial
    }

    #[test]
    fn writes_take_seats_for_their_watchers_events() {
        let watches = std::sync::Arc::new(WatchTracker::default());
        let counts = ObjectCounts::default();
        let put = request_info::parse(&Method::PUT, "/api/v1/namespaces/a/configmaps/x", None);
        let watch = request_info::parse(&Method::GET, "/api/v1/configmaps", Some("watch=true"));
        let mut held: Vec<_> = (0..9)
            .map(|_| watches.register(&watch, Some("watch=true")))
            .collect();
        // Fewer than ten watchers: one seat, nothing after.
        assert_eq!(
            estimate(&put, None, &counts, &watches, 10, |_| {}),
            Work::ONE
        );
        held.extend((0..16).map(|_| watches.register(&watch, Some("watch=true"))));
        // 25 watchers: 3 seats for 15 ms of events, 5 ms each.
        let w = estimate(&put, None, &counts, &watches, 10, |_| {});
        assert_eq!((w.initial, w.final_seats, w.seats()), (1, 3, 3));
        assert_eq!(w.extra, Duration::from_millis(5));
        // Capped at the level's maximum, the work spread over fewer seats for longer.
        let w = estimate(&put, None, &counts, &watches, 2, |_| {});
        assert_eq!(w.final_seats, 2);
        assert!((w.extra.as_secs_f64() - 0.0075).abs() < 1e-9, "{w:?}");
        // Reads never count watchers.
        let get = request_info::parse(&Method::GET, "/api/v1/namespaces/a/configmaps/x", None);
        assert_eq!(
            estimate(&get, None, &counts, &watches, 10, |_| {}),
            Work::ONE
        );
        drop(held);
    }

    #[test]
    fn lists_take_a_seat_per_hundred_objects() {
        let counts = ObjectCounts::default();
        counts.update([
            ("configmaps".to_owned(), 32_000),
            ("deployments.apps".to_owned(), 250),
            ("secrets".to_owned(), -1),
        ]);
        let cms = "/api/v1/configmaps";
        // From the cache: every object.
        assert_eq!(list(cms, "", &counts), 10);
        assert_eq!(list("/apis/apps/v1/deployments", "", &counts), 3);
        // From etcd with a limit: twice the page.
        assert_eq!(list(cms, "limit=100&resourceVersion=5", &counts), 2);
        assert_eq!(list(cms, "limit=500&continue=abc", &counts), 10);
        // Filtered from etcd: every object plus the page.
        assert_eq!(
            list(
                cms,
                "limit=1&resourceVersionMatch=Exact&resourceVersion=5&labelSelector=a",
                &counts
            ),
            10
        );
        // Watches without initial events, single objects, other verbs, unknown kinds.
        assert_eq!(list(cms, "watch=true", &counts), 1);
        assert_eq!(list(cms, "watch=true&sendInitialEvents=true", &counts), 10);
        assert_eq!(list("/api/v1/namespaces/a/configmaps/x", "", &counts), 1);
        assert_eq!(list("/api/v1/secrets", "", &counts), 1);
        assert_eq!(list("/api/v1/pods", "", &counts), 1);
    }

    #[test]
    fn max_seats_as_upstream() {
        // The default server: global-default's 49 seats in hands of 6.
        assert_eq!(max_seats(49, Some(6)), 8);
        assert_eq!(max_seats(600, Some(8)), 10);
        assert_eq!(max_seats(1, Some(8)), 1);
        assert_eq!(max_seats(5, None), 10);
    }
}
