//! The wasi suite: `wasi:cli/command` programs run on a workspace through
//! `Runtime::run_command`, each side by side with the same program built
//! natively and run as a process on tmpfs.
//!
//! - sequential write, then read, of 64 MiB (`wasi_bench seq-write`/`seq-read`);
//! - open + stat + close of 1,000 files (`wasi_bench open-stat`);
//! - SQLite: 10,000 inserts in one transaction and an aggregate (`sqlite_bench`);
//! - `rg TODO` over a 5,000-file tree (ripgrep 15 in wasm, Debian's rg natively);
//! - cold start of `wasi_bench hello` with a warm compile cache, against
//!   spawning the native binary.
//!
//! The first three are timed inside the programs (they print their own
//! microseconds), so start-up is left to the cold-start row; `rg` and
//! `hello` are timed from the caller, start-up included.
//!
//! `COMPUTER_WASI_BENCH_ONLY=NAME` runs one workload (`sequential`,
//! `open-stat`, `sqlite`, `rg` or `cold-start`), for profiling it alone.
//!
//! The programs come from `scripts/build-wasi-programs.sh` (see there for
//! where they land and the variables that override that); native `rg` from
//! Debian's `ripgrep` package.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail, ensure};
use computer_runtime::{CommandOptions, Limits, Runtime, RuntimeConfig};
use computer_store::{MkdirOptions, RmOptions, Workspace, WriteOptions};

use crate::report::{Row, median, us};

struct Sizes {
    trials: usize,
    mib: usize,
    files: usize,
    rows: usize,
    tree: usize,
    starts: usize,
}

/// The programs under test, wasm bytes and native paths.
struct Programs {
    bench_wasm: Vec<u8>,
    bench_native: PathBuf,
    sqlite_wasm: Vec<u8>,
    sqlite_native: PathBuf,
    rg_wasm: Vec<u8>,
    rg_native: PathBuf,
}

fn programs_dir() -> PathBuf {
    std::env::var_os("COMPUTER_WASI_PROGRAMS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/wasi-programs")
        })
}

fn built(var: &str, rel: &str) -> Result<PathBuf> {
    let path = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| programs_dir().join(rel));
    ensure!(
        path.is_file(),
        "{} is missing: run scripts/build-wasi-programs.sh (or point {var} at it)",
        path.display()
    );
    Ok(path)
}

impl Programs {
    fn find() -> Result<Programs> {
        let read = |var: &str, rel: &str| -> Result<Vec<u8>> {
            let p = built(var, rel)?;
            std::fs::read(&p).with_context(|| format!("reading {}", p.display()))
        };
        let rg_native = PathBuf::from("/usr/bin/rg");
        ensure!(
            rg_native.is_file(),
            "/usr/bin/rg is missing: install the Debian package ripgrep (scripts/setup.sh does)"
        );
        Ok(Programs {
            bench_wasm: read(
                "COMPUTER_WASI_BENCH_WASM",
                "target/wasm32-wasip2/release/wasi_bench.wasm",
            )?,
            bench_native: built("COMPUTER_WASI_BENCH_NATIVE", "target/release/wasi_bench")?,
            sqlite_wasm: read(
                "COMPUTER_SQLITE_BENCH_WASM",
                "target/wasm32-wasip2/release/sqlite_bench.wasm",
            )?,
            sqlite_native: built(
                "COMPUTER_SQLITE_BENCH_NATIVE",
                "target/release/sqlite_bench",
            )?,
            rg_wasm: read("COMPUTER_RG_WASM", "bin/rg.wasm")?,
            rg_native,
        })
    }
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    let sizes = if quick {
        Sizes {
            trials: 1,
            mib: 1,
            files: 50,
            rows: 500,
            tree: 200,
            starts: 5,
        }
    } else {
        Sizes {
            trials: 5,
            mib: 64,
            files: 1000,
            rows: 10_000,
            tree: 5000,
            starts: 500,
        }
    };
    let progs = Programs::find()?;
    let runtime = Runtime::new(RuntimeConfig::default())?;
    let scratch = tempfile::Builder::new()
        .prefix("computer-wasi-bench")
        .tempdir_in(base)?;
    let bench = Bench {
        runtime: &runtime,
        progs: &progs,
        dir: scratch.path(),
        s: &sizes,
    };
    bench.warm_up()?;
    let only = std::env::var("COMPUTER_WASI_BENCH_ONLY").ok();
    let mut rows = Vec::new();
    type Workload<'a> = fn(&Bench<'a>, &mut Vec<Row>) -> Result<()>;
    let workloads: [(&str, Workload<'_>); 5] = [
        ("sequential", Bench::sequential),
        ("open-stat", Bench::open_stat),
        ("sqlite", Bench::sqlite),
        ("rg", Bench::ripgrep),
        ("cold-start", Bench::cold_start),
    ];
    for (name, workload) in workloads {
        if only.as_deref().is_none_or(|o| o == name) {
            workload(&bench, &mut rows)?;
        }
    }
    Ok(rows)
}

struct Bench<'a> {
    runtime: &'a Runtime,
    progs: &'a Programs,
    dir: &'a Path,
    s: &'a Sizes,
}

/// What a run printed, and how long it took from the caller's side.
struct Ran {
    stdout: String,
    took: Duration,
}

impl Bench<'_> {
    /// Compiles each component once (or loads it from the compile cache),
    /// so no timed run pays for it.
    fn warm_up(&self) -> Result<()> {
        let ws = self.workspace("warm-up")?;
        let p = self.progs;
        self.wasm(&ws, "wasi_bench", &p.bench_wasm, &["hello"])?;
        self.wasm(&ws, "sqlite_bench", &p.sqlite_wasm, &["/warm.db", "1"])?;
        self.wasm(&ws, "rg", &p.rg_wasm, &["--version"])?;
        Ok(())
    }

    fn workspace(&self, name: &str) -> Result<Arc<Workspace>> {
        Ok(Arc::new(Workspace::open(
            self.dir.join(format!("{name}.db")),
        )?))
    }

    fn native_dir(&self, name: &str) -> Result<PathBuf> {
        let d = self.dir.join(name);
        std::fs::create_dir_all(&d)?;
        Ok(d)
    }

    fn wasm(&self, ws: &Arc<Workspace>, name: &str, bytes: &[u8], args: &[&str]) -> Result<Ran> {
        let mut argv = vec![name.to_owned()];
        argv.extend(args.iter().map(|a| (*a).to_owned()));
        let options = CommandOptions {
            argv,
            limits: Limits {
                stdout_bytes: 256 << 20,
                ..Limits::default()
            },
            ..CommandOptions::default()
        };
        let t = Instant::now();
        let r = self.runtime.run_command(ws.clone(), name, bytes, options)?;
        let took = t.elapsed();
        if r.exit_code != 0 {
            bail!(
                "wasm {name} {args:?} exited {}: {}",
                r.exit_code,
                String::from_utf8_lossy(&r.stderr)
            );
        }
        Ok(Ran {
            stdout: String::from_utf8(r.stdout)?,
            took,
        })
    }

    fn native(&self, bin: &Path, args: &[&str], cwd: &Path) -> Result<Ran> {
        let t = Instant::now();
        let out = Command::new(bin)
            .args(args)
            .current_dir(cwd)
            .output()
            .with_context(|| format!("running {}", bin.display()))?;
        let took = t.elapsed();
        ensure!(
            out.status.success(),
            "native {} {args:?}: {}: {}",
            bin.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(Ran {
            stdout: String::from_utf8(out.stdout)?,
            took,
        })
    }

    /// 64 MiB written in 64 KiB writes and closed, then read back in 64 KiB
    /// reads, each trial on a new file.
    fn sequential(&self, rows: &mut Vec<Row>) -> Result<()> {
        let mib = self.s.mib.to_string();
        let ws = self.workspace("seq")?;
        let nd = self.native_dir("native-seq")?;
        let mut times: [Vec<Duration>; 5] = Default::default();
        for _ in 0..self.s.trials {
            if ws.exists("/big.bin")? {
                ws.rm("/big.bin", RmOptions::default())?;
            }
            let np = nd.join("big.bin");
            let _ = std::fs::remove_file(&np);
            let np = np.to_str().context("scratch path is not UTF-8")?;
            let b = &self.progs.bench_wasm;
            let cw = self.wasm(&ws, "wasi_bench", b, &["seq-write", "/big.bin", &mib])?;
            let nw = self.native(&self.progs.bench_native, &["seq-write", np, &mib], &nd)?;
            let cr = self.wasm(&ws, "wasi_bench", b, &["seq-read", "/big.bin"])?;
            let nr = self.native(&self.progs.bench_native, &["seq-read", np], &nd)?;
            let bytes = (self.s.mib << 20).to_string();
            for (i, ran) in [&cw, &nw, &cr, &nr].into_iter().enumerate() {
                let f = fields(&ran.stdout)?;
                ensure!(f[1] == bytes, "moved {} bytes, not {bytes}", f[1]);
                times[i].push(micros(&f[2])?);
            }
            times[4].push(micros(&fields(&cw.stdout)?[3])?);
        }
        let [cw, nw, cr, nr, cc] = times;
        let m = self.s.mib;
        rows.push(row(
            format!("write {m} MiB (64 KiB writes) and close"),
            cw,
            nw,
            "≤ 2x",
        ));
        // Natively a close without fsync takes about a microsecond: a ratio
        // to it would say nothing.
        rows.push(Row {
            work: "  of which the close".into(),
            computer_us: us(median(cc)),
            native_us: None,
            target: "–".into(),
        });
        rows.push(row(format!("read {m} MiB (64 KiB reads)"), cr, nr, "≤ 2x"));
        Ok(())
    }

    /// Open, stat and close each of N existing small files.
    fn open_stat(&self, rows: &mut Vec<Row>) -> Result<()> {
        let n = self.s.files;
        let ws = self.workspace("open-stat")?;
        ws.mkdir("/d", &MkdirOptions::default())?;
        let nd = self.native_dir("native-open-stat")?;
        for i in 0..n {
            let data = format!("file number {i}\n");
            ws.write(
                &format!("/d/f{i:05}"),
                data.as_bytes(),
                &WriteOptions::default(),
            )?;
            std::fs::write(nd.join(format!("f{i:05}")), &data)?;
        }
        let count = n.to_string();
        let (mut c, mut nat) = (vec![], vec![]);
        for _ in 0..self.s.trials {
            let b = &self.progs.bench_wasm;
            let cr = self.wasm(&ws, "wasi_bench", b, &["open-stat", &count, "/d"])?;
            let nr = self.native(&self.progs.bench_native, &["open-stat", &count, "."], &nd)?;
            c.push(micros(&fields(&cr.stdout)?[2])?);
            nat.push(micros(&fields(&nr.stdout)?[2])?);
        }
        rows.push(row(
            format!("open + stat + close {n} files"),
            c,
            nat,
            "≤ 3x",
        ));
        Ok(())
    }

    /// N inserts in one transaction and an aggregate, each trial on a new
    /// database file.
    fn sqlite(&self, rows: &mut Vec<Row>) -> Result<()> {
        let n = self.s.rows.to_string();
        let ws = self.workspace("sqlite")?;
        let nd = self.native_dir("native-sqlite")?;
        let (mut c, mut nat, mut c_whole, mut n_whole) = (vec![], vec![], vec![], vec![]);
        for trial in 0..self.s.trials {
            let db = format!("/bench{trial}.db");
            let np = nd.join(format!("bench{trial}.db"));
            let np = np.to_str().context("scratch path is not UTF-8")?;
            let cr = self.wasm(&ws, "sqlite_bench", &self.progs.sqlite_wasm, &[&db, &n])?;
            let nr = self.native(&self.progs.sqlite_native, &[np, &n], &nd)?;
            let (cf, nf) = (fields(&cr.stdout)?, fields(&nr.stdout)?);
            ensure!(cf[..3] == nf[..3], "results differ: {cf:?} vs {nf:?}");
            c.push(micros(&cf[3])?);
            nat.push(micros(&nf[3])?);
            c_whole.push(cr.took);
            n_whole.push(nr.took);
        }
        rows.push(row(
            format!("SQLite: {n} inserts in one transaction + aggregate"),
            c,
            nat,
            "≤ 3x",
        ));
        rows.push(row(
            "  the same, timed from outside (start-up included)".to_string(),
            c_whole,
            n_whole,
            "–",
        ));
        Ok(())
    }

    /// `rg TODO .` over a generated tree, against native rg with its
    /// default threads and with one (wasm rg has one).
    fn ripgrep(&self, rows: &mut Vec<Row>) -> Result<()> {
        let files = self.s.tree;
        let ws = self.workspace("rg")?;
        let nd = self.native_dir("native-rg")?;
        let parents = WriteOptions {
            create_parents: true,
            ..Default::default()
        };
        for (rel, data) in source_tree(files) {
            ws.write(&format!("/{rel}"), &data, &parents)?;
            let p = nd.join(&rel);
            std::fs::create_dir_all(p.parent().context("no parent")?)?;
            std::fs::write(p, &data)?;
        }
        let (mut c, mut n_threads, mut n_one) = (vec![], vec![], vec![]);
        for _ in 0..self.s.trials {
            let cr = self.wasm(&ws, "rg", &self.progs.rg_wasm, &["TODO", "."])?;
            let nt = self.native(&self.progs.rg_native, &["TODO", "."], &nd)?;
            let n1 = self.native(&self.progs.rg_native, &["-j1", "TODO", "."], &nd)?;
            let lines = cr.stdout.lines().count();
            ensure!(lines > 0, "wasm rg found nothing");
            for ran in [&nt, &n1] {
                let native_lines = ran.stdout.lines().count();
                ensure!(
                    native_lines == lines,
                    "rg found {lines} lines in wasm, {native_lines} natively"
                );
            }
            c.push(cr.took);
            n_threads.push(nt.took);
            n_one.push(n1.took);
        }
        rows.push(row(
            format!("`rg TODO .` over {files} files vs native rg -j1"),
            c.clone(),
            n_one,
            "≤ 3x",
        ));
        rows.push(row(
            format!("`rg TODO .` over {files} files vs native rg (2 threads)"),
            c,
            n_threads,
            "–",
        ));
        Ok(())
    }

    /// `hello` again and again, compiled once: the start-up a workspace
    /// command pays, against spawning the same program natively.
    fn cold_start(&self, rows: &mut Vec<Row>) -> Result<()> {
        let ws = self.workspace("hello")?;
        let b = &self.progs.bench_wasm;
        // Warm-up: compiles (or loads) the component into the cache.
        for _ in 0..3 {
            self.wasm(&ws, "wasi_bench", b, &["hello"])?;
        }
        let nd = self.native_dir("native-hello")?;
        let (mut c, mut nat) = (vec![], vec![]);
        for _ in 0..self.s.starts {
            let cr = self.wasm(&ws, "wasi_bench", b, &["hello"])?;
            ensure!(cr.stdout == "hello\n", "wasm hello printed {:?}", cr.stdout);
            c.push(cr.took);
            let nr = self.native(&self.progs.bench_native, &["hello"], &nd)?;
            ensure!(
                nr.stdout == "hello\n",
                "native hello printed {:?}",
                nr.stdout
            );
            nat.push(nr.took);
        }
        c.sort();
        nat.sort();
        let p99 = |xs: &[Duration]| xs[((xs.len() - 1) as f64 * 0.99).round() as usize];
        rows.push(Row {
            work: format!(
                "cold start of `hello` p50 ({} runs, warm compile cache) vs native spawn",
                self.s.starts
            ),
            computer_us: us(c[c.len() / 2]),
            native_us: Some(us(nat[nat.len() / 2])),
            target: "≤ 1 ms".into(),
        });
        rows.push(Row {
            work: "cold start of `hello` p99 vs native spawn".into(),
            computer_us: us(p99(&c)),
            native_us: Some(us(p99(&nat))),
            target: "–".into(),
        });
        Ok(())
    }
}

fn row(work: String, computer: Vec<Duration>, native: Vec<Duration>, target: &str) -> Row {
    Row {
        work,
        computer_us: us(median(computer)),
        native_us: Some(us(median(native))),
        target: target.into(),
    }
}

/// The whitespace-separated fields of a program's one line of output.
fn fields(stdout: &str) -> Result<Vec<String>> {
    let f: Vec<String> = stdout.split_whitespace().map(String::from).collect();
    ensure!(f.len() >= 3, "unexpected output {stdout:?}");
    Ok(f)
}

fn micros(field: &str) -> Result<Duration> {
    let v: u64 = field
        .parse()
        .with_context(|| format!("not microseconds: {field:?}"))?;
    Ok(Duration::from_micros(v))
}

/// `files` source files in nested directories, one in eight with a TODO
/// line, 2-6 KiB each (a mid-sized repository's shape).
fn source_tree(files: usize) -> Vec<(String, Vec<u8>)> {
    let mut seed: u64 = 0x7e57;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    (0..files)
        .map(|i| {
            let dir = format!("src/m{:02}/s{:02}", i % 50, (i / 50) % 10);
            let mut text = String::new();
            let lines = 60 + next() % 120;
            for l in 0..lines {
                if i % 8 == 0 && l == lines / 2 {
                    text.push_str(&format!("    // TODO: revisit item {i}\n"));
                } else {
                    text.push_str(&format!(
                        "    let value_{l} = compute({}, \"{}\");\n",
                        next() % 10_000,
                        i
                    ));
                }
            }
            (format!("{dir}/file_{i:05}.rs"), text.into_bytes())
        })
        .collect()
}
