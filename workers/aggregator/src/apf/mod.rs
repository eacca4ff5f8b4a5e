//! API Priority and Fairness, at the front door so that a flood is shed before any
//! delegation hop: each request is classified by the first FlowSchema that matches it
//! (by precedence, then name), waits in its priority level's queues for a seat, and is
//! refused with a 429 when its queue is full or it waited a quarter of its timeout. The
//! FlowSchema and PriorityLevelConfiguration objects are read from storage by a watch
//! ([`kas_server::follow`]); a level's queues live on across changes of its object.
//!
//! The server's concurrency (`--max-requests-inflight` + `--max-mutating-requests-inflight`)
//! is shared among the levels by their nominal concurrency shares. Unlike upstream,
//! levels do not lend seats to each other yet and every request takes one seat (no
//! work estimation from object counts).

mod borrow;
mod config;
pub(crate) mod debug;
mod levels;
mod metrics;
mod queueset;
mod retry;
mod rules;
mod shuffle;
pub(crate) mod status;
mod watches;
pub(crate) mod width;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

use http::HeaderValue;
use kas_proto::{RequestInfo, UserInfo, WorkerConfig};
use kas_server::follow::{self, Follower, Synced};
use kas_server::storage::StorageConfig;
use serde_json::Value;

use config::{FlowSchema, Limit, PriorityLevel, CATCH_ALL, EXEMPT};
use queueset::{Descr, QueueSet, Seat, Start};

/// Response headers naming the request's schema and level by UID (names would tell a
/// refused client how it was classed).
pub(crate) const FLOW_SCHEMA_UID: &str = "x-kubernetes-pf-flowschema-uid";
pub(crate) const PRIORITY_LEVEL_UID: &str = "x-kubernetes-pf-prioritylevel-uid";

/// The longest a request waits in a queue, whatever its timeout.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// A priority level in force.
pub(crate) struct Level {
    name: Arc<str>,
    uid: HeaderValue,
    set: Arc<QueueSet>,
    retry: Arc<retry::RetryAfter>,
    /// Whether requests wait in queues (else: a seat now or a 429).
    queued: bool,
    /// The most seats one request may take.
    max_seats: usize,
    quiescing: bool,
}

/// A FlowSchema in force, with its level.
struct Schema {
    object: FlowSchema,
    name: Arc<str>,
    uid: HeaderValue,
    level: Arc<Level>,
}

/// The configuration requests are classified by.
#[derive(Default)]
struct Snapshot {
    schemas: Vec<Schema>,
    /// By name; with the levels whose object went away while requests were still using
    /// them (quiescing), for the dumps.
    levels: BTreeMap<String, Arc<Level>>,
    /// The names of the PriorityLevelConfiguration objects in force (not the mandatory
    /// ones supplied while missing).
    found: BTreeSet<String>,
}

/// The filter's state.
pub(crate) struct Apf {
    server_seats: usize,
    wait_limit: Duration,
    snapshot: RwLock<Arc<Snapshot>>,
    /// The objects as read, by name.
    objects: Mutex<[BTreeMap<String, Value>; 2]>,
    /// Each level's queues, limits and retry tracker, kept across changes.
    kept: Mutex<HashMap<String, levels::Kept>>,
    /// Notified when the objects change: their status may need writing.
    pub(crate) status_changed: Arc<tokio::sync::Notify>,
    /// Stored objects per resource, for the seats of LISTs.
    pub(crate) counts: width::ObjectCounts,
    /// The watches open now, for the seats of writes.
    watches: Arc<watches::WatchTracker>,
    /// Requests executing now, read-only and mutating (`apiserver_current_inflight_requests`).
    executing: [AtomicUsize; 2],
}

impl std::fmt::Debug for Apf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Apf")
            .field("server_seats", &self.server_seats)
            .finish_non_exhaustive()
    }
}

/// A request allowed to run: its seats, held until dropped, and its classification.
pub(crate) struct Ticket {
    apf: Arc<Apf>,
    seat: Seat,
    level: Arc<Level>,
    schema: Arc<str>,
    schema_uid: HeaderValue,
    mutating: bool,
    is_watch: bool,
    /// A watch, counted for the work of writes while it lasts.
    watch: Option<watches::Registered>,
    seats: usize,
}

impl Ticket {
    /// Names the schema and level on `headers`.
    pub(crate) fn mark(&self, headers: &mut http::HeaderMap) {
        mark(headers, &self.schema_uid, &self.level.uid);
    }

    /// A watch's response has begun: its seat is given back, and what it keeps, for as
    /// long as it lasts, is its place among the watches writes are estimated by.
    pub(crate) fn watch_started(mut self) -> Option<impl Send + 'static> {
        self.watch.take()
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let labels = [&*self.level.name, &*self.schema];
        let f = metrics::families();
        f.executing.with_label_values(&labels).dec();
        f.executing_seats
            .with_label_values(&labels)
            .sub(self.seats as i64);
        let kind = if self.is_watch { "watch" } else { "regular" };
        f.execution
            .with_label_values(&[&*self.level.name, &*self.schema, kind])
            .observe(self.seat.started().elapsed().as_secs_f64());
        self.apf.executing[usize::from(self.mutating)].fetch_sub(1, Ordering::Relaxed);
    }
}

/// A refused request: its 429's headers.
pub(crate) struct Refused {
    pub(crate) retry_after: u64,
    schema_uid: HeaderValue,
    level_uid: HeaderValue,
}

impl Refused {
    pub(crate) fn mark(&self, headers: &mut http::HeaderMap) {
        mark(headers, &self.schema_uid, &self.level_uid);
    }
}

fn mark(headers: &mut http::HeaderMap, schema: &HeaderValue, level: &HeaderValue) {
    headers.insert(PRIORITY_LEVEL_UID, level.clone());
    headers.insert(FLOW_SCHEMA_UID, schema.clone());
}

impl Apf {
    /// The filter for `config`, following the objects in storage.
    pub(crate) fn start(config: &WorkerConfig) -> Arc<Apf> {
        // Nothing waits for the first read: until then the mandatory objects are in force.
        let (_, tx) = Synced::new();
        let apf = Arc::new(Apf::new(config));
        apf.publish(&Default::default());
        follow::start(
            &apf,
            StorageConfig::for_worker(config),
            tx,
            Arc::new(tokio::sync::Notify::new()),
        );
        tokio::spawn(keep_rebalancing(Arc::downgrade(&apf)));
        apf
    }

    fn new(config: &WorkerConfig) -> Apf {
        let server_seats =
            (config.max_requests_inflight + config.max_mutating_requests_inflight) as usize;
        Apf {
            server_seats: server_seats.max(1),
            wait_limit: (config.request_timeout / 4).min(MAX_WAIT),
            snapshot: RwLock::new(Arc::default()),
            objects: Mutex::default(),
            kept: Mutex::default(),
            status_changed: Arc::default(),
            counts: Default::default(),
            watches: Arc::default(),
            executing: Default::default(),
        }
    }

    fn snapshot(&self) -> Arc<Snapshot> {
        self.snapshot
            .read()
            .map(|s| s.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }

    /// Requests executing now: read-only, mutating.
    pub(crate) fn executing(&self) -> [usize; 2] {
        [0, 1].map(|i| self.executing[i].load(Ordering::Relaxed))
    }

    /// Classifies the request and waits for its seat, or refuses it.
    pub(crate) async fn admit(
        self: &Arc<Self>,
        user: &UserInfo,
        info: &RequestInfo,
        query: Option<&str>,
    ) -> Result<Ticket, Refused> {
        let snapshot = self.snapshot();
        // The catch-all schema is always there: it is supplied when its object is not.
        let Some(schema) = snapshot
            .schemas
            .iter()
            .find(|s| rules::matches(&s.object, user, info))
            .or_else(|| snapshot.schemas.last())
        else {
            unreachable!("the mandatory schemas are always in force");
        };
        let level = schema.level.clone();
        // Flows matter only to a level with queues.
        let (distinguisher, hash) = if level.queued {
            let d = rules::distinguisher(&schema.object, user, info);
            (d, rules::flow_hash(&schema.name, d))
        } else {
            ("", 0)
        };
        let labels = [&*level.name, &*schema.name];
        let f = metrics::families();
        let observe = |n: usize| f.watch_counts.with_label_values(&labels).observe(n as f64);
        let work = width::estimate(
            info,
            query,
            &self.counts,
            &self.watches,
            level.max_seats,
            observe,
        );
        let seats = work.seats();
        let descr = Descr {
            schema: schema.name.clone(),
            distinguisher: distinguisher.to_owned(),
            user: user.name.clone(),
            info: Arc::new(info.clone()),
            arrived: SystemTime::now(),
            work,
        };
        let waited = Instant::now();
        f.estimated_seats
            .with_label_values(&labels)
            .observe(seats as f64);
        let outcome = match level.set.start(hash, work, descr) {
            Start::Execute(seat) => Ok(seat),
            Start::Refused(why) => Err(why),
            Start::Queued(queued) => {
                f.queue_length
                    .with_label_values(&labels)
                    .observe(queued.queue_length() as f64);
                let inqueue = f.inqueue.with_label_values(&labels);
                inqueue.inc();
                let _leave = Defer(|| inqueue.dec());
                let deadline = tokio::time::Instant::now() + self.wait_limit;
                queued.wait(deadline).await
            }
        };
        let executed = outcome.is_ok();
        if level.queued {
            f.wait
                .with_label_values(&[&*level.name, &*schema.name, bool_label(executed)])
                .observe(waited.elapsed().as_secs_f64());
        }
        match outcome {
            Ok(seat) => {
                f.dispatched.with_label_values(&labels).inc();
                f.executing.with_label_values(&labels).inc();
                f.executing_seats
                    .with_label_values(&labels)
                    .add(seats as i64);
                let mutating = kas_server::request_info::is_mutating(info);
                self.executing[usize::from(mutating)].fetch_add(1, Ordering::Relaxed);
                crate::metrics::seats_taken(mutating, self.executing()[usize::from(mutating)]);
                Ok(Ticket {
                    apf: self.clone(),
                    seat,
                    schema: schema.name.clone(),
                    schema_uid: schema.uid.clone(),
                    level,
                    mutating,
                    is_watch: info.verb == "watch",
                    watch: self.watches.register(info, query),
                    seats,
                })
            }
            Err(why) => {
                f.rejected
                    .with_label_values(&[&*level.name, &*schema.name, why.reason()])
                    .inc();
                level.retry.refused(unix_now());
                Err(Refused {
                    retry_after: level.retry.get(),
                    schema_uid: schema.uid.clone(),
                    level_uid: level.uid.clone(),
                })
            }
        }
    }

    /// Puts a new configuration in force from the objects read.
    fn publish(&self, objects: &[BTreeMap<String, Value>; 2]) {
        let mut levels: BTreeMap<String, (PriorityLevel, Limit)> = BTreeMap::new();
        for (key, object) in &objects[1] {
            match serde_json::from_value::<PriorityLevel>(object.clone()) {
                Ok(pl) => match pl.limit() {
                    Ok(limit) => {
                        levels.insert(pl.metadata.name.clone(), (pl, limit));
                    }
                    Err(e) => {
                        tracing::warn!(level = %key, error = %e, "ignoring a PriorityLevelConfiguration whose spec is broken")
                    }
                },
                Err(e) => {
                    tracing::warn!(level = %key, error = %e, "ignoring an unreadable PriorityLevelConfiguration")
                }
            }
        }
        // The levels whose objects are in force (a FlowSchema naming another is dangling).
        let found: BTreeSet<String> = levels.keys().cloned().collect();
        for name in [EXEMPT, CATCH_ALL] {
            levels.entry(name.to_owned()).or_insert_with(|| {
                let pl = config::mandatory_level(name);
                let limit = pl.limit().expect("the mandatory levels are well-formed");
                (pl, limit)
            });
        }
        let share_sum: u64 = levels.values().map(|(l, _)| u64::from(l.shares())).sum();

        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let mut in_force: BTreeMap<String, Arc<Level>> = BTreeMap::new();
        for (name, (pl, limit)) in &levels {
            let sized = levels::Sized::of(limit, pl.shares(), self.server_seats, share_sum);
            let k = kept
                .entry(name.clone())
                .or_insert_with(|| levels::Kept::new(&sized));
            k.resize(&sized);
            in_force.insert(
                name.clone(),
                Arc::new(Level {
                    name: name.as_str().into(),
                    uid: header_value(&pl.metadata.uid),
                    set: k.set.clone(),
                    retry: k.retry.clone(),
                    queued: sized.shape.is_some(),
                    max_seats: width::max_seats(sized.nominal, sized.shape.map(|s| s.hand_size)),
                    quiescing: false,
                }),
            );
        }
        // Levels gone from the configuration: forgotten once idle; until then they
        // drain (their requests hold their queue set) and are shown as quiescing.
        let old = self.snapshot();
        let mut shown = in_force.clone();
        let f = metrics::families();
        kept.retain(|name, k| {
            if in_force.contains_key(name) {
                return true;
            }
            let busy = k.set.counts() != (0, 0);
            if let (true, Some(was)) = (busy, old.levels.get(name)) {
                shown.insert(
                    name.clone(),
                    Arc::new(Level {
                        quiescing: true,
                        name: was.name.clone(),
                        uid: was.uid.clone(),
                        set: was.set.clone(),
                        retry: was.retry.clone(),
                        queued: was.queued,
                        max_seats: was.max_seats,
                    }),
                );
            } else {
                for g in [&f.nominal, &f.lower, &f.upper, &f.current] {
                    let _ = g.remove_label_values(&[name]);
                }
            }
            busy
        });
        levels::rebalance(&mut kept);
        publish_limits(&kept);
        drop(kept);

        let mut schemas: Vec<(FlowSchema, Arc<Level>)> = Vec::new();
        for (key, object) in &objects[0] {
            match serde_json::from_value::<FlowSchema>(object.clone()) {
                Ok(fs) => match in_force.get(&fs.spec.priority_level_configuration.name) {
                    Some(level) => schemas.push((fs, level.clone())),
                    None => {
                        tracing::debug!(schema = %key, "ignoring a FlowSchema whose priority level does not exist")
                    }
                },
                Err(e) => {
                    tracing::warn!(schema = %key, error = %e, "ignoring an unreadable FlowSchema")
                }
            }
        }
        schemas.sort_by(|a, b| {
            (a.0.spec.matching_precedence, &a.0.metadata.name)
                .cmp(&(b.0.spec.matching_precedence, &b.0.metadata.name))
        });
        let has = |name: &str, s: &[(FlowSchema, Arc<Level>)]| {
            s.iter().any(|(fs, _)| fs.metadata.name == name)
        };
        if !has(EXEMPT, &schemas) {
            schemas.insert(
                0,
                (config::mandatory_schema(EXEMPT), in_force[EXEMPT].clone()),
            );
        }
        if !has(CATCH_ALL, &schemas) {
            schemas.push((
                config::mandatory_schema(CATCH_ALL),
                in_force[CATCH_ALL].clone(),
            ));
        }
        let snapshot = Snapshot {
            schemas: schemas
                .into_iter()
                .map(|(object, level)| Schema {
                    name: object.metadata.name.as_str().into(),
                    uid: header_value(&object.metadata.uid),
                    object,
                    level,
                })
                .collect(),
            levels: shown,
            found,
        };
        match self.snapshot.write() {
            Ok(mut s) => *s = Arc::new(snapshot),
            Err(e) => *e.into_inner() = Arc::new(snapshot),
        }
    }
}

impl Follower for Apf {
    const WHAT: &'static str = "priority and fairness configuration";

    fn resources(&self) -> &'static [&'static str] {
        &["flowschemas", "prioritylevelconfigurations"]
    }

    fn reset(&self, listed: Vec<Vec<(String, Value)>>) {
        let mut objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
        for (i, items) in listed.into_iter().enumerate().take(2) {
            objects[i] = items.into_iter().collect();
        }
        self.publish(&objects);
        self.status_changed.notify_one();
    }

    fn apply(&self, resource: usize, key: &str, object: Option<Value>) {
        let mut objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
        let Some(kind) = objects.get_mut(resource) else {
            return;
        };
        match object {
            Some(o) => kind.insert(key.to_owned(), o),
            None => kind.remove(key),
        };
        self.publish(&objects);
        self.status_changed.notify_one();
    }
}

/// How often the levels' limits follow their demand (upstream's period).
const REBALANCE: Duration = Duration::from_secs(10);

/// Rebalances the levels' limits every [`REBALANCE`] while the filter lives.
async fn keep_rebalancing(apf: std::sync::Weak<Apf>) {
    let mut tick = tokio::time::interval(REBALANCE);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(apf) = apf.upgrade() else { return };
        let mut kept = apf.kept.lock().unwrap_or_else(|e| e.into_inner());
        levels::rebalance(&mut kept);
        publish_limits(&kept);
    }
}

/// The levels' limits as gauges.
fn publish_limits(kept: &HashMap<String, levels::Kept>) {
    let f = metrics::families();
    for (name, k) in kept {
        f.nominal.with_label_values(&[name]).set(k.nominal as i64);
        f.lower.with_label_values(&[name]).set(k.lower as i64);
        f.upper.with_label_values(&[name]).set(k.upper as i64);
        f.current.with_label_values(&[name]).set(k.current as i64);
    }
}

fn header_value(uid: &str) -> HeaderValue {
    HeaderValue::from_str(uid).unwrap_or(HeaderValue::from_static(""))
}

fn bool_label(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Runs a closure when dropped (a gauge put back when a waiter leaves however it leaves).
struct Defer<F: FnMut()>(F);

impl<F: FnMut()> Drop for Defer<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}
