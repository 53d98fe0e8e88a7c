//! The `before_exec` source rewrite that keeps a pipeline's later stages off the
//! input of the loop (or group) around it.
//!
//! bashkit runs a pipeline whose first stages are plain commands (`echo "$x" |
//! grep -c .`) one stage after the other, handing each its predecessor's output;
//! but a later stage that streams its input (`cat`, `grep`, `tr` and every
//! registered command: ours, python3, git...) also takes the enclosing shell's
//! input pipe. Inside `producer | while read x; do ...; done` that pipe is the
//! loop's, so `echo "$x" | grep -c .` counts the rest of the loop's input and the
//! loop ends after one line (bash: each `grep` sees one line). Pipelines whose
//! first stage runs shell code are run concurrently, each stage on its own pipe,
//! which is right; so the first stage is respelled as a group, `{ STAGE; } | ...`,
//! which bash runs the same way (every stage of a pipeline is a subshell).
//!
//! Only pipelines inside a pipeline's stage (`producer | while ...`) are respelled:
//! elsewhere no input pipe is open around them (a loop's `done < file` is read
//! otherwise, and right; so is a function's body when it is called from such a
//! loop), and a respelled pipeline costs about 45 µs more, its stages then running
//! concurrently. A stage is respelled only
//! when its span is one line of the source that parses back to the same command,
//! and the whole rewrite only when it still parses, so the worst a surprise can do
//! is leave a pipeline as it was.

use bashkit::hooks::{ExecInput, HookAction, Interceptor};
use bashkit::parser::{AssignmentValue, Command, CompoundCommand, Parser, SimpleCommand, WordPart};

pub fn hook() -> Interceptor<ExecInput> {
    Box::new(|mut input: ExecInput| {
        if let Some(script) = rewrite(&input.script) {
            input.script = script;
        }
        HookAction::Continue(input)
    })
}

/// The rewritten script, or `None` when nothing in it needs a change.
pub fn rewrite(source: &str) -> Option<String> {
    if !source.contains('|') {
        return None;
    }
    let script = Parser::new(source).parse().ok()?;
    let mut walk = Walk {
        source,
        stages: Vec::new(),
    };
    for command in &script.commands {
        walk.command(command, false, &[0]);
    }
    if walk.stages.is_empty() {
        return None;
    }
    // Insertions, not replacements: a stage may hold another's substitution.
    // At one offset a group's end goes before the next one's start.
    let mut inserts: Vec<(usize, bool)> = walk
        .stages
        .iter()
        .flat_map(|(start, end)| [(*start, true), (*end, false)])
        .collect();
    inserts.sort_unstable();
    inserts.dedup();
    let mut out = String::with_capacity(source.len() + inserts.len() * 3);
    let mut at = 0;
    for (offset, opens) in inserts {
        out.push_str(&source[at..offset]);
        out.push_str(if opens { "{ " } else { "; }" });
        at = offset;
    }
    out.push_str(&source[at..]);
    Parser::new(&out).parse().is_ok().then_some(out)
}

struct Walk<'a> {
    source: &'a str,
    /// Byte ranges of first stages to respell.
    stages: Vec<(usize, usize)>,
}

impl Walk<'_> {
    /// `nested`: inside a pipeline's stage, where an input pipe is open around
    /// the command. `bases`: where in the source the spans
    /// count from (the parser counts a command substitution's spans from its own
    /// text, so inside one each `$(` of the enclosing command is a candidate).
    fn command(&mut self, command: &Command, nested: bool, bases: &[usize]) {
        match command {
            Command::Simple(simple) => self.simple(simple, nested, bases),
            Command::Pipeline(pipeline) => {
                if nested
                    && pipeline.commands.len() > 1
                    && let Some(Command::Simple(first)) = pipeline.commands.first()
                    && let Some(range) = self.stage_range(first, bases)
                {
                    self.stages.push(range);
                }
                // Each stage of a pipeline reads a pipe (the first, what the
                // shell around it reads).
                let piped = nested || pipeline.commands.len() > 1;
                for c in &pipeline.commands {
                    self.command(c, piped, bases);
                }
            }
            Command::List(list) => {
                self.command(&list.first, nested, bases);
                for (_, c) in &list.rest {
                    self.command(c, nested, bases);
                }
            }
            Command::Compound(compound, _) => self.compound(compound, nested, bases),
            // A call does not hand the body its caller's pipe (checked:
            // `f() { echo "$1" | grep -c .; }` called in a read loop is right).
            Command::Function(f) => self.command(&f.body, nested, bases),
        }
    }

    fn commands(&mut self, commands: &[Command], nested: bool, bases: &[usize]) {
        for c in commands {
            self.command(c, nested, bases);
        }
    }

    fn compound(&mut self, compound: &CompoundCommand, nested: bool, bases: &[usize]) {
        match compound {
            CompoundCommand::If(c) => {
                self.commands(&c.condition, nested, bases);
                self.commands(&c.then_branch, nested, bases);
                for (cond, body) in &c.elif_branches {
                    self.commands(cond, nested, bases);
                    self.commands(body, nested, bases);
                }
                if let Some(body) = &c.else_branch {
                    self.commands(body, nested, bases);
                }
            }
            CompoundCommand::For(c) => self.commands(&c.body, nested, bases),
            CompoundCommand::Select(c) => self.commands(&c.body, nested, bases),
            CompoundCommand::ArithmeticFor(c) => self.commands(&c.body, nested, bases),
            CompoundCommand::While(c) => {
                self.commands(&c.condition, nested, bases);
                self.commands(&c.body, nested, bases);
            }
            CompoundCommand::Until(c) => {
                self.commands(&c.condition, nested, bases);
                self.commands(&c.body, nested, bases);
            }
            CompoundCommand::Case(c) => {
                for item in &c.cases {
                    self.commands(&item.commands, nested, bases);
                }
            }
            CompoundCommand::Subshell(body) | CompoundCommand::BraceGroup(body) => {
                self.commands(body, nested, bases)
            }
            CompoundCommand::Time(t) => {
                if let Some(c) = &t.command {
                    self.command(c, nested, bases);
                }
            }
            CompoundCommand::Coproc(c) => self.command(&c.body, true, bases),
            CompoundCommand::Arithmetic(_) | CompoundCommand::Conditional(_) => {}
        }
    }

    /// Command substitutions in a simple command's words.
    fn simple(&mut self, simple: &SimpleCommand, nested: bool, bases: &[usize]) {
        let words = std::iter::once(&simple.name).chain(&simple.args).chain(
            simple.assignments.iter().flat_map(|a| match &a.value {
                AssignmentValue::Scalar(w) => std::slice::from_ref(w),
                AssignmentValue::Array(ws) => ws.as_slice(),
            }),
        );
        let mut inner: Option<Vec<usize>> = None;
        for word in words {
            for part in &word.parts {
                let (WordPart::CommandSubstitution(commands)
                | WordPart::ProcessSubstitution { commands, .. }) = part
                else {
                    continue;
                };
                let inner = inner.get_or_insert_with(|| self.substitution_bases(simple, bases));
                for c in commands {
                    self.command(c, nested, inner);
                }
            }
        }
    }

    /// Where a substitution inside `simple` may start: after each `$(`, `<(` or
    /// `>(` in its text.
    fn substitution_bases(&self, simple: &SimpleCommand, bases: &[usize]) -> Vec<usize> {
        let mut out = Vec::new();
        for base in bases {
            let (start, end) = (
                base + simple.span.start.offset,
                base + simple.span.end.offset,
            );
            let Some(text) = self.source.get(start..end) else {
                continue;
            };
            let bytes = text.as_bytes();
            for i in 1..bytes.len() {
                if bytes[i] == b'('
                    && matches!(bytes[i - 1], b'$' | b'<' | b'>')
                    && bytes.get(i + 1) != Some(&b'(')
                {
                    out.push(start + i + 1);
                }
            }
        }
        out
    }

    /// The source range of a pipeline's first stage, if its span can be trusted:
    /// one line, followed by `|` (not `|&`, whose stderr a group would also send), parsing back to one simple command of the same
    /// name (a substitution's spans may count from its own text).
    fn stage_range(&self, stage: &SimpleCommand, bases: &[usize]) -> Option<(usize, usize)> {
        bases.iter().find_map(|base| self.stage_at(stage, *base))
    }

    fn stage_at(&self, stage: &SimpleCommand, base: usize) -> Option<(usize, usize)> {
        let (start, end) = (base + stage.span.start.offset, base + stage.span.end.offset);
        // The parser's span of a stage runs on over the `|` after it.
        let text = self.source.get(start..end)?.trim_end();
        let text = text
            .strip_suffix('|')
            .filter(|t| !t.ends_with('|'))
            .unwrap_or(text)
            .trim_end();
        let end = start + text.len();
        if text.is_empty() || text.contains('\n') || text.contains("<<") {
            return None;
        }
        let after = self.source[end..].trim_start();
        if !after.starts_with('|') || after.starts_with("|&") || after.starts_with("||") {
            return None;
        }
        let reparsed = Parser::new(text).parse().ok()?;
        let [Command::Simple(again)] = reparsed.commands.as_slice() else {
            return None;
        };
        (format!("{:?}", again.name.parts) == format!("{:?}", stage.name.parts)
            && again.args.len() == stage.args.len())
        .then_some((start, end))
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn a_first_stage_inside_a_loop_becomes_a_group() {
        assert_eq!(
            rewrite("seq 3 | while read x; do echo \"$x\" | grep -c .; done").as_deref(),
            Some("seq 3 | while read x; do { echo \"$x\"; } | grep -c .; done")
        );
    }

    #[test]
    fn pipelines_in_substitutions_inside_a_loop_are_respelled() {
        assert_eq!(
            rewrite("cat f | while read x; do n=$(echo \"$x\" | wc -c); done").as_deref(),
            Some("cat f | while read x; do n=$({ echo \"$x\"; } | wc -c); done")
        );
    }

    #[test]
    fn top_level_and_single_commands_are_left() {
        assert_eq!(rewrite("echo a | grep a"), None);
        assert_eq!(rewrite("for x in 1; do echo $x; done"), None);
        assert_eq!(rewrite("while read x; do echo $x | cat; done < f"), None);
        assert_eq!(rewrite("seq 1 | if true; then { echo a; } | cat; fi"), None);
    }

    #[test]
    fn here_documents_are_left() {
        let script = "seq 1 | while read x; do cat <<EOF | grep a\na\nEOF\ndone";
        assert_eq!(rewrite(script), None);
    }

    #[test]
    fn nested_substitutions_are_found() {
        assert_eq!(
            rewrite("seq 1 | while read l; do a=$(echo $(echo x | cat) | tr x y); done").as_deref(),
            Some("seq 1 | while read l; do a=$({ echo $({ echo x; } | cat); } | tr x y); done")
        );
    }

    #[test]
    fn function_bodies_are_left_unless_inside_a_stage() {
        assert_eq!(rewrite("f() { echo \"$1\" | grep -c 2; }"), None);
        assert_eq!(
            rewrite("seq 1 | { f() { echo \"$1\" | cat; }; }").as_deref(),
            Some("seq 1 | { f() { { echo \"$1\"; } | cat; }; }")
        );
    }

    #[test]
    fn or_lists_and_stderr_pipes_are_left() {
        assert_eq!(rewrite("seq 1 | while true; do echo a || cat; done"), None);
        assert_eq!(rewrite("seq 1 | while true; do echo a |& cat; done"), None);
    }
}
