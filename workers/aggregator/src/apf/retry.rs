//! The `Retry-After` of a priority level's 429s, as upstream's dropped-requests tracker
//! sets it: 1 s at first; doubled (up to 32 s) when the level refused at least three
//! times as many requests per second of the current value, over that many past seconds;
//! lowered by one second when it refused fewer than that many.

use std::collections::VecDeque;
use std::sync::Mutex;

const MAX_RETRY_AFTER: u64 = 32;

#[derive(Debug)]
pub(crate) struct RetryAfter {
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    /// Refusals per whole second before the current one: (unix second, count).
    history: VecDeque<(u64, u64)>,
    current_second: u64,
    current_count: u64,
    retry_after: u64,
    last_raised: u64,
}

impl Default for RetryAfter {
    fn default() -> Self {
        RetryAfter {
            state: Mutex::new(State {
                history: VecDeque::new(),
                current_second: 0,
                current_count: 0,
                retry_after: 1,
                last_raised: 0,
            }),
        }
    }
}

impl RetryAfter {
    /// Counts a refusal at `now` (unix seconds).
    pub(crate) fn refused(&self, now: u64) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.current_second == now {
            st.current_count += 1;
            return;
        }
        let (second, count) = (st.current_second, st.current_count);
        st.history.push_back((second, count));
        let keep = (2 * st.retry_after).min(MAX_RETRY_AFTER);
        while st
            .history
            .front()
            .is_some_and(|(s, _)| second.saturating_sub(*s) > keep)
        {
            st.history.pop_front();
        }
        st.current_second = now;
        st.current_count = 1;

        let retry_after = st.retry_after;
        let recent: u64 = st
            .history
            .iter()
            .rev()
            .take_while(|(s, _)| now.saturating_sub(*s) <= retry_after)
            .filter(|(s, _)| *s < now)
            .map(|(_, c)| c)
            .sum();
        if now.saturating_sub(st.last_raised) >= retry_after && recent >= 3 * retry_after {
            st.retry_after = (retry_after * 2).min(MAX_RETRY_AFTER);
            st.last_raised = now;
        } else if recent < retry_after && retry_after > 1 {
            st.retry_after -= 1;
        }
    }

    /// The seconds a refused client is told to wait.
    pub(crate) fn get(&self) -> u64 {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retry_after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_under_steady_refusals_and_shrinks_after() {
        let r = RetryAfter::default();
        assert_eq!(r.get(), 1);
        let mut t = 1000;
        for _ in 0..10 {
            for _ in 0..100 {
                r.refused(t);
            }
            t += 1;
        }
        let high = r.get();
        assert!(high >= 8, "retry-after {high}");
        assert!(high <= MAX_RETRY_AFTER);
        // Quiet again: one refusal now and then brings it down.
        for _ in 0..100 {
            t += 3;
            r.refused(t);
        }
        assert_eq!(r.get(), 1);
    }
}
