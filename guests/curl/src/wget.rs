//! `wget`: GNU Wget 1.21's common uses (`wget -qO- URL`, `wget -O FILE URL`,
//! `wget URL`), its redirects (20 at most), its log on stderr (without the
//! dot progress bar) and its exit codes (4 network failure, 8 an error
//! response).

use std::time::Instant;

use url::Url;

use crate::http::{self, Response};
use crate::output::{Sink, reason};
use crate::request::parse_url;

const EXIT_PARSE: i32 = 2;
const EXIT_IO: i32 = 3;
const EXIT_NETWORK: i32 = 4;
const EXIT_SERVER: i32 = 8;
const MAX_REDIRECTS: u32 = 20;

#[derive(Default)]
struct Opts {
    quiet: bool,
    output: Option<String>,
    headers: Vec<String>,
    post: Option<Vec<u8>>,
    method: Option<String>,
    user_agent: Option<String>,
    urls: Vec<String>,
}

fn value<'a>(
    a: &'a str,
    it: &mut std::slice::Iter<'a, String>,
    long: &str,
    short: Option<&str>,
) -> Option<Option<&'a str>> {
    if let Some(v) = a.strip_prefix(&format!("{long}=")) {
        return Some(Some(v));
    }
    if a == long || short == Some(a) {
        return Some(it.next().map(String::as_str));
    }
    if let Some(s) = short
        && a.len() > s.len()
        && a.starts_with(s)
        && !a.starts_with("--")
    {
        return Some(Some(&a[s.len()..]));
    }
    None
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let a = a.as_str();
        let missing = || {
            format!(
                "wget: option requires an argument -- '{}'",
                a.trim_start_matches('-')
            )
        };
        if a == "-q" || a == "--quiet" || a == "-nv" || a == "--no-verbose" {
            o.quiet = o.quiet || a.contains('q');
        } else if a == "-qO-" || a == "-qO" {
            o.quiet = true;
            o.output = Some(if a == "-qO-" {
                "-".to_owned()
            } else {
                it.next().cloned().ok_or_else(missing)?
            });
        } else if let Some(v) = value(a, &mut it, "--output-document", Some("-O")) {
            o.output = Some(v.ok_or_else(missing)?.to_owned());
        } else if let Some(v) = value(a, &mut it, "--header", None) {
            o.headers.push(v.ok_or_else(missing)?.to_owned());
        } else if let Some(v) = value(a, &mut it, "--post-data", None) {
            o.post = Some(v.ok_or_else(missing)?.as_bytes().to_vec());
        } else if let Some(v) = value(a, &mut it, "--post-file", None) {
            let path = v.ok_or_else(missing)?;
            o.post = Some(std::fs::read(path).map_err(|e| format!("wget: {path}: {e}"))?);
        } else if let Some(v) = value(a, &mut it, "--method", None) {
            o.method = Some(v.ok_or_else(missing)?.to_ascii_uppercase());
        } else if let Some(v) = value(a, &mut it, "--user-agent", Some("-U")) {
            o.user_agent = Some(v.ok_or_else(missing)?.to_owned());
        } else if a.starts_with('-') && a != "-" {
            return Err(format!("wget: unrecognized option '{a}'"));
        } else {
            o.urls.push(a.to_owned());
        }
    }
    Ok(o)
}

/// `wget ARGS...`: the exit code.
pub fn main(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-V" || a == "--version") {
        println!(
            "GNU Wget {} built on wasm32-wasip2 (computer: wasi:http).",
            crate::WGET_VERSION
        );
        return 0;
    }
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "{e}\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options."
            );
            return EXIT_PARSE;
        }
    };
    if o.urls.is_empty() {
        eprintln!(
            "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options."
        );
        return EXIT_PARSE;
    }
    let mut code = 0;
    for raw in &o.urls {
        let c = fetch(&o, raw);
        if c != 0 {
            code = c;
        }
    }
    code
}

fn log(o: &Opts, text: &str) {
    if !o.quiet {
        eprint!("{text}");
    }
}

/// `send_auth`: whether `Authorization` and `Cookie` from `--header` go
/// along. Only to the first URL's origin: Wget 1.21.3 itself sends them
/// after a redirect to any host or port (checked against /usr/bin/wget),
/// which hands an agent's credentials to whoever the server names; the
/// sandbox drops them there, as curl does.
fn headers(o: &Opts, body: Option<&[u8]>, send_auth: bool) -> Vec<(String, Vec<u8>)> {
    let ua = o
        .user_agent
        .clone()
        .unwrap_or_else(|| format!("Wget/{}", crate::WGET_VERSION));
    let mut h = vec![
        ("User-Agent".to_owned(), ua.into_bytes()),
        ("Accept".to_owned(), b"*/*".to_vec()),
    ];
    if let Some(b) = body {
        h.push((
            "Content-Type".into(),
            b"application/x-www-form-urlencoded".to_vec(),
        ));
        h.push(("Content-Length".into(), b.len().to_string().into_bytes()));
    }
    for line in &o.headers {
        if let Some((n, v)) = line.split_once(':') {
            let n_lower = n.trim().to_ascii_lowercase();
            if !send_auth && matches!(n_lower.as_str(), "authorization" | "cookie") {
                continue;
            }
            h.retain(|(name, _)| !name.eq_ignore_ascii_case(n.trim()));
            h.push((n.trim().to_owned(), v.trim().as_bytes().to_vec()));
        }
    }
    h
}

/// The file `wget URL` saves to: the last path segment, else `index.html`;
/// `NAME.1`, `NAME.2`... when it exists.
fn local_name(url: &Url) -> String {
    let base = url
        .path_segments()
        .and_then(|mut s| s.next_back())
        .filter(|s| !s.is_empty())
        .unwrap_or("index.html")
        .to_owned();
    if std::fs::metadata(&base).is_err() {
        return base;
    }
    (1..)
        .map(|n| format!("{base}.{n}"))
        .find(|n| std::fs::metadata(n).is_err())
        .unwrap_or(base)
}

/// Sends to `url`, following redirects; the last response, or an exit code.
fn request(o: &Opts, mut url: Url) -> Result<(Url, Response), i32> {
    let mut method = o
        .method
        .clone()
        .unwrap_or_else(|| if o.post.is_some() { "POST" } else { "GET" }.to_owned());
    let mut body = o.post.clone();
    let first = crate::request::origin(&url);
    for _ in 0..=MAX_REDIRECTS {
        let host = url.host_str().unwrap_or_default().to_owned();
        let port = url.port_or_known_default().unwrap_or(80);
        log(o, &format!("Connecting to {host}:{port}... "));
        let h = headers(o, body.as_deref(), crate::request::origin(&url) == first);
        let r = http::Request {
            method: &method,
            url: &url,
            headers: &h,
            body: body.as_deref(),
            time_left: None,
            connect_timeout: None,
        };
        let resp = match http::send(&r) {
            Ok(resp) => resp,
            Err(e) => {
                let why = match e {
                    crate::wasi::http::types::ErrorCode::HttpRequestDenied => format!(
                        "host not in the workspace's network allow-list (computer net allow {host}:{port})"
                    ),
                    crate::wasi::http::types::ErrorCode::ConnectionRefused => {
                        "Connection refused".to_owned()
                    }
                    crate::wasi::http::types::ErrorCode::DnsError(_) => {
                        format!("unable to resolve host address ‘{host}’")
                    }
                    other => format!("{other:?}"),
                };
                log(o, &format!("failed: {why}.\n"));
                if o.quiet {
                    eprintln!("wget: {url}: {why}");
                }
                return Err(EXIT_NETWORK);
            }
        };
        log(
            o,
            &format!(
                "connected.\nHTTP request sent, awaiting response... {} {}\n",
                resp.status,
                reason(resp.status)
            ),
        );
        let location = resp
            .headers
            .iter()
            .find(|(n, _)| n == "location")
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned());
        match location {
            Some(loc) if matches!(resp.status, 301 | 302 | 303 | 307 | 308) => {
                let next = url.join(&loc).map_err(|_| EXIT_PARSE)?;
                log(
                    o,
                    &format!(
                        "Location: {loc} [following]\n--{}--  {next}\n",
                        crate::clock::now()
                    ),
                );
                if matches!(resp.status, 301..=303) && method == "POST" {
                    method = "GET".to_owned();
                    body = None;
                }
                url = next;
            }
            _ => return Ok((url, resp)),
        }
    }
    log(o, &format!("{MAX_REDIRECTS} redirections exceeded.\n"));
    Err(1)
}

fn fetch(o: &Opts, raw: &str) -> i32 {
    let url = match parse_url(raw) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("{raw}: {}.", e.message);
            return 1;
        }
    };
    log(o, &format!("--{}--  {url}\n", crate::clock::now()));
    let (url, resp) = match request(o, url) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if resp.status >= 400 {
        let now = crate::clock::now();
        let why = reason(resp.status);
        log(o, &format!("{now} ERROR {}: {why}.\n\n", resp.status));
        return EXIT_SERVER;
    }
    let name = o.output.clone().unwrap_or_else(|| local_name(&url));
    save(o, resp, &name)
}

fn header(resp: &Response, name: &str) -> Option<String> {
    resp.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
}

/// Writes the body to `name` (`-` is stdout), with Wget's log around it.
fn save(o: &Opts, mut resp: Response, name: &str) -> i32 {
    let started = Instant::now();
    let length = header(&resp, "content-length");
    let kind = header(&resp, "content-type")
        .map(|t| format!(" [{}]", t.split(';').next().unwrap_or_default()))
        .unwrap_or_default();
    let shown = if name == "-" { "STDOUT" } else { name };
    let len = length.as_deref().unwrap_or("unspecified");
    log(o, &format!("Length: {len}{kind}\nSaving to: ‘{shown}’\n\n"));
    let mut sink = Sink::file(name, false);
    let mut got: u64 = 0;
    loop {
        match resp.body.read(64 << 10) {
            Ok(Some(chunk)) => {
                got += chunk.len() as u64;
                if sink.write(&chunk).is_err() {
                    eprintln!("wget: cannot write to ‘{name}’");
                    return EXIT_IO;
                }
            }
            Ok(None) => break,
            Err(_) => {
                log(o, &format!("Read error at byte {got}.\n"));
                return EXIT_NETWORK;
            }
        }
    }
    if sink.finish().is_err() {
        return EXIT_IO;
    }
    let speed = got as f64 / started.elapsed().as_secs_f64().max(1e-6);
    let rate = if speed >= 1024.0 * 1024.0 {
        format!("{:.1} MB/s", speed / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KB/s", speed / 1024.0)
    };
    let total = length.map_or(got.to_string(), |l| format!("{got}/{l}"));
    let now = crate::clock::now();
    log(
        o,
        &format!("{now} ({rate}) - ‘{shown}’ saved [{total}]\n\n"),
    );
    0
}
