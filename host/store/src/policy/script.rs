//! The simple commands of a shell script, as words, for command rules:
//! quotes and backslashes as the shell reads them, commands split at
//! `;`, `&`, `|`, newlines, parentheses, braces and `$(`/backticks, leading
//! assignments and keywords (`if`, `then`, `do`, `!`, ...) and wrappers
//! (`sudo`, `env`, `command`, `exec`, `nohup`, `time`, `xargs`) dropped,
//! and `sh -c`/`bash -c`/`eval` scripts read in turn. Expansions are not
//! performed: `$X` stays a word, so a rule cannot see through variables
//! (a known limit; the path rules, checked on every change, are the
//! guarantee).

const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "case",
    "esac",
];
const WRAPPERS: &[&str] = &[
    "sudo", "env", "command", "exec", "nohup", "time", "xargs", "builtin", "nice",
];
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh"];

/// The script's simple commands, each as its words (the first the command).
pub fn simple_commands(script: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    collect(script, &mut out, 0);
    out
}

fn collect(script: &str, out: &mut Vec<Vec<String>>, depth: usize) {
    if depth > 8 {
        return;
    }
    for words in split(script) {
        let Some(words) = strip(words) else { continue };
        let name = basename(&words[0]).to_owned();
        if SHELLS.contains(&name.as_str())
            && let Some(i) = words.iter().position(|w| w == "-c")
            && let Some(inner) = words.get(i + 1)
        {
            collect(inner, out, depth + 1);
        }
        if name == "eval" {
            collect(&words[1..].join(" "), out, depth + 1);
        }
        out.push(words);
    }
}

/// Drops keywords, assignments and wrappers in front of the command.
fn strip(mut words: Vec<String>) -> Option<Vec<String>> {
    loop {
        let first = words.first()?;
        let is_assignment = first.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
        let wrapper = WRAPPERS.contains(&basename(first));
        if KEYWORDS.contains(&first.as_str()) || is_assignment || wrapper {
            let name = basename(&words.remove(0)).to_owned();
            // A wrapper's own options (`sudo -u root`, `env -i`), with the
            // argument of those that take one.
            while wrapper && words.first().is_some_and(|w| w.starts_with('-')) {
                let opt = words.remove(0);
                let takes = match name.as_str() {
                    "sudo" => ["-u", "-g", "-U", "-C", "-D", "-h", "-p", "-r", "-t"]
                        .contains(&opt.as_str()),
                    "env" => ["-u", "-C", "-S"].contains(&opt.as_str()),
                    "xargs" => ["-I", "-n", "-P", "-L", "-d", "-s", "-E"].contains(&opt.as_str()),
                    _ => false,
                };
                if takes && !words.is_empty() {
                    words.remove(0);
                }
            }
            continue;
        }
        if first == "for" || first == "in" {
            return None;
        }
        return Some(words);
    }
}

/// The last path component of a command word (`/bin/rm` is `rm`).
pub fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Words of each simple command, split at the shell's separators.
fn split(script: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = script.chars().peekable();
    let end_word = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                word.push(n);
                            }
                        }
                        _ => word.push(c),
                    }
                }
            }
            '\\' => {
                if let Some(n) = chars.next()
                    && n != '\n'
                {
                    in_word = true;
                    word.push(n);
                }
            }
            '#' if !in_word => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                end_word(&mut word, &mut in_word, &mut words);
                commands.push(std::mem::take(&mut words));
            }
            '$' if chars.peek() == Some(&'(') => {
                chars.next();
                end_word(&mut word, &mut in_word, &mut words);
                commands.push(std::mem::take(&mut words));
            }
            ';' | '&' | '|' | '\n' | '(' | ')' | '`' => {
                end_word(&mut word, &mut in_word, &mut words);
                commands.push(std::mem::take(&mut words));
            }
            '<' | '>' => {
                // A redirection: its target (and an fd number before it)
                // is not an argument.
                if in_word && word.bytes().all(|b| b.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                end_word(&mut word, &mut in_word, &mut words);
                while chars.peek().is_some_and(|c| matches!(c, '>' | '&' | '|')) {
                    chars.next();
                }
                while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                    chars.next();
                }
                while chars
                    .peek()
                    .is_some_and(|c| !c.is_whitespace() && !matches!(c, ';' | '&' | '|' | ')'))
                {
                    chars.next();
                }
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, &mut words),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut words);
    commands.push(words);
    commands.into_iter().filter(|w| !w.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(s: &str) -> Vec<String> {
        simple_commands(s)
            .into_iter()
            .map(|w| w.join(" "))
            .collect()
    }

    #[test]
    fn commands_are_found_where_the_shell_would_run_them() {
        assert_eq!(
            cmds("echo a; rm -rf / && ls | wc -l"),
            ["echo a", "rm -rf /", "ls", "wc -l"]
        );
        assert_eq!(
            cmds("if true; then sudo -u x rm 'a b'; fi"),
            ["true", "rm a b"]
        );
        assert_eq!(cmds("X=1 env -i /bin/rm -f x > out 2>&1"), ["/bin/rm -f x"]);
        assert_eq!(
            cmds("echo $(rm -r /d) `curl x`"),
            ["echo", "rm -r /d", "curl x"]
        );
        assert_eq!(cmds("bash -c 'rm -rf /'"), ["rm -rf /", "bash -c rm -rf /"]);
        assert_eq!(cmds("echo 'rm -rf /' # rm x\nls"), ["echo rm -rf /", "ls"]);
        assert_eq!(cmds("for f in a b; do rm \"$f\"; done"), ["rm $f"]);
    }
}
