//! Who and when: `GIT_AUTHOR_*`/`GIT_COMMITTER_*`, then `user.name` and
//! `user.email` from config, dates parsed as git parses them (gix-date) and
//! printed in git's formats.

use crate::config::Config;
use crate::error::{Error, Result};

pub struct Ident {
    pub name: String,
    pub email: String,
    pub seconds: i64,
    pub offset: i32,
}

const UNKNOWN: &str = "\n*** Please tell me who you are.\n\nRun\n\n  git config --global user.email \"you@example.com\"\n  git config --global user.name \"Your Name\"\n\nto set your account's default identity.\nOmit --global to set the identity only in this repository.\n\n";

impl Ident {
    /// `role` is `AUTHOR` or `COMMITTER`.
    pub fn of(role: &str, config: &Config) -> Result<Ident> {
        let env = |k: &str| std::env::var(format!("GIT_{role}_{k}")).ok();
        let name = env("NAME").or_else(|| config.get("user.name"));
        let email = env("EMAIL")
            .or_else(|| config.get("user.email"))
            .or_else(|| std::env::var("EMAIL").ok());
        let (Some(name), Some(email)) = (name, email) else {
            let who = if role == "AUTHOR" {
                "Author"
            } else {
                "Committer"
            };
            eprint!("{who} identity unknown\n{UNKNOWN}");
            return Err(Error::Fatal(
                "unable to auto-detect email address (got 'root@localhost.(none)')".into(),
            ));
        };
        if name.trim().is_empty() {
            return Err(Error::Fatal(format!(
                "empty ident name (for <{email}>) not allowed"
            )));
        }
        let (seconds, offset) = match env("DATE") {
            Some(d) => parse_date(&d)?,
            None => (now(), 0),
        };
        Ok(Ident {
            name,
            email,
            seconds,
            offset,
        })
    }

    /// `Name <email> 1700000000 +0000`, as in a commit header.
    pub fn header(&self) -> String {
        format!(
            "{} <{}> {} {}",
            self.name,
            self.email,
            self.seconds,
            zone(self.offset)
        )
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

pub fn parse_date(text: &str) -> Result<(i64, i32)> {
    let t = text.trim();
    // git's internal form: `@1700000000 +0100` or `1700000000 +0100`.
    let raw = t.strip_prefix('@').unwrap_or(t);
    let mut parts = raw.split_whitespace();
    if let (Some(secs), zone_part) = (
        parts.next().and_then(|s| s.parse::<i64>().ok()),
        parts.next(),
    ) && raw.split_whitespace().count() <= 2
        && secs > 100_000_000
    {
        let offset = zone_part.and_then(parse_zone).unwrap_or(0);
        return Ok((secs, offset));
    }
    match gix_date::parse(t, None) {
        Ok(time) => Ok((time.seconds, time.offset)),
        Err(_) => Err(Error::Fatal(format!("invalid date format: {t}"))),
    }
}

fn parse_zone(z: &str) -> Option<i32> {
    let (sign, digits) = match z.as_bytes().first()? {
        b'+' => (1, &z[1..]),
        b'-' => (-1, &z[1..]),
        _ => return None,
    };
    if digits.len() != 4 {
        return None;
    }
    let h: i32 = digits[..2].parse().ok()?;
    let m: i32 = digits[2..].parse().ok()?;
    Some(sign * (h * 3600 + m * 60))
}

pub fn zone(offset: i32) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.abs();
    format!("{sign}{:02}{:02}", a / 3600, (a % 3600) / 60)
}

/// A parsed `Name <email> secs zone` signature line.
pub struct Sig {
    pub name: String,
    pub email: String,
    pub seconds: i64,
    pub offset: i32,
}

pub fn parse_sig(line: &str) -> Sig {
    let lt = line.find('<').unwrap_or(line.len());
    let gt = line.rfind('>').unwrap_or(line.len());
    let name = line[..lt].trim().to_owned();
    let email = line.get(lt + 1..gt).unwrap_or("").to_owned();
    let mut rest = line.get(gt + 1..).unwrap_or("").split_whitespace();
    let seconds = rest.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let offset = rest.next().and_then(parse_zone).unwrap_or(0);
    Sig {
        name,
        email,
        seconds,
        offset,
    }
}

/// Date formats of `--date` and the `%ad`-style placeholders.
pub fn format_date(seconds: i64, offset: i32, style: &str) -> String {
    let time = gix_date::Time { seconds, offset };
    let custom = |f| time.format_or_unix(gix_date::time::Format::Custom(f));
    match style {
        "raw" => format!("{seconds} {}", zone(offset)),
        "unix" => seconds.to_string(),
        "iso" | "iso8601" => custom(gix_date::time::format::ISO8601),
        "iso-strict" | "iso8601-strict" => custom(gix_date::time::format::ISO8601_STRICT),
        "rfc" | "rfc2822" => custom(gix_date::time::format::GIT_RFC2822),
        "short" => custom(gix_date::time::format::SHORT),
        _ => custom(gix_date::time::format::DEFAULT),
    }
}
