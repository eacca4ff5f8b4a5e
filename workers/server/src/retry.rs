//! Waiting between attempts at something another process must make possible first
//! (storage while the store starts, a watch the store dropped): short at first, so a
//! start is not held up by a fixed delay, doubling up to a cap, so a long outage is not
//! hammered.

use std::time::Duration;

/// Where most retries start.
pub const FIRST: Duration = Duration::from_millis(10);

/// The wait before the next attempt.
#[derive(Debug, Clone)]
pub struct Retry {
    first: Duration,
    next: Duration,
    max: Duration,
}

impl Retry {
    /// Waits of [`FIRST`], doubling up to `max`.
    pub fn up_to(max: Duration) -> Retry {
        Retry::new(FIRST.min(max), max)
    }

    /// Waits of `first`, doubling up to `max`.
    pub fn new(first: Duration, max: Duration) -> Retry {
        Retry {
            first,
            next: first,
            max,
        }
    }

    /// Waits, and doubles the next wait.
    pub async fn wait(&mut self) {
        tokio::time::sleep(self.next).await;
        self.next = (self.next * 2).min(self.max);
    }

    /// It worked: the next failure waits the first wait again.
    pub fn reset(&mut self) {
        self.next = self.first;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn doubles_up_to_the_cap_and_resets() {
        let mut r = Retry::up_to(Duration::from_millis(50));
        let mut waits = Vec::new();
        for _ in 0..5 {
            let t = tokio::time::Instant::now();
            r.wait().await;
            waits.push(t.elapsed().as_millis());
        }
        assert_eq!(waits, vec![10, 20, 40, 50, 50]);
        r.reset();
        let t = tokio::time::Instant::now();
        r.wait().await;
        assert_eq!(t.elapsed().as_millis(), 10);
    }
}
