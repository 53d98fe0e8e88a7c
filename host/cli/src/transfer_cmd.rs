//! `computer import` and `computer export`.

use std::path::Path;

use computer_store::Workspace;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::error::CliResult;
use crate::output::{Out, counted};

pub fn import(ws: &Workspace, host: &Path, ws_dir: &str, out: Out) -> CliResult {
    // indicatif draws only when stderr is a terminal.
    let bar = if out.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} importing {pos}/{len} files {bytes_per_sec} [{bar:30}] {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let stats = ws.import(host, ws_dir, &mut |p| {
        bar.set_length(p.files_total);
        bar.set_position(p.files_done);
    })?;
    bar.finish_and_clear();
    out.emit(json!(stats), || {
        println!(
            "imported {} into {ws_dir}",
            tally(stats.files, stats.dirs, stats.symlinks, stats.bytes)
        );
        for s in &stats.skipped {
            eprintln!("skipped: {s}");
        }
    });
    Ok(())
}

pub fn export(ws: &Workspace, ws_dir: &str, host: &Path, out: Out) -> CliResult {
    let stats = ws.export(ws_dir, host)?;
    out.emit(json!(stats), || {
        println!(
            "exported {} to {}",
            tally(stats.files, stats.dirs, stats.symlinks, stats.bytes),
            host.display()
        );
        for s in &stats.skipped {
            eprintln!("skipped: {s}");
        }
    });
    Ok(())
}

/// "1 file, 2 directories, 0 symlinks (5 bytes)".
fn tally(files: u64, dirs: u64, symlinks: u64, bytes: u64) -> String {
    format!(
        "{}, {}, {} ({})",
        counted(files, "file", "files"),
        counted(dirs, "directory", "directories"),
        counted(symlinks, "symlink", "symlinks"),
        counted(bytes, "byte", "bytes")
    )
}
