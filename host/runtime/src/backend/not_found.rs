//! What to say when a run exits 127 (command not found): which offered
//! backend can run the missing command, or why none can.

use std::sync::Arc;

use crate::Runtime;
use crate::backend::{Backend, BackendInfo, FALLBACK_FAILED};
use crate::run::result::RunResult;

impl Runtime {
    /// What to tell the caller of `result`, a run that exited 127: which of
    /// the `offered` backends can run the missing command (one that can run
    /// it now first), or that none can and what would help. `choose` words
    /// how the caller's surface picks a backend by name (the CLI's
    /// `--backend NAME`, MCP's `backend: "NAME"`).
    pub fn not_found_hint(
        &self,
        result: &RunResult,
        offered: &[String],
        choose: &dyn Fn(&str) -> String,
    ) -> String {
        let from = result.backend.as_str();
        let missing = missing_command(&String::from_utf8_lossy(&result.stderr));
        let what = missing
            .as_deref()
            .map_or("the command".to_owned(), |m| format!("`{m}`"));
        let head = format!("exit 127: {what} is not available on the `{from}` backend");
        let all = self.backends_with_infos();
        let Some(missing) = missing else {
            return format!("{head}{}", none_can(None));
        };
        // A fallback's first backend was tried already.
        let tried = result.extras.fallback.as_ref().map(|f| f.from.as_str());
        // A fallback to it that failed in this run says more than `available`.
        let failed = result.extras.details.get(FALLBACK_FAILED);
        let available = |b: &Arc<dyn Backend>, name: &str| match failed {
            Some(f) if f["to"] == name => Err(f["reason"].as_str().unwrap_or_default().to_owned()),
            _ => b.available(),
        };
        // Each candidate's availability once (it may look for an engine's socket).
        let mut can: Vec<(&BackendInfo, Result<(), String>)> = all
            .iter()
            .filter(|(_, i)| {
                i.name != from
                    && Some(i.name.as_str()) != tried
                    && offered.contains(&i.name)
                    && i.commands.can_run(&missing)
            })
            .map(|(b, i)| (i, available(b, &i.name)))
            .collect();
        can.sort_by_key(|(i, now)| (now.is_err(), i.slow_start));
        if let Some((info, now)) = can.into_iter().next() {
            let how = choose(&info.name);
            return match now {
                Ok(()) => format!("{head}; run it with {how} ({})", info.description),
                Err(why) => format!(
                    "{head}, and no backend offered here can run it now: {how} would ({}), but {why}",
                    info.description
                ),
            };
        }
        let note = all
            .iter()
            .find(|(_, i)| i.name == from)
            .and_then(|(b, _)| b.missing_command_note(result, &missing));
        format!("{head}{}", none_can(note))
    }
}

/// The end of a hint when no offered backend can run the command: the run's
/// own backend's `note`, else how to add a command to the shell.
fn none_can(note: Option<String>) -> String {
    match note {
        Some(note) => format!(", and no backend offered here can run it: {note}"),
        None => ", and no backend offered here can run it \
                 (a wasm32-wasip2 build of a program becomes a command of the shell with `computer commands add NAME PATH.wasm`)"
            .to_owned(),
    }
}

/// The command a shell said it could not find (`bash: NAME: command not
/// found`, with bashkit's or our shell's reason after it, or dash's and
/// busybox's `sh: 1: NAME: not found`), if it said so.
pub fn missing_command(stderr: &str) -> Option<String> {
    stderr.lines().rev().find_map(|line| {
        let head = line
            .split_once(": command not found")
            .map(|(head, _)| head)
            .or_else(|| line.strip_suffix(": not found"))?;
        let name = head.rsplit(": ").next()?.trim();
        (!name.is_empty()).then(|| name.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::missing_command;

    #[test]
    fn finds_the_missing_command_in_shell_messages() {
        assert_eq!(
            missing_command("bash: python3: command not found\n").as_deref(),
            Some("python3")
        );
        assert_eq!(
            missing_command("x\nsh: 1: gcc: not found").as_deref(),
            Some("gcc")
        );
        // The reasons bashkit and the shell guest give after it.
        assert_eq!(
            missing_command(
                "bash: gcc: command not found. Compilers and build tools are not available in the sandbox.\n"
            )
            .as_deref(),
            Some("gcc")
        );
        assert_eq!(
            missing_command("bash: mkfifo: command not found (the workspace has no named pipes)")
                .as_deref(),
            Some("mkfifo")
        );
        assert_eq!(
            missing_command("sh: make: not found\n").as_deref(),
            Some("make")
        );
        assert_eq!(missing_command("all fine"), None);
    }
}
