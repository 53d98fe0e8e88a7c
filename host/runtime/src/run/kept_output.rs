//! The whole of a stream that went past its cap, kept in the workspace
//! (`/.computer/output/<run>.stdout` / `.stderr`) so an agent can page
//! through what the result had to cut. Only the newest [`KEEP_RUNS`] runs'
//! files stay; a file holds at most [`MAX_KEPT_BYTES`].

use std::sync::Arc;

use computer_store::{Page, RmOptions, Workspace, WriteOptions};

/// Where kept streams live in the workspace.
pub const KEPT_OUTPUT_DIR: &str = "/.computer/output";
/// How many kept files stay (the newest by modification time).
pub const KEEP_RUNS: usize = 20;
/// A kept stream stops growing here (the flood stop ends most runs long
/// before: 8x the cap).
pub const MAX_KEPT_BYTES: u64 = 64 << 20;
/// Writes are gathered into pieces this big before they reach the store.
const PIECE: usize = 1 << 20;

/// One stream's kept copy, started when the stream first overflows.
pub(crate) struct KeptOutput {
    ws: Arc<Workspace>,
    path: String,
    buf: Vec<u8>,
    /// Bytes handed to the store so far.
    stored: u64,
    started: bool,
    /// Bytes not kept past [`MAX_KEPT_BYTES`].
    cut: u64,
    error: Option<String>,
}

impl KeptOutput {
    pub(crate) fn new(ws: Arc<Workspace>, run_id: &str, extension: &str) -> Self {
        KeptOutput {
            ws,
            path: format!("{KEPT_OUTPUT_DIR}/{run_id}.{extension}"),
            buf: Vec::new(),
            stored: 0,
            started: false,
            cut: 0,
            error: None,
        }
    }

    /// Whether the stream has overflowed and is being kept.
    pub(crate) fn started(&self) -> bool {
        self.started
    }

    /// Starts the copy with what the stream held so far (an earlier
    /// attempt's output too: a replay rewrites the file from its start).
    pub(crate) fn start(&mut self, so_far: &[u8]) {
        self.started = true;
        self.stored = 0;
        self.buf.clear();
        self.push(so_far);
    }

    pub(crate) fn push(&mut self, bytes: &[u8]) {
        if self.error.is_some() {
            return;
        }
        let room = MAX_KEPT_BYTES.saturating_sub(self.stored + self.buf.len() as u64);
        let take = (bytes.len() as u64).min(room) as usize;
        self.buf.extend_from_slice(&bytes[..take]);
        self.cut += (bytes.len() - take) as u64;
        if self.buf.len() >= PIECE {
            self.store();
        }
    }

    /// Stores what is gathered and says where the stream is, for the
    /// truncation marker.
    pub(crate) fn finish(&mut self) -> String {
        self.store();
        match &self.error {
            Some(e) => format!("the whole stream could not be kept: {e}"),
            None if self.cut > 0 => format!(
                "its first {} MiB are in {} (read it in ranges)",
                MAX_KEPT_BYTES >> 20,
                self.path
            ),
            None => format!("all of it is in {} (read it in ranges)", self.path),
        }
    }

    fn store(&mut self) {
        if self.error.is_some() || (self.buf.is_empty() && self.stored > 0) {
            return;
        }
        let piece = std::mem::take(&mut self.buf);
        if self.stored == 0
            && let Err(e) = own_place(&self.ws, &self.path)
        {
            self.error = Some(e);
            return;
        }
        let written = if self.stored == 0 {
            prune(&self.ws);
            let opts = WriteOptions {
                create_parents: true,
                ..Default::default()
            };
            self.ws.write(&self.path, &piece, &opts)
        } else {
            self.ws.append(&self.path, &piece)
        };
        match written {
            Ok(()) => self.stored += piece.len() as u64,
            Err(e) => self.error = Some(e.to_string()),
        }
    }
}

/// Refuses to keep a stream where the agent put a symlink or a file: the
/// host must not write, nor prune, wherever an agent-made
/// `/.computer/output -> /victim` points. Missing directories are made by
/// the write itself.
fn own_place(ws: &Workspace, file: &str) -> Result<(), String> {
    use computer_store::{Errno, NodeKind};
    let places = [
        ("/.computer", NodeKind::Directory),
        (KEPT_OUTPUT_DIR, NodeKind::Directory),
        (file, NodeKind::File),
    ];
    for (path, want) in places {
        match ws.lstat(path) {
            Ok(st) if st.kind == want => {}
            Ok(st) => {
                return Err(format!(
                    "{path} is a {}, not the {} the host made; remove it to keep long output",
                    kind_name(st.kind),
                    kind_name(want)
                ));
            }
            Err(e) if e.code == Errno::ENOENT => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

fn kind_name(kind: computer_store::NodeKind) -> &'static str {
    match kind {
        computer_store::NodeKind::File => "file",
        computer_store::NodeKind::Directory => "directory",
        computer_store::NodeKind::Symlink => "symlink",
    }
}

/// Removes the oldest kept files so that, with the one about to be
/// written, at most [`KEEP_RUNS`] stay. A failure only leaves more.
fn prune(ws: &Workspace) {
    let Ok(mut entries) = ws.readdir(KEPT_OUTPUT_DIR, Page::default()) else {
        return;
    };
    if entries.len() < KEEP_RUNS {
        return;
    }
    entries.sort_by_key(|e| (e.mtime_ns, e.name.clone()));
    let excess = entries.len() + 1 - KEEP_RUNS;
    for e in entries.iter().take(excess) {
        let path = format!("{KEPT_OUTPUT_DIR}/{}", e.name);
        if let Err(err) = ws.rm(&path, RmOptions::default()) {
            tracing::warn!("cannot remove old kept output {path}: {err}");
        }
    }
}
