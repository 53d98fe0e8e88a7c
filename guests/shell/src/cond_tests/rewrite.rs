//! The `before_exec` source rewrite: in each `[[ ]]` at command position, a unary
//! test bashkit's evaluator gets wrong is respelled as one it gets right.
//!
//! - a file test `U WORD` becomes `-e WORD'/.computer-cond-U'`, which
//!   `WorkspaceFs` answers with the real test on WORD (see `answer`);
//! - `-o WORD` becomes `:$SHELLOPTS: == *:WORD:*` (bashkit keeps `SHELLOPTS`).
//!
//! WORD keeps its source text, so its quoting and expansions are bash's own. The
//! scan uses bashkit's own lexer (the one its parser reads), skipping here-document
//! bodies, `(( ))` and `=~` patterns as the parser does. Every span used is checked
//! against the source, and a rewrite that bashkit's parser does not accept is dropped,
//! so the worst a surprise in the lexer can do is leave a test as it was.

use bashkit::hooks::{ExecInput, HookAction, Interceptor};
use bashkit::parser::{Lexer, Parser, SpannedToken};

use super::{FILE_TESTS, MAGIC_PREFIX};

pub fn hook() -> Interceptor<ExecInput> {
    Box::new(|mut input: ExecInput| {
        if let Some(script) = rewrite(&input.script) {
            input.script = script;
        }
        HookAction::Continue(input)
    })
}

/// Operators after which a word in `[[ ]]` is a binary operator's left operand,
/// not a unary test's operator.
const BINARY: &[&str] = &[
    "=", "==", "!=", "<", ">", "=~", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge",
];

/// Reserved words after which `[[` still starts a command.
const COMMAND_PREFIX_WORDS: &[&str] = &[
    "if", "then", "else", "elif", "do", "while", "until", "!", "time", "{",
];

/// The rewritten script, or `None` when nothing in it needs a change.
pub fn rewrite(source: &str) -> Option<String> {
    if !source.contains("[[") {
        return None;
    }
    let edits = scan(source);
    if edits.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(source.len() + edits.len() * 24);
    let mut at = 0;
    for edit in &edits {
        out.push_str(&source[at..edit.start]);
        out.push_str(&edit.text);
        at = edit.end;
    }
    out.push_str(&source[at..]);
    // The original may not parse either (its own syntax error is then reported as
    // bash would); only a rewrite that breaks a good script is held back.
    let parses = |s: &str| Parser::new(s).parse().is_ok();
    (parses(&out) || !parses(source)).then_some(out)
}

/// Replace `source[start..end]` with `text`.
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// What kind of token a lexer token is. bashkit does not export its token type,
/// only values of it, so the variant is read from its `Debug` form.
fn kind(token: &SpannedToken) -> String {
    let debug = format!("{:?}", token.token);
    match debug.find('(') {
        Some(i) => debug[..i].to_string(),
        None => debug,
    }
}

fn is_word(kind: &str) -> bool {
    matches!(
        kind,
        "Word" | "LiteralWord" | "QuotedWord" | "QuotedGlobWord"
    )
}

/// One token with the source text its span covers (`None` when the span does not
/// fit the source, as for text the lexer re-reads after a here-document).
struct Tok<'a> {
    kind: String,
    start: usize,
    end: usize,
    text: Option<&'a str>,
}

fn scan(source: &str) -> Vec<Edit> {
    let mut lexer = Lexer::new(source);
    let mut edits: Vec<Edit> = Vec::new();
    // The token before the current one, outside `[[ ]]`: `[[` counts only where a
    // command can start.
    let mut at_command_start = true;
    let mut cond: Option<Vec<Tok<'_>>> = None;
    let mut last_end = 0usize;
    while let Some(spanned) = lexer.next_spanned_token() {
        let k = kind(&spanned);
        let (start, end) = (spanned.span.start.offset, spanned.span.end.offset);
        // Offsets move forward through the source (a here-document's line is re-read
        // from its own offsets before the body is passed); a span that does not is
        // not trusted for an edit.
        let trusted = start >= last_end && end <= source.len() && start <= end;
        let text = trusted.then(|| source.get(start..end)).flatten();
        if trusted {
            last_end = end;
        }
        let tok = Tok {
            kind: k,
            start,
            end,
            text,
        };
        if let Some(words) = cond.as_mut() {
            if tok.kind == "DoubleRightBracket" {
                let words = cond.take().unwrap_or_default();
                edits.extend(cond_edits(source, &words));
                at_command_start = false;
                continue;
            }
            let is_regex_op = is_word(&tok.kind) && tok.text == Some("=~");
            words.push(tok);
            if is_regex_op {
                // The parser reads the pattern raw; so must we, or a `#` in it
                // would start a comment.
                let _ = lexer.read_cond_regex();
                words.push(Tok {
                    kind: "Pattern".into(),
                    start: 0,
                    end: 0,
                    text: None,
                });
                last_end = last_end.max(lexer.position().offset);
            }
            continue;
        }
        match tok.kind.as_str() {
            "DoubleLeftBracket" if at_command_start && tok.text == Some("[[") => {
                cond = Some(Vec::new());
                continue;
            }
            "HereDoc" | "HereDocStrip" | "HereDocFd" => {
                // The lexer then re-reads the rest of the line (with its own
                // offsets) and goes on after the body.
                skip_heredoc(&mut lexer, &spanned, source);
                at_command_start = false;
                continue;
            }
            "DoubleLeftParen" => {
                let _ = lexer.read_dparen_body();
                last_end = last_end.max(lexer.position().offset);
            }
            _ => {}
        }
        at_command_start = match tok.kind.as_str() {
            "Newline" | "Semicolon" | "DoubleSemicolon" | "SemiAmp" | "DoubleSemiAmp" | "Pipe"
            | "PipeBoth" | "And" | "Or" | "Background" | "LeftParen" | "LeftBrace"
            | "RightParen" => true,
            "DoubleRightParen" => true,
            k if is_word(k) => tok.text.is_some_and(|t| COMMAND_PREFIX_WORDS.contains(&t)),
            _ => false,
        };
    }
    edits.sort_by_key(|e| e.start);
    // Overlapping edits cannot both apply; keep the first.
    let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits {
        if kept.last().is_none_or(|prev| prev.end <= edit.start) {
            kept.push(edit);
        }
    }
    kept
}

/// Skip a here-document's body as the parser does: the delimiter is the next token,
/// quote-removed, and the body follows the current line.
fn skip_heredoc(lexer: &mut Lexer<'_>, operator: &SpannedToken, source: &str) {
    let strip = match kind(operator).as_str() {
        "HereDocStrip" => true,
        "HereDocFd" => format!("{:?}", operator.token).contains("true"),
        _ => false,
    };
    let Some(delimiter) = lexer.next_spanned_token() else {
        return;
    };
    let raw = source
        .get(delimiter.span.start.offset..delimiter.span.end.offset)
        .unwrap_or_default();
    let eof: String = unquote(raw);
    let _ = lexer.read_heredoc_with_strip(&eof, strip);
}

/// Quote removal of a here-document delimiter (`'EOF'`, `"EOF"`, `\EOF`, `E"OF"`).
fn unquote(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '\\') | (Some('"'), '\\') => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The edits for one `[[ ]]`'s tokens.
fn cond_edits(source: &str, words: &[Tok<'_>]) -> Vec<Edit> {
    let mut edits = Vec::new();
    for i in 0..words.len() {
        let (op, Some(operand)) = (&words[i], words.get(i + 1)) else {
            continue;
        };
        let Some(op_text) = op.text else {
            continue;
        };
        if op.kind != "Word" || !is_word(&operand.kind) {
            continue;
        }
        let Some(operand_text) = operand.text else {
            continue;
        };
        let unary_position = i == 0
            || matches!(words[i - 1].kind.as_str(), "And" | "Or" | "LeftParen")
            || (words[i - 1].kind == "Word" && words[i - 1].text == Some("!"));
        let operand_is_operator = operand.kind == "Word" && BINARY.contains(&operand_text);
        let blanks_between = source
            .get(op.end..operand.start)
            .is_some_and(|s| !s.is_empty() && s.chars().all(|c| c == ' ' || c == '\t'));
        if !unary_position || operand_is_operator || !blanks_between {
            continue;
        }
        if op_text == "-o" {
            edits.push(Edit {
                start: op.start,
                end: operand.end,
                text: format!(":$SHELLOPTS: == *:{operand_text}:*"),
            });
        } else if let Some(letter) = op_text.strip_prefix('-').filter(|l| FILE_TESTS.contains(l)) {
            edits.push(Edit {
                start: op.start,
                end: op.end,
                text: "-e".into(),
            });
            edits.push(Edit {
                start: operand.end,
                end: operand.end,
                text: format!("'/{MAGIC_PREFIX}{letter}'"),
            });
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn file_tests_are_respelled_with_their_operand_as_written() {
        assert_eq!(
            rewrite("[[ -L \"$f\" ]] && echo y").as_deref(),
            Some("[[ -e \"$f\"'/.computer-cond-L' ]] && echo y")
        );
        assert_eq!(
            rewrite("if [[ ! -x $d/bin && -f x ]]; then :; fi").as_deref(),
            Some("if [[ ! -e $d/bin'/.computer-cond-x' && -f x ]]; then :; fi")
        );
    }

    #[test]
    fn option_tests_read_shellopts() {
        assert_eq!(
            rewrite("[[ -o errexit ]]").as_deref(),
            Some("[[ :$SHELLOPTS: == *:errexit:* ]]")
        );
    }

    #[test]
    fn words_that_only_look_like_tests_are_left() {
        for script in [
            "echo '[[ -L x ]]'",
            "echo [[ -L x ]]",
            "[[ -L == -L ]]",
            "[[ -e x ]]",
            "[[ $x =~ ^(-L|#) ]] && [[ -n y ]]",
            "cat <<'EOF'\n[[ -L x ]]\nEOF\n",
            "test -L x",
        ] {
            assert_eq!(rewrite(script), None, "{script}");
        }
    }

    #[test]
    fn a_test_after_a_heredoc_is_still_found() {
        let got = rewrite("cat <<EOF\n[[ -L a ]]\nEOF\n[[ -L b ]]\n").unwrap();
        assert_eq!(
            got,
            "cat <<EOF\n[[ -L a ]]\nEOF\n[[ -e b'/.computer-cond-L' ]]\n"
        );
    }
}
