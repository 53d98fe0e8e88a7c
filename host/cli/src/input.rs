//! Reading what a command is handed from the host: a run's source and stdin,
//! a component file. Each read is bounded by the limit of what it feeds, so
//! `yes | computer exec --stdin - ...` or `--file /dev/zero` fails at once with
//! a clear message instead of growing until the machine kills the process, and
//! a pipe that never closes stops at the run's `--timeout`.

use std::io::Read;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crate::error::{CliError, CliResult};

/// Largest component file `modules add` and `commands add` read.
pub const COMPONENT_MAX_BYTES: usize = 256 << 20;

/// A component file (`modules add`, `commands add`), within [`COMPONENT_MAX_BYTES`].
pub fn read_component(path: &Path) -> CliResult<Vec<u8>> {
    HostInput {
        what: "the component",
        path,
        limit: COMPONENT_MAX_BYTES,
        hint: "a component is a .wasm file built for wasm32-wasip2",
        within: None,
    }
    .read()
}

/// One host input: where it comes from and how much of it may be read.
pub struct HostInput<'a> {
    /// What the bytes are for, as the message names them: "the source", "stdin".
    pub what: &'a str,
    /// A host path, or `-` for this process's stdin.
    pub path: &'a Path,
    pub limit: usize,
    /// What to do instead when the input is too large.
    pub hint: &'a str,
    /// How long to wait for the input to end (a run's timeout).
    pub within: Option<Duration>,
}

impl HostInput<'_> {
    pub fn read(&self) -> CliResult<Vec<u8>> {
        let shown = if self.is_stdin() {
            "standard input".to_owned()
        } else {
            self.path.display().to_string()
        };
        let reader: Box<dyn Read + Send> = if self.is_stdin() {
            Box::new(std::io::stdin())
        } else {
            let file = std::fs::File::open(self.path).map_err(|e| CliError {
                code: "ENOENT".into(),
                message: format!("cannot read {shown}: {e}"),
            })?;
            // A regular file's size answers without reading it.
            if let Ok(meta) = file.metadata()
                && meta.is_file()
                && meta.len() > self.limit as u64
            {
                return Err(self.too_large(&shown, Some(meta.len())));
            }
            Box::new(file)
        };
        let limit = self.limit;
        let read = move || -> std::io::Result<Vec<u8>> {
            let mut buf = Vec::new();
            reader.take(limit as u64 + 1).read_to_end(&mut buf)?;
            Ok(buf)
        };
        let bytes = match self.within {
            None => read(),
            Some(within) => {
                // The reading thread is left blocked if the input never ends;
                // the process exits right after reporting it.
                let (tx, rx) = mpsc::channel();
                std::thread::spawn(move || {
                    let _ = tx.send(read());
                });
                rx.recv_timeout(within).map_err(|_| CliError {
                    code: "ETIMEDOUT".into(),
                    message: format!(
                        "timed out after {within:?} waiting for the end of {} ({shown}): \
                         close it, or raise --timeout",
                        self.what
                    ),
                })?
            }
        }
        .map_err(|e| CliError {
            code: "EIO".into(),
            message: format!("cannot read {shown}: {e}"),
        })?;
        if bytes.len() > self.limit {
            return Err(self.too_large(&shown, None));
        }
        Ok(bytes)
    }

    fn is_stdin(&self) -> bool {
        self.path.as_os_str() == "-"
    }

    fn too_large(&self, shown: &str, size: Option<u64>) -> CliError {
        let size = size.map_or_else(String::new, |s| format!(" {s} bytes,"));
        CliError {
            code: "EFBIG".into(),
            message: format!(
                "{} ({shown}) is{size} over the {}-byte limit ({}): {}",
                self.what,
                self.limit,
                mib(self.limit),
                self.hint
            ),
        }
    }
}

fn mib(bytes: usize) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}
