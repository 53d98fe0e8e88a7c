//! Wall-clock times in the script's `TZ`, for the timestamps commands print
//! (`diff -u` headers). bashkit's `tzdata` feature brings the IANA database.

use std::str::FromStr;
use std::time::SystemTime;

use chrono::{DateTime, FixedOffset, Utc};

/// `time` in the zone `TZ` names: unset, empty, an unknown name or a POSIX rule the
/// database lacks give UTC, as glibc does for a zone it cannot find.
pub fn in_zone(time: SystemTime, tz: Option<&str>) -> DateTime<FixedOffset> {
    let utc: DateTime<Utc> = time.into();
    let name = tz.map(|t| t.trim_start_matches(':')).unwrap_or("");
    match chrono_tz::Tz::from_str(name) {
        Ok(zone) => utc.with_timezone(&zone).fixed_offset(),
        Err(_) => utc.fixed_offset(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn zones() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(0);
        assert_eq!(in_zone(t, None).to_rfc3339(), "1970-01-01T00:00:00+00:00");
        assert_eq!(
            in_zone(t, Some("America/New_York")).to_rfc3339(),
            "1969-12-31T19:00:00-05:00"
        );
        assert_eq!(
            in_zone(t, Some("Nowhere/Else")).offset().local_minus_utc(),
            0
        );
    }
}
