//! GNU diff's `discard_confusing_lines`: before comparing, lines that have no match
//! in the other file (and, inside runs of those, lines with very many matches) are
//! set aside as changed. It makes the comparison faster, and it decides which of
//! several equally short edit scripts GNU prints, so the guest does the same.

/// Discard state of one line.
const KEEP: u8 = 0;
const DISCARD: u8 = 1;
const PROVISIONAL: u8 = 2;

/// Which lines of `lines` to set aside; `other_counts[id]` is how often class `id`
/// occurs in the other file.
pub fn discards(lines: &[u32], other_counts: &[usize]) -> Vec<bool> {
    let mut many = 5;
    let mut tem = lines.len() / 64;
    // About the square root of the line count: the threshold for "very many".
    loop {
        tem >>= 2;
        if tem == 0 {
            break;
        }
        many *= 2;
    }
    let mut marks: Vec<u8> = lines
        .iter()
        .map(|&id| match other_counts[id as usize] {
            0 => DISCARD,
            n if n > many => PROVISIONAL,
            _ => KEEP,
        })
        .collect();
    let mut i = 0;
    while i < marks.len() {
        if marks[i] == PROVISIONAL {
            marks[i] = KEEP;
        } else if marks[i] != KEEP {
            i = settle_run(&mut marks, i);
        }
        i += 1;
    }
    marks.into_iter().map(|m| m != KEEP).collect()
}

/// A run of discardable lines starting at `i` (whose first line is a real discard):
/// keep its provisional lines unless they sit well inside it. Returns the run's
/// last index.
fn settle_run(marks: &mut [u8], i: usize) -> usize {
    let end = marks.len();
    let mut j = i;
    let mut provisional = 0;
    while j < end && marks[j] != KEEP {
        if marks[j] == PROVISIONAL {
            provisional += 1;
        }
        j += 1;
    }
    while j > i && marks[j - 1] == PROVISIONAL {
        j -= 1;
        marks[j] = KEEP;
        provisional -= 1;
    }
    let length = j - i;
    if provisional * 4 > length {
        marks[i..j]
            .iter_mut()
            .filter(|m| **m == PROVISIONAL)
            .for_each(|m| *m = KEEP);
        // GNU goes on from the next line: a later real discard starts a new run.
        return i;
    }
    cancel_long_subruns(&mut marks[i..j]);
    cancel_at_edge(marks[i..j].iter_mut());
    cancel_at_edge(marks[i..j].iter_mut().rev());
    i + length - 1
}

/// Cancel every subrun of `minimum` or more provisional lines, where `minimum` is
/// about the square root of a quarter of the run's length, plus one.
fn cancel_long_subruns(run: &mut [u8]) {
    let mut minimum = 1;
    let mut tem = run.len() >> 2;
    loop {
        tem >>= 2;
        if tem == 0 {
            break;
        }
        minimum <<= 1;
    }
    minimum += 1;
    let (mut j, mut consec) = (0usize, 0usize);
    while j < run.len() {
        if run[j] != PROVISIONAL {
            consec = 0;
        } else {
            consec += 1;
            if consec == minimum {
                // Back to the subrun's start, to cancel all of it.
                j -= consec;
            } else if consec > minimum {
                run[j] = KEEP;
            }
        }
        j += 1;
    }
}

/// From one end of a run: cancel provisional lines until three real discards in a
/// row, or a real discard at least eight lines in.
fn cancel_at_edge<'a>(run: impl Iterator<Item = &'a mut u8>) {
    let mut consec = 0;
    for (j, m) in run.enumerate() {
        if j >= 8 && *m == DISCARD {
            break;
        }
        match *m {
            PROVISIONAL => {
                consec = 0;
                *m = KEEP;
            }
            KEEP => consec = 0,
            _ => consec += 1,
        }
        if consec == 3 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmatched_lines_are_discarded() {
        // Class 2 never occurs in the other file.
        let counts = [1, 1, 0];
        assert_eq!(discards(&[0, 2, 1], &counts), vec![false, true, false]);
    }
}
