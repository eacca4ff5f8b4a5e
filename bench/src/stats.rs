//! Latency bookkeeping shared by the object benchmarks: an HDR histogram per client
//! merged into one [`Summary`], and percentiles of small signed samples (watch fan-out,
//! where an event can arrive before its write's response).

use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

use crate::Error;

/// Highest latency the histogram holds (longer ones are clamped): 60 s in ns.
const MAX_LATENCY_NS: u64 = 60_000_000_000;

/// Latencies, failures and bytes of one client (or of all of them, merged).
pub struct Tally {
    latency_ns: Histogram<u64>,
    /// Failed calls (transport errors, wrong answers).
    pub errors: u64,
    /// HTTP answers that were not 2xx.
    pub non_2xx: u64,
    /// Response bytes read.
    pub body_bytes: u64,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Result<Self, Error> {
        Ok(Self {
            latency_ns: Histogram::new_with_bounds(1, MAX_LATENCY_NS, 3)
                .map_err(|e| Error::Histogram(format!("{e:?}")))?,
            errors: 0,
            non_2xx: 0,
            body_bytes: 0,
        })
    }

    /// Records one completed call.
    pub fn record(&mut self, took: Duration) {
        let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.latency_ns.saturating_record(ns.max(1));
    }

    /// Adds another client's tally to this one.
    pub fn merge(&mut self, other: &Tally) -> Result<(), Error> {
        self.latency_ns
            .add(&other.latency_ns)
            .map_err(|e| Error::Histogram(format!("{e:?}")))?;
        self.errors += other.errors;
        self.non_2xx += other.non_2xx;
        self.body_bytes += other.body_bytes;
        Ok(())
    }

    /// The numbers of a measured window of `secs` seconds.
    pub fn summary(&self, secs: f64) -> Summary {
        let h = &self.latency_ns;
        let us = |ns: u64| ns as f64 / 1000.0;
        Summary {
            duration_s: secs,
            requests: h.len(),
            rps: if secs > 0.0 {
                h.len() as f64 / secs
            } else {
                0.0
            },
            mean_us: h.mean() / 1000.0,
            p50_us: us(h.value_at_quantile(0.50)),
            p90_us: us(h.value_at_quantile(0.90)),
            p99_us: us(h.value_at_quantile(0.99)),
            max_us: us(h.max()),
            errors: self.errors,
            non_2xx: self.non_2xx,
            body_bytes: self.body_bytes,
        }
    }
}

/// Throughput and latency of one measured window, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Measured seconds.
    pub duration_s: f64,
    /// Calls completed (successfully) in the window.
    pub requests: u64,
    /// `requests / duration_s`.
    pub rps: f64,
    /// Mean latency, µs.
    pub mean_us: f64,
    /// Median latency, µs.
    pub p50_us: f64,
    /// 90th percentile latency, µs.
    pub p90_us: f64,
    /// 99th percentile latency, µs.
    pub p99_us: f64,
    /// Highest latency, µs.
    pub max_us: f64,
    /// Failed calls.
    pub errors: u64,
    /// Non-2xx answers (HTTP only).
    pub non_2xx: u64,
    /// Response bytes read.
    pub body_bytes: u64,
}

/// Percentiles of signed samples (µs), by rank on the sorted samples.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Spread {
    /// Samples.
    pub n: usize,
    /// Lowest.
    pub min_us: f64,
    /// Median.
    pub p50_us: f64,
    /// 90th percentile.
    pub p90_us: f64,
    /// 99th percentile.
    pub p99_us: f64,
    /// Highest.
    pub max_us: f64,
}

impl Spread {
    /// The spread of `samples` (all zeros when there are none).
    pub fn of(samples: &[f64]) -> Self {
        let mut s: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
        if s.is_empty() {
            return Self::default();
        }
        s.sort_by(f64::total_cmp);
        let at = |q: f64| s[((q * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)];
        Self {
            n: s.len(),
            min_us: s[0],
            p50_us: at(0.50),
            p90_us: at(0.90),
            p99_us: at(0.99),
            max_us: s[s.len() - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_samples() {
        let samples: Vec<f64> = (1..=100).map(f64::from).collect();
        let s = Spread::of(&samples);
        assert_eq!(s.n, 100);
        assert_eq!((s.min_us, s.max_us), (1.0, 100.0));
        assert!((50.0..=51.0).contains(&s.p50_us));
        assert!((98.0..=100.0).contains(&s.p99_us));
        assert_eq!(Spread::of(&[]).n, 0);
        assert_eq!(Spread::of(&[f64::NAN, -3.0]).min_us, -3.0);
    }

    #[test]
    fn tallies_merge() {
        let mut a = Tally::new().expect("tally");
        let mut b = Tally::new().expect("tally");
        a.record(Duration::from_micros(100));
        b.record(Duration::from_micros(300));
        b.errors = 2;
        a.merge(&b).expect("merge");
        let s = a.summary(2.0);
        assert_eq!((s.requests, s.errors), (2, 2));
        assert_eq!(s.rps, 1.0);
        assert!(s.p50_us >= 99.0 && s.max_us <= 301.0);
        assert_eq!(a.summary(0.0).rps, 0.0);
    }
}
