//! Borrowing between priority levels, as upstream rebalances them every 10 s: each level's
//! seat demand (seats in use plus seats waiting) is integrated over the period; its
//! smoothed envelope (mean + standard deviation, decaying slowly) is its target; the
//! server's seats are then shared out in proportion to the targets, each level kept
//! between its lower bound (nominal less what it may lend, or its recent peak if lower
//! than nominal) and its upper bound (nominal plus what it may borrow).

use std::time::Instant;

/// How fast a level's smoothed demand forgets a peak (upstream's coefficient, per period).
const SMOOTHING: f64 = 0.977;

/// A time-weighted record of one level's seat demand.
#[derive(Debug, Clone)]
pub(crate) struct Demand {
    since: Instant,
    last: Instant,
    value: f64,
    sum: f64,
    sum_squares: f64,
    max: f64,
}

/// What a period's demand was.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Observed {
    pub(crate) average: f64,
    pub(crate) deviation: f64,
    pub(crate) max: f64,
    pub(crate) seconds: f64,
}

impl Demand {
    pub(crate) fn new(now: Instant) -> Demand {
        Demand {
            since: now,
            last: now,
            value: 0.0,
            sum: 0.0,
            sum_squares: 0.0,
            max: 0.0,
        }
    }

    /// The demand is `value` from `now` on.
    pub(crate) fn set(&mut self, now: Instant, value: f64) {
        self.accumulate(now);
        self.value = value;
        self.max = self.max.max(value);
    }

    fn accumulate(&mut self, now: Instant) {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.sum += self.value * dt;
        self.sum_squares += self.value * self.value * dt;
        self.last = now;
    }

    /// The period so far; a new one starts at `now` with the current value.
    pub(crate) fn reset(&mut self, now: Instant) -> Observed {
        self.accumulate(now);
        let seconds = now.saturating_duration_since(self.since).as_secs_f64();
        let observed = if seconds > 0.0 {
            let average = self.sum / seconds;
            let variance = (self.sum_squares / seconds - average * average).max(0.0);
            Observed {
                average,
                deviation: variance.sqrt(),
                max: self.max,
                seconds,
            }
        } else {
            Observed {
                max: self.max,
                ..Observed::default()
            }
        };
        // The demand goes on into the next period.
        let value = self.value;
        *self = Demand::new(now);
        self.value = value;
        self.max = value;
        observed
    }
}

/// A level's demand statistics across periods.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stats {
    pub(crate) high_watermark: usize,
    pub(crate) smoothed: f64,
}

impl Stats {
    pub(crate) fn update(&mut self, o: Observed) {
        self.high_watermark = o.max.round() as usize;
        if o.seconds <= 0.0 {
            return;
        }
        let envelope = o.average + o.deviation;
        self.smoothed = envelope.max(SMOOTHING * self.smoothed + (1.0 - SMOOTHING) * envelope);
    }
}

/// One level's part in the sharing: its target and bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Claim {
    pub(crate) target: f64,
    pub(crate) lower: f64,
    pub(crate) upper: f64,
}

/// The smallest target taken into account (a level with no demand still gets its
/// lower bound).
const MIN_TARGET: f64 = 0.001;

/// Shares `total` among the claims: each gets `target × p` clamped to its bounds, with
/// the one proportion `p` that makes the shares add up to `total`. `None` when the
/// bounds make that impossible.
pub(crate) fn share(total: f64, claims: &[Claim]) -> Option<Vec<f64>> {
    let lower: f64 = claims.iter().map(|c| c.lower).sum();
    let upper: f64 = claims.iter().map(|c| c.upper).sum();
    if claims.iter().any(|c| c.lower < 0.0 || c.upper < c.lower) {
        return None;
    }
    if lower > total + 1e-7 || upper < total - 1e-7 {
        return None;
    }
    let at = |p: f64| -> Vec<f64> {
        claims
            .iter()
            .map(|c| (c.target.max(MIN_TARGET) * p).clamp(c.lower, c.upper))
            .collect()
    };
    if total <= lower + 1e-7 {
        return Some(claims.iter().map(|c| c.lower).collect());
    }
    if total >= upper - 1e-7 {
        return Some(claims.iter().map(|c| c.upper).collect());
    }
    // The sum grows with p: bisect between a proportion where every share is at its
    // lower bound and one where every share is at its upper bound.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let sum = |p: f64| at(p).iter().sum::<f64>();
    while sum(hi) < total {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if sum(mid) < total {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(at(hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn claim(target: f64, lower: f64, upper: f64) -> Claim {
        Claim {
            target,
            lower,
            upper,
        }
    }

    #[test]
    fn shares_follow_targets_within_bounds() {
        // No bound matters: in proportion to the targets.
        let s = share(100.0, &[claim(10.0, 0.0, 100.0), claim(30.0, 0.0, 100.0)]).unwrap();
        assert!(
            (s[0] - 25.0).abs() < 1e-6 && (s[1] - 75.0).abs() < 1e-6,
            "{s:?}"
        );
        // An idle level keeps its lower bound; the busy one takes the rest up to its cap.
        let s = share(100.0, &[claim(0.0, 20.0, 40.0), claim(500.0, 10.0, 70.0)]).unwrap();
        assert!(
            (s[0] - 30.0).abs() < 1e-6 && (s[1] - 70.0).abs() < 1e-6,
            "{s:?}"
        );
        // Bounds that cannot add up.
        assert!(share(10.0, &[claim(1.0, 20.0, 40.0)]).is_none());
        assert!(share(100.0, &[claim(1.0, 0.0, 40.0)]).is_none());
        assert_eq!(share(40.0, &[claim(1.0, 0.0, 40.0)]), Some(vec![40.0]));
    }

    #[test]
    fn demand_is_time_weighted() {
        let t0 = Instant::now();
        let mut d = Demand::new(t0);
        d.set(t0, 4.0);
        d.set(t0 + Duration::from_secs(1), 0.0);
        let o = d.reset(t0 + Duration::from_secs(2));
        assert!((o.average - 2.0).abs() < 1e-9, "{o:?}");
        assert!((o.deviation - 2.0).abs() < 1e-9, "{o:?}");
        assert_eq!(o.max, 4.0);
        let mut stats = Stats::default();
        stats.update(o);
        assert_eq!(stats.high_watermark, 4);
        assert!((stats.smoothed - 4.0).abs() < 1e-9);
        // Quiet periods let the smoothed demand decay slowly.
        stats.update(Observed {
            seconds: 10.0,
            ..Observed::default()
        });
        assert!(stats.smoothed < 4.0 && stats.smoothed > 3.8);
    }
}
