//! Read-only runs (issue 38): `exec --read-only` (and `run --read-only`)
//! on each backend, with a few hundred generated commands that try to
//! change the workspace in every way the tools have; afterwards the
//! workspace's revision (bumped by every change, in the same transaction)
//! and its content are what they were. Reads still work.

use computer_tests::{Ws, component_cache_dir, describe, run_command, text};

/// A workspace with a file, a directory with a file, and a symlink.
fn seeded() -> Ws {
    let ws = Ws::new();
    ws.put("/f.txt", "one\ntwo\n");
    ws.put("/d/g.txt", "in d\n");
    ws.ok(&["exec", "ln -s /f.txt /link && echo '{}' > /d/data.json"]);
    ws
}

fn exec(ws: &Ws, args: &[&str]) -> std::process::Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

/// Runs each script read-only; the revision and the tree must not move.
fn assert_nothing_changes(ws: &Ws, backend_args: &[&str], scripts: &[String]) {
    let rev = ws.rev();
    let tree = ws.tree("/");
    for script in scripts {
        let mut args = vec!["exec", "--read-only"];
        args.extend_from_slice(backend_args);
        args.push(script);
        let out = exec(ws, &args);
        assert_eq!(
            ws.rev(),
            rev,
            "the workspace changed\n{}",
            describe(&args, &out)
        );
    }
    assert_eq!(ws.tree("/"), tree);
    assert_eq!(ws.cat("/f.txt"), "one\ntwo\n");
}

const TARGETS: &[&str] = &[
    "/f.txt",
    "/d",
    "/d/g.txt",
    "/new",
    "/d/new/deep",
    "/link",
    "/.computer/x",
];

/// Shell commands that would change `t` (and a second path).
fn shell_commands(t: &str) -> Vec<String> {
    let u = format!("{t}.2");
    [
        format!("echo x > {t}"),
        format!("echo x >> {t}"),
        format!("printf y | tee {t}"),
        format!("touch {t}"),
        format!("touch -d 2001-01-01 {t}"),
        format!("mkdir {t}"),
        format!("mkdir -p {t}/a/b"),
        format!("rm -f {t}"),
        format!("rm -rf {t}"),
        format!("rmdir {t}"),
        format!("mv {t} {u}"),
        format!("mv /f.txt {t}"),
        format!("cp {t} {u}"),
        format!("cp -r {t} {u}"),
        format!("cp /f.txt {t}"),
        format!("ln -s /f.txt {t}"),
        format!("ln -sf /d {t}"),
        format!("ln {t} {u}"),
        format!("chmod 600 {t}"),
        format!("chmod -R 700 {t}"),
        format!("truncate -s 0 {t}"),
        format!("sed -i s/one/ONE/ {t}"),
        format!("dd if=/f.txt of={t} 2>/dev/null"),
        format!("cat /f.txt > {t}"),
        format!("sort -o {t} /f.txt"),
        format!("exec 3>{t}; echo z >&3"),
        format!("cd /d && echo q > rel && mv g.txt {u}"),
        format!("python3 -c \"open('{t}','w').write('p')\""),
        format!("python3 -c \"import os; os.makedirs('{t}/x')\""),
        format!("python3 -c \"import os; os.remove('{t}')\""),
        format!("python3 -c \"import shutil; shutil.rmtree('{t}')\""),
        format!("node -e \"require('fs').writeFileSync('{t}', 'n')\""),
        format!("node -e \"require('fs').rmSync('{t}', {{recursive: true, force: true}})\""),
        format!("sqlite3 {t} 'create table t(x)'"),
        format!("git init -q {t}"),
        format!("tar cf {t} /d"),
        format!("gzip -k {t}"),
        format!("zip -q {u} {t}"),
        format!("wget -q -O {t} http://127.0.0.1:9/"),
        format!("yes | head -1000 > {t}"),
        format!("split -l 1 /f.txt {t}"),
        format!("install -m 644 /f.txt {t}"),
        format!("mktemp -p {t}"),
    ]
    .into_iter()
    .collect()
}

#[test]
fn shell_commands_cannot_change_the_workspace() {
    let ws = seeded();
    let commands: Vec<String> = TARGETS.iter().flat_map(|t| shell_commands(t)).collect();
    assert!(commands.len() > 250, "{}", commands.len());
    // Many commands per run (each on its own line, errors ignored), so
    // the few hundred cost a few runs; a change is caught by the chunk.
    let scripts: Vec<String> = commands
        .chunks(25)
        .map(|c| c.iter().map(|l| format!("{l} 2>/dev/null\n")).collect())
        .collect();
    assert_nothing_changes(&ws, &[], &scripts);
    // The refusal is EROFS, in place; reads work.
    let out = exec(&ws, &["exec", "--read-only", "cat /f.txt; echo x > /f.txt"]);
    assert_eq!(text(&out.stdout), "one\ntwo\n");
    assert!(
        text(&out.stderr).contains("Read-only file system"),
        "{}",
        text(&out.stderr)
    );
    // Without --read-only the same workspace changes.
    ws.ok(&["exec", "echo x > /f.txt"]);
    assert_eq!(ws.cat("/f.txt"), "x\n");
}

#[test]
fn js_python_and_commands_cannot_change_the_workspace() {
    let ws = seeded();
    let mut js = Vec::new();
    let mut py = Vec::new();
    for t in TARGETS {
        js.push(format!(
            "import fs from 'node:fs';\nconst tries = [\n\
             () => fs.writeFileSync('{t}', 'x'), () => fs.appendFileSync('{t}', 'x'),\n\
             () => fs.mkdirSync('{t}/a', {{recursive: true}}), () => fs.rmSync('{t}', {{recursive: true, force: true}}),\n\
             () => fs.renameSync('{t}', '/moved'), () => fs.copyFileSync('/f.txt', '{t}'),\n\
             () => fs.symlinkSync('/f.txt', '{t}'), () => fs.chmodSync('{t}', 0o600),\n\
             () => fs.truncateSync('{t}', 0), () => fs.unlinkSync('{t}'), () => fs.rmdirSync('{t}'),\n\
             () => fs.utimesSync('{t}', 1, 1), () => fs.linkSync('{t}', '/hard'),\n\
             () => {{ const fd = fs.openSync('{t}', 'w'); fs.writeSync(fd, 'x'); }},\n\
             ];\nlet refused = 0;\nfor (const t of tries) {{ try {{ t(); }} catch (e) {{ if (e.code === 'EROFS') refused++; }} }}\n\
             console.log(refused);"
        ));
        py.push(format!(
            "import errno, os, shutil\ntries = [\n\
             lambda: open('{t}', 'w').write('x'), lambda: open('{t}', 'a').write('x'),\n\
             lambda: os.makedirs('{t}/a'), lambda: os.remove('{t}'), lambda: os.rmdir('{t}'),\n\
             lambda: shutil.rmtree('{t}'), lambda: os.rename('{t}', '/moved'),\n\
             lambda: shutil.copy('/f.txt', '{t}'), lambda: os.symlink('/f.txt', '{t}'),\n\
             lambda: os.chmod('{t}', 0o600), lambda: os.truncate('{t}', 0),\n\
             lambda: os.utime('{t}', (1, 1)), lambda: os.link('{t}', '/hard'),\n\
             lambda: shutil.copytree('/d', '{t}'),\n\
             ]\nrefused = 0\nfor t in tries:\n    try:\n        t()\n    except OSError as e:\n        refused += e.errno == errno.EROFS\n\
             print(refused)\n"
        ));
    }
    assert_nothing_changes(&ws, &["--backend", "js"], &js);
    assert_nothing_changes(&ws, &["--backend", "python"], &py);
    // EROFS, in place: the scripts counted their refusals.
    let out = exec(&ws, &["exec", "--read-only", "--backend", "js", &js[0]]);
    assert!(
        text(&out.stdout).trim().parse::<u32>().unwrap() >= 5,
        "{}",
        describe(&["js"], &out)
    );
    let out = exec(&ws, &["exec", "--read-only", "--backend", "python", &py[0]]);
    assert!(
        text(&out.stdout).trim().parse::<u32>().unwrap() >= 5,
        "{}",
        describe(&["py"], &out)
    );
    // Command components, run directly.
    let rev = ws.rev();
    for words in [
        vec!["python3", "-c", "open('/f.txt', 'w').write('x')"],
        vec!["sqlite3", "/db.sqlite", "create table t(x)"],
        vec!["git", "init", "-q", "/repo"],
        vec!["node", "-e", "require('fs').writeFileSync('/n', 'x')"],
    ] {
        let mut args = vec!["run", "--read-only"];
        args.extend(words.iter().copied());
        let out = exec(&ws, &args);
        assert!(!out.status.success(), "{}", describe(&args, &out));
        assert_eq!(ws.rev(), rev, "{}", describe(&args, &out));
    }
}

/// Through the library: `ExecOptions::read_only`, with the store's change
/// log on, which records nothing.
#[test]
fn the_change_log_stays_empty() {
    use std::sync::Arc;
    let ws = Arc::new(computer_store::Workspace::in_memory().unwrap());
    ws.write("/f.txt", b"one\n", &Default::default()).unwrap();
    let since = ws.keep_change_log().unwrap();
    let rt = computer_runtime::Runtime::with_builtin_guests(computer_runtime::RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..Default::default()
    })
    .unwrap();
    computer_builtins::register(&rt).expect("built-ins");
    let script: String = TARGETS
        .iter()
        .flat_map(|t| shell_commands(t))
        .filter(|c| !c.contains("node"))
        .map(|l| format!("{l} 2>/dev/null\n"))
        .collect();
    let options = computer_runtime::ExecOptions {
        backend: "shell".into(),
        read_only: true,
        ..Default::default()
    };
    let r = rt.exec(ws.clone(), &script, options).unwrap().wait();
    assert!(r.status.is_ended(), "{r:?}");
    let changes = ws.changes_since(since).unwrap();
    assert_eq!(changes.paths, Some(vec![]), "{changes:?}");
    assert_eq!(ws.read("/f.txt").unwrap(), b"one\n");
}
