//! `computer snapshot`: named, O(1) snapshots of the whole tree and the
//! workspace's settings (network allow-list, modules, commands, quota,
//! read-only subtrees). Runs are not part of a snapshot; restoring one
//! leaves run history alone.

use std::path::PathBuf;

use clap::Subcommand;
use computer_store::{SnapshotInfo, TreeRef, Workspace};
use serde_json::json;

use crate::error::CliResult;
use crate::output::{Out, shown, time_string};

#[derive(Subcommand, Debug)]
pub enum SnapshotCommand {
    /// Take a snapshot (named snap-N when no NAME is given)
    Create {
        /// 1-128 characters of A-Z a-z 0-9 . _ - (not starting with . or -)
        name: Option<String>,
        /// What the snapshot is for
        #[arg(short, long, default_value = "")]
        message: String,
    },
    /// List the snapshots, oldest first
    Ls,
    /// One snapshot: when, by whom, and the settings it holds
    Show {
        /// The snapshot's name (`computer snapshot ls`)
        name: String,
    },
    /// Make the live tree and settings what the snapshot holds (runs are kept)
    Restore {
        /// The snapshot's name (`computer snapshot ls`)
        name: String,
    },
    /// Remove a snapshot; content only it used is freed
    Rm {
        /// The snapshot's name (`computer snapshot ls`)
        name: String,
    },
    /// Write a snapshot's whole tree out to a host directory
    Export {
        /// The snapshot's name (`computer snapshot ls`)
        name: String,
        /// The host directory to write the tree into (created if missing)
        host_dir: PathBuf,
    },
}

fn print_one(s: &SnapshotInfo) {
    println!("snapshot: {}", shown(&s.name));
    if !s.message.is_empty() {
        println!("message: {}", shown(&s.message));
    }
    println!(
        "taken: {} by {}",
        time_string(s.created_ns.max(0) as u64),
        shown(&s.actor)
    );
    println!("rev: {}", s.rev);
    println!("quota: {} bytes", s.quota_bytes);
    for p in &s.readonly_paths {
        println!("read-only: {}", shown(p));
    }
    for e in &s.net_allow {
        println!("net allow: {}", shown(e));
    }
    for m in &s.modules {
        println!("module: {}", shown(m));
    }
    for c in &s.commands {
        println!("command: {}", shown(c));
    }
}

pub fn run(ws: &Workspace, cmd: SnapshotCommand, out: Out) -> CliResult {
    match cmd {
        SnapshotCommand::Create { name, message } => {
            let s = ws.snapshots().create(name.as_deref(), &message)?;
            out.emit(json!({ "snapshot": s }), || {
                println!("snapshot {} taken at rev {}", shown(&s.name), s.rev)
            });
        }
        SnapshotCommand::Ls => {
            let all = ws.snapshots().list()?;
            out.emit(json!({ "snapshots": all }), || {
                if all.is_empty() {
                    println!("no snapshots (computer snapshot create NAME)");
                }
                for s in &all {
                    println!(
                        "{}\t{}\trev {}\t{}",
                        shown(&s.name),
                        time_string(s.created_ns.max(0) as u64),
                        s.rev,
                        shown(&s.message)
                    );
                }
            });
        }
        SnapshotCommand::Show { name } => {
            let s = ws.snapshots().get(&name)?;
            out.emit(json!({ "snapshot": s }), || print_one(&s));
        }
        SnapshotCommand::Restore { name } => {
            let s = ws.snapshots().restore(&name)?;
            let rev = ws.rev()?;
            out.emit(json!({ "restored": s.name, "rev": rev }), || {
                println!("restored snapshot {} (now rev {rev})", shown(&s.name))
            });
        }
        SnapshotCommand::Rm { name } => {
            ws.snapshots().remove(&name)?;
            out.emit(json!({ "removed": name }), || {
                println!("removed snapshot {}", shown(&name))
            });
        }
        SnapshotCommand::Export { name, host_dir } => {
            let stats = ws.export_tree(&TreeRef::Snapshot(name.clone()), &host_dir)?;
            out.emit(json!({ "snapshot": name, "export": stats }), || {
                println!(
                    "exported snapshot {} to {}",
                    shown(&name),
                    host_dir.display()
                )
            });
        }
    }
    Ok(())
}
