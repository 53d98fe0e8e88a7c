//! `zip` and `unzip`, Info-ZIP's command lines over real zip files (the `zip` crate,
//! deflate by flate2's pure-Rust backend), so archives made here open with Debian's
//! `unzip` and the other way round. bashkit has neither command.
//!
//! Entry times are DOS times in the script's `TZ`, as Info-ZIP writes them; modes
//! go in the Unix external attributes and come back on extraction.

mod entry_path;
mod unzip_cmd;
mod zip_cmd;

pub use unzip_cmd::Unzip;
pub use zip_cmd::Zip;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::{Datelike, NaiveDate, Timelike};

fn resolve(cwd: &Path, operand: &str) -> PathBuf {
    bashkit::normalize_path(&bashkit::vfs_join(cwd, operand))
}

/// A file time as the DOS time zip stores (2-second steps, 1980..2107).
fn dos_time(time: SystemTime, tz: Option<&str>) -> zip::DateTime {
    let t = crate::local_time::in_zone(time, tz);
    let second = t.second().min(59) as u8;
    zip::DateTime::from_date_and_time(
        t.year().clamp(1980, 2107) as u16,
        t.month() as u8,
        t.day() as u8,
        t.hour() as u8,
        t.minute() as u8,
        second,
    )
    .unwrap_or_default()
}

/// A DOS time back as a file time in the script's `TZ`.
fn file_time(dos: zip::DateTime, tz: Option<&str>) -> Option<SystemTime> {
    let naive = NaiveDate::from_ymd_opt(dos.year().into(), dos.month().into(), dos.day().into())?
        .and_hms_opt(dos.hour().into(), dos.minute().into(), dos.second().into())?;
    // The offset of that wall time in the zone, found from the UTC reading of it.
    let guess =
        SystemTime::UNIX_EPOCH + Duration::from_secs(naive.and_utc().timestamp().max(0) as u64);
    let offset = crate::local_time::in_zone(guess, tz)
        .offset()
        .local_minus_utc();
    let secs = naive.and_utc().timestamp() - i64::from(offset);
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs.max(0) as u64))
}

/// `YYYY-MM-DD HH:MM`, as `unzip -l` shows an entry's time.
fn listing_time(dos: Option<zip::DateTime>) -> String {
    match dos {
        Some(d) => format!(
            "{:04}-{:02}-{:02} {:02}:{:02}",
            d.year(),
            d.month(),
            d.day(),
            d.hour(),
            d.minute()
        ),
        None => "1980-00-00 00:00".to_string(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dos_times_round_trip() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        for tz in [None, Some("Europe/Paris")] {
            assert_eq!(file_time(dos_time(t, tz), tz), Some(t));
        }
        assert_eq!(listing_time(Some(dos_time(t, None))), "2023-11-14 22:13");
    }
}
