//! `-w`/`--write-out`: curl's `%{variable}`s, `%header{name}`, `%%` and the
//! `\n`, `\r`, `\t` escapes, printed to stdout after each transfer (or to
//! stderr from a `%{stderr}` on).

use std::io::Write;
use std::time::Duration;

/// What a finished (or failed) transfer tells `-w`.
#[derive(Debug, Clone, Default)]
pub struct Info {
    pub http_code: u16,
    pub size_download: u64,
    pub size_upload: u64,
    pub size_header: u64,
    pub size_request: u64,
    pub url: String,
    pub url_effective: String,
    pub content_type: Option<String>,
    pub num_redirects: u32,
    pub redirect_url: Option<String>,
    pub method: String,
    pub scheme: String,
    pub time_total: Duration,
    pub time_starttransfer: Duration,
    pub exitcode: i32,
    pub errormsg: String,
    /// The last response's headers (lowercase names).
    pub headers: Vec<(String, Vec<u8>)>,
}

fn secs(d: Duration) -> String {
    format!("{:.6}", d.as_secs_f64())
}

impl Info {
    fn variable(&self, name: &str) -> Option<String> {
        Some(match name {
            "http_code" | "response_code" => format!("{:03}", self.http_code),
            "size_download" => self.size_download.to_string(),
            "size_upload" => self.size_upload.to_string(),
            "size_header" => self.size_header.to_string(),
            "size_request" => self.size_request.to_string(),
            "url" => self.url.clone(),
            "url_effective" => self.url_effective.clone(),
            "content_type" => self.content_type.clone().unwrap_or_default(),
            "num_redirects" => self.num_redirects.to_string(),
            "redirect_url" => self.redirect_url.clone().unwrap_or_default(),
            "method" => self.method.clone(),
            "scheme" => self.scheme.to_ascii_uppercase(),
            "http_version" => if self.http_code == 0 { "0" } else { "1.1" }.to_owned(),
            "exitcode" => self.exitcode.to_string(),
            "errormsg" => self.errormsg.clone(),
            "num_connects" => u32::from(self.http_code != 0).to_string(),
            "time_total" => secs(self.time_total),
            "time_starttransfer" | "time_pretransfer" | "time_appconnect" | "time_connect"
            | "time_namelookup" | "time_redirect" => secs(if name == "time_starttransfer" {
                self.time_starttransfer
            } else {
                Duration::ZERO
            }),
            "speed_download" => {
                let s = self.time_total.as_secs_f64();
                format!(
                    "{}",
                    if s > 0.0 {
                        (self.size_download as f64 / s) as u64
                    } else {
                        0
                    }
                )
            }
            "speed_upload" => "0".to_owned(),
            _ => return None,
        })
    }

    fn header(&self, name: &str) -> String {
        let name = name.to_ascii_lowercase();
        let values: Vec<String> = self
            .headers
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
            .collect();
        values.join(", ")
    }
}

/// Expands `format` for `info`, writing to stdout (or stderr after
/// `%{stderr}`).
pub fn write(format: &str, info: &Info) {
    let mut to_stderr = false;
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        let buf = if to_stderr { &mut err } else { &mut out };
        if let Some(after) = rest.strip_prefix("%{") {
            if let Some(end) = after.find('}') {
                let name = &after[..end];
                match name {
                    "stderr" => to_stderr = true,
                    "stdout" => to_stderr = false,
                    _ => match info.variable(name) {
                        Some(v) => buf.extend_from_slice(v.as_bytes()),
                        None => eprintln!("curl: unknown --write-out variable: '{name}'"),
                    },
                }
                rest = &after[end + 1..];
                continue;
            }
        } else if let Some(after) = rest.strip_prefix("%header{")
            && let Some(end) = after.find('}')
        {
            buf.extend_from_slice(info.header(&after[..end]).as_bytes());
            rest = &after[end + 1..];
            continue;
        } else if let Some(after) = rest.strip_prefix("%%") {
            buf.push(b'%');
            rest = after;
            continue;
        } else if let Some(after) = rest.strip_prefix('\\') {
            let esc = match after.chars().next() {
                Some('n') => Some(b'\n'),
                Some('r') => Some(b'\r'),
                Some('t') => Some(b'\t'),
                Some('\\') => Some(b'\\'),
                _ => None,
            };
            if let Some(b) = esc {
                buf.push(b);
                rest = &after[1..];
                continue;
            }
        }
        let mut tmp = [0u8; 4];
        buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
        rest = &rest[c.len_utf8()..];
    }
    let _ = std::io::stdout().write_all(&out);
    let _ = std::io::stderr().write_all(&err);
}
