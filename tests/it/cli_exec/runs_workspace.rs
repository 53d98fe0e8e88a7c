//! `computer runs` and what runs leave in the workspace.

use super::*;

// ------------------------------------------------------------ runs

#[test]
fn a_run_with_an_id_is_listed_and_shown() {
    let ws = Ws::new();
    let (code, out, _) = plain(
        &ws,
        &[
            "--id",
            "build-1",
            "console.log('built'); console.error('note'); export default () => 7",
        ],
        "",
    );
    // The default export's value follows the output, as `node -p` prints it.
    assert_eq!((code, out.as_str()), (0, "built\n7\n"));

    let list = ws.ok(&["runs"]);
    let line = list
        .lines()
        .find(|l| l.starts_with("build-1 "))
        .unwrap_or_else(|| panic!("build-1 not listed: {list:?}"));
    assert!(
        line.contains("completed") && line.contains("js") && line.contains("exit   0"),
        "{line:?}"
    );

    let show = ws.ok(&["runs", "show", "build-1"]);
    for expected in [
        "id: build-1\n",
        "backend: js\n",
        "status: completed\n",
        "exit code: 0\n",
        "value: 7\n",
        "--- stdout\nbuilt\n",
        "--- stderr\nnote\n",
    ] {
        assert!(show.contains(expected), "{expected:?} missing from {show}");
    }
    let doc = ws.json(&["runs", "show", "build-1"]);
    assert_eq!(doc["id"], "build-1");
    assert_eq!(doc["status"], "completed");
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["stdout"], "built\n");
    assert_eq!(doc["stderr"], "note\n");
}

#[test]
fn runs_list_newest_first_with_their_status() {
    let ws = Ws::new();
    plain(&ws, &["--id", "one", "1"], "");
    plain(&ws, &["--id", "two", "process.exit(2)"], "");
    plain(
        &ws,
        &["--id", "three", "--timeout", "0.3", "while(true){}"],
        "",
    );
    let doc = ws.json(&["runs"]);
    let got: Vec<(String, String, i64)> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
                r["exit_code"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("three".into(), "timed_out".into(), 124),
            ("two".into(), "failed".into(), 2),
            ("one".into(), "completed".into(), 0),
        ]
    );
}

#[test]
fn a_run_id_cannot_be_reused() {
    let ws = Ws::new();
    assert_eq!(plain(&ws, &["--id", "once", "console.log(1)"], "").0, 0);
    let (code, message) = exec_err(&ws, &["--id", "once", "console.log(2)"], "");
    assert_eq!(code, "EEXIST");
    assert!(message.contains("once"), "{message}");
    let doc = ws.json(&["runs", "show", "once"]);
    assert_eq!(doc["stdout"], "1\n", "the first run's record is intact");
}

#[test]
fn showing_an_unknown_run_is_enoent() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["runs", "show", "ghost"]);
    assert_eq!(code, "ENOENT");
    assert!(message.contains("ghost"), "{message}");
}

// ------------------------------------------------------------ the workspace

#[test]
fn files_written_by_js_are_in_the_workspace() {
    let ws = Ws::new();
    ws.put("/in/name.txt", "world");
    let (code, out, err) = plain(
        &ws,
        &["import fs from 'node:fs';\n\
             const name = fs.readFileSync('/in/name.txt', 'utf8');\n\
             fs.mkdirSync('/out', { recursive: true });\n\
             fs.writeFileSync('/out/greeting.txt', `hello, ${name}\\n`);\n\
             console.log('wrote');"],
        "",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "wrote\n", ""));
    assert_eq!(ws.cat("/out/greeting.txt"), "hello, world\n");
    assert_eq!(ws.names("/out"), vec!["greeting.txt".to_owned()]);
}

#[test]
fn a_killed_or_timed_out_run_keeps_the_files_it_wrote() {
    let ws = Ws::new();
    let (code, _, _) = plain(
        &ws,
        &[
            "--timeout",
            "0.3",
            "import fs from 'node:fs'; fs.writeFileSync('/partial.txt', 'saved'); while (true) {}",
        ],
        "",
    );
    assert_eq!(code, 124);
    assert_eq!(ws.cat("/partial.txt"), "saved");
}

#[test]
fn json_output_is_not_mixed_with_the_guests_output() {
    let ws = Ws::new();
    let out = ws.exec(
        &["--json", "console.log('{\"fake\": 1}'); console.error('e')"],
        "",
    );
    assert!(out.status.success(), "{}", shown(&[], &out));
    assert!(out.stderr.is_empty(), "{}", shown(&[], &out));
    let doc = one_json(&out.stdout);
    assert_eq!(doc["stdout"], "{\"fake\": 1}\n");
    assert_eq!(doc["stderr"], "e\n");
}

#[test]
fn the_default_backend_is_the_shell() {
    let ws = Ws::new();
    let mut cmd = ws.command(&["exec", "ls -la / && echo hi > /x && cat /x"]);
    cmd.env("COMPUTER_CACHE_DIR", computer_tests::component_cache_dir());
    let out = run_command(&mut cmd, b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.ends_with("hi\n"), "{stdout}");
    assert_eq!(ws.cat("/x"), "hi\n");
}

#[test]
fn each_backend_gets_its_own_default_memory_cap_unless_memory_is_given() {
    let ws = Ws::new();
    let memory_of = |id: &str| -> u64 {
        let record = ws.json(&["runs", "show", id]);
        let options = &record["options"];
        options["memory_bytes"].as_u64().unwrap()
    };
    for (args, id, want) in [
        (
            &["--backend", "shell", "--id", "sh", "echo hi"][..],
            "sh",
            1u64 << 30,
        ),
        (&["--backend", "js", "--id", "js", "1"][..], "js", 256 << 20),
        (
            &[
                "--backend",
                "shell",
                "--memory",
                "64",
                "--id",
                "sh64",
                "echo hi",
            ][..],
            "sh64",
            64 << 20,
        ),
    ] {
        let (code, _, err) = plain(&ws, args, "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(memory_of(id), want, "{args:?}");
    }
}
