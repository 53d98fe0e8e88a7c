//! Opening the workspace file for a command, and the commands about the
//! file itself: `init`, `info`, `quota`, `fsck`.

use std::path::Path;

use computer_store::{Config, OpenMode, Workspace};
use serde_json::json;

use crate::args::{Command, FsCommand, RunsCommand};
use crate::error::{CliError, CliResult};
use crate::output::{Out, counted};

/// Only `init` and commands that change the workspace create the file;
/// commands that only read it need it to exist, and open it read-only when
/// this user cannot write it.
pub fn open_mode(command: &Command) -> OpenMode {
    use crate::commands_cmd::CommandsCommand as C;
    use crate::modules_cmd::ModulesCommand as M;
    use crate::net_cmd::NetCommand as N;
    let reads = match command {
        Command::Info | Command::Fsck | Command::Export { .. } => true,
        Command::Quota { size } => size.is_none(),
        Command::Fs(fs) => matches!(
            fs,
            FsCommand::Read { .. }
                | FsCommand::Ls { .. }
                | FsCommand::Stat { .. }
                | FsCommand::Readlink { .. }
                | FsCommand::Find { .. }
                | FsCommand::Grep { .. }
        ),
        Command::Runs { command, .. } => {
            matches!(command, None | Some(RunsCommand::Show { .. }))
        }
        Command::Audit { .. } | Command::Pending => true,
        Command::Modules(m) => matches!(m, M::Ls),
        Command::Net(n) => matches!(n, N::Ls),
        Command::Diff(_) | Command::Forks => true,
        Command::Snapshot(s) => matches!(
            s,
            crate::snapshot_cmd::SnapshotCommand::Ls
                | crate::snapshot_cmd::SnapshotCommand::Show { .. }
                | crate::snapshot_cmd::SnapshotCommand::Export { .. }
        ),
        Command::Commands(c) => matches!(c, C::Ls),
        _ => false,
    };
    if reads {
        OpenMode::Read
    } else {
        OpenMode::Create
    }
}

pub fn open(path: &Path, command: &Command) -> CliResult<Workspace> {
    let config = Config {
        mode: open_mode(command),
        ..Default::default()
    };
    Ok(Workspace::open_with(path, config)?)
}

pub fn init(ws: &Workspace, shown: &str, quota: Option<&str>, out: Out) -> CliResult {
    if let Some(size) = quota {
        ws.set_quota(parse_size(size)?)?;
    }
    out.emit(json!({"workspace": shown, "rev": ws.rev()?}), || {
        println!("workspace ready: {shown}")
    });
    Ok(())
}

pub fn info(ws: &Workspace, shown: &str, out: Out) -> CliResult {
    let usage = ws.usage()?;
    let rev = ws.rev()?;
    let ro = ws.readonly_paths()?;
    let snapshots = ws.snapshot_space()?;
    out.emit(
        json!({"workspace": shown, "rev": rev, "usage": usage, "readonly": ro, "snapshots": snapshots}),
        || {
            println!("workspace: {shown}");
            println!("rev: {rev}");
            println!("nodes: {}", usage.nodes);
            println!(
                "chunks: {} ({} stored)",
                usage.chunks,
                counted(usage.stored_bytes, "byte", "bytes")
            );
            println!("file bytes: {}", usage.node_bytes);
            for p in &ro {
                println!("read-only: {p}");
            }
            for s in &snapshots {
                println!(
                    "snapshot {}: holds {} alone ({})",
                    crate::output::shown(&s.name),
                    counted(s.exclusive_chunks, "chunk", "chunks"),
                    counted(s.exclusive_bytes, "byte", "bytes")
                );
            }
        },
    );
    Ok(())
}

/// `computer quota` shows the quota; `computer quota SIZE` sets it.
pub fn quota(ws: &Workspace, size: Option<&str>, out: Out) -> CliResult {
    if let Some(size) = size {
        ws.set_quota(parse_size(size)?)?;
    }
    let q = ws.quota()?;
    out.emit(json!(q), || {
        println!(
            "quota: {}, {} used",
            counted(q.limit, "byte", "bytes"),
            q.used
        )
    });
    Ok(())
}

/// Exit 0 when the workspace is whole, 1 (after the report) when it is not.
pub fn fsck(ws: &Workspace, shown: &str, out: Out) -> CliResult<u8> {
    let report = ws.fsck()?;
    let clean = report.is_clean();
    out.emit(
        json!({"workspace": shown, "clean": clean, "report": report}),
        || {
            for p in &report.problems {
                println!("{p}");
            }
            let summary = if clean {
                "ok".to_owned()
            } else {
                format!(
                    "{} found",
                    counted(report.problems.len() as u64, "problem", "problems")
                )
            };
            println!(
                "fsck {shown}: {}, {}, {} checked: {summary}",
                counted(report.nodes, "node", "nodes"),
                counted(report.entries, "entry", "entries"),
                counted(report.chunks, "chunk", "chunks")
            );
        },
    );
    Ok(if clean { 0 } else { 1 })
}

/// A byte count: digits with an optional binary suffix (K, M, G, T; `KiB`
/// and `KB` mean the same).
pub fn parse_size(text: &str) -> CliResult<u64> {
    let t = text.trim();
    let digits = t.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(bad_size(text)),
    };
    let n: u64 = num.parse().map_err(|_| bad_size(text))?;
    n.checked_mul(1u64 << shift)
        .filter(|&b| b <= i64::MAX as u64)
        .ok_or_else(|| bad_size(text))
}

fn bad_size(text: &str) -> CliError {
    CliError::invalid(format!(
        "{text:?} is not a size: give bytes, optionally with K, M, G or T (binary units), like 10G"
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_binary_suffixes() {
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert_eq!(parse_size("1K").unwrap(), 1024);
        assert_eq!(parse_size("10GiB").unwrap(), 10 << 30);
        assert_eq!(parse_size("2 mb").unwrap(), 2 << 20);
        for bad in ["", "G", "1.5G", "-1", "10X", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad:?} accepted");
        }
    }
}
