//! The console in a real browser: Debian's headless `chromium` driven over
//! WebDriver (`chromedriver`, from `scripts/setup.sh`). The seed flow's
//! approval is answered by clicking Approve; 1,000 pending approvals and
//! 100,000 audit rows are paged; a live run's output is followed and the
//! run cancelled; files are browsed; a run's diff is shown and undone.
//! A screenshot of each page goes to `target/test-output/serve-console/`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use computer_tests::workspace_root;
use serde_json::{Value, json};

use super::client;
use super::{Served, Sse};
use crate::cli_durable::fake_github;

struct Browser {
    addr: String,
    session: String,
    child: Child,
    shots: PathBuf,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    fn start() -> Browser {
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver is not installed: run scripts/setup.sh (Debian's chromium and chromium-driver)");
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]}}}});
        let r = client::request(
            &addr,
            "POST",
            "/session",
            None,
            Some(caps.to_string().as_bytes()),
            &[],
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let session = r.json()["value"]["sessionId"].as_str().unwrap().to_owned();
        let shots = workspace_root().join("target/test-output/serve-console");
        std::fs::create_dir_all(&shots).unwrap();
        Browser {
            addr,
            session,
            child,
            shots,
        }
    }

    fn cmd(&self, method: &str, path: &str, body: Value) -> Value {
        let b = body.to_string();
        let r = client::request(
            &self.addr,
            method,
            &format!("/session/{}{path}", self.session),
            None,
            (method == "POST").then_some(b.as_bytes()),
            &[],
        );
        assert_eq!(r.status, 200, "{method} {path}: {}", r.text());
        r.json()["value"].clone()
    }

    fn go(&self, url: &str) {
        self.cmd("POST", "/url", json!({ "url": url }));
    }

    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Waits until `expr` (a JS expression) is true; fails with what the
    /// page says otherwise.
    fn wait(&self, what: &str, expr: &str) {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if self.js(&format!(
                "try {{ return !!({expr}); }} catch (e) {{ return false; }}"
            )) == json!(true)
            {
                return;
            }
            if Instant::now() > deadline {
                let page = self.js("return document.body.innerText");
                panic!(
                    "waited for {what}: {expr}\npage:\n{}",
                    page.as_str().unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn text(&self, id: &str) -> String {
        self.js(&format!("return document.getElementById('{id}').innerText"))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    fn click(&self, selector: &str) {
        let found = self.js(&format!(
            "const e = document.querySelector({}); if (!e) return false; e.click(); return true;",
            json!(selector)
        ));
        assert_eq!(found, json!(true), "nothing matches {selector}");
    }

    fn set(&self, id: &str, value: &str) {
        self.js(&format!(
            "document.getElementById('{id}').value = {};",
            json!(value)
        ));
    }

    fn screenshot(&self, name: &str) {
        let png = self.cmd("GET", "/screenshot", Value::Null);
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap();
        assert!(bytes.starts_with(b"\x89PNG"));
        std::fs::write(self.shots.join(format!("{name}.png")), bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = client::request(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
            None,
            &[],
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// 1,000 pending approvals and 100,000 audit rows, written straight into
/// the workspace file (as many parked runs and busy days would leave them).
fn seed_bulk(s: &Served, id: &str) {
    let c = rusqlite::Connection::open(s.data.join(format!("workspaces/{id}.db"))).unwrap();
    c.busy_timeout(Duration::from_secs(30)).unwrap();
    c.execute_batch("BEGIN").unwrap();
    for i in 0..1000 {
        c.execute(
            "INSERT INTO interrupts (run_id, call_id, idx, module, function, payload, created_ns) VALUES (?1, ?2, 0, 'github', 'post-comment', ?3, ?4)",
            rusqlite::params![format!("bulk-{i:04}"), format!("bulk-{i:04}/1"), json!({"issue": i, "body": "LGTM"}).to_string(), 1_700_000_000_000_000_000i64 + i as i64],
        )
        .unwrap();
    }
    let mut stmt = c
        .prepare("INSERT INTO audit (time_ns, actor, operation, target, args, outcome, error, duration_ns) VALUES (?1, ?2, ?3, ?4, NULL, 'ok', NULL, 1000)")
        .unwrap();
    for i in 0..100_000i64 {
        let actor = if i % 2 == 0 {
            "http:alice"
        } else {
            "run:bulk/shell"
        };
        let op = if i % 3 == 0 { "write" } else { "read" };
        stmt.execute(rusqlite::params![
            1_700_000_000_000_000_000i64 + i,
            actor,
            op,
            format!("/data/f{i}")
        ])
        .unwrap();
    }
    drop(stmt);
    c.execute_batch("COMMIT").unwrap();
}

#[test]
fn the_console_in_a_headless_browser() {
    let (port, seen) = fake_github();
    let s = Served::start(&[]);
    s.workspace("w");
    s.workspace("big");
    seed_bulk(&s, "big");
    super::approvals::add_module(&s, "w", port);
    super::approvals::start_agent(&s, "w", "agent-1");
    s.req(
        "PUT",
        "/workspaces/w/files/write?path=%2Fsrc%2Fmain.rs&parents=true",
        Some(b"fn main() {}\n"),
    );
    let changed = s.ok(
        "POST",
        "/workspaces/w/exec",
        Some(json!({"source": "echo 'changed by a run' > /notes.txt"})),
    );
    let changer = changed["run_id"].as_str().unwrap().to_owned();

    let b = Browser::start();
    let base = format!("http://{}", s.addr);
    b.go(&format!("{base}/"));
    b.wait(
        "the token form",
        "!document.getElementById('login-view').hidden",
    );
    b.set("token", "ctk_wrong");
    b.js("document.getElementById('login').requestSubmit()");
    b.wait(
        "a refused token",
        "document.getElementById('login-error').innerText.includes('not valid')",
    );
    b.set("token", &s.token);
    b.js("document.getElementById('login').requestSubmit()");
    b.wait(
        "the workspaces",
        "document.querySelectorAll('#workspace option').length === 2",
    );

    // The seed flow's approval: payload shown, approved with a click.
    b.js("const s = document.getElementById('workspace'); s.value = 'w'; s.dispatchEvent(new Event('change'));");
    b.wait(
        "the pending approval",
        "document.querySelectorAll('#approvals-rows tr.approval').length === 1",
    );
    let row = b.text("approvals-rows");
    assert!(
        row.contains("agent-1") && row.contains("ws:github.post-comment") && row.contains("LGTM"),
        "{row}"
    );
    b.screenshot("approvals");
    b.click("#approvals-rows tr.approval button.approve");
    b.wait(
        "the answer",
        "document.getElementById('status').innerText.includes('answered')",
    );
    let record = s.wait_run("w", "agent-1");
    assert_eq!(record["status"], "completed", "{record}");
    assert_eq!(seen.lock().unwrap().len(), 1);
    let rows = s.ok("GET", "/workspaces/w/audit?operation=respond", None);
    assert_eq!(rows["audit"][0]["actor"], "http:admin");

    // Runs: a live run's output, then cancelled from the console.
    let body =
        json!({"source": "echo live-start; sleep 60; echo never", "stream": true}).to_string();
    let mut live = Sse::open(
        &s.addr,
        "POST",
        "/workspaces/w/exec",
        &s.token,
        Some(body.as_bytes()),
    );
    let live_id = live.next_event().unwrap().1["run_id"]
        .as_str()
        .unwrap()
        .to_owned();
    b.click("#tabs button[data-tab=runs]");
    b.wait(
        "the live run listed",
        &format!("document.querySelector('#runs-rows tr.run[data-id=\"{live_id}\"]')"),
    );
    b.click(&format!("#runs-rows tr.run[data-id=\"{live_id}\"]"));
    b.wait(
        "its output",
        "document.getElementById('run-output').innerText.includes('live-start')",
    );
    assert_eq!(b.text("run-live"), "(live)");
    b.screenshot("runs-live");
    b.click("#run-cancel");
    b.wait(
        "its end",
        "document.getElementById('run-live').innerText.includes('cancelled')",
    );
    assert_eq!(live.rest().last().unwrap().1["status"], "cancelled");

    // A run's diff, and undo.
    b.js("loadRuns()");
    b.wait(
        "the changing run",
        &format!("document.querySelector('#runs-rows tr.run[data-id=\"{changer}\"]')"),
    );
    b.click(&format!("#runs-rows tr.run[data-id=\"{changer}\"]"));
    b.wait(
        "the run's source",
        "document.getElementById('run-source').innerText.includes('changed by a run')",
    );
    b.click("#run-diff");
    b.wait(
        "its diff",
        "document.getElementById('diff-files').innerText.includes('+changed by a run')",
    );
    b.screenshot("changes");
    b.click("#diff-undo");
    b.wait(
        "the undo",
        "document.getElementById('status').innerText.includes('undone: /notes.txt')",
    );
    assert_eq!(
        s.req("GET", "/workspaces/w/files/stat?path=%2Fnotes.txt", None)
            .status,
        404
    );

    // Files.
    b.click("#tabs button[data-tab=files]");
    b.wait("the root listing", "[...document.querySelectorAll('#files-rows tr.entry')].some(r => r.innerText.startsWith('src/'))");
    b.js("[...document.querySelectorAll('#files-rows tr.entry')].find(r => r.innerText.startsWith('src/')).click()");
    b.wait(
        "/src",
        "document.getElementById('files-path').innerText === '/src'",
    );
    b.click("#files-rows tr.entry");
    b.wait(
        "the file",
        "document.getElementById('file-content').innerText.includes('fn main() {}')",
    );
    b.screenshot("files");

    // 1,000 approvals and 100,000 audit rows, paged.
    b.js("const s = document.getElementById('workspace'); s.value = 'big'; s.dispatchEvent(new Event('change'));");
    b.click("#tabs button[data-tab=approvals]");
    b.wait(
        "the first page",
        "document.getElementById('approvals-info').innerText === '1–50 of 1000'",
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#approvals-rows tr.approval').length"),
        json!(50)
    );
    b.click("#approvals-next");
    b.wait(
        "the second page",
        "document.getElementById('approvals-info').innerText === '51–100 of 1000'",
    );
    assert!(b.text("approvals-rows").contains("bulk-0050"));
    b.screenshot("approvals-1000");
    b.click("#tabs button[data-tab=audit]");
    b.wait(
        "the newest audit rows",
        "document.getElementById('audit-info').innerText === 'rows 1–100'",
    );
    b.click("#audit-next");
    b.wait(
        "older rows",
        "document.getElementById('audit-info').innerText === 'rows 101–200'",
    );
    b.set("audit-actor", "http:alice");
    b.set("audit-operation", "write");
    b.click("#audit-apply");
    b.wait("filtered rows", "document.getElementById('audit-info').innerText === 'rows 1–100' && [...document.querySelectorAll('#audit-rows tr.audit-row')].every(r => r.innerText.includes('http:alice') && r.innerText.includes('write'))");
    b.screenshot("audit-100000");
}
