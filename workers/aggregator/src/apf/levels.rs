//! The seat limits of the priority levels: each level's nominal share of the server's
//! seats (rounded up, as upstream), the bounds lending and borrowing allow it, and its
//! current limit, moved within those bounds by [`rebalance`] (every 10 s and after each
//! configuration change) towards what the levels' recent demand asks for.

use std::collections::HashMap;
use std::sync::Arc;

use super::borrow::{self, Claim, Stats};
use super::config::{Limit, QueueShape};
use super::queueset::QueueSet;
use super::retry::RetryAfter;

/// What a level keeps across configuration changes and rebalancing.
pub(crate) struct Kept {
    pub(crate) set: Arc<QueueSet>,
    pub(crate) retry: Arc<RetryAfter>,
    pub(crate) exempt: bool,
    pub(crate) nominal: usize,
    /// Nominal less what the level may lend.
    pub(crate) lower: usize,
    /// Nominal plus what the level may borrow.
    pub(crate) upper: usize,
    /// The limit in force now.
    pub(crate) current: usize,
    stats: Stats,
}

/// A level's limits under `limit`, with `server` seats shared by `share_sum` shares.
pub(crate) struct Sized {
    pub(crate) exempt: bool,
    pub(crate) nominal: usize,
    pub(crate) lendable: usize,
    pub(crate) borrowable: usize,
    pub(crate) shape: Option<QueueShape>,
}

impl Sized {
    pub(crate) fn of(limit: &Limit, shares: u32, server: usize, share_sum: u64) -> Sized {
        let nominal = (server as u64 * u64::from(shares)).div_ceil(share_sum.max(1)) as usize;
        let percent_of = |p: u32| (nominal as f64 * f64::from(p) / 100.0).round() as usize;
        match limit {
            Limit::Exempt => Sized {
                exempt: true,
                nominal,
                lendable: 0,
                borrowable: server,
                shape: None,
            },
            Limit::Limited {
                lendable_percent,
                borrowing_limit_percent,
                queuing,
                ..
            } => Sized {
                exempt: false,
                nominal,
                lendable: percent_of(*lendable_percent),
                // No borrowing limit: up to the whole server.
                borrowable: borrowing_limit_percent.map_or(server, percent_of),
                shape: *queuing,
            },
        }
    }
}

impl Kept {
    /// A new level: it starts at its nominal limit less half what it may lend.
    pub(crate) fn new(sized: &Sized) -> Kept {
        let current = sized.nominal - sized.lendable.min(sized.nominal) / 2;
        let limit = (!sized.exempt).then_some(current);
        Kept {
            set: QueueSet::new(limit, sized.shape),
            retry: Arc::default(),
            exempt: sized.exempt,
            nominal: sized.nominal,
            lower: sized.nominal - sized.lendable.min(sized.nominal),
            upper: sized.nominal + sized.borrowable,
            current,
            stats: Stats::default(),
        }
    }

    /// The level's object changed.
    pub(crate) fn resize(&mut self, sized: &Sized) {
        self.exempt = sized.exempt;
        self.nominal = sized.nominal;
        self.lower = sized.nominal - sized.lendable.min(sized.nominal);
        self.upper = sized.nominal + sized.borrowable;
        self.set.reconfigure(self.limit(), sized.shape);
    }

    fn limit(&self) -> Option<usize> {
        (!self.exempt).then_some(self.current)
    }
}

/// Moves every level's current limit towards its demand, as upstream's periodic
/// rebalancing does: a level is given at least the lesser of its nominal limit and its
/// recent peak (never less than its lower bound), at most its upper bound, and the
/// server's nominal seats are shared in proportion to the levels' smoothed demand.
pub(crate) fn rebalance(kept: &mut HashMap<String, Kept>) {
    let nominal_sum: usize = kept.values().map(|k| k.nominal).sum();
    let mut remaining = nominal_sum as i64;
    let (mut lower_sum, mut floor_sum) = (0usize, 0usize);
    // Each limited level: name, floor, lower bound, current limit.
    let mut limited: Vec<(String, usize, usize, usize)> = Vec::new();
    let mut claims: Vec<Claim> = Vec::new();
    for (name, k) in kept.iter_mut() {
        k.stats.update(k.set.take_demand());
        let peak = k.stats.high_watermark;
        if k.exempt {
            let floor = k.lower.max(peak);
            k.current = floor;
            remaining -= floor as i64;
            continue;
        }
        let floor = k.lower.max(k.nominal.min(peak));
        limited.push((name.clone(), floor, k.lower, k.current));
        claims.push(Claim {
            target: (floor as f64).max(k.stats.smoothed),
            lower: floor as f64,
            upper: k.upper as f64,
        });
        lower_sum += k.lower;
        floor_sum += floor;
    }
    let currents: Vec<usize> = if remaining <= lower_sum as i64 {
        limited.iter().map(|l| l.2).collect()
    } else if remaining <= floor_sum as i64 {
        // Not enough for every level's floor: each gets its lower bound and the same
        // fraction of the way to its floor.
        let frac = (remaining as f64 - lower_sum as f64) / (floor_sum - lower_sum) as f64;
        limited
            .iter()
            .map(|&(_, floor, lower, _)| lower + ((floor - lower) as f64 * frac).round() as usize)
            .collect()
    } else {
        match borrow::share(nominal_sum as f64, &claims) {
            Some(shares) => shares.iter().map(|s| s.round() as usize).collect(),
            None => limited.iter().map(|l| l.3).collect(),
        }
    };
    for ((name, ..), current) in limited.iter().zip(currents) {
        if let Some(k) = kept.get_mut(name) {
            k.current = current;
            k.set.set_limit(Some(current));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limited(lendable: u32, borrowing: Option<u32>) -> Limit {
        Limit::Limited {
            shares: 0,
            lendable_percent: lendable,
            borrowing_limit_percent: borrowing,
            queuing: None,
        }
    }

    #[test]
    fn idle_levels_lend_to_busy_ones() {
        let mut kept = HashMap::new();
        // 100 seats: two levels of 50, the first may lend all of its seats.
        let a = Sized::of(&limited(100, None), 1, 100, 2);
        let b = Sized::of(&limited(0, None), 1, 100, 2);
        assert_eq!((a.nominal, a.lendable), (50, 50));
        kept.insert("a".to_owned(), Kept::new(&a));
        kept.insert("b".to_owned(), Kept::new(&b));
        // Starts at nominal less half the lendable.
        assert_eq!(kept["a"].current, 25);
        // b busy (demand 90 seats), a idle: b borrows what a can lend.
        let hold: Vec<_> = (0..90)
            .map(|_| {
                kept["b"].set.start(
                    1,
                    super::super::width::Work::ONE,
                    super::super::queueset::Descr {
                        schema: "s".into(),
                        distinguisher: String::new(),
                        user: "u".into(),
                        info: Arc::default(),
                        arrived: std::time::SystemTime::now(),
                        work: super::super::width::Work::ONE,
                    },
                )
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        rebalance(&mut kept);
        assert_eq!(kept["a"].current, 0);
        assert_eq!(kept["b"].current, 100);
        drop(hold);
    }
}
