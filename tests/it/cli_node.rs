//! `node` and `npm` as a user meets them: commands of the workspace's shell
//! and of `computer run`, listed by `computer commands ls`. Real node 20 and
//! npm are the oracle: the same tree is run by both, and stdout and exit codes
//! must agree. (The broad behaviour is `node_corpus`; this file is the command
//! line, CommonJS packages and npm scripts through the CLI.)

use std::path::Path;
use std::process::{Command, Output};

use computer_tests::{Ws, component_cache_dir, describe, run_command, text};

/// A small project: CommonJS and ESM packages in node_modules (exports with
/// conditions and patterns, `main`, a scoped package, an ESM-only package),
/// a cycle, JSON, a bin link and package.json scripts.
const TREE: &[(&str, &str)] = &[
    (
        "node_modules/dual/package.json",
        r#"{"name":"dual","version":"1.0.0","exports":{".":{"import":"./esm.mjs","require":"./cjs.js"},"./feature/*":"./features/*.js","./package.json":"./package.json"}}"#,
    ),
    (
        "node_modules/dual/cjs.js",
        "exports.kind = 'cjs'; exports.add = (a, b) => a + b;\n",
    ),
    (
        "node_modules/dual/esm.mjs",
        "export const kind = 'esm';\nexport default 42;\n",
    ),
    (
        "node_modules/dual/features/x.js",
        "module.exports = 'feature ' + require('path').basename(__filename);\n",
    ),
    (
        "node_modules/@scope/lib/package.json",
        r#"{"name":"@scope/lib","main":"lib/main"}"#,
    ),
    (
        "node_modules/@scope/lib/lib/main.js",
        "module.exports = { hello, n: 1 };\nfunction hello() { return 'hello'; }\n",
    ),
    (
        "node_modules/esm-only/package.json",
        r#"{"name":"esm-only","type":"module","exports":"./index.js"}"#,
    ),
    (
        "node_modules/esm-only/index.js",
        "export const x = 1;\nexport default 'esm default';\n",
    ),
    (
        "node_modules/tool/package.json",
        r#"{"name":"tool","version":"0.1.0","bin":{"tool":"cli.js"}}"#,
    ),
    (
        "node_modules/tool/cli.js",
        "#!/usr/bin/env node\nconsole.log('tool', process.argv.slice(2).join(','));\n",
    ),
    (
        "src/a.js",
        "exports.early = true;\nconst b = require('./b');\nexports.fromB = b.value;\n",
    ),
    (
        "src/b.js",
        "const a = require('./a');\nexports.value = 'b saw early=' + a.early + ' fromB=' + a.fromB;\n",
    ),
    ("data.json", "{\"list\": [1, 2, 3]}\n"),
    (
        "main.js",
        r#"const dual = require('dual');
console.log(dual.kind, dual.add(2, 3), require('dual/feature/x'));
console.log(require('@scope/lib').hello(), require('./data').list.length);
console.log(require('./src/a'));
console.log(require('esm-only').default, require.main === module);
console.log(require.resolve('dual').endsWith('node_modules/dual/cjs.js'));
try { require('dual/hidden'); } catch (e) { console.log(e.code); }
try { require('missing-package'); } catch (e) { console.log(e.code); }
console.log(process.argv.slice(2));
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => console.log('promise'));
setTimeout(() => { console.log('timeout'); process.exitCode = 5; }, 1);
"#,
    ),
    (
        "main.mjs",
        r#"import dual, { kind } from 'dual';
import lib from '@scope/lib';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
const require = createRequire(import.meta.url);
console.log(dual, kind, lib.n, require('dual').kind, basename(import.meta.filename));
const { x } = await import('esm-only');
console.log('x', x);
"#,
    ),
    (
        "package.json",
        r#"{"name":"demo","version":"1.2.3","scripts":{"pretest":"echo before","test":"node main.js a b","posttest":"echo after","tool":"tool one two","fail":"node -e \"process.exit(7)\""}}"#,
    ),
];

fn node_oracle() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && text(&o.stdout).starts_with("v20"))
}

fn run(ws: &Ws, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, stdin)
}

fn shell(ws: &Ws, script: &str) -> Output {
    run(ws, &["exec", "--cwd", "/p", script], b"")
}

/// The tree in the workspace at /p and on the host at `dir`, with the bin link.
fn project(ws: &Ws, dir: &Path) {
    for (path, body) in TREE {
        ws.put(&format!("/p/{path}"), body);
        let host = dir.join(path);
        std::fs::create_dir_all(host.parent().unwrap()).unwrap();
        std::fs::write(host, body).unwrap();
    }
    let out = shell(
        ws,
        "chmod +x node_modules/tool/cli.js && mkdir -p node_modules/.bin && ln -s ../tool/cli.js node_modules/.bin/tool",
    );
    assert!(out.status.success(), "{}", describe(&["exec"], &out));
    let host = Command::new("sh")
        .current_dir(dir)
        .args(["-c", "chmod +x node_modules/tool/cli.js && mkdir -p node_modules/.bin && ln -s ../tool/cli.js node_modules/.bin/tool"])
        .status()
        .unwrap();
    assert!(host.success());
}

/// `script` in bash on the host (real node) and in the workspace's shell: the
/// same stdout and exit code.
fn same_as_node(ws: &Ws, dir: &Path, script: &str) {
    let real = Command::new("bash")
        .current_dir(dir)
        .args(["-c", script])
        .output()
        .unwrap();
    let ours = shell(ws, script);
    assert_eq!(
        (text(&ours.stdout), ours.status.code()),
        (text(&real.stdout), real.status.code()),
        "{script}\nreal stderr: {}\nours stderr: {}",
        text(&real.stderr),
        text(&ours.stderr)
    );
}

#[test]
fn packages_and_npm_scripts_run_as_real_node_and_npm_run_them() {
    if !node_oracle() {
        eprintln!("skipped: node 20 is not installed (scripts/setup.sh installs it)");
        return;
    }
    let ws = Ws::new();
    let host = tempfile::tempdir().unwrap();
    project(&ws, host.path());
    for script in [
        "node main.js x 'y z'",
        "node main.mjs",
        "node ./main",
        "node -e 'console.log(require(\"dual\").kind, __filename, module.id)'",
        "node -p 'require(\"./data.json\").list.map(n => n * 2)'",
        "echo 'console.log(require(\"@scope/lib\").n + 1)' | node",
        "node --input-type=module -e 'import d from \"dual\"; console.log(d)'",
        "node -e 'process.exit(3)'; echo $?",
        "node -e 'throw new Error(\"boom\")'; echo $?",
        "node missing.js; echo $?",
        "node --bogus-option; echo $?",
        "node --version | cut -c1-3",
        "npm test",
        "npm run tool",
        "npm run fail; echo $?",
        "npm run nope; echo $?",
        "npm run",
        "node_modules/.bin/tool direct",
    ] {
        same_as_node(&ws, host.path(), script);
    }
}

#[test]
fn node_is_a_listed_command_and_runs_without_a_shell() {
    let ws = Ws::new();
    let listed = ws.ok(&["commands", "ls"]);
    for name in ["node", "npm"] {
        assert!(
            listed
                .lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name} is not listed:\n{listed}"
        );
    }
    let out = run(&ws, &["run", "node", "-p", "6 * 7"], b"");
    assert_eq!(
        (text(&out.stdout), out.status.code()),
        ("42\n".into(), Some(0))
    );
    let out = run(&ws, &["run", "node", "-e", "process.exitCode = 9"], b"");
    assert_eq!(out.status.code(), Some(9), "{}", describe(&["run"], &out));
    // An uncaught error: the message, a stack, node's version line, exit 1.
    let out = run(&ws, &["run", "node", "-e", "null.x"], b"");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains("TypeError") && err.contains("Node.js v20"),
        "{err}"
    );
}

#[test]
fn npm_install_names_the_container_backend() {
    let ws = Ws::new();
    ws.put("/p/package.json", r#"{"name":"x","version":"1.0.0"}"#);
    let out = shell(&ws, "npm install lodash");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("container backend"), "{err}");
    assert!(!ws.exists("/p/node_modules"), "nothing may be installed");
}
