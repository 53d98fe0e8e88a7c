//! The exit-127 hint: it names an offered backend that can run the missing
//! command (one that can run it now first), or says why none can.

use super::*;

fn cli(name: &str) -> String {
    format!("--backend {name}")
}

fn offered(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

#[test]
fn the_hint_names_an_offered_backend_that_can_run_the_command() {
    let (rt, ws) = setup(
        Fake::new("first", 127, Commands::Listed(vec!["ls".into()])),
        Fake::new("second", 0, Commands::Listed(vec!["python3".into()])),
    );
    let (_, r) = run(&rt, &ws, "first", "python3");
    let hint = rt.not_found_hint(&r, &offered(&["first", "second"]), &cli);
    assert!(
        hint.contains("`python3` is not available on the `first` backend")
            && hint.contains("run it with --backend second (the second test backend)"),
        "{hint}"
    );
    let (_, r) = run(&rt, &ws, "first", "gcc");
    let hint = rt.not_found_hint(&r, &offered(&["first", "second"]), &cli);
    assert!(
        hint.contains("no backend offered here can run it"),
        "{hint}"
    );
    // A backend that could run it but is not offered is not suggested.
    let (_, r) = run(&rt, &ws, "first", "python3");
    let hint = rt.not_found_hint(&r, &offered(&["first"]), &cli);
    assert!(hint.contains("no backend offered here"), "{hint}");
    assert!(!hint.contains("second"), "{hint}");
}

#[test]
fn a_backend_that_cannot_start_is_named_with_the_reason() {
    let mut second = Fake::new("second", 0, Commands::Any);
    second.available = Err("no container engine: set DOCKER_HOST".into());
    let (rt, ws) = setup(Fake::new("first", 127, Commands::None), second);
    let (_, r) = run(&rt, &ws, "first", "gcc");
    let hint = rt.not_found_hint(&r, &offered(&["first", "second"]), &cli);
    assert!(
        hint.contains("no backend offered here can run it now: --backend second would")
            && hint.ends_with("but no container engine: set DOCKER_HOST"),
        "{hint}"
    );
}

#[test]
fn a_backend_that_can_start_is_preferred_to_one_that_cannot() {
    // `both` sorts before `second`; it can run anything but cannot start.
    let rt = Runtime::new(RuntimeConfig::default()).unwrap();
    let mut unready = Fake::new("a-unready", 0, Commands::Any);
    unready.available = Err("down".into());
    for b in [
        Fake::new("first", 127, Commands::None),
        unready,
        Fake::new("second", 0, Commands::Any),
    ] {
        rt.register_backend(Arc::new(b)).unwrap();
    }
    let ws = Arc::new(Workspace::in_memory().unwrap());
    let (_, r) = run(&rt, &ws, "first", "gcc");
    let hint = rt.not_found_hint(&r, &rt.backends(), &cli);
    assert!(hint.contains("run it with --backend second"), "{hint}");
}

#[test]
fn with_no_backend_to_take_over_the_run_s_own_backend_says_what_would_help() {
    let mut first = Fake::new("first", 127, Commands::Any);
    first.note = Some("the image tiny lacks it".into());
    let (rt, ws) = setup(first, Fake::new("second", 0, Commands::None));
    let (_, r) = run(&rt, &ws, "first", "gcc");
    let hint = rt.not_found_hint(&r, &rt.backends(), &cli);
    assert!(
        hint.ends_with("no backend offered here can run it: the image tiny lacks it (no gcc)"),
        "{hint}"
    );
}

#[test]
fn after_a_fallback_the_hint_neither_suggests_the_backend_tried_first() {
    // `first` could run `gcc` by its list, but the fallback tried it.
    let first = Fake::new("first", 127, Commands::Listed(vec!["gcc".into()]));
    let mut second = Fake::new("second", 127, Commands::Any);
    second.runs_on = Some("image tiny, engine here".into());
    let (rt, ws) = setup(first, second);
    let (events, r) = run(&rt, &ws, "both", "gcc");
    assert_eq!((r.backend.as_str(), r.exit_code), ("second", 127));
    let hint = rt.not_found_hint(&r, &rt.backends(), &cli);
    assert!(
        hint.contains("no backend offered here can run it") && !hint.contains("--backend first"),
        "{hint}"
    );
    // The move to the second backend says where it runs.
    let said: String = events
        .iter()
        .filter_map(|e| match e {
            Event::Stderr(b) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        })
        .collect();
    assert!(
        said.contains("running it on `second` (image tiny, engine here)"),
        "{said}"
    );
}
