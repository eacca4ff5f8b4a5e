//! kube-apiserver's admission latency histograms (`apiserver_admission_*`): one per step
//! (the whole mutating or validating phase, reinvocation included) and one per built-in
//! plugin, with upstream's names, labels and buckets. (The webhook series come with the
//! webhook calls.)

use std::sync::OnceLock;
use std::time::Duration;

use prometheus::{HistogramOpts, HistogramVec};

use crate::admission::Operation;
use crate::metrics::{help, register, Stability};

/// Which phase: upstream's `type` label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    Admit,
    Validate,
}

impl Step {
    fn as_str(self) -> &'static str {
        match self {
            Step::Admit => "admit",
            Step::Validate => "validate",
        }
    }
}

/// Upstream's buckets for both histograms.
const BUCKETS: [f64; 6] = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

struct Families {
    step: HistogramVec,
    controller: HistogramVec,
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let histogram = |name: &str, text: &str, labels: &[&str]| {
            // Fixed names and labels: building them cannot fail.
            register(
                HistogramVec::new(
                    HistogramOpts::new(name, help(Stability::Stable, text))
                        .buckets(BUCKETS.to_vec()),
                    labels,
                )
                .expect("admission histogram"),
            )
        };
        Families {
            step: histogram(
                "apiserver_admission_step_admission_duration_seconds",
                "Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).",
                &["type", "operation", "rejected"],
            ),
            controller: histogram(
                "apiserver_admission_controller_admission_duration_seconds",
                "Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
                &["name", "type", "operation", "rejected"],
            ),
        }
    })
}

fn rejected(r: bool) -> &'static str {
    if r {
        "true"
    } else {
        "false"
    }
}

/// One run of a whole phase.
pub(crate) fn observe_step(step: Step, op: Operation, refused: bool, took: Duration) {
    families()
        .step
        .with_label_values(&[step.as_str(), op.as_str(), rejected(refused)])
        .observe(took.as_secs_f64());
}

/// One plugin's part in a phase.
pub(crate) fn observe_plugin(name: &str, step: Step, op: Operation, refused: bool, took: Duration) {
    families()
        .controller
        .with_label_values(&[name, step.as_str(), op.as_str(), rejected(refused)])
        .observe(took.as_secs_f64());
}
