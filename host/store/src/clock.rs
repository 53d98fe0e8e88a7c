//! Wall-clock time for mtimes.

use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds since the Unix epoch; 0 if the clock is before 1970.
pub fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos().min(i64::MAX as u128) as i64)
        .unwrap_or(0)
}
