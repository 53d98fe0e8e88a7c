//! The script's resource limits: bashkit's counters, with generous defaults (agents
//! run real scripts; the host's timeout and memory cap are the real bounds), some of
//! them overridable by the host through environment variables that the guest reads
//! and removes from the script's environment.

use std::collections::HashMap;
use std::time::Duration;

use bashkit::{ExecutionLimits, MemoryLimits, SessionLimits};

/// Most commands one run may execute.
pub const ENV_MAX_COMMANDS: &str = "COMPUTER_SHELL_MAX_COMMANDS";
/// Most iterations of one loop (all loops together may run ten times that).
pub const ENV_MAX_LOOP_ITERATIONS: &str = "COMPUTER_SHELL_MAX_LOOP_ITERATIONS";
/// Deepest nesting of function calls, `source` and `bash -c`.
pub const ENV_MAX_FUNCTION_DEPTH: &str = "COMPUTER_SHELL_MAX_FUNCTION_DEPTH";
/// Most bytes the script may write to stdout, and to stderr.
pub const ENV_MAX_OUTPUT_BYTES: &str = "COMPUTER_SHELL_MAX_OUTPUT_BYTES";

const ALL: [&str; 4] = [
    ENV_MAX_COMMANDS,
    ENV_MAX_LOOP_ITERATIONS,
    ENV_MAX_FUNCTION_DEPTH,
    ENV_MAX_OUTPUT_BYTES,
];

const DEFAULT_MAX_COMMANDS: u64 = 10_000_000;
const DEFAULT_MAX_LOOP_ITERATIONS: u64 = 10_000_000;
/// bashkit caps the function depth at this whatever is asked (its interpreter recurses
/// on the stack).
pub const HARD_MAX_FUNCTION_DEPTH: usize = 16;
const DEFAULT_MAX_FUNCTION_DEPTH: u64 = HARD_MAX_FUNCTION_DEPTH as u64;
const DEFAULT_MAX_OUTPUT_BYTES: u64 = 64 << 20;

/// bashkit's own deadlines are pushed out of the way: the host enforces the run's
/// timeout with epoch interruption (exit 124).
const NO_DEADLINE: Duration = Duration::from_secs(365 * 24 * 3600);
/// "Unlimited" for byte and work budgets that only the host's memory cap should bound.
const UNBOUNDED: u64 = 1 << 50;

/// The limits of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub max_commands: u64,
    pub max_loop_iterations: u64,
    pub max_function_depth: u64,
    /// Per stream, enforced by `output::Meter`.
    pub max_output_bytes: u64,
}

/// A limit variable that is set but not a positive integer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLimit {
    pub name: &'static str,
    pub value: String,
}

impl std::fmt::Display for BadLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}={:?} is not a positive integer",
            self.name, self.value
        )
    }
}

impl Limits {
    /// Take the limit variables out of `env` (the script never sees them) and read
    /// them, defaulting the missing ones.
    pub fn take_from(env: &mut HashMap<String, String>) -> Result<Limits, BadLimit> {
        let mut taken: HashMap<&'static str, String> = HashMap::new();
        for name in ALL {
            if let Some(value) = env.remove(name) {
                taken.insert(name, value);
            }
        }
        let get = |name: &'static str, default: u64| -> Result<u64, BadLimit> {
            match taken.get(name) {
                None => Ok(default),
                Some(value) => match value.trim().parse::<u64>() {
                    Ok(n) if n > 0 => Ok(n),
                    _ => Err(BadLimit {
                        name,
                        value: value.clone(),
                    }),
                },
            }
        };
        Ok(Limits {
            max_commands: get(ENV_MAX_COMMANDS, DEFAULT_MAX_COMMANDS)?,
            max_loop_iterations: get(ENV_MAX_LOOP_ITERATIONS, DEFAULT_MAX_LOOP_ITERATIONS)?,
            max_function_depth: get(ENV_MAX_FUNCTION_DEPTH, DEFAULT_MAX_FUNCTION_DEPTH)?,
            max_output_bytes: get(ENV_MAX_OUTPUT_BYTES, DEFAULT_MAX_OUTPUT_BYTES)?,
        })
    }

    /// bashkit's execution limits for these.
    pub fn execution(&self) -> ExecutionLimits {
        let usize_of = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        ExecutionLimits::new()
            .max_commands(usize_of(self.max_commands))
            .max_loop_iterations(usize_of(self.max_loop_iterations))
            .max_total_loop_iterations(usize_of(self.max_loop_iterations.saturating_mul(10)))
            .max_function_depth(usize_of(self.max_function_depth))
            // The run's output is metered by the guest's sinks (so a breach ends the
            // script). bashkit also uses this cap for single commands' output (jq,
            // rg, shuf, tree), even into a file: keep it out of their way.
            .max_stdout_bytes(usize_of(UNBOUNDED))
            .max_stderr_bytes(usize_of(UNBOUNDED))
            .timeout(NO_DEADLINE)
            .parser_timeout(NO_DEADLINE)
            // Big generated scripts parse; the AST depth cap stays (stack safety).
            .max_parser_operations(10_000_000)
            .max_work_units(UNBOUNDED)
            .max_aggregate_input_bytes(UNBOUNDED)
            .max_live_intermediate_bytes(UNBOUNDED)
            .max_word_split_fields(10_000_000)
            .max_word_split_bytes(usize_of(UNBOUNDED))
    }

    /// Variables, arrays and functions are bounded by the host's memory cap only.
    pub fn memory() -> MemoryLimits {
        MemoryLimits::unlimited()
    }

    /// One run is one bashkit execution: no session-wide budget on top.
    pub fn session() -> SessionLimits {
        SessionLimits::unlimited()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_and_overrides() {
        let mut e = env(&[(ENV_MAX_COMMANDS, "500"), ("A", "1")]);
        let l = Limits::take_from(&mut e).expect("valid");
        assert_eq!(l.max_commands, 500);
        assert_eq!(l.max_loop_iterations, DEFAULT_MAX_LOOP_ITERATIONS);
        assert_eq!(e.len(), 1, "limit variables are removed");
    }

    #[test]
    fn rejects_garbage() {
        let mut e = env(&[(ENV_MAX_OUTPUT_BYTES, "lots"), (ENV_MAX_COMMANDS, "5")]);
        let err = Limits::take_from(&mut e).expect_err("invalid");
        assert_eq!(err.name, ENV_MAX_OUTPUT_BYTES);
        assert!(e.is_empty());
    }
}
