//! The backend trait as an embedder uses it: backends of one's own in the
//! registry, the fallback combinator over them, and the exit-127 hint
//! (`not_found.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use computer_store::Workspace;

use crate::backend::{Backend, BackendInfo, Commands, FallbackBackend};
use crate::error::ExecError;
use crate::run::handle::RunHandle;
use crate::run::options::ExecOptions;
use crate::run::result::{Event, RunResult, status_of_exit};
use crate::{Runtime, RuntimeConfig};

mod not_found;

/// A backend that "runs" a script by printing it and exiting with a fixed
/// code, optionally writing a file first; it counts its runs.
struct Fake {
    name: &'static str,
    exit: i32,
    commands: Commands,
    writes: bool,
    runs: Arc<AtomicUsize>,
    ids: Arc<Mutex<Vec<String>>>,
    available: Result<(), String>,
    /// What `runs_on` and `missing_command_note` say.
    runs_on: Option<String>,
    note: Option<String>,
}

impl Fake {
    fn new(name: &'static str, exit: i32, commands: Commands) -> Self {
        Fake {
            name,
            exit,
            commands,
            writes: false,
            runs: Arc::default(),
            ids: Arc::default(),
            available: Ok(()),
            runs_on: None,
            note: None,
        }
    }
}

impl Backend for Fake {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: self.name.into(),
            description: format!("the {} test backend", self.name),
            source: "text".into(),
            commands: self.commands.clone(),
            slow_start: false,
        }
    }

    fn available(&self) -> Result<(), String> {
        self.available.clone()
    }

    fn runs_on(&self, _options: &ExecOptions) -> Option<String> {
        self.runs_on.clone()
    }

    fn missing_command_note(&self, _result: &RunResult, command: &str) -> Option<String> {
        self.note.as_ref().map(|n| format!("{n} (no {command})"))
    }

    fn exec(
        &self,
        _rt: &Runtime,
        ws: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let id = options
            .id
            .clone()
            .unwrap_or_else(|| format!("{}-run", self.name));
        self.ids.lock().unwrap().push(id.clone());
        if self.writes {
            ws.write(&format!("/{}", self.name), b"x", &Default::default())?;
        }
        let (name, exit, text) = (self.name, self.exit, source.to_owned());
        let stderr = if exit == 127 {
            format!("bash: {text}: command not found\n")
        } else {
            String::new()
        };
        RunHandle::spawn(&id.clone(), name, Arc::new(|| {}), move |tx| {
            let _ = tx.send(Event::Stdout(format!("{name}:{text}\n").into_bytes()));
            let _ = tx.send(Event::Stderr(stderr.clone().into_bytes()));
            let _ = tx.send(Event::Exit {
                code: exit,
                value: None,
            });
            RunResult {
                status: status_of_exit(exit),
                exit_code: exit,
                stdout: format!("{name}:{text}\n").into_bytes(),
                stderr: stderr.into_bytes(),
                ..RunResult::failed(&id, name, exit, String::new())
            }
        })
    }
}

fn setup(first: Fake, second: Fake) -> (Runtime, Arc<Workspace>) {
    let rt = Runtime::new(RuntimeConfig::default()).unwrap();
    rt.register_backend(Arc::new(first)).unwrap();
    rt.register_backend(Arc::new(second)).unwrap();
    rt.register_backend(Arc::new(FallbackBackend::new("both", "first", "second")))
        .unwrap();
    (rt, Arc::new(Workspace::in_memory().unwrap()))
}

fn run(rt: &Runtime, ws: &Arc<Workspace>, backend: &str, source: &str) -> (Vec<Event>, RunResult) {
    let options = ExecOptions {
        backend: backend.into(),
        ..Default::default()
    };
    let handle = rt.exec(ws.clone(), source, options).unwrap();
    let events: Vec<Event> = handle.events().iter().collect();
    (events, handle.wait())
}

#[test]
fn a_registered_backend_is_listed_and_runs_through_exec() {
    let (rt, ws) = setup(
        Fake::new("first", 0, Commands::Listed(vec!["ls".into()])),
        Fake::new("second", 0, Commands::Any),
    );
    assert_eq!(rt.backends(), ["both", "first", "second"]);
    let infos = rt.backend_infos();
    assert_eq!(infos[1].description, "the first test backend");
    let (events, r) = run(&rt, &ws, "first", "hello");
    assert_eq!(r.stdout, b"first:hello\n");
    assert_eq!(r.backend, "first");
    assert!(matches!(events.last(), Some(Event::Exit { code: 0, .. })));
    let err = rt
        .exec(
            ws,
            "x",
            ExecOptions {
                backend: "nope".into(),
                ..Default::default()
            },
        )
        .err()
        .unwrap();
    assert!(
        err.to_string().contains("unknown backend \"nope\""),
        "{err}"
    );
}

#[test]
fn the_fallback_runs_the_second_backend_after_exit_127() {
    let first = Fake::new("first", 127, Commands::Listed(vec![]));
    let second = Fake::new("second", 0, Commands::Any);
    let (first_runs, second_ids) = (first.runs.clone(), second.ids.clone());
    let (rt, ws) = setup(first, second);
    let (events, r) = run(&rt, &ws, "both", "python3");
    assert_eq!(r.backend, "second");
    assert_eq!(r.exit_code, 0);
    assert_eq!(r.stdout, b"second:python3\n");
    let fb = r.extras.fallback.expect("the result says it fell back");
    assert_eq!((fb.from.as_str(), fb.exit_code), ("first", 127));
    assert_eq!(first_runs.load(Ordering::SeqCst), 1);
    assert_eq!(*second_ids.lock().unwrap(), ["first-run.second"]);
    // Both attempts' output streamed, and exactly one Exit, last.
    let exits = events
        .iter()
        .filter(|e| matches!(e, Event::Exit { .. }))
        .count();
    assert_eq!(exits, 1);
    assert!(matches!(events.last(), Some(Event::Exit { code: 0, .. })));
    assert!(events.contains(&Event::Stdout(b"first:python3\n".to_vec())));
}

#[test]
fn the_fallback_stays_when_the_first_changed_the_workspace_or_succeeded() {
    let mut first = Fake::new("first", 127, Commands::None);
    first.writes = true;
    let second = Fake::new("second", 0, Commands::Any);
    let second_runs = second.runs.clone();
    let (rt, ws) = setup(first, second);
    let (_, r) = run(&rt, &ws, "both", "x");
    assert_eq!((r.backend.as_str(), r.exit_code), ("first", 127));
    assert_eq!(second_runs.load(Ordering::SeqCst), 0);

    let (rt, ws) = setup(
        Fake::new("first", 3, Commands::None),
        Fake::new("second", 0, Commands::Any),
    );
    let (_, r) = run(&rt, &ws, "both", "x");
    assert_eq!((r.backend.as_str(), r.exit_code), ("first", 3));
}

#[test]
fn an_unavailable_second_backend_is_named_in_the_result() {
    let mut second = Fake::new("second", 0, Commands::Any);
    second.available = Err("no engine here".into());
    let second_runs = second.runs.clone();
    let (rt, ws) = setup(Fake::new("first", 127, Commands::None), second);
    let (_, r) = run(&rt, &ws, "both", "gcc");
    assert_eq!(r.exit_code, 127);
    assert_eq!(second_runs.load(Ordering::SeqCst), 0);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("`second` backend is not available") && stderr.contains("no engine here"),
        "{stderr}"
    );
}
