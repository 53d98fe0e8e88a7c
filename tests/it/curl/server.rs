//! A small HTTP/1.1 server on 127.0.0.1 for the curl tests: a thread per
//! connection, requests answered on it until the client closes it (no `Connection: close`, which the host's client would hide from our curl but not from real curl), and a log
//! of what arrived.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// Lowercase names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub struct Server {
    pub port: u16,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding 127.0.0.1");
        let port = listener.local_addr().expect("local address").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = log.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, port, &log);
                });
            }
        });
        Server { port, seen }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn read_request(stream: &TcpStream) -> std::io::Result<Seen> {
    let mut r = BufReader::new(stream);
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        r.read_line(&mut h)?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    r.read_exact(&mut body)?;
    Ok(Seen {
        method,
        path,
        headers,
        body,
    })
}

fn respond(
    s: &mut TcpStream,
    head_only: bool,
    status: &str,
    headers: &[(&str, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    s.write_all(head.as_bytes())?;
    if head_only {
        return Ok(());
    }
    s.write_all(body)
}

/// Answers requests on one connection until the client closes it. Real curl
/// reuses a connection for the next hop of a redirect; a server that closed
/// it after one answer raced with that reuse ("Connection reset by peer").
fn serve(mut s: TcpStream, port: u16, log: &Mutex<Vec<Seen>>) -> std::io::Result<()> {
    loop {
        let Ok(req) = read_request(&s) else {
            return Ok(());
        };
        let path = req.path.clone();
        answer(&mut s, port, log, req)?;
        if path.starts_with("/big/") {
            return Ok(());
        }
    }
}

fn answer(s: &mut TcpStream, port: u16, log: &Mutex<Vec<Seen>>, req: Seen) -> std::io::Result<()> {
    log.lock().unwrap().push(req.clone());
    let text = |v: &str| vec![("Content-Type", v.to_owned())];
    let head_only = req.method == "HEAD";
    let (path, query) = req.path.split_once('?').unwrap_or((&req.path, ""));
    match path {
        "/hello" => respond(s, head_only, "200 OK", &text("text/plain"), b"hello\n"),
        "/missing" => respond(
            s,
            head_only,
            "404 Not Found",
            &text("text/plain"),
            b"not here\n",
        ),
        "/redirect" => {
            let to = query.strip_prefix("to=").unwrap_or("/hello").to_owned();
            respond(s, head_only, "302 Found", &[("Location", to)], b"")
        }
        "/loop" => respond(
            s,
            head_only,
            "302 Found",
            &[("Location", "/loop".to_owned())],
            b"",
        ),
        "/echo" => {
            let mut out = format!("{} {}\n", req.method, req.path);
            for (n, v) in &req.headers {
                out.push_str(&format!("{n}: {v}\n"));
            }
            out.push('\n');
            let mut body = out.into_bytes();
            body.extend_from_slice(&req.body);
            respond(s, head_only, "200 OK", &text("text/plain"), &body)
        }
        "/json" => respond(
            s,
            head_only,
            "201 Created",
            &text("application/json"),
            br#"{"ok":true}"#,
        ),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(3));
            respond(s, head_only, "200 OK", &text("text/plain"), b"late\n")
        }
        // What the ws:github example module posts to.
        p if p.starts_with("/repos/") => respond(
            s,
            head_only,
            "201 Created",
            &text("application/json"),
            br#"{"html_url": "posted"}"#,
        ),
        p if p.starts_with("/big/") => big(s, p[5..].parse().unwrap_or(0)),
        _ => respond(
            s,
            head_only,
            "404 Not Found",
            &text("text/plain"),
            format!("no {path} on {port}\n").as_bytes(),
        ),
    }
}

/// `n` bytes of a repeating pattern, written as they are made.
fn big(s: &mut TcpStream, n: usize) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes())?;
    let chunk: Vec<u8> = (0..65536u32).map(|i| (i % 251) as u8).collect();
    let mut left = n;
    while left > 0 {
        let k = left.min(chunk.len());
        s.write_all(&chunk[..k])?;
        left -= k;
    }
    Ok(())
}

/// The byte at offset `i` of a `/big/N` body.
pub fn big_byte(i: usize) -> u8 {
    ((i % 65536) % 251) as u8
}
