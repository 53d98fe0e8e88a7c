//! A file as diff sees it: its lines, whether the last one lacks a newline, and an
//! equivalence id per line under the options that make different lines equal
//! (`-w`, `-b`, `-Z`, `-i`, `--strip-trailing-cr`).

use std::collections::HashMap;

use super::options::Ignore;

pub struct Text<'a> {
    pub lines: Vec<&'a [u8]>,
    /// The last line has no newline ("\ No newline at end of file").
    pub incomplete: bool,
}

impl<'a> Text<'a> {
    pub fn split(bytes: &'a [u8]) -> Text<'a> {
        let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        let incomplete = !bytes.is_empty() && !bytes.ends_with(b"\n");
        // `split` leaves an empty piece after a final newline (or for no bytes).
        if !incomplete {
            lines.pop();
        }
        Text { lines, incomplete }
    }

    /// Whether line `i` is the file's last line and has no newline.
    pub fn lacks_newline(&self, i: usize) -> bool {
        self.incomplete && i + 1 == self.lines.len()
    }
}

/// Whether a line is blank for `-B`: empty, or only white space when white space is
/// ignored anyway.
pub fn is_blank(line: &[u8], ignore: &Ignore) -> bool {
    let line = strip_cr(line, ignore);
    if ignore.all_space || ignore.space_change || ignore.trailing_space {
        line.iter().all(u8::is_ascii_whitespace)
    } else {
        line.is_empty()
    }
}

fn strip_cr<'l>(line: &'l [u8], ignore: &Ignore) -> &'l [u8] {
    match line.strip_suffix(b"\r") {
        Some(s) if ignore.trailing_cr => s,
        _ => line,
    }
}

/// The comparison key of a line.
fn key(line: &[u8], ignore: &Ignore) -> Vec<u8> {
    let line = strip_cr(line, ignore);
    let mut out = Vec::with_capacity(line.len());
    if ignore.all_space {
        out.extend(line.iter().filter(|b| !b.is_ascii_whitespace()));
    } else if ignore.space_change || ignore.tab_expansion {
        let mut in_space = false;
        for &b in line {
            if b.is_ascii_whitespace() {
                in_space = true;
                continue;
            }
            if in_space {
                out.push(b' ');
            }
            in_space = false;
            out.push(b);
        }
        // `-b` ignores white space at the end; a line of only white space equals
        // an empty one only then too.
    } else if ignore.trailing_space {
        let end = line
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |p| p + 1);
        out.extend_from_slice(&line[..end]);
    } else {
        out.extend_from_slice(line);
    }
    if ignore.case {
        out.make_ascii_lowercase();
    }
    out
}

/// Equivalence ids for both files: equal ids are lines diff treats as equal. A last
/// line without a newline never equals a line with one, as in GNU diff (unless
/// white space is ignored, where the newline is white space).
pub fn ids(old: &Text, new: &Text, ignore: &Ignore) -> (Vec<u32>, Vec<u32>) {
    let mut classes: HashMap<Vec<u8>, u32> = HashMap::new();
    let whitespace_blind = ignore.all_space || ignore.space_change || ignore.trailing_space;
    let mut id_of = |text: &Text, i: usize| {
        let mut k = key(text.lines[i], ignore);
        if text.lacks_newline(i) && !whitespace_blind {
            // No line's key holds a newline, so this one equals no complete line.
            k.push(b'\n');
        }
        let next = classes.len() as u32;
        *classes.entry(k).or_insert(next)
    };
    let a = (0..old.lines.len()).map(|i| id_of(old, i)).collect();
    let b = (0..new.lines.len()).map(|i| id_of(new, i)).collect();
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_marks_a_missing_newline() {
        let t = Text::split(b"a\nb");
        assert_eq!(t.lines, vec![&b"a"[..], &b"b"[..]]);
        assert!(t.incomplete && t.lacks_newline(1));
        assert!(Text::split(b"").lines.is_empty());
        assert_eq!(Text::split(b"a\n\n").lines.len(), 2);
    }

    #[test]
    fn white_space_options() {
        let w = Ignore {
            all_space: true,
            ..Ignore::default()
        };
        assert_eq!(key(b"a   b ", &w), b"ab");
        let b = Ignore {
            space_change: true,
            ..Ignore::default()
        };
        assert_eq!(key(b"a \t b  ", &b), b"a b");
        assert_eq!(key(b"  a", &b), b" a");
    }
}
