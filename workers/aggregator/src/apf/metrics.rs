//! `apiserver_flowcontrol_*`: upstream's priority and fairness series, with its names,
//! labels and buckets, for what this filter does (the demand and fair-share series of
//! borrowing, and R of the fair queuing, are left out).

use std::sync::OnceLock;

use kas_server::metrics::{help, register, Stability};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, IntGaugeVec, Opts};

pub(crate) struct Families {
    pub(crate) rejected: IntCounterVec,
    pub(crate) dispatched: IntCounterVec,
    pub(crate) inqueue: IntGaugeVec,
    pub(crate) executing: IntGaugeVec,
    pub(crate) executing_seats: IntGaugeVec,
    pub(crate) wait: HistogramVec,
    pub(crate) execution: HistogramVec,
    pub(crate) queue_length: HistogramVec,
    pub(crate) estimated_seats: HistogramVec,
    pub(crate) watch_counts: HistogramVec,
    pub(crate) nominal: IntGaugeVec,
    pub(crate) lower: IntGaugeVec,
    pub(crate) upper: IntGaugeVec,
    pub(crate) current: IntGaugeVec,
}

const PL_FS: [&str; 2] = ["priority_level", "flow_schema"];
const DURATION_BUCKETS: [f64; 13] = [
    0.0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0,
];

fn name(short: &str) -> String {
    format!("apiserver_flowcontrol_{short}")
}

fn counter(short: &str, s: Stability, text: &str, labels: &[&str]) -> IntCounterVec {
    register(
        IntCounterVec::new(Opts::new(name(short), help(s, text)), labels).expect("fixed names"),
    )
}

fn gauge(short: &str, s: Stability, text: &str, labels: &[&str]) -> IntGaugeVec {
    register(IntGaugeVec::new(Opts::new(name(short), help(s, text)), labels).expect("fixed names"))
}

fn histogram(short: &str, s: Stability, text: &str, labels: &[&str], b: &[f64]) -> HistogramVec {
    let opts = HistogramOpts::new(name(short), help(s, text)).buckets(b.to_vec());
    register(HistogramVec::new(opts, labels).expect("fixed names"))
}

pub(crate) fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        use Stability::{Alpha, Beta};
        Families {
            rejected: counter("rejected_requests_total", Beta, "Number of requests rejected by API Priority and Fairness subsystem", &["priority_level", "flow_schema", "reason"]),
            dispatched: counter("dispatched_requests_total", Beta, "Number of requests executed by API Priority and Fairness subsystem", &PL_FS),
            inqueue: gauge("current_inqueue_requests", Beta, "Number of requests currently pending in queues of the API Priority and Fairness subsystem", &PL_FS),
            executing: gauge("current_executing_requests", Beta, "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem", &PL_FS),
            executing_seats: gauge("current_executing_seats", Beta, "Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem", &PL_FS),
            wait: histogram("request_wait_duration_seconds", Beta, "Length of time a request spent waiting in its queue", &["priority_level", "flow_schema", "execute"], &DURATION_BUCKETS),
            execution: histogram("request_execution_seconds", Alpha, "Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem", &["priority_level", "flow_schema", "type"], &DURATION_BUCKETS),
            queue_length: histogram("request_queue_length_after_enqueue", Alpha, "Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued", &PL_FS, &[0.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0]),
            estimated_seats: histogram("work_estimated_seats", Alpha, "Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness", &PL_FS, &[1.0, 2.0, 4.0, 10.0]),
            watch_counts: histogram("watch_count_samples", Alpha, "count of watchers for mutating requests in API Priority and Fairness", &PL_FS, &[0.0, 1.0, 10.0, 100.0, 1000.0, 10000.0]),
            nominal: gauge("nominal_limit_seats", Beta, "Nominal number of execution seats configured for each priority level", &["priority_level"]),
            lower: gauge("lower_limit_seats", Alpha, "Configured lower bound on number of execution seats available to each priority level", &["priority_level"]),
            upper: gauge("upper_limit_seats", Alpha, "Configured upper bound on number of execution seats available to each priority level", &["priority_level"]),
            current: gauge("current_limit_seats", Alpha, "current derived number of execution seats available to each priority level", &["priority_level"]),
        }
    })
}
