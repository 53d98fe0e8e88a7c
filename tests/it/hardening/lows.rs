//! Issue 41's low-severity items: node's `fs.link` (now a real hard link), `/tmp` for the JS
//! backend, strings a guest cannot pass as argv, an un-waited `Popen`.

use std::process::Output;

use computer_tests::{Ws, component_cache_dir, describe, run_command, text};

fn exec(ws: &Ws, args: &[&str]) -> Output {
    let mut all = vec!["exec"];
    all.extend_from_slice(args);
    let mut cmd = ws.command(&all);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

fn exec_ok(ws: &Ws, args: &[&str]) -> String {
    let out = exec(ws, args);
    assert!(out.status.success(), "{}", describe(args, &out));
    text(&out.stdout)
}

/// node's `fs.link`, in its three forms, makes a hard link as real node
/// does (a write through one name shows through the other; removing one
/// keeps the other), and a directory's link fails with node's EPERM fields.
/// Real node on the same files is the oracle; the other failures are in
/// the node corpus (`142-fs-link-errors.js`).
#[test]
fn node_link_makes_hard_links_as_node_does() {
    let script = r#"
const fs = require('fs');
const show = (e) => console.log(e.code, e.syscall, e.path, e.dest, e.message);
fs.linkSync('a', 'b');
fs.appendFileSync('b', '2');
console.log(fs.readFileSync('a', 'utf8'));
try { fs.linkSync('d', 'e'); } catch (e) { show(e); }
fs.link('a', 'c', (e) => {
  console.log(e);
  fs.promises.link('a', 'f').then(() => {
    fs.unlinkSync('a');
    console.log(fs.readFileSync('c', 'utf8'), fs.readFileSync('f', 'utf8'), fs.existsSync('a'));
  });
});
"#;
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("a"), "1").unwrap();
    std::fs::create_dir(host.path().join("d")).unwrap();
    std::fs::write(host.path().join("link.js"), script).unwrap();
    let native = run_command(
        std::process::Command::new("node")
            .arg("link.js")
            .current_dir(host.path()),
        b"",
    );
    assert!(native.status.success(), "{}", text(&native.stderr));
    let ws = Ws::new();
    ws.put("/w/a", "1");
    ws.put("/w/d/keep", "");
    ws.put("/w/link.js", script);
    let out = exec_ok(&ws, &["--cwd", "/w", "node link.js"]);
    assert_eq!(out, text(&native.stdout));
}

/// A fresh workspace has no `/tmp`; a script writing there (or below
/// `os.tmpdir()`) finds one, as the shell and its commands do.
#[test]
fn the_js_backend_has_a_tmp_in_a_fresh_workspace() {
    let ws = Ws::new();
    let source = "import fs from 'node:fs'; import os from 'node:os';\n\
        console.log(os.tmpdir(), fs.existsSync('/tmp'));\n\
        fs.writeFileSync(os.tmpdir() + '/x', 'y');\n\
        console.log(fs.readFileSync('/tmp/x', 'utf8'), fs.readdirSync('/tmp'));";
    assert_eq!(
        exec_ok(&ws, &["--backend", "js", source]),
        "/tmp true\ny [ 'x' ]\n"
    );
    // A stat of `/tmp` itself and a directory made in it, in another fresh workspace.
    let ws = Ws::new();
    let source = "import fs from 'node:fs';\n\
        console.log(fs.statSync('/tmp').isDirectory());\n\
        fs.mkdirSync('/tmp/d'); console.log(fs.readdirSync('/tmp'));";
    assert_eq!(
        exec_ok(&ws, &["--backend", "js", source]),
        "true\n[ 'd' ]\n"
    );
}

/// Python's `subprocess` with a NUL or a lone surrogate in an argument, the
/// environment or the cwd: CPython's own messages for a NUL and an `=` in a
/// name (its `_posixsubprocess`, which ours replaces, checks them), the UTF-8
/// codec's error for a surrogate (the host's strings are UTF-8), and no trap:
/// what the script printed before is kept.
#[test]
fn python_subprocess_refuses_nul_and_lone_surrogates() {
    let ws = Ws::new();
    let script = r#"
import os, subprocess
print("before")
tries = [
    lambda: subprocess.run(["echo", "a\0b"]),
    lambda: subprocess.run("echo a\0b", shell=True),
    lambda: subprocess.run(["true"], env={"A": "a\0b"}),
    lambda: subprocess.run(["true"], env={"A=B": "c"}),
    lambda: subprocess.run(["true"], cwd="/tm\0p"),
    lambda: os.system("echo a\0b"),
    lambda: subprocess.run(["echo", "\udcff"]),
    lambda: subprocess.run(["true"], env={"A": "\udcff"}),
]
for t in tries:
    try:
        t()
        print("ran")
    except (ValueError, UnicodeEncodeError) as e:
        print(type(e).__name__, e)
print(subprocess.run(["echo", "still works"], capture_output=True).stdout)
"#;
    ws.put("/p.py", script);
    let out = exec_ok(&ws, &["python3 /p.py"]);
    let nul = "ValueError embedded null byte\n";
    let surrogate = "UnicodeEncodeError 'utf-8' codec can't encode character '\\udcff' \
                     in position 0: surrogates not allowed\n";
    assert_eq!(
        out,
        format!(
            "before\n{nul}{nul}{nul}ValueError illegal environment variable name\n{nul}{nul}\
             {surrogate}{surrogate}b'still works\\n'\n"
        )
    );
}

/// node's `child_process` with a NUL (refused with node's
/// ERR_INVALID_ARG_VALUE messages, checked against node 20) or a lone
/// surrogate (passed as U+FFFD, as node's UTF-8 conversion does).
#[test]
fn node_child_process_refuses_nul_and_replaces_lone_surrogates() {
    let ws = Ws::new();
    let script = r#"
const cp = require('child_process');
const tries = [
  () => cp.execFileSync('echo', ['a\0b']),
  () => cp.execSync('echo a\0b'),
  () => cp.execFileSync('ec\0ho'),
  () => cp.spawnSync('echo a\0b', { shell: true }),
  () => cp.spawn('echo', ['x', 'a\0b']),
  () => cp.exec('echo a\0b', () => {}),
  () => cp.execFile('echo', ['a\0b'], () => {}),
  () => cp.spawnSync('echo', ['x'], { cwd: '/tm\0p' }),
  () => cp.execFileSync('echo', ['x'], { env: { A: 'a\0b' } }),
];
for (const t of tries) {
  try { t(); console.log('ran'); } catch (e) { console.log(e.code, e.message); }
}
console.log(JSON.stringify(cp.execFileSync('echo', ['\udcff', 'x\ud800y']).toString()));
console.log(JSON.stringify(cp.spawnSync('echo', ['\udcff']).stdout.toString()));
"#;
    ws.put("/c.js", script);
    let ours = exec_ok(&ws, &["node /c.js"]);
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("c.js"), script).unwrap();
    let node = std::process::Command::new("node")
        .arg("c.js")
        .current_dir(host.path())
        .output()
        .expect("node 20 (scripts/setup.sh)");
    assert!(node.status.success(), "{}", text(&node.stderr));
    assert_eq!(ours, text(&node.stdout));
}

/// A `Popen` nobody waited for, still referenced when the interpreter
/// exits: no error from its `__del__` in the teardown (the bindings' handle
/// was already dropped then), and, as CPython, a ResourceWarning only under
/// `-W default`.
#[test]
fn an_unwaited_popen_ends_quietly_at_exit() {
    let ws = Ws::new();
    ws.put(
        "/u.py",
        "import subprocess\nprint('start')\np = subprocess.Popen(['echo', 'hi'])\n\
         kept = [subprocess.Popen(['sleep', '100'])]\nprint('end')\n",
    );
    let out = exec(&ws, &["python3 /u.py"]);
    assert!(out.status.success(), "{}", describe(&["python3"], &out));
    assert_eq!(text(&out.stdout), "start\nend\n");
    let stderr = text(&out.stderr);
    assert!(
        !stderr.contains("Exception ignored")
            && !stderr.contains("Traceback")
            && !stderr.contains("ResourceWarning"),
        "{stderr}"
    );

    let out = exec(&ws, &["python3 -W default /u.py"]);
    assert!(out.status.success(), "{}", describe(&["python3"], &out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("ResourceWarning: subprocess 1000 is still running")
            && stderr.contains("ResourceWarning: subprocess 1001 is still running")
            && !stderr.contains("Exception ignored"),
        "{stderr}"
    );
}

/// What the script prints under GNU gzip in a host directory and under ours
/// in a workspace directory holding the same files.
const GZIP_SCRIPT: &str = r#"
gunzip -c nope.gz; echo "rc $?"; gunzip -c nope; echo "rc $?"; gunzip -c p.gz; echo "rc $?"
gunzip -c t.gz; echo "rc $?"; gunzip -c < p.gz; echo "rc $?"; gunzip -c h; echo "rc $?"
cp h x.txt; gunzip x.txt; echo "rc $?"; gunzip h.gz; echo "rc $?"; gunzip -x h.gz; echo "rc $?"
zcat h.gz; echo "rc $?"; gunzip -c h.gz - < h.gz; echo "rc $?"; cat h.gz h.gz | zcat; echo "rc $?"
gunzip -q x.txt; echo "rc $?"; cp h.gz k.gz; gunzip -k k.gz; echo "rc $?"; ls k k.gz
cp h.gz m.gz; gunzip m; echo "rc $?"; ls m; ls m.gz; gunzip -t h.gz; echo "rc $?"
rm h; gunzip h.gz; echo "rc $?"; ls h; ls h.gz; cat h
"#;

/// `gunzip` and `zcat` stream: a bomb (256 MiB of zeros in one gzip member)
/// piped into `head` under a 64 MiB limit, a 2 GiB multi-member one counted
/// whole; and they answer as GNU gzip does (messages, exit codes, files).
#[test]
fn gunzip_streams_a_bomb_and_answers_as_gnu_gzip() {
    let gzip = |input: &[u8], level: &str| {
        let mut child = std::process::Command::new("gzip")
            .args([level, "-c"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("GNU gzip");
        let mut stdin = child.stdin.take().unwrap();
        let input = input.to_vec();
        let feeder = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input));
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap().unwrap();
        out.stdout
    };
    let ws = Ws::new();
    let bomb = gzip(&vec![0u8; 256 << 20], "-9");
    ws.put("/bomb.gz", &bomb);
    let member = gzip(&vec![0u8; 64 << 20], "-9");
    ws.put("/multi.gz", member.repeat(32));
    let out = exec_ok(
        &ws,
        &[
            "--memory",
            "64",
            "zcat /bomb.gz | head -c 100 | wc -c; gunzip -c /bomb.gz | head -c 3 | od -An -c; \
             zcat /multi.gz | wc -c",
        ],
    );
    assert_eq!(out, "100\n  \\0  \\0  \\0\n2147483648\n");

    let host = tempfile::tempdir().unwrap();
    let files: [(&str, Vec<u8>); 4] = [
        ("h", b"hello\n".to_vec()),
        ("h.gz", gzip(b"hello\n", "-6")),
        ("p.gz", b"plain\n".to_vec()),
        ("t.gz", gzip(b"hello\n", "-6")[..20].to_vec()),
    ];
    for (name, bytes) in &files {
        std::fs::write(host.path().join(name), bytes).unwrap();
        ws.put(&format!("/g/{name}"), bytes);
    }
    let gnu = std::process::Command::new("bash")
        .args(["-c", &format!("{{ {GZIP_SCRIPT} }} 2>&1")])
        .current_dir(host.path())
        .output()
        .expect("bash");
    let script = format!("{{ {GZIP_SCRIPT} }} 2>&1");
    let ours = exec_ok(&ws, &["--cwd", "/g", &script]);
    assert_eq!(ours, text(&gnu.stdout));
}
