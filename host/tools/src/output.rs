//! Capping text for a model: cut on a UTF-8 boundary with a marker.

/// Output cap per stream for `exec`.
pub const EXEC_STREAM_CAP: usize = 64 * 1024;
/// Room past [`EXEC_STREAM_CAP`] for what a run appends after its cut: the
/// truncation marker (which names the kept file) and the host's error line.
pub const MARKER_SLACK: usize = 4096;

/// `text` cut to at most `cap` bytes on a char boundary, with
/// `[truncated, N more bytes]` appended when anything was cut.
pub fn cap_text(text: &str, cap: usize) -> String {
    if text.len() <= cap {
        return text.to_owned();
    }
    let mut end = cap;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n[truncated, {} more bytes]",
        &text[..end],
        text.len() - end
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_on_char_boundaries() {
        assert_eq!(cap_text("hello", 10), "hello");
        assert_eq!(
            cap_text("hello world", 5),
            "hello\n[truncated, 6 more bytes]"
        );
        // "é" is two bytes; a cut inside it moves back.
        assert_eq!(cap_text("aé", 2), "a\n[truncated, 2 more bytes]");
    }
}
