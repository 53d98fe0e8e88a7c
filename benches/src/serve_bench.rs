//! `computer serve` against the library in-process (issue 39): `exec 'echo
//! hi'` with 16 concurrent clients (runs/s, shown as time per run), and the
//! p99 latency of a 4 KiB file read. The server is the real router on
//! 127.0.0.1 (no auth, so the token lookup is not what is measured), driven
//! by 16 keep-alive HTTP/1.1 clients over TCP.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use computer_runtime::{ExecOptions, Runtime, RuntimeConfig};
use computer_server::{Server, ServerConfig};
use computer_store::Workspace;

use crate::report::{Row, us};

const CLIENTS: usize = 16;

fn runtime() -> anyhow::Result<Runtime> {
    let rt = Runtime::with_builtin_guests(RuntimeConfig {
        max_concurrent_runs: CLIENTS,
        ..RuntimeConfig::default()
    })?;
    computer_builtins::register(&rt)?;
    Ok(rt)
}

/// One keep-alive connection.
struct Conn {
    r: BufReader<TcpStream>,
}

impl Conn {
    fn new(addr: &str) -> Conn {
        let s = TcpStream::connect(addr).unwrap();
        s.set_nodelay(true).unwrap();
        Conn {
            r: BufReader::new(s),
        }
    }

    fn call(&mut self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let s = self.r.get_mut();
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut line = String::new();
        self.r.read_line(&mut line).unwrap();
        let status = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let mut len = 0;
        loop {
            let mut h = String::new();
            self.r.read_line(&mut h).unwrap();
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((n, v)) = h.split_once(':')
                && n.eq_ignore_ascii_case("content-length")
            {
                len = v.trim().parse().unwrap();
            }
        }
        let mut b = vec![0; len];
        self.r.read_exact(&mut b).unwrap();
        (status, b)
    }
}

fn p99(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[(xs.len() * 99 / 100).min(xs.len() - 1)]
}

pub fn run(base: &Path, quick: bool) -> anyhow::Result<Vec<Row>> {
    let dir = tempfile::tempdir_in(base)?;
    let runs_each = if quick { 4 } else { 100 };
    let reads = if quick { 50 } else { 5000 };

    // The library in-process.
    let ws = Arc::new(Workspace::open(dir.path().join("lib.db"))?);
    let rt = runtime()?;
    let echo = || ExecOptions {
        backend: "shell".into(),
        ..ExecOptions::default()
    };
    rt.exec(ws.clone(), "echo hi", echo())?.wait();
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..CLIENTS {
            s.spawn(|| {
                for _ in 0..runs_each {
                    let r = rt.exec(ws.clone(), "echo hi", echo()).unwrap().wait();
                    assert_eq!(r.exit_code, 0);
                }
            });
        }
    });
    let lib_per_run = started.elapsed() / (CLIENTS * runs_each) as u32;
    let data = vec![b'x'; 4096];
    ws.write("/4k", &data, &Default::default())?;
    let mut lib_reads = Vec::with_capacity(reads);
    for _ in 0..reads {
        let t = Instant::now();
        assert_eq!(ws.read_range("/4k", 0, None)?.len(), 4096);
        lib_reads.push(t.elapsed());
    }

    // The same over HTTP.
    let server = Server::new(ServerConfig {
        data_dir: dir.path().join("serve"),
        runtime: Arc::new(|_ws: &Workspace| runtime()),
        no_auth: true,
        max_body_bytes: 64 << 20,
        rate_limit: 0,
        backends: Vec::new(),
        max_memory_mb: 1024,
    })?;
    let tokio_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let listener = tokio_rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let addr = listener.local_addr()?.to_string();
    tokio_rt.spawn(computer_server::serve(
        server,
        listener,
        std::future::pending(),
    ));
    let mut c = Conn::new(&addr);
    assert_eq!(c.call("POST", "/workspaces", br#"{"id":"b"}"#).0, 201);
    let body = br#"{"source":"echo hi"}"#;
    assert_eq!(c.call("POST", "/workspaces/b/exec", body).0, 200);
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..CLIENTS {
            let addr = addr.clone();
            s.spawn(move || {
                let mut c = Conn::new(&addr);
                for _ in 0..runs_each {
                    let (status, out) = c.call("POST", "/workspaces/b/exec", body);
                    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&out));
                }
            });
        }
    });
    let http_per_run = started.elapsed() / (CLIENTS * runs_each) as u32;
    let (status, _) = c.call("PUT", "/workspaces/b/files/write?path=%2F4k", &data);
    assert_eq!(status, 200);
    let mut http_reads = Vec::with_capacity(reads);
    for _ in 0..reads {
        let t = Instant::now();
        let (status, b) = c.call("GET", "/workspaces/b/files/read?path=%2F4k&format=raw", b"");
        assert_eq!((status, b.len()), (200, 4096));
        http_reads.push(t.elapsed());
    }
    tokio_rt.shutdown_background();
    Ok(vec![
        Row {
            work: format!(
                "exec 'echo hi' over HTTP, {CLIENTS} concurrent clients (time per run; library in-process beside)"
            ),
            computer_us: us(http_per_run),
            native_us: Some(us(lib_per_run)),
            target: "≥ 70% of the library's runs/s (ratio ≤ 1.43)".into(),
        },
        Row {
            work: "p99 of a 4 KiB file read over HTTP (library read_range beside)".into(),
            computer_us: us(p99(http_reads)),
            native_us: Some(us(p99(lib_reads))),
            target: "≤ 2 ms".into(),
        },
    ])
}
