//! `computer fork NAME`: independent workspaces that start from this one's
//! state (the live tree, or `--from SNAPSHOT`), one workspace file each,
//! next to this one under `forks/` unless `--dir` says where. `computer
//! forks` lists them. Running and parked runs stay with the parent.

use std::path::{Path, PathBuf};

use computer_store::Workspace;
use serde_json::json;

use crate::error::{CliError, CliResult};
use crate::output::{Out, shown, time_string};

/// Most forks one command makes.
const MAX_COUNT: u32 = 1000;

pub fn fork(
    ws: &Workspace,
    name: &str,
    from: Option<&str>,
    count: Option<u32>,
    dir: Option<PathBuf>,
    out: Out,
) -> CliResult {
    let dir = match dir {
        Some(d) => d,
        None => ws
            .location()
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("forks"), |p| p.join("forks")),
    };
    let names: Vec<String> = match count {
        None => vec![name.to_owned()],
        Some(n) if (1..=MAX_COUNT).contains(&n) => (1..=n).map(|i| format!("{name}-{i}")).collect(),
        Some(n) => {
            return Err(CliError::invalid(format!(
                "--count {n}: make 1 to {MAX_COUNT} forks at a time"
            )));
        }
    };
    let mut made = Vec::new();
    for n in &names {
        let info = ws.fork(n, &dir.join(format!("{n}.db")), from)?;
        if !out.json {
            println!(
                "fork {} at {} (computer --workspace {} exec ...)",
                shown(&info.name),
                info.path.display(),
                info.path.display()
            );
        }
        made.push(info);
    }
    if out.json {
        println!("{}", json!({ "forks": made }));
    }
    Ok(())
}

pub fn list(ws: &Workspace, out: Out) -> CliResult {
    let all = ws.forks()?;
    out.emit(json!({ "forks": all }), || {
        if all.is_empty() {
            println!("no forks (computer fork NAME)");
        }
        for f in &all {
            println!(
                "{}\t{}\t{}\t{}{}",
                shown(&f.name),
                f.path.display(),
                time_string(f.created_ns.max(0) as u64),
                f.from_snapshot
                    .as_deref()
                    .map_or("live".into(), |s| format!("from {}", shown(s))),
                if f.exists { "" } else { "\t(file gone)" }
            );
        }
    });
    Ok(())
}
