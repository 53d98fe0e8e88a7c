//! Text edit engine: applies a batch of search/replace edits to a file's bytes
//! and renders a unified diff of the result.
//!
//! Everything here is a pure function of its inputs; callers own reading and
//! writing files. The rules are the ones promised to the agent:
//!
//! - every `old` must match exactly once in the *original* content; when it
//!   matches nowhere, a whitespace- and quote-insensitive match is tried;
//! - matched ranges must not overlap, and all replacements land at once;
//! - a UTF-8 BOM is ignored for matching and kept in the output;
//! - edits written with `\n` follow the file's line endings (see
//!   `LineEndings`).

use std::ops::Range;

use similar::TextDiff;

const BOM: &str = "\u{feff}";

/// One search/replace pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub old: String,
    pub new: String,
}

/// The result of a successful [`apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditOutcome {
    /// The new file bytes (BOM included if the original had one).
    pub content: Vec<u8>,
    /// Unified diff of old vs new text, headed `--- {path}` / `+++ {path}`.
    pub diff: String,
    /// Number of edits applied.
    pub applied: usize,
    /// How many of them only matched through the fuzzy fallback.
    pub fuzzy: usize,
}

/// Why a batch was rejected. Messages are read by an AI model, so each one
/// says what went wrong and what to do about it.
///
/// `edit` is the 1-based index of the offending edit, or `None` when the
/// batch held a single edit (an index would only be noise then).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EditError {
    #[error("no edits given; pass at least one edit with oldText and newText")]
    NoEdits,
    #[error("file is not UTF-8 text; edit only works on text files")]
    NotText,
    #[error("{}oldText is empty; copy the exact text to replace from the file", at(*.edit))]
    EmptyOld { edit: Option<usize> },
    #[error("{}oldText and newText are identical; nothing would change", at(*.edit))]
    Identical { edit: Option<usize> },
    #[error(
        "{}oldText not found in the file (not even ignoring whitespace and quote style); \
         re-read the file and copy the text to replace exactly",
        at(*.edit)
    )]
    NotFound { edit: Option<usize> },
    #[error(
        "{}found {count} occurrences of oldText; add more context to make it unique",
        at(*.edit)
    )]
    Ambiguous { edit: Option<usize>, count: usize },
    #[error(
        "{}oldText has no exact match and {count} whitespace/quote-insensitive matches; \
         add more context to make it unique",
        at(*.edit)
    )]
    FuzzyAmbiguous { edit: Option<usize>, count: usize },
    #[error(
        "edit {first} and edit {second} match overlapping text; \
         merge them into one edit or make their oldText not overlap"
    )]
    Overlap { first: usize, second: usize },
    #[error("the edits would leave the file unchanged; nothing to apply")]
    NoChange,
}

fn at(edit: Option<usize>) -> String {
    edit.map(|n| format!("edit {n}: ")).unwrap_or_default()
}

/// Applies `edits` to `original` atomically: either every edit lands or an
/// error explains the first problem found and nothing changes.
///
/// `path` only labels the diff.
pub fn apply(original: &[u8], edits: &[Edit], path: &str) -> Result<EditOutcome, EditError> {
    if edits.is_empty() {
        return Err(EditError::NoEdits);
    }
    let (bom, body) = match original.strip_prefix(BOM.as_bytes()) {
        Some(body) => (BOM, body),
        None => ("", original),
    };
    let text = std::str::from_utf8(body).map_err(|_| EditError::NotText)?;
    let endings = LineEndings::detect(text);
    let label = |i: usize| (edits.len() > 1).then_some(i + 1);

    // Built on first need only: most batches never reach the fallback.
    let mut normalized: Option<Normalized> = None;
    let mut splices = Vec::with_capacity(edits.len());
    let mut fuzzy = 0;
    for (i, edit) in edits.iter().enumerate() {
        let at = label(i);
        let old = endings.adapt(strip_bom(&edit.old));
        let new = endings.adapt(strip_bom(&edit.new));
        if old.is_empty() {
            return Err(EditError::EmptyOld { edit: at });
        }
        if old == new {
            return Err(EditError::Identical { edit: at });
        }
        let (range, was_fuzzy) = locate(text, &old, at, &mut normalized)?;
        fuzzy += usize::from(was_fuzzy);
        splices.push(Splice {
            edit: i + 1,
            range,
            new,
        });
    }

    splices.sort_by_key(|s| s.range.start);
    // Sorted by start, any overlap shows up between neighbours.
    for pair in splices.windows(2) {
        if let [a, b] = pair
            && b.range.start < a.range.end
        {
            return Err(EditError::Overlap {
                first: a.edit.min(b.edit),
                second: a.edit.max(b.edit),
            });
        }
    }

    let mut out = String::with_capacity(text.len());
    let mut cursor = 0;
    for s in &splices {
        out.push_str(&text[cursor..s.range.start]);
        out.push_str(&s.new);
        cursor = s.range.end;
    }
    out.push_str(&text[cursor..]);
    if out == text {
        return Err(EditError::NoChange);
    }

    let diff = unified_diff(text, &out, path);
    let mut content = Vec::with_capacity(bom.len() + out.len());
    content.extend_from_slice(bom.as_bytes());
    content.extend_from_slice(out.as_bytes());
    Ok(EditOutcome {
        content,
        diff,
        applied: splices.len(),
        fuzzy,
    })
}

/// Unified diff of `old` vs `new` with 3 lines of context, headed
/// `--- {path}` / `+++ {path}`. Empty when the texts are equal.
pub fn unified_diff(old: &str, new: &str, path: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(path, path)
        .to_string()
}

struct Splice {
    /// 1-based, for error messages.
    edit: usize,
    range: Range<usize>,
    new: String,
}

fn strip_bom(s: &str) -> &str {
    s.strip_prefix(BOM).unwrap_or(s)
}

/// The file's line-ending convention, which edits are made to follow.
///
/// Models almost always write `\n`, so without this an edit to a CRLF file
/// would never match, or would leave the file with mixed endings.
/// A file counts as CRLF when it has at least one `\r\n` and no bare `\n`,
/// and as LF when it has a `\n` and no `\r\n`. Anything else (mixed endings,
/// or no line break at all) gives no evidence, so edits are used as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineEndings {
    Lf,
    Crlf,
    AsGiven,
}

impl LineEndings {
    fn detect(text: &str) -> Self {
        let newlines = text.matches('\n').count();
        let crlfs = text.matches("\r\n").count();
        match (newlines, crlfs) {
            (0, _) => Self::AsGiven,
            (n, c) if n == c => Self::Crlf,
            (_, 0) => Self::Lf,
            _ => Self::AsGiven,
        }
    }

    fn adapt(self, s: &str) -> String {
        match self {
            Self::AsGiven => s.to_owned(),
            Self::Lf => s.replace("\r\n", "\n"),
            // Normalise first so a `\r\n` already present isn't doubled.
            Self::Crlf => s.replace("\r\n", "\n").replace('\n', "\r\n"),
        }
    }
}

/// Finds the unique byte range of `old` in `text`, falling back to a
/// whitespace/quote-insensitive match only when there is no exact one.
/// Returns the range and whether the fallback was needed.
fn locate(
    text: &str,
    old: &str,
    at: Option<usize>,
    normalized: &mut Option<Normalized>,
) -> Result<(Range<usize>, bool), EditError> {
    match find_all(text, old).as_slice() {
        [start] => return Ok((*start..start + old.len(), false)),
        [] => {}
        many => {
            return Err(EditError::Ambiguous {
                edit: at,
                count: many.len(),
            });
        }
    }

    // Trimming makes the needle start and end on a non-space char, so the
    // mapped range never swallows the whitespace around the match.
    let needle = Normalized::new(old).text;
    let needle = needle.trim_matches(' ');
    if needle.is_empty() {
        return Err(EditError::NotFound { edit: at });
    }
    let hay = normalized.get_or_insert_with(|| Normalized::new(text));
    match find_all(&hay.text, needle).as_slice() {
        [start] => Ok((hay.original_range(*start..start + needle.len()), true)),
        [] => Err(EditError::NotFound { edit: at }),
        many => Err(EditError::FuzzyAmbiguous {
            edit: at,
            count: many.len(),
        }),
    }
}

/// Start offsets of every occurrence of `needle`, overlapping ones included:
/// "aa" in "aaa" is ambiguous, because it could mean either position.
fn find_all(hay: &str, needle: &str) -> Vec<usize> {
    let step = needle.chars().next().map_or(1, char::len_utf8);
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = hay.get(from..).and_then(|rest| rest.find(needle)) {
        found.push(from + i);
        // Stepping by the needle's first char keeps `from` on a char boundary.
        from += i + step;
    }
    found
}

/// Text with quotes folded to ASCII and whitespace runs collapsed to one
/// space, remembering where each byte came from in the original.
struct Normalized {
    text: String,
    /// For each byte of `text`, the original byte range of the char (or the
    /// whole whitespace run) it stands for.
    spans: Vec<Range<usize>>,
}

impl Normalized {
    fn new(s: &str) -> Self {
        let mut text = String::with_capacity(s.len());
        let mut spans: Vec<Range<usize>> = Vec::with_capacity(s.len());
        for (i, c) in s.char_indices() {
            let end = i + c.len_utf8();
            if c.is_whitespace() {
                // Only whitespace produces ' ', so a trailing ' ' means we
                // are inside a run: widen it instead of adding another.
                if text.ends_with(' ')
                    && let Some(last) = spans.last_mut()
                {
                    last.end = end;
                    continue;
                }
                text.push(' ');
                spans.push(i..end);
            } else {
                let folded = fold_quote(c);
                text.push(folded);
                spans.extend(std::iter::repeat_n(i..end, folded.len_utf8()));
            }
        }
        Self { text, spans }
    }

    /// Maps a non-empty, char-aligned range of `text` back to the original.
    fn original_range(&self, r: Range<usize>) -> Range<usize> {
        self.spans[r.start].start..self.spans[r.end - 1].end
    }
}

fn fold_quote(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2039}'
        | '\u{203A}' | '\u{02BC}' | '\u{FF07}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
        | '\u{00BB}' | '\u{FF02}' => '"',
        _ => c,
    }
}

#[cfg(test)]
mod tests;
