//! Whether a script runs jobs beside its foreground (`cmd &`, `coproc`), or
//! races a command against a timer (`timeout`).
//!
//! A command component normally runs only while the shell waits for it
//! (`invocation.next`), so a durable run's host calls come in the script's
//! own order and a replay repeats them. A job beside the foreground needs
//! the shell to go on while the job's command runs, which `poll-next`
//! gives, at the price of that order. So only a script that can start a
//! job polls; every other script keeps the exact turns.
//!
//! Scripts the script runs by name (`bash start.sh`, `./start.sh`,
//! `source env.sh`, `sh -c '…'`) are looked at too, three levels deep.
//! Known gap: a `&` that only `eval` or a computed path reaches is not
//! found, and its command blocks the shell as it did before.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use bashkit::analysis::ScriptAnalysis;
use bashkit::parser::{Command, CompoundCommand, ListOperator, Parser};

use crate::computer::workspace::fs;

static RUNS_JOBS: AtomicBool = AtomicBool::new(false);
/// The script, kept while a script it names was missing when looked at (a
/// script that writes `start.sh` and then runs it): looked at again when a
/// command starts.
static UNRESOLVED: Mutex<Option<String>> = Mutex::new(None);
/// How deep scripts named by scripts are followed.
const MAX_DEPTH: u32 = 3;
/// Larger files are not scripts worth parsing for this.
const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Looks at the script about to run (once, before it runs).
pub fn note_script(source: &str, cwd: &str) {
    look(source, cwd);
}

/// Whether commands must be polled rather than waited for; `cwd` is the
/// shell's now, for scripts named but missing so far.
pub fn runs_jobs(cwd: &str) -> bool {
    if RUNS_JOBS.load(Ordering::Relaxed) {
        return true;
    }
    let pending = UNRESOLVED.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(source) = pending {
        look(&source, cwd);
    }
    RUNS_JOBS.load(Ordering::Relaxed)
}

fn look(source: &str, cwd: &str) {
    let mut missing = false;
    let jobs = runs_jobs_within(source, cwd, MAX_DEPTH, &mut missing);
    RUNS_JOBS.store(jobs, Ordering::Relaxed);
    if !jobs && missing {
        *UNRESOLVED.lock().unwrap_or_else(|e| e.into_inner()) = Some(source.to_owned());
    }
}

fn runs_jobs_within(source: &str, cwd: &str, depth: u32, missing: &mut bool) -> bool {
    if script_runs_jobs(source) {
        return true;
    }
    // One analysis for both questions below (a parse per question would
    // repeat the work at every run's start).
    let Ok(analysis) = bashkit::analysis::analyze(source) else {
        return false;
    };
    if races_a_timer(&analysis) {
        return true;
    }
    depth > 0
        && named_scripts(&analysis).iter().any(|named| match named {
            Named::Inline(text) => runs_jobs_within(text, cwd, depth - 1, missing),
            Named::File(path) => match read_script(path, cwd) {
                Ok(Some(text)) => runs_jobs_within(&text, cwd, depth - 1, missing),
                Ok(None) => false,
                Err(Missing) => {
                    *missing = true;
                    false
                }
            },
        })
}

fn script_runs_jobs(source: &str) -> bool {
    Parser::new(source)
        .parse()
        .is_ok_and(|script| any(&script.commands))
}

/// `timeout N cmd`: bashkit's `timeout` races the command against a timer
/// on the shell's own task, which a command blocking the shell in `next`
/// would never let fire.
fn races_a_timer(analysis: &ScriptAnalysis) -> bool {
    analysis.commands_named("timeout").next().is_some()
}

/// A script a script runs.
enum Named {
    File(String),
    Inline(String),
}

/// The scripts `source` names with literal words: `bash FILE`, `sh -c
/// TEXT`, `. FILE`, `source FILE`, `./FILE`.
fn named_scripts(analysis: &ScriptAnalysis) -> Vec<Named> {
    let mut out = Vec::new();
    for command in &analysis.commands {
        let Some(name) = command.name.as_deref() else {
            continue;
        };
        let args: Vec<Option<&str>> = command.args.iter().map(|a| a.as_deref()).collect();
        match name {
            "bash" | "sh" => {
                let mut words = args.iter();
                while let Some(Some(word)) = words.next() {
                    if *word == "-c" {
                        if let Some(Some(text)) = words.next() {
                            out.push(Named::Inline((*text).to_owned()));
                        }
                        break;
                    }
                    if !word.starts_with('-') {
                        out.push(Named::File((*word).to_owned()));
                        break;
                    }
                }
            }
            "source" | "." => {
                if let Some(Some(file)) = args.first() {
                    out.push(Named::File((*file).to_owned()));
                }
            }
            path if path.contains('/') => out.push(Named::File(path.to_owned())),
            _ => {}
        }
    }
    out
}

/// A named script that is not there (yet).
struct Missing;

/// The script's text; `None` when it is no script worth reading.
fn read_script(path: &str, cwd: &str) -> Result<Option<String>, Missing> {
    let full = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{}/{path}", cwd.trim_end_matches('/'))
    };
    let size = fs::stat(&full).map_err(|_| Missing)?.size;
    if size > MAX_SCRIPT_BYTES {
        return Ok(None);
    }
    let bytes = fs::read(&full, Some(0), Some(size)).map_err(|_| Missing)?;
    Ok(String::from_utf8(bytes).ok())
}

fn any(commands: &[Command]) -> bool {
    commands.iter().any(starts_job)
}

fn starts_job(command: &Command) -> bool {
    match command {
        Command::Simple(_) => false,
        Command::Pipeline(p) => any(&p.commands),
        Command::List(list) => {
            list.rest
                .iter()
                .any(|(op, c)| *op == ListOperator::Background || starts_job(c))
                || starts_job(&list.first)
        }
        Command::Compound(compound, _) => compound_starts_job(compound),
        Command::Function(def) => starts_job(&def.body),
    }
}

fn compound_starts_job(compound: &CompoundCommand) -> bool {
    match compound {
        CompoundCommand::If(c) => {
            any(&c.condition)
                || any(&c.then_branch)
                || c.elif_branches
                    .iter()
                    .any(|(cond, body)| any(cond) || any(body))
                || c.else_branch.as_deref().is_some_and(any)
        }
        CompoundCommand::For(c) => any(&c.body),
        CompoundCommand::ArithmeticFor(c) => any(&c.body),
        CompoundCommand::While(c) => any(&c.condition) || any(&c.body),
        CompoundCommand::Until(c) => any(&c.condition) || any(&c.body),
        CompoundCommand::Case(c) => c.cases.iter().any(|item| any(&item.commands)),
        CompoundCommand::Select(c) => any(&c.body),
        CompoundCommand::Subshell(body) | CompoundCommand::BraceGroup(body) => any(body),
        CompoundCommand::Time(c) => c.command.as_deref().is_some_and(starts_job),
        CompoundCommand::Coproc(_) => true,
        CompoundCommand::Arithmetic(_) | CompoundCommand::Conditional(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(script: &str) -> bool {
        script_runs_jobs(script)
    }

    fn analyzed(script: &str) -> ScriptAnalysis {
        bashkit::analysis::analyze(script).unwrap()
    }

    #[test]
    fn names_the_scripts_a_script_runs() {
        let named = named_scripts(&analyzed(
            "bash -x start.sh; sh -c 'srv &'; . ./env.sh; ./run.sh a; cat x",
        ));
        let got: Vec<String> = named
            .iter()
            .map(|n| match n {
                Named::File(f) => format!("file {f}"),
                Named::Inline(t) => format!("inline {t}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                "file start.sh",
                "inline srv &",
                "file ./env.sh",
                "file ./run.sh"
            ]
        );
    }

    #[test]
    fn finds_jobs_wherever_they_are() {
        assert!(jobs("python3 -m http.server &"));
        assert!(jobs("a & b; wait"));
        assert!(jobs("if true; then\n  srv &\nfi"));
        assert!(jobs("f() { sleep 1 & }\nf"));
        assert!(jobs("for i in 1 2; do (work $i) & done; wait"));
        assert!(jobs("coproc cat"));
        assert!(jobs("x | { y & }"));
        assert!(races_a_timer(&analyzed("timeout 1 python3 slow.py")));
        assert!(races_a_timer(&analyzed(
            "if timeout 5 curl -s x; then :; fi"
        )));
        assert!(!races_a_timer(&analyzed("echo timeout; grep timeout f")));
    }

    #[test]
    fn other_ampersands_are_not_jobs() {
        assert!(!jobs("a && b"));
        assert!(!jobs("a 2>&1 | b"));
        assert!(!jobs("a &> log"));
        assert!(!jobs("echo 'a & b' \"&\" \\&"));
        assert!(!jobs("cat <<EOF\nx &\nEOF"));
        assert!(!jobs("# a comment &"));
        assert!(!jobs("echo $(( 3 & 1 ))"));
    }
}
