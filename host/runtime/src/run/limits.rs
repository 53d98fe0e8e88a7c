//! Per-run limits and the memory limiter that enforces the memory cap.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Limits on one run. Every field has a default and can be changed per run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Wall-clock time; on expiry the run ends with exit 124 (`timed_out`).
    pub timeout: Duration,
    /// Linear memory a guest may grow to; past it the run fails with
    /// "memory limit exceeded".
    pub memory_bytes: usize,
    /// Standard output kept and streamed; the rest is dropped with a marker.
    pub stdout_bytes: usize,
    /// The same for standard error.
    pub stderr_bytes: usize,
    /// The largest source a run accepts ([`ExecError::TooLarge`](crate::ExecError::TooLarge) past it).
    pub source_bytes: usize,
    /// The largest JSON `input`, and the largest `stdin`.
    pub input_bytes: usize,
    /// The largest JSON value a run may return; a larger one fails the run.
    pub value_bytes: usize,
    /// The shell backend's own budgets (bashkit's counters).
    pub shell: ShellLimits,
}

/// Budgets of the shell backend's interpreter, passed to the guest as
/// `COMPUTER_SHELL_*` variables. The run's timeout and memory cap stay the
/// real bounds; these stop runaway scripts early with a clear message.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShellLimits {
    /// Most commands one run may execute.
    pub max_commands: u64,
    /// Most iterations of one loop.
    pub max_loop_iterations: u64,
    /// Deepest nesting of functions, `source` and `bash -c` (bashkit caps it at 16).
    pub max_function_depth: u64,
}

impl Default for ShellLimits {
    fn default() -> Self {
        ShellLimits {
            max_commands: 10_000_000,
            max_loop_iterations: 10_000_000,
            max_function_depth: 16,
        }
    }
}

impl Limits {
    /// The `COMPUTER_SHELL_*` variables that carry these limits to the shell
    /// guest. Its output budget is the larger output cap plus some slack:
    /// a flood stops soon after the host starts dropping it, and the host's
    /// truncation marker still tells the reader that it did. (So a shell
    /// run's kept copy of a cut stream holds the cap and that slack.)
    pub(crate) fn shell_env(&self) -> [(&'static str, String); 4] {
        let cap = self.stdout_bytes.max(self.stderr_bytes);
        let output = cap.saturating_add(cap.min(64 * 1024)).max(1);
        [
            (
                "COMPUTER_SHELL_MAX_COMMANDS",
                self.shell.max_commands.to_string(),
            ),
            (
                "COMPUTER_SHELL_MAX_LOOP_ITERATIONS",
                self.shell.max_loop_iterations.to_string(),
            ),
            (
                "COMPUTER_SHELL_MAX_FUNCTION_DEPTH",
                self.shell.max_function_depth.to_string(),
            ),
            ("COMPUTER_SHELL_MAX_OUTPUT_BYTES", output.to_string()),
        ]
    }
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
            shell: ShellLimits::default(),
        }
    }
}

/// A `ResourceLimiter` that remembers when it refused memory, so the run
/// can be reported as "memory limit exceeded" rather than a bare trap.
pub(crate) struct MemoryLimiter {
    pub max_memory: usize,
    pub max_tables: usize,
    pub hit: bool,
    /// Linear memory granted so far, over all the store's memories: what a
    /// command started from this run may not use (it shares the run's cap).
    pub used: usize,
    /// Also set on a refusal, for what watches the run from outside its
    /// store (the stderr filter of `oom_noise`).
    pub refused: Option<Arc<AtomicBool>>,
    /// The run's memory, held by the run's store and every command's
    /// together: commands alive at once (a pipeline's stages, a job beside
    /// the foreground) share the run's cap instead of each taking what the
    /// run had left.
    pool: Arc<MemoryPool>,
}

/// What all the stores of one run hold, against the run's cap.
#[derive(Debug)]
pub(crate) struct MemoryPool {
    max: usize,
    used: AtomicUsize,
}

impl MemoryPool {
    /// Bytes the run's stores hold together.
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    /// The run's cap.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// Takes `bytes` if they fit under the cap.
    fn take(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.max)
            })
            .is_ok()
    }
}

impl MemoryLimiter {
    /// A run's limiter, with a pool of its own.
    pub(crate) fn new(max_memory: usize) -> Self {
        let pool = Arc::new(MemoryPool {
            max: max_memory,
            used: AtomicUsize::new(0),
        });
        Self::in_pool(max_memory, pool)
    }

    /// A command's limiter: at most `max_memory` for itself, and what the
    /// run's other stores leave in `pool`.
    pub(crate) fn in_pool(max_memory: usize, pool: Arc<MemoryPool>) -> Self {
        MemoryLimiter {
            max_memory,
            max_tables: 1_000_000,
            hit: false,
            used: 0,
            refused: None,
            pool,
        }
    }

    /// The run's pool, for the commands it starts.
    pub(crate) fn pool(&self) -> Arc<MemoryPool> {
        self.pool.clone()
    }

    /// Sets `flag` too when it refuses memory.
    pub(crate) fn reporting_to(mut self, flag: Arc<AtomicBool>) -> Self {
        self.refused = Some(flag);
        self
    }

    /// Memory this store could still be granted: its own cap and the run's.
    pub(crate) fn room(&self) -> usize {
        let own = self.max_memory.saturating_sub(self.used);
        own.min(self.pool.max().saturating_sub(self.pool.used()))
    }

    /// At most `max_tables` table elements.
    pub(crate) fn with_tables(mut self, max_tables: usize) -> Self {
        self.max_tables = max_tables;
        self
    }
}

impl Drop for MemoryLimiter {
    fn drop(&mut self) {
        // The store and its memories go with it.
        self.pool.used.fetch_sub(self.used, Ordering::SeqCst);
    }
}

impl wasmtime::ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let more = desired.saturating_sub(current);
        let grown = self.used + more;
        if desired > self.max_memory || grown > self.max_memory || !self.pool.take(more) {
            self.hit = true;
            if let Some(flag) = &self.refused {
                flag.store(true, Ordering::SeqCst);
            }
            return Ok(false);
        }
        self.used = grown;
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
