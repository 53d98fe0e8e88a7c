//! A Rust application embedding a workspace: open it, seed it from a host
//! directory, let an "agent" edit files, fork the project cheaply, and
//! export the result. Run with `cargo run -p example-embed`.

use anyhow::Result;
use computer_store::{Errno, GrepOptions, Page, TextEdit, Workspace, WriteOptions};

fn main() -> Result<()> {
    let scratch = tempfile::tempdir()?;
    let ws = Workspace::open(scratch.path().join("agent.db"))?;

    // Seed the workspace from the host.
    let seed = scratch.path().join("seed");
    std::fs::create_dir_all(seed.join("src"))?;
    std::fs::write(
        seed.join("src/lib.rs"),
        "pub fn answer() -> u32 {\n    41\n}\n",
    )?;
    let stats = ws.import(&seed, "/project", &mut |_| {})?;
    println!("imported {} files", stats.files);

    // Fork the project before the agent touches it: O(1), shares all content.
    ws.mkdir("/snapshots", &Default::default())?;
    ws.copy("/project", "/snapshots/before", true)?;

    // The agent finds the bug and fixes it with a unique-match edit.
    let hits = ws.grep("/project", "41", &GrepOptions::default())?;
    println!(
        "found {}:{}",
        hits.matches[0].path, hits.matches[0].line_number
    );
    let result = ws.edit(
        "/project/src/lib.rs",
        &[TextEdit {
            old: "41".into(),
            new: "42".into(),
        }],
    )?;
    print!("{}", result.diff);

    // Errors are POSIX-coded and name the path.
    match ws.write("/project/src", b"oops", &WriteOptions::default()) {
        Err(e) if e.code == Errno::EISDIR => println!("refused: {e}"),
        other => anyhow::bail!("expected EISDIR, got {other:?}"),
    }

    // The snapshot still has the original.
    let before = String::from_utf8(ws.read("/snapshots/before/src/lib.rs")?)?;
    assert!(before.contains("41"));
    for entry in ws.find("/", "**/*.rs", Page::all())?.entries {
        println!("{}", entry.path);
    }

    let out = scratch.path().join("out");
    ws.export("/project", &out)?;
    println!("exported to {}", out.display());
    println!("{}", std::fs::read_to_string(out.join("src/lib.rs"))?);
    Ok(())
}
