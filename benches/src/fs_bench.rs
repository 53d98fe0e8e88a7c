//! The filesystem suite: the seven workloads plus an O(1) check of
//! copy and rename at two subtree sizes.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use computer_store::{Page, RmOptions, Workspace, WriteOptions};

use crate::report::{Row, median, us};

struct Sizes {
    files: usize,
    big: usize,
    trials: usize,
    small_tree: usize,
    large_tree: usize,
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let sizes = if quick {
        Sizes {
            files: 50,
            big: 1 << 20,
            trials: 1,
            small_tree: 10,
            large_tree: 100,
        }
    } else {
        Sizes {
            files: 1000,
            big: 64 << 20,
            trials: 5,
            small_tree: 100,
            large_tree: 10_000,
        }
    };
    let scratch = tempfile::Builder::new()
        .prefix("computer-bench")
        .tempdir_in(base)?;
    let mut rows = Vec::new();
    // `COMPUTER_FS_BENCH_ONLY=gate`: only the gate's rows (issue 38).
    if std::env::var("COMPUTER_FS_BENCH_ONLY").as_deref() == Ok("gate") {
        gates(scratch.path(), &sizes, &mut rows)?;
        return Ok(rows);
    }
    metadata(scratch.path(), &sizes, &mut rows)?;
    big_file(scratch.path(), &sizes, &mut rows)?;
    trees(scratch.path(), &sizes, &mut rows)?;
    scaling(scratch.path(), &sizes, &mut rows)?;
    overhead(
        scratch.path(),
        &sizes,
        &mut rows,
        "audit",
        fresh_ws_with,
        "≤ 1.10x",
    )?;
    // Kept once a container sync asks for it.
    overhead(
        scratch.path(),
        &sizes,
        &mut rows,
        "change log",
        |dir, name, on| {
            let ws = fresh_ws(dir, name)?;
            if on {
                ws.keep_change_log()?;
            }
            Ok(ws)
        },
        "≤ 1.10x",
    )?;
    gates(scratch.path(), &sizes, &mut rows)?;
    Ok(rows)
}

/// The gate (issue 38): a trivial allowing gate, and a policy file of 100
/// rules (none of which matches the files made), against none.
fn gates(dir: &Path, s: &Sizes, rows: &mut Vec<Row>) -> Result<()> {
    struct Allow;
    impl computer_store::Gate for Allow {
        fn check(&self, _: &computer_store::Action<'_>) -> computer_store::Decision {
            computer_store::Decision::Allow
        }
    }
    overhead(
        dir,
        s,
        rows,
        "trivial gate",
        |dir, name, on| {
            let ws = fresh_ws(dir, name)?;
            if on {
                ws.add_gate(std::sync::Arc::new(Allow));
            }
            Ok(ws)
        },
        "≤ 1.05x",
    )?;
    overhead(
        dir,
        s,
        rows,
        "100-rule policy",
        |dir, name, on| {
            let ws = fresh_ws(dir, name)?;
            if on {
                let mut policy = String::new();
                for i in 0..50 {
                    policy.push_str(&format!(
                        "[[paths]]\nglob = \"/protected{i}/**/*.key\"\naccess = \"deny\"\n"
                    ));
                    policy.push_str(&format!("[[commands]]\nname = \"forbidden{i}\"\n"));
                }
                ws.set_policy(&policy)?;
            }
            Ok(ws)
        },
        "≤ 1.10x",
    )
}

fn fresh_ws(dir: &Path, name: &str) -> Result<Workspace> {
    fresh_ws_with(dir, name, true)
}

fn fresh_ws_with(dir: &Path, name: &str, audit: bool) -> Result<Workspace> {
    let db = dir.join(format!("{name}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let config = computer_store::Config {
        audit,
        ..Default::default()
    };
    Ok(Workspace::open_with(&db, config)?)
}

/// The metadata workloads with a feature (`what`) on and off; `open`
/// makes a fresh workspace with it on or off.
fn overhead(
    dir: &Path,
    s: &Sizes,
    rows: &mut Vec<Row>,
    what: &str,
    open: impl Fn(&Path, &str, bool) -> Result<Workspace>,
    target: &str,
) -> Result<()> {
    let n = s.files;
    let mut on = [vec![], vec![], vec![]];
    let mut off = [vec![], vec![], vec![]];
    for trial in 0..s.trials {
        for (feature, out) in [(true, &mut on), (false, &mut off)] {
            let name = format!("{}{trial}{feature}", what.replace(' ', "-"));
            let ws = open(dir, &name, feature)?;
            ws.mkdir("/d", &Default::default())?;
            let names: Vec<String> = (0..n).map(|i| format!("/d/f{i:05}")).collect();
            out[0].push(time(|| {
                for (i, p) in names.iter().enumerate() {
                    ws.write(p, &small_content(i), &WriteOptions::default())?;
                }
                Ok(())
            })?);
            out[1].push(time(|| {
                for p in &names {
                    std::hint::black_box(ws.stat(p)?);
                }
                Ok(())
            })?);
            out[2].push(time(|| {
                for p in &names {
                    ws.rm(p, RmOptions::default())?;
                }
                Ok(())
            })?);
        }
    }
    let [c_on, s_on, r_on] = on;
    let [c_off, s_off, r_off] = off;
    for (work, a, b) in [
        ("create", c_on, c_off),
        ("stat", s_on, s_off),
        ("remove", r_on, r_off),
    ] {
        rows.push(Row {
            work: format!("{work} {n} files: {what} on vs off"),
            computer_us: us(median(a)),
            native_us: Some(us(median(b))),
            target: target.into(),
        });
    }
    Ok(())
}

fn fresh_dir(dir: &Path, name: &str) -> Result<std::path::PathBuf> {
    let d = dir.join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d)?;
    Ok(d)
}

fn time<T>(f: impl FnOnce() -> Result<T>) -> Result<Duration> {
    let t = Instant::now();
    f()?;
    Ok(t.elapsed())
}

fn small_content(i: usize) -> Vec<u8> {
    format!("file number {i}\nsome small content for a small file\n").into_bytes()
}

/// create / stat / readdir / remove of N small files, each trial on fresh state.
fn metadata(dir: &Path, s: &Sizes, rows: &mut Vec<Row>) -> Result<()> {
    let n = s.files;
    let (mut c_create, mut c_stat, mut c_list, mut c_rm) = (vec![], vec![], vec![], vec![]);
    let (mut n_create, mut n_stat, mut n_list, mut n_rm) = (vec![], vec![], vec![], vec![]);
    for trial in 0..s.trials {
        let ws = fresh_ws(dir, &format!("meta{trial}"))?;
        ws.mkdir("/d", &Default::default())?;
        let names: Vec<String> = (0..n).map(|i| format!("/d/f{i:05}")).collect();
        c_create.push(time(|| {
            for (i, p) in names.iter().enumerate() {
                ws.write(p, &small_content(i), &WriteOptions::default())?;
            }
            Ok(())
        })?);
        c_stat.push(time(|| {
            for p in &names {
                std::hint::black_box(ws.stat(p)?);
            }
            Ok(())
        })?);
        c_list.push(time(|| {
            Ok(std::hint::black_box(ws.readdir("/d", Page::all())?.len()))
        })?);
        c_rm.push(time(|| {
            for p in &names {
                ws.rm(p, RmOptions::default())?;
            }
            Ok(())
        })?);

        let nd = fresh_dir(dir, &format!("native-meta{trial}"))?;
        let paths: Vec<_> = (0..n).map(|i| nd.join(format!("f{i:05}"))).collect();
        n_create.push(time(|| {
            for (i, p) in paths.iter().enumerate() {
                std::fs::write(p, small_content(i))?;
            }
            Ok(())
        })?);
        n_stat.push(time(|| {
            for p in &paths {
                std::hint::black_box(std::fs::metadata(p)?);
            }
            Ok(())
        })?);
        // Like readdir here, native listing includes each entry's metadata.
        n_list.push(time(|| {
            let mut count = 0;
            for e in std::fs::read_dir(&nd)? {
                std::hint::black_box(e?.metadata()?);
                count += 1;
            }
            Ok(count)
        })?);
        n_rm.push(time(|| {
            for p in &paths {
                std::fs::remove_file(p)?;
            }
            Ok(())
        })?);
    }
    let target = "≤ 3x".to_string();
    for (work, c, nat) in [
        (format!("create {n} small files"), c_create, n_create),
        (format!("stat {n} files"), c_stat, n_stat),
        (format!("readdir of {n} entries"), c_list, n_list),
        (format!("remove {n} files"), c_rm, n_rm),
    ] {
        rows.push(Row {
            work,
            computer_us: us(median(c)),
            native_us: Some(us(median(nat))),
            target: target.clone(),
        });
    }
    Ok(())
}

fn big_file(dir: &Path, s: &Sizes, rows: &mut Vec<Row>) -> Result<()> {
    let data: Vec<u8> = (0..s.big)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mb = s.big >> 20;
    let (mut cw, mut cr, mut nw, mut nr) = (vec![], vec![], vec![], vec![]);
    for trial in 0..s.trials {
        let ws = fresh_ws(dir, &format!("big{trial}"))?;
        cw.push(time(|| {
            Ok(ws.write("/big.bin", &data, &WriteOptions::default())?)
        })?);
        cr.push(time(|| {
            let back = ws.read("/big.bin")?;
            anyhow::ensure!(back.len() == data.len(), "short read");
            Ok(())
        })?);
        drop(ws);
        let nd = fresh_dir(dir, &format!("native-big{trial}"))?;
        let p = nd.join("big.bin");
        nw.push(time(|| Ok(std::fs::write(&p, &data)?))?);
        nr.push(time(|| {
            let back = std::fs::read(&p)?;
            anyhow::ensure!(back.len() == data.len(), "short read");
            Ok(())
        })?);
        std::fs::remove_dir_all(&nd)?;
    }
    rows.push(Row {
        work: format!("write one {mb} MiB file"),
        computer_us: us(median(cw)),
        native_us: Some(us(median(nw))),
        target: "≤ 2x".into(),
    });
    rows.push(Row {
        work: format!("read one {mb} MiB file"),
        computer_us: us(median(cr)),
        native_us: Some(us(median(nr))),
        target: "≤ 2x".into(),
    });
    Ok(())
}

fn populate_ws(ws: &Workspace, root: &str, n: usize) -> Result<()> {
    let opts = WriteOptions {
        create_parents: true,
        ..Default::default()
    };
    for i in 0..n {
        ws.write(
            &format!("{root}/d{}/f{i}", i % 20),
            &small_content(i),
            &opts,
        )?;
    }
    Ok(())
}

fn populate_native(root: &Path, n: usize) -> Result<()> {
    for i in 0..n {
        let d = root.join(format!("d{}", i % 20));
        std::fs::create_dir_all(&d)?;
        std::fs::write(d.join(format!("f{i}")), small_content(i))?;
    }
    Ok(())
}

fn copy_native(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_native(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}

/// Copy and rename of a 1,000-file tree.
fn trees(dir: &Path, s: &Sizes, rows: &mut Vec<Row>) -> Result<()> {
    let n = s.files;
    let (mut cc, mut cm, mut nc, mut nm) = (vec![], vec![], vec![], vec![]);
    for trial in 0..s.trials {
        let ws = fresh_ws(dir, &format!("tree{trial}"))?;
        populate_ws(&ws, "/src", n)?;
        cc.push(time(|| Ok(ws.copy("/src", "/copy", true)?))?);
        cm.push(time(|| Ok(ws.rename("/src", "/moved")?))?);
        let nd = fresh_dir(dir, &format!("native-tree{trial}"))?;
        populate_native(&nd.join("src"), n)?;
        nc.push(time(|| copy_native(&nd.join("src"), &nd.join("copy")))?);
        nm.push(time(|| {
            Ok(std::fs::rename(nd.join("src"), nd.join("moved"))?)
        })?);
        std::fs::remove_dir_all(&nd)?;
    }
    rows.push(Row {
        work: format!("copy a {n}-file tree"),
        computer_us: us(median(cc)),
        native_us: Some(us(median(nc))),
        target: "O(1)".into(),
    });
    rows.push(Row {
        work: format!("rename a directory of {n} files"),
        computer_us: us(median(cm)),
        native_us: Some(us(median(nm))),
        target: "O(1)".into(),
    });
    Ok(())
}

/// The same copy and rename at two subtree sizes: O(1) means equal times.
fn scaling(dir: &Path, s: &Sizes, rows: &mut Vec<Row>) -> Result<()> {
    for n in [s.small_tree, s.large_tree] {
        let (mut cc, mut cm) = (vec![], vec![]);
        let ws = fresh_ws(dir, &format!("scale{n}"))?;
        populate_ws(&ws, "/src", n)?;
        for t in 0..s.trials.max(3) {
            let (from, to) = if t % 2 == 0 {
                ("/src", "/moved")
            } else {
                ("/moved", "/src")
            };
            cc.push(time(|| Ok(ws.copy(from, &format!("/copy{t}"), true)?))?);
            cm.push(time(|| Ok(ws.rename(from, to)?))?);
        }
        rows.push(Row {
            work: format!("copy a tree of {n} files"),
            computer_us: us(median(cc)),
            native_us: None,
            target: "same for 100 and 10,000".into(),
        });
        rows.push(Row {
            work: format!("rename a tree of {n} files"),
            computer_us: us(median(cm)),
            native_us: None,
            target: "same for 100 and 10,000".into(),
        });
    }
    Ok(())
}
