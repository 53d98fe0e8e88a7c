//! `git remote-http` / `git remote-https`: git's transport helper for smart
//! HTTP, our own, on `wasi:http` (git's remote-curl needs libcurl). The
//! host makes the requests: TLS, the workspace's allow-list, redirects
//! checked against it, an audit row per request, and credentials attached
//! outside the sandbox.
//!
//! Fetch and clone use `stateless-connect` (protocol v2: each request the
//! client writes, up to its flush packet, is one POST to
//! `/git-upload-pack`, and the answer goes back followed by a response-end
//! packet). Push uses `push`: `git send-pack --stateless-rpc` runs as a
//! child, its request is POSTed to `/git-receive-pack`, and the answer fed
//! back to it, as git's remote-curl does.

use std::io::{BufRead, Read, Write};

use crate::computer::workspace::commands::{Event, Invocation, InvocationRequest};
use crate::wasi::http::outgoing_handler;
use crate::wasi::http::types::{ErrorCode, Fields, Method, OutgoingBody, OutgoingRequest, Scheme};
use crate::wasi::io::streams::StreamError;

struct Remote {
    scheme: Scheme,
    authority: String,
    /// The repository's path, without a trailing slash.
    path: String,
    url: String,
}

struct Reply {
    status: u16,
    content_type: String,
    location: Option<String>,
    body: Vec<u8>,
}

fn fatal(msg: &str) -> ! {
    let _ = std::io::stdout().flush();
    eprintln!("fatal: {msg}");
    crate::computer_git_exit(128);
}

fn parse(url: &str) -> Remote {
    let (scheme, rest) = if let Some(r) = url.strip_prefix("https://") {
        (Scheme::Https, r)
    } else if let Some(r) = url.strip_prefix("http://") {
        (Scheme::Http, r)
    } else {
        fatal(&format!("unsupported URL: {url}"));
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    // user:password@ is not sent: credentials come from the host's secrets.
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    Remote {
        scheme,
        authority: authority.to_owned(),
        path: path.trim_end_matches('/').to_owned(),
        url: url.to_owned(),
    }
}

fn http_error(e: &ErrorCode) -> String {
    match e {
        ErrorCode::DnsError(_) => "Could not resolve host".into(),
        ErrorCode::ConnectionRefused => "Failed to connect: Connection refused".into(),
        ErrorCode::HttpRequestDenied => {
            "the host is not on the workspace's network allow-list (computer net allow HOST)".into()
        }
        other => format!("{other:?}"),
    }
}

impl Remote {
    fn request(&self, method: Method, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut list: Vec<(String, Vec<u8>)> = headers
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.as_bytes().to_vec()))
            .collect();
        if matches!(method, Method::Post) {
            list.push(("Content-Length".into(), body.len().to_string().into_bytes()));
        }
        let fields =
            Fields::from_list(&list).unwrap_or_else(|e| fatal(&format!("bad header: {e:?}")));
        let request = OutgoingRequest::new(fields);
        let _ = request.set_method(&method);
        let _ = request.set_scheme(Some(&self.scheme));
        let _ = request.set_authority(Some(&self.authority));
        let _ = request.set_path_with_query(Some(&format!("{}{path}", self.path)));
        let Ok(outgoing) = request.body() else {
            fatal("cannot make a request body");
        };
        let pending = match outgoing_handler::handle(request, None) {
            Ok(p) => p,
            Err(e) => fatal(&format!(
                "unable to access '{}/': {}",
                self.url,
                http_error(&e)
            )),
        };
        if let Ok(stream) = outgoing.write() {
            for chunk in body.chunks(4096) {
                if stream.blocking_write_and_flush(chunk).is_err() {
                    break;
                }
            }
        }
        let _ = OutgoingBody::finish(outgoing, None);
        pending.subscribe().block();
        let response = match pending.get() {
            Some(Ok(Ok(r))) => r,
            Some(Ok(Err(e))) => fatal(&format!(
                "unable to access '{}/': {}",
                self.url,
                http_error(&e)
            )),
            _ => fatal(&format!("unable to access '{}/': no response", self.url)),
        };
        let status = response.status();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .first()
                .map(|v| String::from_utf8_lossy(v).into_owned())
        };
        let content_type = header("content-type").unwrap_or_default();
        let location = header("location");
        let Ok(incoming) = response.consume() else {
            fatal("cannot read the response");
        };
        let Ok(stream) = incoming.stream() else {
            fatal("cannot read the response");
        };
        let mut body = Vec::new();
        loop {
            match stream.blocking_read(65536) {
                Ok(chunk) => body.extend_from_slice(&chunk),
                Err(StreamError::Closed) => break,
                Err(StreamError::LastOperationFailed(e)) => fatal(&format!(
                    "error reading the response: {}",
                    e.to_debug_string()
                )),
            }
        }
        drop(stream);
        drop(incoming);
        Reply {
            status,
            content_type,
            location,
            body,
        }
    }

    /// The ref advertisement of `service` (`GET info/refs`), as
    /// remote-curl checks it; protocol v2 when `v2`.
    /// A redirect of the first request moves the whole remote, as git's
    /// `http.followRedirects=initial` does; the host checks each new host
    /// against the allow-list.
    fn discover(&mut self, service: &str, v2: bool) -> Vec<u8> {
        let mut headers = vec![("Accept", "*/*"), ("Pragma", "no-cache")];
        if v2 {
            headers.push(("Git-Protocol", "version=2"));
        }
        let suffix = format!("/info/refs?service={service}");
        let mut reply = self.request(Method::Get, &suffix, &headers, &[]);
        for _ in 0..5 {
            let Some(to) = reply
                .location
                .clone()
                .filter(|_| (301..=308).contains(&reply.status))
            else {
                break;
            };
            let absolute = if to.starts_with("http://") || to.starts_with("https://") {
                to.clone()
            } else {
                let scheme = if matches!(self.scheme, Scheme::Https) {
                    "https"
                } else {
                    "http"
                };
                format!("{scheme}://{}{to}", self.authority)
            };
            let Some(base) = absolute.strip_suffix(&suffix) else {
                fatal(&format!(
                    "unable to update url base from redirection:\n  asked for: {}{suffix}\n   redirect: {absolute}",
                    self.url
                ));
            };
            eprintln!("warning: redirecting to {base}/");
            *self = parse(base);
            reply = self.request(Method::Get, &suffix, &headers, &[]);
        }
        match reply.status {
            200 => {}
            401 | 403 => fatal(&format!("Authentication failed for '{}/'", self.url)),
            404 => fatal(&format!("repository '{}/' not found", self.url)),
            s => fatal(&format!(
                "unable to access '{}/': The requested URL returned error: {s}",
                self.url
            )),
        }
        if reply.content_type != format!("application/x-{service}-advertisement") {
            fatal(&format!(
                "repository '{}/' is not a smart HTTP repository",
                self.url
            ));
        }
        let mut body = reply.body;
        // "# service=NAME\n" and a flush come first in protocol v0.
        if body.get(4..14) == Some(b"# service=") {
            let len = usize::from_str_radix(std::str::from_utf8(&body[..4]).unwrap_or("0"), 16)
                .unwrap_or(0);
            let after = len + 4; // and the flush packet
            if body.get(len..after) == Some(b"0000") {
                body.drain(..after);
            }
        }
        body
    }

    fn rpc(&self, service: &str, request: &[u8], v2: bool) -> Vec<u8> {
        let content_type = format!("application/x-{service}-request");
        let accept = format!("application/x-{service}-result");
        let mut headers = vec![
            ("Content-Type", content_type.as_str()),
            ("Accept", accept.as_str()),
        ];
        if v2 {
            headers.push(("Git-Protocol", "version=2"));
        }
        let reply = self.request(Method::Post, &format!("/{service}"), &headers, request);
        if reply.status != 200 {
            fatal(&format!(
                "unable to access '{}/': The requested URL returned error: {}",
                self.url, reply.status
            ));
        }
        reply.body
    }
}

/// Reads one pkt-line (its 4 length bytes included) into `out`; its length
/// field, or `None` at the end of input.
fn read_packet(input: &mut impl Read, out: &mut Vec<u8>) -> Option<usize> {
    let mut head = [0u8; 4];
    input.read_exact(&mut head).ok()?;
    out.extend_from_slice(&head);
    let len = usize::from_str_radix(std::str::from_utf8(&head).ok()?, 16).ok()?;
    if len > 4 {
        let start = out.len();
        out.resize(start + len - 4, 0);
        input.read_exact(&mut out[start..]).ok()?;
    }
    Some(len)
}

fn stateless_connect(remote: &mut Remote, service: &str) {
    let advertisement = remote.discover(service, true);
    let mut out = std::io::stdout().lock();
    if !advertisement.starts_with(b"000eversion 2\n") {
        let _ = out.write_all(b"fallback\n");
        let _ = out.flush();
        return;
    }
    let _ = out.write_all(b"\n");
    let _ = out.write_all(&advertisement);
    let _ = out.flush();
    let mut input = std::io::stdin().lock();
    loop {
        // One request: packets up to a flush.
        let mut request = Vec::new();
        loop {
            match read_packet(&mut input, &mut request) {
                None if request.is_empty() => return,
                None => fatal("the request ended in the middle"),
                Some(0) => break,
                Some(_) => {}
            }
        }
        let answer = remote.rpc(service, &request, true);
        let _ = out.write_all(&answer);
        let _ = out.write_all(b"0002");
        let _ = out.flush();
    }
}

/// `push` lines up to a blank one: runs `git send-pack --stateless-rpc`
/// against the remote, answering git with its per-ref status.
fn push(remote: &mut Remote, specs: &[String], options: &[(String, String)]) {
    let heads = remote.discover("git-receive-pack", false);
    let mut argv: Vec<String> = ["git", "send-pack", "--stateless-rpc", "--helper-status"]
        .map(String::from)
        .to_vec();
    for (name, value) in options {
        match (name.as_str(), value.as_str()) {
            ("dry-run", "true") => argv.push("--dry-run".into()),
            ("verbosity", v) if v.parse::<i32>().unwrap_or(1) > 1 => argv.push("-v".into()),
            ("verbosity", "0") => argv.push("--quiet".into()),
            ("progress", "true") => argv.push("--progress".into()),
            ("thin", "true") => argv.push("--thin".into()),
            ("atomic", "true") => argv.push("--atomic".into()),
            _ => {}
        }
    }
    argv.push("--stdin".into());
    argv.push(remote.url.clone());
    let mut preamble = Vec::new();
    for spec in specs {
        let line = format!("{spec}\n");
        preamble.extend_from_slice(format!("{:04x}", line.len() + 4).as_bytes());
        preamble.extend_from_slice(line.as_bytes());
    }
    preamble.extend_from_slice(b"0000");
    preamble.extend_from_slice(&heads);
    let cwd = std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "/".into());
    let env: Vec<(String, String)> = std::env::vars().filter(|(k, _)| k != "PWD").collect();
    let mut env = env;
    env.push(("PWD".into(), cwd.clone()));
    let child = match Invocation::start(&InvocationRequest {
        name: "git".into(),
        argv: argv.clone(),
        env,
        cwd,
    }) {
        Ok(c) => c,
        Err(e) => fatal(&format!("cannot run git send-pack: {e:?}")),
    };
    child.feed(&preamble);
    // Its request: pkt-lines up to a flush; then it waits for the answer,
    // and what it writes after that is its status for git.
    let mut request = Vec::new();
    let mut out = std::io::stdout().lock();
    let mut sent = false;
    // send-pack ends its request with a second flush (after the pack's);
    // what git reads starts after it.
    let mut status = Vec::new();
    loop {
        match child.next() {
            Event::Stdout(b) if !sent => {
                request.extend_from_slice(&b);
                if let Some(end) = request_end(&request) {
                    status = request.split_off(end);
                    let answer = remote.rpc("git-receive-pack", &unframe(&request), false);
                    sent = true;
                    child.feed(&answer);
                    child.feed(&[]);
                }
            }
            Event::Stdout(b) => status.extend_from_slice(&b),
            Event::Stderr(b) => {
                let _ = std::io::stderr().write_all(&b);
            }
            Event::StdinWanted => child.feed(&[]),
            Event::Exited(_) => break,
        }
    }
    let mut status = &status[..];
    while let Some(rest) = status.strip_prefix(b"0000") {
        status = rest;
    }
    let _ = out.write_all(status);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// Where a framed request ends: just after its flush packet.
fn request_end(framed: &[u8]) -> Option<usize> {
    let mut at = 0;
    while framed.len() >= at + 4 {
        let len = std::str::from_utf8(&framed[at..at + 4])
            .ok()
            .and_then(|h| usize::from_str_radix(h, 16).ok())?;
        if len == 0 {
            return Some(at + 4);
        }
        if len < 4 {
            return None;
        }
        at += len;
    }
    None
}

/// send-pack --stateless-rpc frames its request in pkt-lines, up to a
/// flush: the HTTP body is their payloads (as remote-curl unwraps them).
fn unframe(framed: &[u8]) -> Vec<u8> {
    let mut body = Vec::with_capacity(framed.len());
    let mut rest = framed;
    while rest.len() >= 4 {
        let Some(len) = std::str::from_utf8(&rest[..4])
            .ok()
            .and_then(|h| usize::from_str_radix(h, 16).ok())
        else {
            break;
        };
        if len == 0 {
            break;
        }
        if len < 4 || len > rest.len() {
            break;
        }
        body.extend_from_slice(&rest[4..len]);
        rest = &rest[len..];
    }
    body
}

/// A v0 ref advertisement as the helper's `list` answer: `<id> <ref>`
/// lines and a blank one.
fn list_refs(advertisement: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = advertisement;
    while rest.len() >= 4 {
        let len = std::str::from_utf8(&rest[..4])
            .ok()
            .and_then(|h| usize::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        if len < 4 || len > rest.len() {
            rest = &rest[4.min(rest.len())..];
            continue;
        }
        let mut line = &rest[4..len];
        rest = &rest[len..];
        if let Some(nul) = line.iter().position(|b| *b == 0) {
            line = &line[..nul];
        }
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        if line.ends_with(b" capabilities^{}") {
            continue;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.push(b'\n');
    out
}

/// The helper's main: `git-remote-http(s) REMOTE URL`, commands on stdin.
pub fn main(args: &[String]) -> i32 {
    let url = args.get(2).or(args.get(1)).cloned().unwrap_or_default();
    let mut remote = parse(&url);
    let mut input = std::io::BufReader::new(std::io::stdin().lock());
    let mut options: Vec<(String, String)> = Vec::new();
    let mut pushes: Vec<String> = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line).unwrap_or(0) == 0 {
            return 0;
        }
        let cmd = line.trim_end_matches('\n');
        let mut out = std::io::stdout().lock();
        if cmd == "capabilities" {
            let _ = out.write_all(b"stateless-connect\npush\noption\n\n");
        } else if let Some(rest) = cmd.strip_prefix("option ") {
            let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
            let known = matches!(
                name,
                "verbosity" | "progress" | "dry-run" | "thin" | "atomic" | "followtags"
            );
            options.push((name.to_owned(), value.to_owned()));
            let _ = out.write_all(if known { b"ok\n" } else { b"unsupported\n" });
        } else if let Some(service) = cmd.strip_prefix("stateless-connect ") {
            drop(out);
            drop(input);
            stateless_connect(&mut remote, service);
            return 0;
        } else if cmd == "list for-push" || cmd == "list" {
            // `list` is for fetching without protocol v2; git asks it only
            // when stateless-connect falls back, which our server never
            // makes it (v0 upload-pack over HTTP is left out).
            let service = if cmd == "list" {
                "git-upload-pack"
            } else {
                "git-receive-pack"
            };
            let _ = out.write_all(&list_refs(&remote.discover(service, false)));
        } else if let Some(spec) = cmd.strip_prefix("push ") {
            pushes.push(spec.to_owned());
        } else if cmd.is_empty() {
            if !pushes.is_empty() {
                drop(out);
                push(&mut remote, &pushes, &options);
                pushes.clear();
                continue;
            }
            return 0;
        } else {
            fatal(&format!("remote helper: unknown command '{cmd}'"));
        }
        let _ = out.flush();
    }
}
