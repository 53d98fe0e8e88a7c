//! bashkit's `printf` drops hex NUL escapes (`\x00`, `\x0`) on purpose, while it
//! writes an octal NUL (`\0`, `\000`) as a byte. bash writes a NUL for both. A
//! `before_tool` hook respells each hex NUL in the format, and in the arguments
//! that a `%b` consumes, as the octal escape with the same meaning, so `printf
//! '\x00\x01' | od -c` shows the NUL. Nothing else in the arguments changes: `%s`
//! prints `\x00` as the four characters it is.

use bashkit::hooks::{HookAction, Interceptor, ToolEvent};

pub fn hook() -> Interceptor<ToolEvent> {
    Box::new(|mut event: ToolEvent| {
        if event.name == "printf" {
            respell(&mut event.args);
        }
        HookAction::Continue(event)
    })
}

/// Where the format is: after `-v NAME` (or `-vNAME`) and `--`.
fn format_index(args: &[String]) -> usize {
    let mut i = 0;
    match args.first().map(String::as_str) {
        Some("-v") => i = 2,
        Some(a) if a.starts_with("-v") => i = 1,
        _ => {}
    }
    if args.get(i).map(String::as_str) == Some("--") {
        i += 1;
    }
    i
}

fn respell(args: &mut [String]) {
    let i = format_index(args);
    let Some(format) = args.get(i) else {
        return;
    };
    let takes = consumers(format);
    args[i] = octal_nul(&args[i], "\\000");
    if takes.is_empty() {
        return;
    }
    for (k, arg) in args[i + 1..].iter_mut().enumerate() {
        if takes[k % takes.len()] == 'b' {
            // In `%b`, an octal escape is `\0` and up to three digits.
            *arg = octal_nul(arg, "\\0000");
        }
    }
}

/// What each argument feeds, in order: a conversion letter, or `*` for a width
/// or precision taken from the arguments.
fn consumers(format: &str) -> Vec<char> {
    let chars: Vec<char> = format.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            i += 1;
            continue;
        }
        while let Some(&c) = chars.get(i) {
            match c {
                '*' => out.push('*'),
                '-' | '+' | ' ' | '#' | '0'..='9' | '.' | '\'' => {}
                '(' => {
                    // `%(fmt)T`: skip to the `)`.
                    while chars.get(i).is_some_and(|c| *c != ')') {
                        i += 1;
                    }
                }
                _ => break,
            }
            i += 1;
        }
        if let Some(&c) = chars.get(i) {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `text` with each `\x0`/`\x00` replaced by `nul`; `\\` pairs are left alone.
fn octal_nul(text: &str, nul: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\\') {
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'x') {
            let digits = bytes[i + 2..]
                .iter()
                .take(2)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            if digits > 0 && bytes[i + 2..i + 2 + digits].iter().all(|b| *b == b'0') {
                out.push_str(nul);
                i += 2 + digits;
                continue;
            }
        }
        let ch = text[i..].chars().next().unwrap_or_default();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        respell(&mut args);
        args
    }

    #[test]
    fn respells_only_what_printf_decodes() {
        assert_eq!(run(&["\\x00\\x01"]), ["\\000\\x01"]);
        assert_eq!(run(&["a\\x0b"]), ["a\\x0b"]);
        assert_eq!(run(&["\\\\x00"]), ["\\\\x00"]);
        assert_eq!(
            run(&["-v", "v", "%s %b", "\\x00", "\\x00"]),
            ["-v", "v", "%s %b", "\\x00", "\\0000"]
        );
        assert_eq!(
            run(&["%*s%b", "3", "x", "\\x0"]),
            ["%*s%b", "3", "x", "\\0000"]
        );
    }
}
