//! `curl` and `wget` (the built-in `guests/curl`) against servers the test
//! starts on 127.0.0.1, through the CLI: the workspace's allow-list
//! (`computer net`), denied and unlisted hosts, redirects across hosts, the
//! flags agents use, a 50 MB body streamed to a file under a memory cap,
//! the audit rows with secrets redacted, and real curl as the oracle where
//! it is installed.

mod durable;
mod modules;
mod oracle;
pub(crate) mod server;

use std::process::Output;

use computer_tests::{Ws, component_cache_dir, describe, one_json, run_command, text};
use server::Server;

fn run(ws: &Ws, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

/// Runs a shell script in the workspace; its output.
fn exec(ws: &Ws, script: &str) -> Output {
    run(ws, &["exec", script])
}

/// `exec` that must exit 0; its stdout.
fn exec_ok(ws: &Ws, script: &str) -> String {
    let out = exec(ws, script);
    assert!(
        out.status.success(),
        "{}",
        describe(&["exec", script], &out)
    );
    text(&out.stdout)
}

fn allow(ws: &Ws, entry: &str) {
    let out = run(ws, &["net", "allow", entry]);
    assert!(
        out.status.success(),
        "{}",
        describe(&["net", "allow", entry], &out)
    );
}

/// A workspace allowed to reach `server`.
fn allowed(server: &Server) -> Ws {
    let ws = Ws::new();
    allow(&ws, &format!("127.0.0.1:{}", server.port));
    ws
}

/// Whether the built-in curl is in this build (`computer commands ls`);
/// a build without it fails the tests rather than skipping them.
fn have_curl() -> bool {
    let ws = Ws::new();
    let out = run(&ws, &["commands", "ls"]);
    let has = text(&out.stdout).lines().any(|l| l.starts_with("curl "));
    assert!(
        has,
        "curl is not built in: run scripts/build-guests.sh (and touch host/builtins/build.rs)\n{}",
        text(&out.stdout)
    );
    has
}

#[test]
fn allowed_host_gets_the_body() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let out = exec_ok(&ws, &format!("curl -s {}", s.url("/hello")));
    assert_eq!(out, "hello\n");
    let seen = s.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].header("user-agent"), Some("curl/7.88.1"));
    assert_eq!(seen[0].header("accept"), Some("*/*"));
}

#[test]
fn no_allow_list_means_no_network() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = Ws::new();
    let out = exec(
        &ws,
        &format!("curl -sS {}; echo \"rc=$?\"", s.url("/hello")),
    );
    let stderr = text(&out.stderr);
    assert_eq!(text(&out.stdout), "rc=7\n", "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "curl: (7) Failed to connect to 127.0.0.1 port {}",
            s.port
        )) && stderr.contains(&format!(
            "network allow-list (computer net allow 127.0.0.1:{})",
            s.port
        )),
        "{stderr}"
    );
    assert!(s.requests().is_empty(), "nothing reached the server");
    // `-s` alone says nothing.
    let out = exec(&ws, &format!("curl -s {}; echo \"rc=$?\"", s.url("/hello")));
    assert_eq!(text(&out.stdout), "rc=7\n");
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn other_port_and_denied_entry_are_refused() {
    if !have_curl() {
        return;
    }
    let a = Server::start();
    let b = Server::start();
    let ws = allowed(&a);
    let out = exec(
        &ws,
        &format!("curl -sS {}; echo \"rc=$?\"", b.url("/hello")),
    );
    assert_eq!(text(&out.stdout), "rc=7\n", "{}", text(&out.stderr));
    assert!(b.requests().is_empty());
    // After `net deny` the first host is refused too.
    let entry = format!("127.0.0.1:{}", a.port);
    let out = run(&ws, &["net", "deny", &entry]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = exec(&ws, &format!("curl -s {}; echo \"rc=$?\"", a.url("/hello")));
    assert_eq!(text(&out.stdout), "rc=7\n");
    assert!(a.requests().is_empty());
}

#[test]
fn redirects_are_checked_hop_by_hop() {
    if !have_curl() {
        return;
    }
    let a = Server::start();
    let b = Server::start();
    let ws = allowed(&a);
    let to_b = a.url(&format!("/redirect?to={}", b.url("/hello")));
    // Without -L the redirect itself is the answer.
    let out = exec_ok(
        &ws,
        &format!("curl -s -w '%{{http_code}} %{{redirect_url}}' '{to_b}'"),
    );
    assert_eq!(out, format!("302 {}", b.url("/hello")));
    // With -L the hop to a host not allowed is refused.
    let out = exec(&ws, &format!("curl -sSL '{to_b}'; echo \"rc=$?\""));
    assert_eq!(text(&out.stdout), "rc=7\n", "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(&format!("port {}", b.port)));
    assert!(b.requests().is_empty(), "the second host was never reached");
    // Allowed, it is followed; -w sees the last hop.
    allow(&ws, &format!("127.0.0.1:{}", b.port));
    let out = exec_ok(
        &ws,
        &format!("curl -sL -w '%{{http_code}} %{{num_redirects}} %{{url_effective}}\\n' '{to_b}'"),
    );
    assert_eq!(out, format!("hello\n200 1 {}\n", b.url("/hello")));
    // A loop ends at --max-redirs with curl's 47.
    let out = exec(
        &ws,
        &format!(
            "curl -sSL --max-redirs 3 {}; echo \"rc=$?\"",
            a.url("/loop")
        ),
    );
    assert_eq!(text(&out.stdout), "rc=47\n");
    assert_eq!(
        text(&out.stderr),
        "curl: (47) Maximum (3) redirects followed\n"
    );
}

#[test]
fn fail_flags_and_write_out() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let url = s.url("/missing");
    let out = exec(&ws, &format!("curl -sSf {url}; echo \"rc=$?\""));
    assert_eq!(text(&out.stdout), "rc=22\n");
    assert_eq!(
        text(&out.stderr),
        "curl: (22) The requested URL returned error: 404\n"
    );
    let out = exec(
        &ws,
        &format!("curl -s --fail-with-body {url}; echo \"rc=$?\""),
    );
    assert_eq!(text(&out.stdout), "not here\nrc=22\n");
    let out = exec_ok(
        &ws,
        &format!("curl -s -o /dev/null -w '%{{http_code}}' {url}"),
    );
    assert_eq!(out, "404");
    let out = exec_ok(
        &ws,
        &format!(
            "curl -s -o /dev/null -w '%{{http_code}} %{{size_download}} %{{content_type}} %{{url_effective}}' {}",
            s.url("/hello")
        ),
    );
    assert_eq!(out, format!("200 6 text/plain {}", s.url("/hello")));
}

#[test]
fn data_json_headers_and_user() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let url = s.url("/echo");
    exec_ok(
        &ws,
        "printf 'a=1\\nb=2\\n' > /form.txt; printf '{\"k\": 1}' > /body.json",
    );
    exec_ok(&ws, &format!("curl -s -d @/form.txt {url} >/dev/null"));
    exec_ok(
        &ws,
        &format!("curl -s --data-binary @/form.txt -H 'X-Trace: 7' {url} >/dev/null"),
    );
    exec_ok(&ws, &format!("curl -s --json @/body.json {url} >/dev/null"));
    exec_ok(
        &ws,
        &format!("curl -s -X PUT --data-raw '@lit' -u me:pw {url} >/dev/null"),
    );
    let seen = s.requests();
    assert_eq!(seen.len(), 4);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].body.as_slice()),
        ("POST", &b"a=1b=2"[..])
    );
    assert_eq!(
        seen[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(seen[1].body, b"a=1\nb=2\n");
    assert_eq!(seen[1].header("x-trace"), Some("7"));
    assert_eq!(seen[2].body, br#"{"k": 1}"#);
    assert_eq!(seen[2].header("content-type"), Some("application/json"));
    assert_eq!(seen[2].header("accept"), Some("application/json"));
    assert_eq!(
        (seen[3].method.as_str(), seen[3].body.as_slice()),
        ("PUT", &b"@lit"[..])
    );
    assert_eq!(seen[3].header("authorization"), Some("Basic bWU6cHc="));
}

#[test]
fn include_head_and_output_files() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let out = exec_ok(&ws, &format!("curl -si {}", s.url("/hello")));
    assert!(out.starts_with("HTTP/1.1 200 OK\r\n"), "{out:?}");
    assert!(out.contains("\r\nContent-Type: text/plain\r\n"), "{out:?}");
    assert!(out.ends_with("\r\n\r\nhello\n"), "{out:?}");
    let out = exec_ok(&ws, &format!("curl -sI {}", s.url("/hello")));
    assert!(
        out.starts_with("HTTP/1.1 200 OK\r\n") && out.ends_with("\r\n\r\n"),
        "{out:?}"
    );
    assert_eq!(
        s.requests().last().map(|r| r.method.clone()).as_deref(),
        Some("HEAD")
    );
    let out = exec_ok(
        &ws,
        &format!(
            "mkdir -p /d && cd /d && curl -s -O {} && curl -s -o /d/out.txt {} && cat /d/hello /d/out.txt",
            s.url("/hello"),
            s.url("/json")
        ),
    );
    assert_eq!(out, "hello\n{\"ok\":true}");
    let out = exec(&ws, &format!("curl -sS -O {}; echo \"rc=$?\"", s.url("/")));
    assert_eq!(text(&out.stdout), "rc=23\n", "{}", text(&out.stderr));
}

#[test]
fn wget_quiet_to_stdout_and_files() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    assert_eq!(
        exec_ok(&ws, &format!("wget -qO- {}", s.url("/hello"))),
        "hello\n"
    );
    let out = exec_ok(
        &ws,
        &format!("cd /tmp && wget -q {} && cat hello", s.url("/hello")),
    );
    assert_eq!(out, "hello\n");
    // Without -q, Wget's log on stderr.
    let out = exec(
        &ws,
        &format!("cd /tmp && wget -O got.txt {}", s.url("/hello")),
    );
    let log = text(&out.stderr);
    let lines: Vec<&str> = log.lines().collect();
    assert!(
        lines[0].starts_with("--20") && lines[0].ends_with(&format!("--  {}", s.url("/hello"))),
        "{log}"
    );
    assert_eq!(
        lines[1],
        format!("Connecting to 127.0.0.1:{}... connected.", s.port),
        "{log}"
    );
    assert_eq!(
        lines[2], "HTTP request sent, awaiting response... 200 OK",
        "{log}"
    );
    assert_eq!(lines[3], "Length: 6 [text/plain]", "{log}");
    assert_eq!(lines[4], "Saving to: ‘got.txt’", "{log}");
    assert!(log.ends_with("- ‘got.txt’ saved [6/6]\n\n"), "{log}");
    let out = exec(
        &ws,
        &format!("wget -qO- {}; echo \"rc=$?\"", s.url("/missing")),
    );
    assert_eq!(text(&out.stdout), "rc=8\n");
    let ws2 = Ws::new();
    let out = exec(
        &ws2,
        &format!("wget -qO- {}; echo \"rc=$?\"", s.url("/hello")),
    );
    assert_eq!(text(&out.stdout), "rc=4\n");
    assert!(
        text(&out.stderr).contains("computer net allow 127.0.0.1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn max_time_times_out_with_28() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let out = exec(
        &ws,
        &format!("curl -sS --max-time 1 {}; echo \"rc=$?\"", s.url("/slow")),
    );
    assert_eq!(text(&out.stdout), "rc=28\n", "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with("curl: (28) Operation timed out after "),
        "{}",
        text(&out.stderr)
    );
}

/// 50 MB to a file under a 48 MiB memory cap for the whole run (shell and
/// curl): only a guest that streams the body can do it.
#[test]
fn big_body_streams_to_a_file() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let n = 50 << 20;
    let script = format!(
        "curl -s -o /big.bin -w '%{{size_download}}\\n' {}",
        s.url(&format!("/big/{n}"))
    );
    let out = run(
        &ws,
        &["exec", "--memory", "48", "--timeout", "300", &script],
    );
    assert!(
        out.status.success(),
        "{}",
        describe(&["exec", &script], &out)
    );
    assert_eq!(text(&out.stdout), format!("{n}\n"));
    let got = run(&ws, &["fs", "read", "/big.bin"]);
    assert_eq!(got.stdout.len(), n);
    assert!(
        got.stdout
            .iter()
            .enumerate()
            .step_by(4093)
            .all(|(i, b)| *b == server::big_byte(i))
    );
}

#[test]
fn every_request_is_audited_with_secrets_redacted() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    exec_ok(
        &ws,
        &format!(
            "curl -s -H 'Authorization: Bearer sekrit-token' -H 'Cookie: sid=sekrit' {} >/dev/null; curl -s http://127.0.0.1:1/nope; true",
            s.url("/hello")
        ),
    );
    let out = run(&ws, &["--json", "audit"]);
    let all = text(&out.stdout);
    let doc = one_json(&out.stdout);
    let rows: Vec<&serde_json::Value> = doc["audit"]
        .as_array()
        .map(|a| a.iter().filter(|r| r["operation"] == "http").collect())
        .unwrap_or_default();
    assert_eq!(rows.len(), 2, "{all}");
    // (The exec row holds the script as written; the request rows must not.)
    assert!(
        rows.iter().all(|r| !r.to_string().contains("sekrit")),
        "a secret reached the audit log: {rows:?}"
    );
    let args: serde_json::Value =
        serde_json::from_str(rows[0]["args"].as_str().unwrap_or("{}")).unwrap();
    assert_eq!(args["method"], "GET");
    assert_eq!(args["url"], s.url("/hello"));
    assert_eq!(args["status"], 200);
    assert_eq!(args["bytes"], 6);
    assert_eq!(args["headers"]["authorization"], "Bearer [redacted]");
    assert_eq!(args["headers"]["cookie"], "[redacted]");
    assert_eq!(rows[0]["outcome"], "ok");
    assert_eq!(rows[1]["outcome"], "denied");
}

#[test]
fn net_subcommand() {
    let ws = Ws::new();
    assert!(text(&run(&ws, &["net", "ls"]).stdout).contains("no hosts allowed"));
    let out = run(
        &ws,
        &[
            "net",
            "allow",
            "API.example.com",
            "*.example.org",
            "127.0.0.1:8080",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "allowed api.example.com\nallowed *.example.org\nallowed 127.0.0.1:8080\n"
    );
    let doc = one_json(&run(&ws, &["--json", "net", "ls"]).stdout);
    let entries: Vec<&str> = doc["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entry"].as_str().unwrap())
        .collect();
    assert_eq!(
        entries,
        ["api.example.com", "*.example.org", "127.0.0.1:8080"]
    );
    let out = run(&ws, &["net", "allow", "https://x.com/path"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("invalid allowed host \"https://x.com/path\""),
        "{}",
        text(&out.stderr)
    );
    let out = run(&ws, &["net", "deny", "nothere.com"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("not in the workspace's network allow-list"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&ws, &["--json", "net", "deny", "api.example.com"]);
    assert_eq!(one_json(&out.stdout)["denied"][0], "api.example.com");
    let doc = one_json(&run(&ws, &["--json", "net", "ls"]).stdout);
    assert_eq!(doc["allowed"].as_array().unwrap().len(), 2);
}

#[test]
fn a_full_workspace_fails_the_download_with_curls_and_wgets_codes() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    run(&ws, &["quota", "1M"]);
    let url = s.url("/big/4000000");
    let out = exec(&ws, &format!("curl -sS -o /c.bin {url}; echo \"rc=$?\""));
    assert_eq!(text(&out.stdout), "rc=23\n", "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("curl: (23)"),
        "{}",
        text(&out.stderr)
    );
    let out = exec(
        &ws,
        &format!("rm -f /c.bin; wget -q -O /w.bin {url}; echo \"rc=$?\""),
    );
    assert_eq!(text(&out.stdout), "rc=3\n", "{}", text(&out.stderr));
    // Whatever was stored is a prefix of the body: nothing reported
    // written is missing, nothing unwritten is there.
    let got = run(&ws, &["fs", "read", "/w.bin"]).stdout;
    assert!(got.len() <= 1 << 20);
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, b)| *b == server::big_byte(i))
    );
}

#[test]
fn credentials_do_not_follow_a_redirect_to_another_port() {
    if !have_curl() {
        return;
    }
    let a = Server::start();
    let b = Server::start();
    let ws = allowed(&a);
    allow(&ws, &format!("127.0.0.1:{}", b.port));
    let to_b = a.url(&format!("/redirect?to={}", b.url("/echo")));
    let to_a = a.url("/redirect?to=/echo");
    let creds = [
        "curl -sL -u me:pw -H 'Cookie: c=1'",
        "curl -sL -H 'Authorization: Bearer x' -H 'Cookie: c=1'",
        "wget -qO- --header 'Authorization: Bearer x' --header 'Cookie: c=1'",
    ];
    for (i, client) in creds.iter().enumerate() {
        // The same origin keeps them...
        exec_ok(&ws, &format!("{client} '{to_a}' >/dev/null"));
        let seen = a.requests();
        let last = seen.last().expect("a request");
        assert_eq!(last.path, "/echo", "{client}");
        assert!(last.header("authorization").is_some(), "{client}");
        assert_eq!(last.header("cookie"), Some("c=1"), "{client}");
        // ...another port of the same host does not get them.
        exec_ok(&ws, &format!("{client} '{to_b}' >/dev/null"));
        let seen = b.requests();
        assert_eq!(seen.len(), i + 1, "{client}");
        assert_eq!(seen[i].header("authorization"), None, "{client}");
        assert_eq!(seen[i].header("cookie"), None, "{client}");
    }
    // The oracle: curl 7.88 does the same.
    let native = std::process::Command::new("curl")
        .args([
            "-sL",
            "-u",
            "me:pw",
            "-H",
            "Cookie: c=1",
            "-o",
            "/dev/null",
            &to_b,
        ])
        .status();
    if native.is_ok_and(|s| s.success()) {
        let seen = b.requests();
        let last = seen.last().expect("native curl reached b");
        assert_eq!(last.header("authorization"), None);
        assert_eq!(last.header("cookie"), None);
    }
}

#[test]
fn query_values_and_unlisted_headers_never_reach_the_database() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    // The secret is made by the script, so its text is nowhere in the
    // script (which the run's record keeps).
    let script = format!(
        "K=sek$(echo rit); \
         curl -s -H \"Ocp-Apim-Subscription-Key: $K-1\" -H \"X-Functions-Key: $K-2\" \
           -H \"X-Whatever: $K-3\" \"{}?access_token=$K-4&api_key=$K-5\" >/dev/null; \
         curl -s \"http://127.0.0.1:1/nope?token=$K-6\"; \
         wget -q -O /dev/null --header \"X-Custom-Key: $K-7\" \"{}?sig=$K-8\"; true",
        s.url("/hello"),
        s.url("/hello")
    );
    exec_ok(&ws, &script);
    assert!(
        s.requests()
            .iter()
            .any(|r| r.header("x-whatever") == Some("sekrit-3")),
        "the secret did reach the server"
    );
    let out = run(&ws, &["--json", "audit"]);
    let all = text(&out.stdout);
    assert!(all.contains("access_token=[redacted]"), "{all}");
    assert!(all.contains("denied"), "{all}");
    let mut raw = std::fs::read(ws.db()).unwrap();
    if let Ok(wal) = std::fs::read(format!("{}-wal", ws.db().display())) {
        raw.extend_from_slice(&wal);
    }
    let found = raw.windows(6).filter(|w| *w == b"sekrit").count();
    assert_eq!(found, 0, "a secret is in the workspace file's bytes");
}

#[test]
fn a_wildcard_does_not_reach_loopback_but_a_named_address_does() {
    if !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = Ws::new();
    allow(&ws, "*");
    for url in [
        s.url("/hello"),
        format!("http://localhost:{}/hello", s.port),
    ] {
        let out = exec(&ws, &format!("curl -sS {url}; echo \"rc=$?\""));
        assert_eq!(text(&out.stdout), "rc=7\n", "{url}: {}", text(&out.stderr));
    }
    assert!(s.requests().is_empty(), "`*` reached the host's own port");
    allow(&ws, &format!("127.0.0.1:{}", s.port));
    assert_eq!(
        exec_ok(&ws, &format!("curl -s {}", s.url("/hello"))),
        "hello\n"
    );
    assert_eq!(s.requests().len(), 1);
}
