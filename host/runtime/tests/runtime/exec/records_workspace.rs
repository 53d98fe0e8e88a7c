//! Run records, and the workspace as JS sees it.

use super::*;

// ------------------------------------------------------------ run records

#[test]
fn runs_are_recorded_in_the_workspace() {
    let rt = runtime();
    let ws = workspace();
    let first = exec(
        &rt,
        &ws,
        "console.log('out'); console.error('err'); export default () => ({ok: true});",
        ExecOptions {
            input: Some("null".into()),
            ..js()
        },
    );
    let second = exec(&rt, &ws, "process.exit(5)", js());

    let rec = ws.runs().get(&first.run_id).unwrap().expect("recorded");
    assert_eq!(rec.id, first.run_id);
    assert_eq!(rec.backend, "js");
    assert_eq!(rec.status, RunStatus::Completed);
    assert_eq!(rec.exit_code, Some(0));
    assert_eq!(
        rec.source,
        "console.log('out'); console.error('err'); export default () => ({ok: true});"
    );
    assert_eq!(s(&rec.stdout), "out\n");
    assert_eq!(s(&rec.stderr), "err\n");
    let value: Value = serde_json::from_str(rec.value.as_deref().expect("value recorded"))
        .expect("the recorded value is JSON");
    assert_eq!(value, json!({"ok": true}));
    assert_eq!(rec.error, None);
    let ended = rec.ended_ns.expect("end time recorded");
    assert!(rec.started_ns > 0 && ended >= rec.started_ns, "{rec:?}");
    let options: Value = serde_json::from_str(&rec.options).expect("options are JSON");
    assert_eq!(options["cwd"], "/work", "{options}");

    let rec2 = ws.runs().get(&second.run_id).unwrap().expect("recorded");
    assert_eq!(rec2.status, RunStatus::Failed);
    assert_eq!(rec2.exit_code, Some(5));

    let listed: Vec<String> = ws
        .runs()
        .list(Page::all())
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(listed, vec![second.run_id.clone(), first.run_id.clone()]);
    assert_eq!(ws.runs().get("run-nonexistent").unwrap(), None);
}

#[test]
fn a_run_is_recorded_as_running_while_it_runs() {
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            "console.log('up'); while (true) {}",
            ExecOptions {
                id: Some("live".into()),
                ..js()
            },
        )
        .expect("exec");
    expect_stdout(&handle, "up\n");
    let rec = ws.runs().get("live").unwrap().expect("recorded at start");
    assert_eq!(rec.status, RunStatus::Running);
    assert_eq!(rec.exit_code, None);
    assert_eq!(rec.ended_ns, None);
    rt.kill("live");
    wait(handle);
    assert_eq!(
        ws.runs().get("live").unwrap().unwrap().status,
        RunStatus::Cancelled
    );
}

#[test]
fn a_caller_chosen_id_is_used_and_cannot_be_reused() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(
        &rt,
        &ws,
        "console.log('x')",
        ExecOptions {
            id: Some("job:42.a_b-c".into()),
            ..js()
        },
    );
    assert_eq!(r.run_id, "job:42.a_b-c");
    assert!(ws.runs().get("job:42.a_b-c").unwrap().is_some());

    let err = rt
        .exec(
            ws.clone(),
            "console.log('y')",
            ExecOptions {
                id: Some("job:42.a_b-c".into()),
                ..js()
            },
        )
        .err()
        .expect("a reused id was accepted");
    match &err {
        ExecError::Workspace(e) => assert_eq!(e.code, Errno::EEXIST, "{e}"),
        other => panic!("expected EEXIST, got {other:?}"),
    }
    assert!(err.to_string().contains("job:42.a_b-c"), "{err}");
    // The first record is untouched.
    let rec = ws.runs().get("job:42.a_b-c").unwrap().unwrap();
    assert_eq!(s(&rec.stdout), "x\n");
    assert_eq!(ws.runs().list(Page::all()).unwrap().len(), 1);

    // The same id in another workspace is fine: unique per workspace.
    let other = exec(
        &rt,
        &workspace(),
        "1",
        ExecOptions {
            id: Some("job:42.a_b-c".into()),
            ..js()
        },
    );
    assert_eq!(other.status, RunStatus::Completed);
}

#[test]
fn an_id_in_use_by_a_running_run_is_refused() {
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            "console.log('up'); while (true) {}",
            ExecOptions {
                id: Some("busy".into()),
                ..js()
            },
        )
        .expect("exec");
    expect_stdout(&handle, "up\n");
    let err = rt
        .exec(
            ws.clone(),
            "1",
            ExecOptions {
                id: Some("busy".into()),
                ..js()
            },
        )
        .err()
        .expect("a running id was reused");
    assert!(err.to_string().contains("busy"), "{err}");
    // The refusals did not cancel or disturb the running run.
    assert!(rt.kill("busy"));
    let r = wait(handle);
    assert_eq!(r.status, RunStatus::Cancelled);
}

#[test]
fn an_invalid_id_is_refused() {
    for id in ["", "has space", "slash/y", &"x".repeat(129)] {
        let ws = workspace();
        let err = runtime()
            .exec(
                ws.clone(),
                "1",
                ExecOptions {
                    id: Some(id.to_owned()),
                    ..js()
                },
            )
            .err()
            .unwrap_or_else(|| panic!("id {id:?} was accepted"));
        assert!(
            matches!(&err, ExecError::Workspace(e) if e.code == Errno::EINVAL),
            "{id:?}: {err:?}"
        );
        assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
    }
}

// ------------------------------------------------------------ the workspace

#[test]
fn js_and_the_workspace_see_the_same_files() {
    let rt = runtime();
    let ws = workspace();
    write(&ws, "/work/in/data.txt", b"from the host\n");
    let r = exec(
        &rt,
        &ws,
        "import fs from 'node:fs';\n\
         import { readFile } from 'node:fs/promises';\n\
         console.log(JSON.stringify(fs.readFileSync('in/data.txt', 'utf8')));\n\
         console.log(JSON.stringify(await readFile('/work/in/data.txt', 'utf8')));\n\
         fs.mkdirSync('/work/out/deep', { recursive: true });\n\
         fs.writeFileSync('out/deep/result.txt', 'from JS\\n');\n\
         fs.appendFileSync('out/deep/result.txt', 'more\\n');\n\
         fs.writeFileSync('/bytes.bin', new Uint8Array([0, 1, 255]));\n\
         fs.rmSync('in', { recursive: true });",
        js(),
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "\"from the host\\n\"\n\"from the host\\n\"\n");
    assert_eq!(
        ws.read("/work/out/deep/result.txt").unwrap(),
        b"from JS\nmore\n"
    );
    assert_eq!(ws.read("/bytes.bin").unwrap(), [0, 1, 255]);
    assert!(!ws.exists("/work/in").unwrap(), "JS removed /work/in");

    // A second run sees the first one's files.
    let r = exec(
        &rt,
        &ws,
        "import fs from 'node:fs';\n\
         console.log(fs.readdirSync('/work').join(','));\n\
         console.log(fs.readFileSync('/bytes.bin').length);",
        js(),
    );
    assert_eq!(s(&r.stdout), "out\n3\n", "{}", describe(&r));
}

#[test]
fn the_guest_sees_no_host_files() {
    // The host has /etc and its temp dir; the (empty) workspace has no
    // /etc, and its /tmp (made on first use, as a process expects one) is
    // the workspace's own, empty, not the host's.
    assert!(std::path::Path::new("/etc").is_dir());
    let r = run_js(
        "import fs from 'node:fs';\n\
         console.log(fs.existsSync('/etc'), fs.existsSync('/tmp'), fs.readdirSync('/').join(','), fs.readdirSync('/tmp').length);",
    );
    assert_eq!(s(&r.stdout), "false true tmp,work 0\n", "{}", describe(&r));
}

#[test]
fn fs_errors_in_js_are_node_style() {
    let r = run_js(
        "import fs from 'node:fs';\n\
         try { fs.readFileSync('/work/missing.txt'); }\n\
         catch (e) { console.log(e.code, e.path, e instanceof Error); }\n\
         try { fs.mkdirSync('/work'); }\n\
         catch (e) { console.log(e.code); }",
    );
    assert_eq!(
        s(&r.stdout),
        "ENOENT /work/missing.txt true\nEEXIST\n",
        "{}",
        describe(&r)
    );
}

#[test]
fn a_module_in_the_workspace_can_be_imported() {
    let ws = workspace();
    write(
        &ws,
        "/work/lib/math.js",
        b"export const add = (a, b) => a + b;\n",
    );
    let r = exec(
        &runtime(),
        &ws,
        "import { add } from './lib/math.js';\n\
         import { add as add2 } from '/work/lib/math.js';\n\
         console.log(add(2, 3), add2(1, 1));",
        js(),
    );
    assert_eq!(s(&r.stdout), "5 2\n", "{}", describe(&r));
}
