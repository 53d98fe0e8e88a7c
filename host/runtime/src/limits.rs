//! Per-run limits and the memory limiter that enforces the memory cap.

use std::time::Duration;

/// Limits on one run. Every field has a default and can be changed per run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time; on expiry the run ends with exit 124 (`timed_out`).
    pub timeout: Duration,
    /// Linear memory a guest may grow to; past it the run fails with
    /// "memory limit exceeded".
    pub memory_bytes: usize,
    /// Output kept and streamed per stream; the rest is dropped with a marker.
    pub stdout_bytes: usize,
    pub stderr_bytes: usize,
    /// Size caps on what goes in and comes out.
    pub source_bytes: usize,
    pub input_bytes: usize,
    pub value_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(60),
            memory_bytes: 256 << 20,
            stdout_bytes: 1 << 20,
            stderr_bytes: 1 << 20,
            source_bytes: 1 << 20,
            input_bytes: 1 << 20,
            value_bytes: 1 << 20,
        }
    }
}

/// A `ResourceLimiter` that remembers when it refused memory, so the run
/// can be reported as "memory limit exceeded" rather than a bare trap.
pub(crate) struct MemoryLimiter {
    pub max_memory: usize,
    pub max_tables: usize,
    pub hit: bool,
}

impl wasmtime::ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.max_memory {
            self.hit = true;
            return Ok(false);
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= self.max_tables)
    }
}
