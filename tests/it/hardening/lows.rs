//! Issue 41's low-severity items: a hard link's error, `/tmp` for the JS
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

/// The workspace has no hard links: `link` fails as link(2) does on a
/// filesystem without them, with node's error fields (EPERM is errno 1;
/// node's message names both paths). The other failures, which real node
/// shares, are in the node corpus (`142-fs-link-errors.js`).
#[test]
fn node_link_fails_with_eperm_and_node_fields() {
    let ws = Ws::new();
    ws.put("/w/a", "1");
    let script = r#"
const fs = require('fs');
const show = (e) => console.log(e.code, e.errno, e.syscall, e.path, e.dest, e.message);
try { fs.linkSync('a', 'b'); } catch (e) { show(e); }
fs.link('a', 'b', (e) => {
  show(e);
  fs.promises.link('a', 'b').catch(show).then(() => console.log(fs.existsSync('b')));
});
"#;
    ws.put("/w/link.js", script);
    let out = exec_ok(&ws, &["--cwd", "/w", "node link.js"]);
    let line = "EPERM -1 link a b EPERM: operation not permitted, link 'a' -> 'b'\n";
    assert_eq!(out, format!("{line}{line}{line}false\n"));
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
