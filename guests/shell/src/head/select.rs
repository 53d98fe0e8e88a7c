//! What `head` passes on of a stream, piece by piece: the first N bytes or lines, or
//! all but the last N, holding back only what the count needs (N bytes, or N lines).

/// A `-c`/`-n` count.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub bytes: bool,
    /// `-N`: everything except the last N.
    pub but_last: bool,
    pub n: u64,
}

pub struct Selector {
    count: Count,
    terminator: u8,
    /// Units still to pass on (first N).
    left: u64,
    /// What may still turn out to be in the last N (all but the last N).
    held: Vec<u8>,
}

impl Selector {
    pub fn new(count: Count, terminator: u8) -> Selector {
        Selector {
            count,
            terminator,
            left: count.n,
            held: Vec::new(),
        }
    }

    /// Whether nothing more of the input is wanted.
    pub fn done(&self) -> bool {
        !self.count.but_last && self.left == 0
    }

    /// The part of `piece` to write now.
    pub fn feed(&mut self, piece: &[u8]) -> Vec<u8> {
        match (self.count.but_last, self.count.bytes) {
            (false, true) => {
                let take = piece
                    .len()
                    .min(usize::try_from(self.left).unwrap_or(usize::MAX));
                self.left -= take as u64;
                piece[..take].to_vec()
            }
            (false, false) => {
                let mut end = piece.len();
                for (i, _) in piece
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == self.terminator)
                {
                    self.left -= 1;
                    if self.left == 0 {
                        end = i + 1;
                        break;
                    }
                }
                piece[..end].to_vec()
            }
            (true, true) => {
                self.held.extend_from_slice(piece);
                let keep = usize::try_from(self.count.n).unwrap_or(usize::MAX);
                let free = self.held.len().saturating_sub(keep);
                self.held.drain(..free).collect()
            }
            (true, false) => {
                self.held.extend_from_slice(piece);
                let lines = self.terminated_lines();
                // Keep the last N complete lines and the unfinished one.
                match lines.checked_sub(self.count.n).filter(|free| *free > 0) {
                    Some(free) => {
                        let end = self.after_line(free);
                        self.held.drain(..end).collect()
                    }
                    None => Vec::new(),
                }
            }
        }
    }

    /// What is left to write at the end of the input.
    pub fn finish(&mut self) -> Vec<u8> {
        if !self.count.but_last || self.count.bytes {
            return Vec::new();
        }
        // An unfinished last line counts as a line.
        let unfinished = self.held.last().is_some_and(|b| *b != self.terminator);
        let lines = self.terminated_lines() + u64::from(unfinished);
        match lines.checked_sub(self.count.n).filter(|free| *free > 0) {
            Some(free) => {
                let end = self.after_line(free).min(self.held.len());
                self.held.drain(..end).collect()
            }
            None => Vec::new(),
        }
    }

    fn terminated_lines(&self) -> u64 {
        self.held.iter().filter(|b| **b == self.terminator).count() as u64
    }

    /// The offset just after the `n`th terminator of `held` (its end if it has fewer).
    fn after_line(&self, n: u64) -> usize {
        self.held
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == self.terminator)
            .nth(usize::try_from(n - 1).unwrap_or(usize::MAX))
            .map_or(self.held.len(), |(i, _)| i + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(bytes: bool, but_last: bool, n: u64, pieces: &[&[u8]]) -> Vec<u8> {
        let mut s = Selector::new(Count { bytes, but_last, n }, b'\n');
        let mut out = Vec::new();
        for piece in pieces {
            if s.done() {
                break;
            }
            out.extend(s.feed(piece));
        }
        out.extend(s.finish());
        out
    }

    #[test]
    fn first_bytes_and_lines_across_pieces() {
        assert_eq!(run(true, false, 5, &[b"abc", b"defg"]), b"abcde");
        assert_eq!(run(false, false, 2, &[b"a\nb", b"\nc\n"]), b"a\nb\n");
        assert_eq!(run(false, false, 0, &[b"a\n"]), b"");
        assert_eq!(run(false, false, 3, &[b"a\nb"]), b"a\nb");
    }

    #[test]
    fn all_but_last_as_gnu() {
        assert_eq!(run(true, true, 2, &[b"abc", b"de"]), b"abc");
        assert_eq!(run(true, true, 9, &[b"abc"]), b"");
        assert_eq!(run(false, true, 1, &[b"a\nb", b"\nc"]), b"a\nb\n");
        assert_eq!(run(false, true, 1, &[b"a\nb\nc\n"]), b"a\nb\n");
        assert_eq!(run(false, true, 0, &[b"a\n", b"b"]), b"a\nb");
        assert_eq!(run(false, true, 5, &[b"a\nb\n"]), b"");
    }
}
