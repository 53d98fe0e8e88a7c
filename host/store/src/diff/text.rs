//! Rendering a file's change the way `git diff` does: the `diff --git`
//! header lines, unified hunks with three lines of context, and the
//! `Binary files ... differ` line for content with a NUL byte in its first
//! 8000 bytes (git's own test). Lines are counted for `--stat`/`--numstat`.

use similar::{ChangeTag, TextDiff};

/// How far git looks for a NUL byte to call content binary.
const BINARY_PROBE: usize = 8000;

pub(crate) fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(BINARY_PROBE)].contains(&0)
}

/// Lines inserted and deleted going from `old` to `new` (text only).
pub(crate) fn line_counts(old: &str, new: &str) -> (u64, u64) {
    let diff = TextDiff::from_lines(old, new);
    let (mut ins, mut del) = (0, 0);
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => ins += 1,
            ChangeTag::Delete => del += 1,
            ChangeTag::Equal => {}
        }
    }
    (ins, del)
}

/// The hunks of a text change, each starting `@@ -a,b +c,d @@`.
pub(crate) fn hunks(old: &str, new: &str) -> String {
    let diff = TextDiff::from_lines(old, new);
    let mut out = String::new();
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&hunk.to_string());
    }
    out
}

/// One file's part of a patch. `old`/`new` are `(path, git mode, bytes)`;
/// `None` on the side where the file does not exist.
pub(crate) fn patch(old: Option<(&str, u32, &[u8])>, new: Option<(&str, u32, &[u8])>) -> String {
    let a = old.map_or_else(|| new.map_or("", |n| n.0), |o| o.0);
    let b = new.map_or(a, |n| n.0);
    let a = a.trim_start_matches('/');
    let b = b.trim_start_matches('/');
    let mut out = format!("diff --git a/{a} b/{b}\n");
    match (old, new) {
        (None, Some((_, mode, _))) => out.push_str(&format!("new file mode {mode:o}\n")),
        (Some((_, mode, _)), None) => out.push_str(&format!("deleted file mode {mode:o}\n")),
        (Some((_, om, _)), Some((_, nm, _))) => {
            if om != nm {
                out.push_str(&format!("old mode {om:o}\nnew mode {nm:o}\n"));
            }
            if a != b {
                let same = old.map(|o| o.2) == new.map(|n| n.2);
                let similarity = if same { 100 } else { 0 };
                out.push_str(&format!(
                    "similarity index {similarity}%\nrename from {a}\nrename to {b}\n"
                ));
            }
        }
        (None, None) => {}
    }
    let old_bytes = old.map_or(&[][..], |o| o.2);
    let new_bytes = new.map_or(&[][..], |n| n.2);
    if old.is_some() && new.is_some() && old_bytes == new_bytes {
        return out;
    }
    if old_bytes.is_empty() && new_bytes.is_empty() {
        return out;
    }
    let from = if old.is_some() {
        format!("a/{a}")
    } else {
        "/dev/null".into()
    };
    let to = if new.is_some() {
        format!("b/{b}")
    } else {
        "/dev/null".into()
    };
    if is_binary(old_bytes) || is_binary(new_bytes) {
        out.push_str(&format!("Binary files {from} and {to} differ\n"));
        return out;
    }
    out.push_str(&format!("--- {from}\n+++ {to}\n"));
    out.push_str(&hunks(
        &String::from_utf8_lossy(old_bytes),
        &String::from_utf8_lossy(new_bytes),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_reads_as_git_writes_it() {
        let p = patch(None, Some(("/a.txt", 0o100644, b"one\ntwo\n")));
        assert_eq!(
            p,
            "diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"
        );
    }

    #[test]
    fn binary_content_is_not_diffed() {
        let p = patch(
            Some(("/b", 0o100644, b"\0x")),
            Some(("/b", 0o100644, b"\0y")),
        );
        assert!(p.ends_with("Binary files a/b and b/b differ\n"), "{p}");
    }

    #[test]
    fn counts_lines() {
        assert_eq!(line_counts("a\nb\nc\n", "a\nB\nc\nd\n"), (2, 1));
    }
}
