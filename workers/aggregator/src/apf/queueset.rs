//! One priority level's seats and queues: fair queuing for server requests, as upstream's
//! queueset does it. A request goes to the shortest of the queues its flow's hand deals
//! (shuffle sharding, so one heavy flow shares queues with few others), and is refused
//! when that queue is full and every seat is taken. Seats go to the queue whose head
//! request would finish first in a virtual world where every active queue gets an equal
//! share of the seats: each dispatch moves the queue's virtual start on by the
//! request's estimated work (seats × 3 ms), corrected by the real service time when the
//! request ends. A level with no queues (`Reject`) refuses a request whose seats are not
//! free at once; the `exempt` level has no limit.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::oneshot;

use super::borrow::{Demand, Observed};
use super::config::QueueShape;
use super::shuffle::deal;
use super::width::Work;

/// The estimated service time of one seat's work (upstream's `G`).
pub(crate) const ESTIMATED_SERVICE: f64 = 0.003;

/// A request's work in the virtual world, seat-seconds: its seats for the estimated
/// service time, and its final seats for the time they are held after it.
fn total_work(work: &Work) -> f64 {
    work.initial as f64 * ESTIMATED_SERVICE + work.final_seats as f64 * work.extra.as_secs_f64()
}

/// What is known of a request, for the dumps and the metrics.
#[derive(Debug, Clone)]
pub(crate) struct Descr {
    pub(crate) schema: Arc<str>,
    pub(crate) distinguisher: String,
    pub(crate) user: String,
    pub(crate) info: Arc<kas_proto::RequestInfo>,
    pub(crate) arrived: SystemTime,
    pub(crate) work: Work,
}

struct Waiting {
    id: u64,
    work: Work,
    arrival_r: f64,
    descr: Descr,
    go: oneshot::Sender<Started>,
}

/// A dispatched request's place, sent to its waiter.
#[derive(Debug)]
struct Started {
    at: Instant,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Waiting>,
    waiting_seats: usize,
    executing: Vec<(u64, Descr, SystemTime)>,
    seats_in_use: usize,
    next_dispatch_r: f64,
}

impl Queue {
    fn active(&self) -> bool {
        !self.waiting.is_empty() || !self.executing.is_empty() || self.seats_in_use > 0
    }
}

/// Counters of a level's whole life, for `dump_priority_levels`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Totals {
    pub(crate) dispatched: u64,
    pub(crate) rejected: u64,
    pub(crate) timed_out: u64,
    pub(crate) cancelled: u64,
}

struct State {
    /// Seats: `None` for no limit.
    limit: Option<usize>,
    shape: Option<QueueShape>,
    queues: Vec<Queue>,
    /// Requests executing outside any queue (no queues, or exempt).
    queueless: Vec<(u64, Descr, SystemTime)>,
    current_r: f64,
    last_sync: Instant,
    robin: usize,
    enqueues: usize,
    waiting: usize,
    waiting_seats: usize,
    executing: usize,
    seats_in_use: usize,
    /// Seats in use and waiting, over time (for borrowing between levels).
    demand: Demand,
    next_id: u64,
    totals: Totals,
}

/// A priority level's queues and seats.
pub(crate) struct QueueSet {
    state: Mutex<State>,
}

/// Why a request was refused (upstream's `reason` label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    QueueFull,
    ConcurrencyLimit,
    TimeOut,
    Cancelled,
}

impl Refusal {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Refusal::QueueFull => "queue-full",
            Refusal::ConcurrencyLimit => "concurrency-limit",
            Refusal::TimeOut => "time-out",
            Refusal::Cancelled => "cancelled",
        }
    }
}

/// The outcome of [`QueueSet::start`].
pub(crate) enum Start {
    Execute(Seat),
    Queued(Queued),
    Refused(Refusal),
}

/// Seats held by an executing request; given back when dropped.
pub(crate) struct Seat {
    set: Arc<QueueSet>,
    id: u64,
    queue: Option<usize>,
    work: Work,
    started: Instant,
}

impl Seat {
    /// When the request started executing.
    pub(crate) fn started(&self) -> Instant {
        self.started
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        let mut st = self.set.lock();
        st.end(
            self.id,
            self.queue,
            self.work.initial,
            self.started.elapsed(),
        );
        let (queue, seats, extra) = (self.queue, self.work.seats(), self.work.extra);
        // A write's events keep its seats a little longer (its estimated extra work).
        match tokio::runtime::Handle::try_current() {
            Ok(rt) if !extra.is_zero() => {
                drop(st);
                let set = self.set.clone();
                rt.spawn(async move {
                    tokio::time::sleep(extra).await;
                    let mut st = set.lock();
                    st.release(queue, seats);
                    st.dispatch_all();
                });
            }
            _ => {
                st.release(queue, seats);
                st.dispatch_all();
            }
        }
    }
}

/// A request waiting in a queue. Dropped before it gets a seat, it leaves its queue.
pub(crate) struct Queued {
    set: Arc<QueueSet>,
    id: u64,
    queue: usize,
    work: Work,
    queue_length: usize,
    go: Option<oneshot::Receiver<Started>>,
}

impl Queued {
    /// The length of its queue once it joined.
    pub(crate) fn queue_length(&self) -> usize {
        self.queue_length
    }
}

impl Queued {
    /// Waits until the request is dispatched, or refuses it at `deadline`. Dropped while
    /// waiting (the client went away), the request leaves its queue.
    pub(crate) async fn wait(mut self, deadline: tokio::time::Instant) -> Result<Seat, Refusal> {
        let Some(go) = self.go.as_mut() else {
            return Err(Refusal::Cancelled);
        };
        let dispatched = tokio::select! {
            started = go => Some(started.ok()),
            _ = tokio::time::sleep_until(deadline) => None,
        };
        let started = match dispatched {
            Some(started) => started,
            None => {
                // Timed out: leave the queue, unless the dispatch came meanwhile.
                let mut st = self.set.lock();
                if st.remove_waiting(self.queue, self.id, Refusal::TimeOut) {
                    self.go = None;
                    return Err(Refusal::TimeOut);
                }
                drop(st);
                self.go.as_mut().and_then(|go| go.try_recv().ok())
            }
        };
        self.go = None;
        let started = started.ok_or(Refusal::Cancelled)?;
        Ok(Seat {
            set: self.set.clone(),
            id: self.id,
            queue: Some(self.queue),
            work: self.work,
            started: started.at,
        })
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        let Some(mut go) = self.go.take() else {
            return;
        };
        let mut st = self.set.lock();
        if st.remove_waiting(self.queue, self.id, Refusal::Cancelled) {
            return;
        }
        // Dispatched, but nobody will run it: give the seats back.
        if let Ok(started) = go.try_recv() {
            st.end(
                self.id,
                Some(self.queue),
                self.work.initial,
                started.at.elapsed(),
            );
            st.release(Some(self.queue), self.work.seats());
            st.dispatch_all();
        }
    }
}

impl QueueSet {
    /// A level with `limit` seats (`None`: exempt) and `shape`'s queues (`None`: reject
    /// at once when the seats are taken).
    pub(crate) fn new(limit: Option<usize>, shape: Option<QueueShape>) -> Arc<QueueSet> {
        let set = Arc::new(QueueSet {
            state: Mutex::new(State {
                limit,
                shape: None,
                queues: Vec::new(),
                queueless: Vec::new(),
                current_r: 0.0,
                last_sync: Instant::now(),
                robin: 0,
                enqueues: 0,
                waiting: 0,
                waiting_seats: 0,
                executing: 0,
                seats_in_use: 0,
                demand: Demand::new(Instant::now()),
                next_id: 0,
                totals: Totals::default(),
            }),
        });
        set.reconfigure(limit, shape);
        set
    }

    fn lock(&self) -> Locked<'_> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.sync_time();
        let demand_before = st.seats_in_use + st.waiting_seats;
        Locked { st, demand_before }
    }

    /// The seat demand since the last call (or the start), for borrowing.
    pub(crate) fn take_demand(&self) -> Observed {
        self.lock().demand.reset(Instant::now())
    }

    /// A new seat limit (`None`: exempt), from borrowing.
    pub(crate) fn set_limit(&self, limit: Option<usize>) {
        let mut st = self.lock();
        st.limit = limit;
        st.dispatch_all();
    }

    /// New limits: more queues are added at once; queues beyond the new number take no
    /// new requests and go when they are empty.
    pub(crate) fn reconfigure(&self, limit: Option<usize>, shape: Option<QueueShape>) {
        let mut st = self.lock();
        st.limit = limit;
        st.shape = shape;
        let want = shape.map_or(0, |s| s.queues);
        while st.queues.len() < want {
            st.queues.push(Queue::default());
        }
        st.trim_queues();
        st.dispatch_all();
    }

    /// A new request of `work` from the flow `hash`.
    pub(crate) fn start(self: &Arc<Self>, hash: u64, work: Work, descr: Descr) -> Start {
        let seats = work.seats();
        let mut st = self.lock();
        let id = st.next_id;
        st.next_id += 1;
        let Some(shape) = st.shape.filter(|_| st.limit.is_some()) else {
            // Exempt, or no queues: now or never.
            if !st.can_take(seats) {
                st.totals.rejected += 1;
                return Start::Refused(Refusal::ConcurrencyLimit);
            }
            st.executing += 1;
            st.seats_in_use += seats;
            st.totals.dispatched += 1;
            let at_wall = SystemTime::now();
            st.queueless.push((id, descr, at_wall));
            return Start::Execute(Seat {
                set: self.clone(),
                id,
                queue: None,
                work,
                started: Instant::now(),
            });
        };
        let queue = st.choose_queue(hash, shape);
        let full = st.queues[queue].waiting.len() >= shape.queue_length_limit;
        if full && st.seats_in_use >= st.limit.unwrap_or(usize::MAX) {
            st.totals.rejected += 1;
            return Start::Refused(Refusal::QueueFull);
        }
        let (tx, rx) = oneshot::channel();
        let current_r = st.current_r;
        let q = &mut st.queues[queue];
        if !q.active() {
            q.next_dispatch_r = current_r;
        }
        q.waiting.push_back(Waiting {
            id,
            work,
            arrival_r: current_r,
            descr,
            go: tx,
        });
        q.waiting_seats += seats;
        let queue_length = q.waiting.len();
        st.waiting += 1;
        st.waiting_seats += seats;
        st.bound_next_dispatch(queue);
        st.dispatch_all();
        Start::Queued(Queued {
            set: self.clone(),
            id,
            queue,
            work,
            queue_length,
            go: Some(rx),
        })
    }

    /// Requests waiting and executing now.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let st = self.lock();
        (st.waiting, st.executing)
    }

    /// What `/debug/api_priority_and_fairness` shows of the level.
    pub(crate) fn dump(&self) -> Dump {
        let st = self.lock();
        Dump {
            totals: st.totals,
            waiting: st.waiting,
            executing: st.executing,
            queues: st
                .queues
                .iter()
                .map(|q| QueueDump {
                    waiting: q.waiting.iter().map(|w| w.descr.clone()).collect(),
                    executing: q.executing.iter().map(|e| (e.1.clone(), e.2)).collect(),
                    seats_in_use: q.seats_in_use,
                    next_dispatch_r: q.next_dispatch_r,
                    waiting_seats: q.waiting_seats,
                })
                .collect(),
            queueless: st.queueless.iter().map(|e| (e.1.clone(), e.2)).collect(),
        }
    }
}

/// The state, locked; unlocking notes a change of the seat demand.
struct Locked<'a> {
    st: MutexGuard<'a, State>,
    /// The demand when locked.
    demand_before: usize,
}

impl std::ops::Deref for Locked<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.st
    }
}

impl std::ops::DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.st
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        let now = self.st.seats_in_use + self.st.waiting_seats;
        if now != self.demand_before {
            self.st.demand.set(Instant::now(), now as f64);
        }
    }
}

/// A level's state for the dumps.
pub(crate) struct Dump {
    pub(crate) totals: Totals,
    pub(crate) waiting: usize,
    pub(crate) executing: usize,
    pub(crate) queues: Vec<QueueDump>,
    pub(crate) queueless: Vec<(Descr, SystemTime)>,
}

pub(crate) struct QueueDump {
    pub(crate) waiting: Vec<Descr>,
    pub(crate) executing: Vec<(Descr, SystemTime)>,
    pub(crate) seats_in_use: usize,
    pub(crate) next_dispatch_r: f64,
    pub(crate) waiting_seats: usize,
}

impl State {
    /// Moves the virtual clock on: while the queues stayed as they are, it ran at the seats
    /// the active queues could use (at most the limit) shared among them.
    fn sync_time(&mut self) {
        let now = Instant::now();
        let elapsed = now.saturating_duration_since(self.last_sync).as_secs_f64();
        self.last_sync = now;
        let mut active = 0usize;
        let mut requested = 0usize;
        for q in &self.queues {
            requested += q.seats_in_use + q.waiting_seats;
            if q.active() {
                active += 1;
            }
        }
        if active > 0 {
            let limit = self.limit.unwrap_or(usize::MAX);
            self.current_r += requested.min(limit) as f64 / active as f64 * elapsed;
        }
    }

    fn can_take(&self, seats: usize) -> bool {
        match self.limit {
            None => true,
            // A request wider than the whole level runs alone.
            Some(limit) if seats > limit => self.executing == 0,
            Some(limit) => self.seats_in_use + seats <= limit,
        }
    }

    /// Of the queues the flow's hand deals, the one with the least work waiting; the
    /// hand is visited from a rotating start so that ties do not always go one way.
    fn choose_queue(&mut self, hash: u64, shape: QueueShape) -> usize {
        let hand = deal(hash, shape.queues, shape.hand_size);
        let offset = self.enqueues % hand.len();
        self.enqueues = self.enqueues.wrapping_add(1);
        let mut best = hand[offset];
        let mut least = usize::MAX;
        for i in 0..hand.len() {
            let q = hand[(offset + i) % hand.len()];
            let work = self.queues[q].waiting_seats;
            if work < least {
                least = work;
                best = q;
            }
        }
        best
    }

    /// A queue's virtual start never precedes its oldest request's arrival.
    fn bound_next_dispatch(&mut self, queue: usize) {
        let q = &mut self.queues[queue];
        if let Some(head) = q.waiting.front() {
            if q.next_dispatch_r < head.arrival_r {
                q.next_dispatch_r = head.arrival_r;
            }
        }
    }

    fn dispatch_all(&mut self) {
        while self.waiting > 0 && self.dispatch_one() {}
    }

    /// Dispatches the head of the queue whose head would finish first, if its seats are
    /// free.
    fn dispatch_one(&mut self) -> bool {
        let n = self.queues.len();
        let mut best: Option<(usize, f64)> = None;
        for _ in 0..n {
            self.robin = (self.robin + 1) % n;
            let q = &self.queues[self.robin];
            if let Some(head) = q.waiting.front() {
                let finish = q.next_dispatch_r + total_work(&head.work);
                if best.is_none_or(|(_, f)| finish < f) {
                    best = Some((self.robin, finish));
                }
            }
        }
        let Some((index, _)) = best else {
            return false;
        };

        let seats = self.queues[index]
            .waiting
            .front()
            .map_or(1, |w| w.work.seats());
        if !self.can_take(seats) {
            return false;
        }
        self.robin = index;
        let Some(w) = self.queues[index].waiting.pop_front() else {
            return false;
        };
        let seats = w.work.seats();
        self.queues[index].waiting_seats -= seats;
        self.waiting -= 1;
        self.waiting_seats -= seats;
        let now = Instant::now();
        let at_wall = SystemTime::now();
        if w.go.send(Started { at: now }).is_err() {
            // Its waiter is gone (and will find it not in the queue): nothing to run.
            self.bound_next_dispatch(index);
            return true;
        }
        self.executing += 1;
        self.seats_in_use += seats;
        self.totals.dispatched += 1;
        let q = &mut self.queues[index];
        q.seats_in_use += seats;
        q.executing.push((w.id, w.descr, at_wall));
        q.next_dispatch_r += total_work(&w.work);
        self.bound_next_dispatch(index);
        true
    }

    /// A request that ran for `took` has ended; its queue's virtual start is corrected by
    /// how much its real work differed from the estimate. Its seats are given back by
    /// [`State::release`], at once or after the work it left behind.
    fn end(&mut self, id: u64, queue: Option<usize>, initial: usize, took: Duration) {
        self.executing = self.executing.saturating_sub(1);
        match queue.and_then(|i| self.queues.get_mut(i).map(|q| (i, q))) {
            Some((i, q)) => {
                q.executing.retain(|e| e.0 != id);
                q.next_dispatch_r -= initial as f64 * (ESTIMATED_SERVICE - took.as_secs_f64());
                self.bound_next_dispatch(i);
            }
            None => self.queueless.retain(|e| e.0 != id),
        }
    }

    /// An ended request's seats are free again.
    fn release(&mut self, queue: Option<usize>, seats: usize) {
        self.seats_in_use = self.seats_in_use.saturating_sub(seats);
        if let Some(q) = queue.and_then(|i| self.queues.get_mut(i)) {
            q.seats_in_use = q.seats_in_use.saturating_sub(seats);
            self.trim_queues();
        }
    }

    /// Takes request `id` out of its queue; false if it is not there (dispatched).
    fn remove_waiting(&mut self, queue: usize, id: u64, why: Refusal) -> bool {
        let Some(q) = self.queues.get_mut(queue) else {
            return false;
        };
        let Some(pos) = q.waiting.iter().position(|w| w.id == id) else {
            return false;
        };
        if let Some(w) = q.waiting.remove(pos) {
            q.waiting_seats -= w.work.seats();
            self.waiting_seats -= w.work.seats();
        }
        self.waiting -= 1;
        self.totals.rejected += 1;
        match why {
            Refusal::TimeOut => self.totals.timed_out += 1,
            _ => self.totals.cancelled += 1,
        }
        self.bound_next_dispatch(queue);
        self.trim_queues();
        true
    }

    /// Drops idle queues past the configured number (from the end, so that the indexes
    /// of the others stay).
    fn trim_queues(&mut self) {
        let want = self.shape.map_or(0, |s| s.queues);
        while self.queues.len() > want && self.queues.last().is_some_and(|q| !q.active()) {
            self.queues.pop();
        }
        if self.robin >= self.queues.len() {
            self.robin = 0;
        }
    }
}

#[cfg(test)]
#[path = "queueset_tests.rs"]
mod tests;
