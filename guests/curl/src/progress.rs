//! curl's progress meter. curl shows it on stderr unless `-s`, whenever
//! stdout is not a terminal, which a command's never is. We print its two
//! heading lines and the final state once the transfer ends (curl also
//! redraws it every second with `\r`, which only a terminal shows).

use std::time::Duration;

const HEADING: &str = "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n";

const KB: u64 = 1024;
const MB: u64 = 1024 * KB;
const GB: u64 = 1024 * MB;

/// curl's `max5data`: a number in at most five characters.
pub fn max5(n: u64) -> String {
    if n < 100_000 {
        format!("{n:5}")
    } else if n < 10_000 * KB {
        format!("{:4}k", n / KB)
    } else if n < 100 * MB {
        format!("{:2}.{}M", n / MB, (n % MB) / (MB / 10))
    } else if n < 10_000 * MB {
        format!("{:4}M", n / MB)
    } else if n < 100 * GB {
        format!("{:2}.{}G", n / GB, (n % GB) / (GB / 10))
    } else {
        format!("{:4}G", n / GB)
    }
}

/// curl's `time2str`: `--:--:--` for no whole second.
fn time(d: Duration) -> String {
    let s = d.as_secs();
    if s == 0 {
        return "--:--:--".to_owned();
    }
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h < 100 {
        format!("{h:2}:{m:02}:{s:02}")
    } else {
        format!("{:3}d {:02}h", h / 24, h % 24)
    }
}

/// What the meter shows at the end of a transfer.
pub struct Meter {
    pub expected: Option<u64>,
    pub downloaded: u64,
    pub uploaded: u64,
    pub elapsed: Duration,
}

impl Meter {
    /// The two heading lines and the final line, as curl leaves them: a
    /// failed transfer's line has no newline (curl's error message follows
    /// on it).
    pub fn render(&self, failed: bool) -> String {
        let secs = self.elapsed.as_secs_f64().max(1e-6);
        let percent = |part: u64, whole: Option<u64>| match whole {
            Some(w) if w > 0 => part.saturating_mul(100) / w,
            _ => 0,
        };
        let total = self.expected.map_or(self.downloaded, |e| e + self.uploaded);
        let dl_speed = (self.downloaded as f64 / secs) as u64;
        let ul_speed = (self.uploaded as f64 / secs) as u64;
        let whole = self.expected.map(|e| e + self.uploaded);
        format!(
            "{HEADING}\r{:3} {}  {:3} {}  {:3} {}  {}  {} {} {} {} {}{}",
            percent(self.downloaded + self.uploaded, whole),
            max5(total),
            percent(self.downloaded, self.expected),
            max5(self.downloaded),
            percent(self.uploaded, Some(self.uploaded)),
            max5(self.uploaded),
            max5(dl_speed),
            max5(ul_speed),
            time(self.elapsed),
            time(self.elapsed),
            time(Duration::ZERO),
            max5(dl_speed),
            if failed { "" } else { "\n" },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_curl_prints_them() {
        assert_eq!(max5(335), "  335");
        assert_eq!(max5(22652), "22652");
        assert_eq!(max5(52_428_800), "50.0M");
        assert_eq!(max5(1_000_000), "  976k");
        assert_eq!(time(Duration::from_millis(300)), "--:--:--");
        assert_eq!(time(Duration::from_secs(61)), " 0:01:01");
    }
}
