//! What a limit error says: the neutral fact ("memory limit exceeded
//! (256 MiB)") and the knob that raises the limit, named the way the
//! caller's surface names it. The runtime knows no surface (CLI flag, MCP
//! argument, library field), so the caller passes the names in
//! [`ExecOptions::limit_names`](crate::ExecOptions::limit_names); the
//! default names the [`Limits`](crate::Limits) fields, for a library caller.

use std::time::Duration;

/// How the caller's surface names the knob of each limit, as a reader
/// should type it: `--memory MIB`, `memoryMb`, `Limits::memory_bytes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitNames {
    /// Raises the memory limit.
    pub memory: String,
    /// Raises the time limit.
    pub timeout: String,
    /// What to do about the output caps, as advice: some surfaces have no
    /// knob for them, only a way around them (a file).
    pub output: String,
}

impl Default for LimitNames {
    fn default() -> Self {
        LimitNames {
            memory: "Limits::memory_bytes".into(),
            timeout: "Limits::timeout".into(),
            output: "write large output to a file, or raise Limits::stdout_bytes and \
                     Limits::stderr_bytes"
                .into(),
        }
    }
}

impl LimitNames {
    /// A run that needed more memory than `limit` bytes.
    pub fn memory_exceeded(&self, limit: usize) -> String {
        format!(
            "memory limit exceeded ({} MiB); raise it with {}",
            limit >> 20,
            self.memory
        )
    }

    /// A run stopped at its time limit.
    pub fn timed_out(&self, after: Duration) -> String {
        format!(
            "timed out after {after:?}; raise the limit with {}",
            self.timeout
        )
    }

    /// A run that kept writing far past its output caps.
    pub fn output_flooded(&self, stdout_bytes: usize, stderr_bytes: usize) -> String {
        format!(
            "output limit exceeded: the run kept writing past its output cap (stdout \
             {stdout_bytes} bytes, stderr {stderr_bytes} bytes) and was stopped; {}",
            self.output
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_names_the_surface_knob() {
        let cli = LimitNames {
            memory: "--memory MIB".into(),
            timeout: "--timeout SECS".into(),
            output: "write it to a file".into(),
        };
        assert_eq!(
            cli.memory_exceeded(256 << 20),
            "memory limit exceeded (256 MiB); raise it with --memory MIB"
        );
        assert_eq!(
            cli.timed_out(Duration::from_millis(1500)),
            "timed out after 1.5s; raise the limit with --timeout SECS"
        );
        assert!(
            cli.output_flooded(10, 20)
                .ends_with("bytes) and was stopped; write it to a file")
        );
        assert!(
            LimitNames::default()
                .memory_exceeded(1 << 30)
                .ends_with("(1024 MiB); raise it with Limits::memory_bytes")
        );
    }
}
