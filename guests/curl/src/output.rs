//! Where a transfer's bytes go (stdout or a file made on the first write),
//! and the response head as curl prints it for `-i`, `-I` and `-D`.

use std::fs::File;
use std::io::{self, Write};

use crate::errors::{self, CurlError};

/// A body's destination.
pub enum Sink {
    Stdout(io::Stdout),
    /// `/dev/null`, which the workspace has no file for.
    Discard,
    File {
        path: String,
        file: Option<File>,
        create_dirs: bool,
    },
}

fn write_failed() -> CurlError {
    CurlError::new(errors::WRITE_ERROR, "Failure writing output to destination")
}

impl Sink {
    pub fn stdout() -> Sink {
        Sink::Stdout(io::stdout())
    }

    pub fn file(path: &str, create_dirs: bool) -> Sink {
        match path {
            "-" | "/dev/stdout" => return Sink::stdout(),
            "/dev/null" => return Sink::Discard,
            _ => {}
        }
        Sink::File {
            path: path.to_owned(),
            file: None,
            create_dirs,
        }
    }

    fn open(path: &str, create_dirs: bool) -> Result<File, CurlError> {
        if create_dirs && let Some(parent) = std::path::Path::new(path).parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        File::create(path).map_err(|e| {
            CurlError::new(
                errors::WRITE_ERROR,
                format!("Failed to open the file {path}: {e}"),
            )
        })
    }

    pub fn write(&mut self, bytes: &[u8]) -> Result<(), CurlError> {
        match self {
            Sink::Stdout(out) => out.write_all(bytes).map_err(|_| write_failed()),
            Sink::Discard => Ok(()),
            Sink::File {
                path,
                file,
                create_dirs,
            } => {
                if file.is_none() {
                    *file = Some(Self::open(path, *create_dirs)?);
                }
                let f = file.as_mut().expect("opened above");
                f.write_all(bytes).map_err(|_| write_failed())
            }
        }
    }

    /// Ends the transfer: a file that got no bytes is still made, as curl
    /// makes one for an empty body.
    pub fn finish(&mut self) -> Result<(), CurlError> {
        match self {
            Sink::Stdout(out) => out.flush().map_err(|_| write_failed()),
            Sink::Discard => Ok(()),
            Sink::File {
                path,
                file,
                create_dirs,
            } => {
                if file.is_none() {
                    *file = Some(Self::open(path, *create_dirs)?);
                }
                // A sync, not a flush: the workspace stores what is written
                // at a sync or close, and a close cannot report a failure.
                file.as_mut()
                    .expect("opened above")
                    .sync_data()
                    .map_err(|_| write_failed())
            }
        }
    }
}

/// A header name as servers usually write it (`content-type` →
/// `Content-Type`): the host hands names over in lowercase.
pub fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        out.push(if upper { c.to_ascii_uppercase() } else { c });
        upper = c == '-';
    }
    out
}

/// The reason phrase of a status code, as most servers send it.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        101 => "Switching Protocols",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        410 => "Gone",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// The response head as curl prints it: status line, headers, blank line,
/// each ending in CRLF.
pub fn head_text(status: u16, headers: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {}", reason(status))
        .trim_end()
        .as_bytes()
        .to_vec();
    out.extend_from_slice(b"\r\n");
    for (name, value) in headers {
        out.extend_from_slice(title_case(name).as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_as_curl_prints_it() {
        let h = vec![("content-type".to_string(), b"text/plain".to_vec())];
        assert_eq!(
            head_text(404, &h),
            b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\n"
        );
        assert_eq!(title_case("x-request-id"), "X-Request-Id");
    }
}
