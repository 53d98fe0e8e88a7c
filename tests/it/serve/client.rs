//! A small HTTP/1.1 client over a TCP socket: one request per connection
//! (`Connection: close`), chunked bodies decoded, and server-sent events
//! read as they come.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

use serde_json::Value;

/// A response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.text()))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The error code of an error document.
    pub fn code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

fn send(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
    headers: &[(&str, &str)],
) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(addr).expect("connecting to the server");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if let Some(b) = body {
        let is_json = b.first().is_some_and(|c| *c == b'{' || *c == b'[');
        if is_json
            && !headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        {
            head.push_str("Content-Type: application/json\r\n");
        }
        head.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    if let Some(b) = body {
        // A server may answer (413) and close before reading it all.
        let _ = stream.write_all(b);
    }
    BufReader::new(stream)
}

fn read_head(r: &mut BufReader<TcpStream>) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    r.read_line(&mut line).expect("status line");
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).unwrap_or(0) == 0 {
            break;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_owned(), v.trim().to_owned()));
        }
    }
    (status, headers)
}

fn chunked(headers: &[(String, String)]) -> bool {
    headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    })
}

/// Reads one chunk of a chunked body; `None` at its end.
fn next_chunk(r: &mut BufReader<TcpStream>) -> Option<Vec<u8>> {
    let mut size = String::new();
    if r.read_line(&mut size).ok()? == 0 {
        return None;
    }
    let n = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
    if n == 0 {
        return None;
    }
    let mut buf = vec![0; n + 2];
    r.read_exact(&mut buf).ok()?;
    buf.truncate(n);
    Some(buf)
}

/// One request, the whole response.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
    headers: &[(&str, &str)],
) -> Reply {
    let mut r = send(addr, method, path, token, body, headers);
    let (status, headers) = read_head(&mut r);
    let mut body = Vec::new();
    if chunked(&headers) {
        while let Some(c) = next_chunk(&mut r) {
            body.extend_from_slice(&c);
        }
    } else if let Some(n) = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
    {
        // Some servers (chromedriver) keep the connection open anyway.
        body.resize(n, 0);
        let _ = r.read_exact(&mut body);
    } else {
        let _ = r.read_to_end(&mut body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

/// A stream of server-sent events, read as they come.
pub struct Sse {
    pub status: u16,
    reader: BufReader<TcpStream>,
    is_chunked: bool,
    buf: String,
}

impl Sse {
    pub fn open(addr: &str, method: &str, path: &str, token: &str, body: Option<&[u8]>) -> Sse {
        let mut reader = send(
            addr,
            method,
            path,
            Some(token),
            body,
            &[("Accept", "text/event-stream")],
        );
        let (status, headers) = read_head(&mut reader);
        Sse {
            status,
            is_chunked: chunked(&headers),
            reader,
            buf: String::new(),
        }
    }

    /// The next event as (name, data); comments (keep-alives) skipped.
    pub fn next_event(&mut self) -> Option<(String, Value)> {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut name = String::from("message");
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.strip_prefix(' ').unwrap_or(v));
                    }
                }
                if data.is_empty() {
                    continue;
                }
                let value = serde_json::from_str(&data).unwrap_or(Value::String(data));
                return Some((name, value));
            }
            let more = if self.is_chunked {
                next_chunk(&mut self.reader)?
            } else {
                let mut b = vec![0; 4096];
                let n = self.reader.read(&mut b).ok()?;
                if n == 0 {
                    return None;
                }
                b.truncate(n);
                b
            };
            self.buf.push_str(&String::from_utf8_lossy(&more));
        }
    }

    /// Every event to the end of the stream.
    pub fn rest(&mut self) -> Vec<(String, Value)> {
        std::iter::from_fn(|| self.next_event()).collect()
    }
}
