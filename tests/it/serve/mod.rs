//! `computer serve` through its HTTP interface (issue 39): a real server
//! process on 127.0.0.1 (a free port), a small HTTP/1.1 client over a TCP
//! socket (`client.rs`), and a module per area.

mod api;
mod approvals;
mod auth;
mod client;
mod console;
mod mcp;
mod openapi;
mod ops;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use computer_tests::{component_cache_dir, computer_bin};
use serde_json::Value;

pub use client::{Reply, Sse};

/// A `computer serve` process over a data directory of its own.
pub struct Served {
    pub child: Child,
    pub addr: String,
    pub token: String,
    pub data: PathBuf,
    _dir: Option<tempfile::TempDir>,
    log: Arc<Mutex<String>>,
}

/// Runs `computer serve ARGS` (no `--data`: it is given).
pub fn serve_cmd(data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(computer_bin());
    cmd.arg("serve")
        .arg("--data")
        .arg(data)
        .args(args)
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .env_remove("COMPUTER_WORKSPACE")
        .env_remove("COMPUTER_DATA")
        .env_remove("COMPUTER_LOG");
    cmd
}

/// Makes an admin token named `name` with the CLI.
pub fn admin_token(data: &Path, name: &str) -> String {
    let out = serve_cmd(data, &["token", "create", name])
        .output()
        .expect("computer serve token create");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

impl Served {
    /// A server with an admin token, on a fresh data directory.
    pub fn start(args: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let token = admin_token(&data, "admin");
        let mut s = Served::start_on(&data, token, args);
        s._dir = Some(dir);
        s
    }

    /// A server on `data` (kept by the caller).
    pub fn start_on(data: &Path, token: String, args: &[&str]) -> Served {
        let mut child = serve_cmd(data, &["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting computer serve");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let kept = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(addr) = line.strip_prefix("computer serve: listening on http://") {
                    let _ = tx.send(addr.to_owned());
                }
                kept.lock().unwrap().push_str(&line);
                kept.lock().unwrap().push('\n');
            }
        });
        let addr = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("the server did not start: {}", log.lock().unwrap()));
        Served {
            child,
            addr,
            token,
            data: data.to_owned(),
            _dir: None,
            log,
        }
    }

    /// What the server wrote on stderr so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// A request with the admin token.
    pub fn req(&self, method: &str, path: &str, body: Option<&[u8]>) -> Reply {
        client::request(&self.addr, method, path, Some(&self.token), body, &[])
    }

    /// A request with `token` (or none).
    pub fn req_as(
        &self,
        token: Option<&str>,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
    ) -> Reply {
        client::request(&self.addr, method, path, token, body, &[])
    }

    /// A JSON request with the admin token that must succeed (2xx).
    pub fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let bytes = body.map(|b| b.to_string().into_bytes());
        let r = self.req(method, path, bytes.as_deref());
        assert!(
            (200..300).contains(&r.status),
            "{method} {path}: {} {}",
            r.status,
            r.text()
        );
        r.json()
    }

    /// Makes workspace `id`.
    pub fn workspace(&self, id: &str) {
        self.ok("POST", "/workspaces", Some(serde_json::json!({ "id": id })));
    }

    /// A token made through the API.
    pub fn token(&self, name: &str, workspace: &str, rights: &str) -> String {
        let doc = self.ok(
            "POST",
            "/tokens",
            Some(serde_json::json!({"name": name, "workspace": workspace, "rights": rights})),
        );
        doc["token"].as_str().unwrap().to_owned()
    }

    /// Waits until run `run` of `ws` has ended; returns its record.
    pub fn wait_run(&self, ws: &str, run: &str) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            let doc = self.ok("GET", &format!("/workspaces/{ws}/runs/{run}"), None);
            let status = doc["status"].as_str().unwrap_or_default().to_owned();
            if status != "running" && !doc["live"].as_bool().unwrap_or(false) {
                return doc;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "run {run} never ended: {doc}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Sends SIGTERM and waits for the process to exit; returns whether
    /// it exited successfully.
    pub fn terminate(&mut self) -> bool {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        self.child.wait().unwrap().success()
    }

    /// SIGKILL, as a crash.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
