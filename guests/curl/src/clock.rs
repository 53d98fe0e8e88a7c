//! Wall-clock time as wget prints it (`2026-12-01 19:21:53`, UTC: a
//! command has no time zone database).

use std::time::{SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 as (year, month, day), Howard Hinnant's algorithm.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `YYYY-MM-DD HH:MM:SS` for `secs` since the epoch.
pub fn format(secs: i64) -> String {
    let (y, m, d) = civil(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

pub fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    format(secs)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates() {
        assert_eq!(super::format(0), "1970-01-01 00:00:00");
        assert_eq!(super::format(1_796_152_913), "2026-12-01 19:21:53");
    }
}
