//! One curl transfer per URL: send, follow redirects (`-L`), print the
//! head (`-i`, `-I`, `-D`), stream the body to its sink, and report the
//! outcome as curl does (`-f`, `-w`, the progress meter, `curl: (N) ...`).

use std::time::Instant;

use crate::args::{Config, Output};
use crate::errors::{self, CurlError, Dest};
use crate::http::{self, Response};
use crate::output::{Sink, head_text};
use crate::progress::Meter;
use crate::request::{self, Plan};
use crate::wasi::http::types::ErrorCode;
use crate::writeout::{self, Info};

/// Bytes asked for at a time: what is held in memory of a body.
const READ_SIZE: u64 = 64 << 10;

/// Runs every URL in turn; curl's exit code is the last failure's.
pub fn run_all(cfg: &Config) -> i32 {
    let mut code = 0;
    for (i, raw) in cfg.urls.iter().enumerate() {
        let output = cfg.outputs.get(i).cloned().unwrap_or(Output::Stdout);
        let started = Instant::now();
        let mut info = Info {
            url: raw.clone(),
            ..Info::default()
        };
        let result = transfer(cfg, raw, &output, &mut info, started);
        info.time_total = started.elapsed();
        if !cfg.silent {
            let meter = Meter {
                expected: content_length(&info.headers),
                downloaded: info.size_download,
                uploaded: info.size_upload,
                elapsed: info.time_total,
            };
            eprint!("{}", meter.render(result.is_err()));
        }
        if let Err(e) = &result {
            info.exitcode = e.code;
            info.errormsg = e.message.clone();
            if !cfg.silent || cfg.show_error {
                eprintln!("curl: ({}) {}", e.code, e.message);
            }
            code = e.code;
        }
        if let Some(w) = &cfg.write_out {
            writeout::write(w, &info);
        }
    }
    code
}

fn content_length(headers: &[(String, Vec<u8>)]) -> Option<u64> {
    header(headers, "content-length").and_then(|v| v.trim().parse().ok())
}

fn header(headers: &[(String, Vec<u8>)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
}

/// `-O`'s file name: the URL's last path segment.
fn remote_name(raw: &str) -> Result<String, CurlError> {
    let url = request::parse_url(raw)?;
    let name = url
        .path_segments()
        .and_then(|mut s| s.next_back())
        .unwrap_or_default()
        .to_owned();
    if name.is_empty() {
        return Err(CurlError::new(
            errors::WRITE_ERROR,
            "Remote file name has no length!",
        ));
    }
    Ok(name)
}

fn sink_for(cfg: &Config, raw: &str, output: &Output) -> Result<Sink, CurlError> {
    Ok(match output {
        Output::Stdout => Sink::stdout(),
        Output::File(path) => Sink::file(path, cfg.create_dirs),
        Output::RemoteName => Sink::file(&remote_name(raw)?, cfg.create_dirs),
    })
}

/// Where `plan` goes, for error messages.
fn dest(plan: &Plan, started: Instant, received: u64) -> Dest {
    Dest {
        host: plan.url.host_str().unwrap_or_default().to_owned(),
        port: plan.url.port_or_known_default().unwrap_or(80),
        elapsed_ms: started.elapsed().as_millis(),
        received,
    }
}

fn error_for(e: &ErrorCode, plan: &Plan, started: Instant, received: u64) -> CurlError {
    errors::from_http(e, &dest(plan, started, received))
}

/// Sends one hop of `plan`.
fn send(
    cfg: &Config,
    plan: &Plan,
    started: Instant,
    info: &mut Info,
) -> Result<Response, CurlError> {
    let time_left = match cfg.max_time {
        Some(max) => {
            let left = max.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(timed_out(plan, started, info.size_download));
            }
            Some(left)
        }
        None => None,
    };
    let headers = request::headers(cfg, plan);
    if cfg.verbose {
        verbose_request(plan, &headers);
    }
    info.method = plan.method.clone();
    info.scheme = plan.url.scheme().to_owned();
    info.url_effective = plan.url.to_string();
    info.size_upload += plan.body.as_ref().map_or(0, |b| b.len() as u64);
    let r = http::Request {
        method: &plan.method,
        url: &plan.url,
        headers: &headers,
        body: plan.body.as_deref(),
        time_left,
        connect_timeout: cfg.connect_timeout,
    };
    http::send(&r).map_err(|e| match e {
        ErrorCode::ConnectionReadTimeout | ErrorCode::HttpResponseTimeout
            if cfg.max_time.is_some() =>
        {
            timed_out(plan, started, info.size_download)
        }
        e => error_for(&e, plan, started, 0),
    })
}

fn timed_out(plan: &Plan, started: Instant, received: u64) -> CurlError {
    errors::timed_out(&dest(plan, started, received))
}

/// `-v`'s lines before a request, as curl prints them (its connection
/// lines name what the host's client does, which curl cannot see here).
fn verbose_request(plan: &Plan, headers: &[(String, Vec<u8>)]) {
    let mut path = plan.url.path().to_owned();
    if let Some(q) = plan.url.query() {
        path = format!("{path}?{q}");
    }
    let host = plan.url.host_str().unwrap_or_default();
    let port = plan.url.port_or_known_default().unwrap_or(80);
    let authority = match plan.url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_owned(),
    };
    let mut out = format!(
        "*   Trying {host}:{port}...\r\n> {} {path} HTTP/1.1\r\n> Host: {authority}\r\n",
        plan.method
    );
    for (n, v) in headers {
        out.push_str(&format!("> {n}: {}\r\n", String::from_utf8_lossy(v)));
    }
    out.push_str("> \r\n");
    // Only the request's lines end in CRLF, as curl writes them raw.
    eprint!("{}", out.replacen("...\r\n", "...\n", 1));
}

fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Reads the rest of a body without keeping it (a redirect's, `-f`'s).
fn drain(resp: &mut Response) {
    while let Ok(Some(_)) = resp.body.read(READ_SIZE) {}
}

/// Prints the head where `-i`/`-I`/`-D`/`-v` want it.
fn show_head(
    cfg: &Config,
    resp: &Response,
    sink: &mut Sink,
    info: &mut Info,
) -> Result<(), CurlError> {
    let head = head_text(resp.status, &resp.headers);
    info.size_header += head.len() as u64;
    if cfg.verbose {
        let text = String::from_utf8_lossy(&head);
        let lines: Vec<String> = text
            .split_inclusive("\r\n")
            .map(|l| format!("< {l}"))
            .collect();
        eprint!("{}", lines.concat());
    }
    if let Some(path) = &cfg.dump_header {
        let mut d = Sink::file(path, cfg.create_dirs);
        d.write(&head)?;
        d.finish()?;
    }
    if cfg.include || cfg.head {
        sink.write(&head)?;
    }
    Ok(())
}

/// One URL, all its hops.
fn transfer(
    cfg: &Config,
    raw: &str,
    output: &Output,
    info: &mut Info,
    started: Instant,
) -> Result<(), CurlError> {
    let mut plan = request::first(cfg, raw)?;
    let mut sink = sink_for(cfg, raw, output)?;
    loop {
        let mut resp = send(cfg, &plan, started, info)?;
        info.http_code = resp.status;
        info.time_starttransfer = started.elapsed();
        info.headers = resp.headers.clone();
        info.content_type = header(&resp.headers, "content-type");
        let location = header(&resp.headers, "location");
        info.redirect_url = location
            .as_ref()
            .and_then(|l| plan.url.join(l).ok())
            .map(|u| u.to_string());
        show_head(cfg, &resp, &mut sink, info)?;
        if cfg.location
            && is_redirect(resp.status)
            && let Some(loc) = &location
        {
            drain(&mut resp);
            if info.num_redirects >= cfg.max_redirs {
                return Err(CurlError::new(
                    errors::TOO_MANY_REDIRECTS,
                    format!("Maximum ({}) redirects followed", cfg.max_redirs),
                ));
            }
            info.num_redirects += 1;
            plan = request::redirect(cfg, &plan, resp.status, loc)?;
            continue;
        }
        return finish(cfg, &plan, resp, sink, info, started);
    }
}

/// The last hop: `-f`, then the body.
fn finish(
    cfg: &Config,
    plan: &Plan,
    mut resp: Response,
    mut sink: Sink,
    info: &mut Info,
    started: Instant,
) -> Result<(), CurlError> {
    let failed = resp.status >= 400 && (cfg.fail || cfg.fail_with_body);
    let error = CurlError::new(
        errors::HTTP_RETURNED_ERROR,
        format!("The requested URL returned error: {}", resp.status),
    );
    if failed && !cfg.fail_with_body {
        drain(&mut resp);
        return Err(error);
    }
    if plan.method != "HEAD" {
        loop {
            if cfg.max_time.is_some_and(|m| started.elapsed() >= m) {
                return Err(timed_out(plan, started, info.size_download));
            }
            match resp.body.read(READ_SIZE) {
                Ok(Some(chunk)) => {
                    info.size_download += chunk.len() as u64;
                    sink.write(&chunk)?;
                }
                Ok(None) => break,
                Err(e)
                    if cfg.max_time.is_some() && matches!(e, ErrorCode::ConnectionReadTimeout) =>
                {
                    return Err(timed_out(plan, started, info.size_download));
                }
                Err(e) => return Err(error_for(&e, plan, started, info.size_download.max(1))),
            }
        }
    }
    sink.finish()?;
    if failed {
        return Err(error);
    }
    Ok(())
}
