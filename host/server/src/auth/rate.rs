//! Per-token rate limits: a token bucket per token name, refilled at the
//! configured rate, holding at most two seconds' worth.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Requests per second per token (`--rate-limit`); 0 turns limits off.
pub struct RateLimiter {
    per_sec: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    /// A limiter allowing `per_sec` requests a second to each token.
    pub fn new(per_sec: u32) -> Self {
        RateLimiter {
            per_sec: f64::from(per_sec),
            buckets: Mutex::default(),
        }
    }

    /// Takes one request from `token`'s bucket; `Err(seconds)` says how
    /// long until one is free.
    pub fn take(&self, token: &str) -> Result<(), u64> {
        if self.per_sec <= 0.0 {
            return Ok(());
        }
        let burst = self.per_sec * 2.0;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let (level, last) = buckets.entry(token.to_owned()).or_insert((burst, now));
        *level = (*level + now.duration_since(*last).as_secs_f64() * self.per_sec).min(burst);
        *last = now;
        if *level >= 1.0 {
            *level -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *level) / self.per_sec).ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RateLimiter;

    #[test]
    fn a_burst_past_twice_the_rate_is_refused() {
        let r = RateLimiter::new(5);
        let granted = (0..20).filter(|_| r.take("a").is_ok()).count();
        assert!((10..=11).contains(&granted), "{granted}");
        assert!(r.take("b").is_ok(), "buckets are per token");
        assert!(RateLimiter::new(0).take("a").is_ok());
    }
}
