//! `computer undo RUN`: reverts what one run changed, if nothing touched
//! the same paths since (else names them; `--force` reverts the rest).
//! `computer gc`: frees the content only old runs' trees hold.

use computer_store::Workspace;
use serde_json::json;

use crate::error::CliResult;
use crate::output::{Out, counted, shown};

pub fn undo(ws: &Workspace, run: &str, force: bool, out: Out) -> CliResult {
    let report = ws.undo_with(run, force)?;
    out.emit(json!({ "undo": report }), || {
        println!(
            "undid run {}: {} reverted",
            shown(&report.run),
            counted(report.reverted.len() as u64, "path", "paths")
        );
        for p in &report.reverted {
            println!("reverted {}", shown(p));
        }
        for p in &report.conflicts {
            println!("left as it is (changed since the run): {}", shown(p));
        }
    });
    Ok(())
}

pub fn gc(ws: &Workspace, keep_runs: usize, out: Out) -> CliResult {
    let r = ws.gc(keep_runs)?;
    out.emit(json!({ "gc": r }), || {
        println!(
            "freed {} ({}); dropped the undo trees of {}; {} left",
            counted(r.chunks_freed, "chunk", "chunks"),
            counted(r.bytes_freed, "byte", "bytes"),
            counted(r.runs_dropped, "run", "runs"),
            counted(r.chunks_left, "chunk", "chunks")
        )
    });
    Ok(())
}
