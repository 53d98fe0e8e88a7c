//! Group commit as a run's observers see it: a run's changes share
//! transactions, but none is ever unseen by another process once the run's
//! output has shown it, once a module call starts, or once the run ends.

use super::*;
use computer_runtime::{CallContext, OnInterrupt};

/// A file-backed workspace (a second handle stands for another process).
fn file_workspace() -> (tempfile::TempDir, Arc<Workspace>) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    ws.mkdir("/work", &MkdirOptions::default()).unwrap();
    (dir, Arc::new(ws))
}

fn modes() -> [OnInterrupt; 2] {
    [OnInterrupt::Fail, OnInterrupt::Replay]
}

#[test]
fn a_change_is_committed_before_the_output_after_it_is_shown() {
    let rt = runtime();
    for on in modes() {
        let (dir, ws) = file_workspace();
        // Many changes, then a line, then a loop that never makes another
        // change: only the commit before the output can make them visible
        // at once.
        let src = "import { writeFileSync } from 'node:fs';\n\
                   for (let i = 0; i < 50; i++) writeFileSync(`/work/f${i}`, 'x');\n\
                   console.log('wrote');\n\
                   while (true) {}";
        let options = ExecOptions {
            on_interrupt: Some(on),
            ..js()
        };
        let handle = rt.exec(ws.clone(), src, options).unwrap();
        let other = Workspace::open(dir.path().join("ws.db")).unwrap();
        loop {
            match handle.next_event() {
                Some(Event::Stdout(b)) if s(&b).contains("wrote") => break,
                Some(_) => {}
                None => panic!("the run ended before printing ({on:?})"),
            }
        }
        for i in 0..50 {
            assert!(
                other.exists(&format!("/work/f{i}")).unwrap(),
                "/work/f{i} is not committed though the output after it was shown ({on:?})"
            );
        }
        handle.kill();
        let r = wait(handle);
        assert_eq!(r.status, RunStatus::Cancelled, "{}", describe(&r));
    }
}

/// `ws:probe.seen(db, path)`: whether another handle on the workspace file
/// `db` sees `path`, asked while the run waits for the call.
struct Probe;

impl HostModule for Probe {
    fn functions(&self) -> Vec<FunctionInfo> {
        vec![FunctionInfo {
            name: "seen".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(&self, _: &str, args: Value, _: &mut CallContext) -> Result<Value, ModuleCallError> {
        let (db, path) = (args[0].as_str().unwrap_or_default(), args[1].as_str());
        let other = Workspace::open(db).map_err(|e| ModuleCallError::Failed(e.to_string()))?;
        let path = path.unwrap_or_default();
        Ok(json!(other.exists(path).unwrap_or(false)))
    }
}

#[test]
fn a_module_call_starts_after_the_changes_before_it_are_committed() {
    let rt = runtime();
    rt.modules().register("ws:probe", Arc::new(Probe)).unwrap();
    for on in modes() {
        let (dir, ws) = file_workspace();
        let db = dir.path().join("ws.db");
        let src = format!(
            "import {{ writeFileSync }} from 'node:fs';\n\
             import {{ seen }} from 'ws:probe';\n\
             writeFileSync('/work/a', 'x');\n\
             export default seen({:?}, '/work/a');",
            db.to_str().unwrap()
        );
        let options = ExecOptions {
            on_interrupt: Some(on),
            ..js()
        };
        let r = exec(&rt, &ws, &src, options);
        assert_eq!(r.value, Some(json!(true)), "{on:?}: {}", describe(&r));
    }
}

#[test]
fn every_change_is_committed_when_the_run_ends() {
    let rt = runtime();
    for on in modes() {
        let (dir, ws) = file_workspace();
        let src = "import { writeFileSync, rmSync } from 'node:fs';\n\
                   for (let i = 0; i < 300; i++) writeFileSync(`/work/f${i}`, String(i));\n\
                   rmSync('/work/f7');";
        let options = ExecOptions {
            on_interrupt: Some(on),
            ..js()
        };
        let r = exec(&rt, &ws, src, options);
        assert_eq!(r.exit_code, 0, "{}", describe(&r));
        let other = Workspace::open(dir.path().join("ws.db")).unwrap();
        let names = other.readdir("/work", Page::default()).unwrap();
        assert_eq!(names.len(), 299, "{on:?}");
        assert_eq!(other.read("/work/f299").unwrap(), b"299");
        assert!(!other.exists("/work/f7").unwrap());
    }
}
