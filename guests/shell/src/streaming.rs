//! Reading command operands piece by piece, for the guest's `cat` and `wc`: a
//! workspace file is read through `fs.read` in ranges (and for `cat`, stdin chunk by
//! chunk), so memory stays flat whatever the size of the input.

use std::path::Path;

use bashkit::{CommandInput, CommandOutput};

use crate::computer::workspace::fs::{self, ErrorCode, NodeKind};
use crate::devices::Device;
use crate::workspace_fs::WorkspaceFs;

/// Bytes read from a file per host call.
pub const RANGE_BYTES: u64 = 1 << 20;

/// Where an operand's bytes come from.
pub enum Source {
    Stdin,
    File(String),
    Device(Device),
}

/// Why an operand cannot be read, as the `strerror` text tools print.
pub struct OpenError(pub ErrorCode);

impl Source {
    /// The operand `-` is stdin; anything else a path relative to `cwd`. Held-back
    /// appends are written first, so the script reads what it wrote.
    pub fn open(operand: &str, cwd: &Path, fs: &WorkspaceFs) -> Result<Source, OpenError> {
        if operand == "-" {
            return Ok(Source::Stdin);
        }
        let path = bashkit::normalize_path(&bashkit::vfs_join(cwd, operand))
            .to_string_lossy()
            .into_owned();
        if let Some(device) = Device::at(&path) {
            return Ok(Source::Device(device));
        }
        fs.appends().flush();
        match crate::devices::stat(&path, true) {
            Ok(stat) if stat.kind == NodeKind::Directory => Err(OpenError(ErrorCode::Eisdir)),
            Ok(_) => Ok(Source::File(path)),
            Err(e) => Err(OpenError(e.code)),
        }
    }

    /// The size of a regular file, for `wc`'s column width.
    pub fn regular_size(&self) -> Option<u64> {
        match self {
            Source::File(path) => fs::stat(path).ok().map(|s| s.size),
            _ => None,
        }
    }
}

/// Reads one source piece by piece.
pub struct Reader<'a> {
    source: &'a Source,
    stdin: &'a CommandInput,
    offset: u64,
    done: bool,
    /// stdin is the bounded whole read of an endless device: its end is a cut.
    stdin_cut: bool,
}

impl<'a> Reader<'a> {
    pub fn new(source: &'a Source, stdin: &'a CommandInput) -> Reader<'a> {
        Reader {
            source,
            stdin,
            offset: 0,
            done: false,
            stdin_cut: false,
        }
    }

    /// Whether stdin is a redirected endless device (`< /dev/zero`, see
    /// `WorkspaceFs::stdin_is_device_prefix`): reaching its end is an error.
    pub fn stdin_cut(mut self, cut: bool) -> Reader<'a> {
        self.stdin_cut = cut;
        self
    }

    /// The next piece; `Ok(None)` at the end.
    pub async fn next(&mut self) -> Result<Option<Vec<u8>>, ReadError> {
        if self.done {
            return Ok(None);
        }
        match self.source {
            Source::Stdin => {
                let chunk = self.stdin.read_chunk().await.map_err(ReadError::Shell)?;
                self.done = chunk.is_none();
                if self.done && self.stdin_cut {
                    return Err(ReadError::CutDevice);
                }
                Ok(chunk)
            }
            Source::Device(device) => {
                let piece = device.piece();
                self.done = piece.is_empty();
                Ok((!piece.is_empty()).then_some(piece))
            }
            Source::File(path) => {
                let bytes = read_range(path, self.offset).map_err(ReadError::Fs)?;
                self.offset += bytes.len() as u64;
                // A short range is the end; so is an empty one.
                self.done = (bytes.len() as u64) < RANGE_BYTES;
                Ok((!bytes.is_empty()).then_some(bytes))
            }
        }
    }
}

/// Up to `RANGE_BYTES` of the file at `path` from `offset`; empty at the end.
pub fn read_range(path: &str, offset: u64) -> Result<Vec<u8>, ErrorCode> {
    fs::read(path, Some(offset), Some(RANGE_BYTES)).map_err(|e| e.code)
}

pub enum ReadError {
    /// A workspace error while reading.
    Fs(ErrorCode),
    /// A shell error (cancellation, budget) that must end the command.
    Shell(bashkit::Error),
    /// The end of a redirected endless device, which bashkit reads whole and so
    /// bounded: more was wanted than it holds.
    CutDevice,
}

impl ReadError {
    /// The line `cmd` prints for a read error of the operand `file` (`None` for a
    /// shell error, which ends the command).
    pub fn message(&self, cmd: &str, file: &str) -> Option<String> {
        match self {
            ReadError::Fs(code) => Some(format!(
                "{cmd}: {file}: {}\n",
                crate::fs_errors::strerror(*code)
            )),
            ReadError::CutDevice => Some(format!(
                "{cmd}: standard input: an endless device read through '<' is cut short \
                 here (the shell reads a redirection whole); name it as an operand \
                 instead (`{cmd} /dev/zero`, `cat /dev/urandom | ...`)\n"
            )),
            ReadError::Shell(_) => None,
        }
    }
}

/// The exit status of a guest command that wrote output, once what it wrote is in the
/// workspace: a held-back append that failed makes it fail as a write error would
/// (see `appends`).
pub async fn written_status(
    fs: &WorkspaceFs,
    name: &str,
    stderr: &CommandOutput,
    status: i32,
) -> bashkit::Result<i32> {
    let Some(failure) = fs.appends().finish() else {
        return Ok(status);
    };
    // stderr may be the file that failed; the status says it either way.
    let _ = stderr.write_all(failure.message(name).as_bytes()).await;
    Ok(if status == 0 { 1 } else { status })
}
