//! One HTTP exchange over `wasi:http/outgoing-handler`: send a request
//! (its body from memory), get the response head, and read its body as a
//! stream, so a large download never sits in memory whole.

use std::time::Duration;

use url::Url;

use crate::wasi::http::outgoing_handler;
use crate::wasi::http::types::{
    ErrorCode, Fields, IncomingBody, Method, OutgoingBody, OutgoingRequest, RequestOptions, Scheme,
};
use crate::wasi::io::streams::{InputStream, StreamError};

/// What to send.
pub struct Request<'a> {
    pub method: &'a str,
    pub url: &'a Url,
    pub headers: &'a [(String, Vec<u8>)],
    pub body: Option<&'a [u8]>,
    /// The time left for the whole transfer (`--max-time`), if bounded.
    pub time_left: Option<Duration>,
    pub connect_timeout: Option<Duration>,
}

/// A response whose body has not been read yet.
pub struct Response {
    pub status: u16,
    /// Names as the host gives them (lowercase), in order.
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Body,
}

/// A response body being read. The stream is declared first so that it is
/// dropped before the body resource it belongs to.
pub struct Body {
    stream: InputStream,
    _incoming: IncomingBody,
}

impl Body {
    /// The next piece of the body (at most `max` bytes); `None` at its end.
    pub fn read(&mut self, max: u64) -> Result<Option<Vec<u8>>, ErrorCode> {
        loop {
            match self.stream.blocking_read(max) {
                Ok(chunk) if chunk.is_empty() => continue,
                Ok(chunk) => return Ok(Some(chunk)),
                Err(StreamError::Closed) => return Ok(None),
                Err(StreamError::LastOperationFailed(e)) => {
                    return Err(crate::wasi::http::types::http_error_code(&e)
                        .unwrap_or(ErrorCode::InternalError(Some(e.to_debug_string()))));
                }
            }
        }
    }
}

fn method(name: &str) -> Method {
    match name {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        "PUT" => Method::Put,
        "DELETE" => Method::Delete,
        "CONNECT" => Method::Connect,
        "OPTIONS" => Method::Options,
        "TRACE" => Method::Trace,
        "PATCH" => Method::Patch,
        other => Method::Other(other.to_owned()),
    }
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().min(u128::from(u64::MAX)) as u64
}

fn options(r: &Request<'_>) -> RequestOptions {
    let o = RequestOptions::new();
    let connect = match (r.connect_timeout, r.time_left) {
        (Some(c), Some(t)) => Some(c.min(t)),
        (c, t) => c.or(t),
    };
    if let Some(c) = connect {
        let _ = o.set_connect_timeout(Some(nanos(c)));
    }
    if let Some(t) = r.time_left {
        let _ = o.set_first_byte_timeout(Some(nanos(t)));
        let _ = o.set_between_bytes_timeout(Some(nanos(t)));
    }
    o
}

/// Sends `r` and waits for the response head.
pub fn send(r: &Request<'_>) -> Result<Response, ErrorCode> {
    let fields = Fields::from_list(r.headers)
        .map_err(|e| ErrorCode::InternalError(Some(format!("bad header: {e:?}"))))?;
    let request = OutgoingRequest::new(fields);
    let scheme = if r.url.scheme() == "https" {
        Scheme::Https
    } else {
        Scheme::Http
    };
    let authority = match (r.url.host_str(), r.url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_owned(),
        (None, _) => String::new(),
    };
    let mut path = r.url.path().to_owned();
    if let Some(q) = r.url.query() {
        path.push('?');
        path.push_str(q);
    }
    let bad = |what: &str| ErrorCode::InternalError(Some(format!("invalid request {what}")));
    request
        .set_method(&method(r.method))
        .map_err(|()| bad("method"))?;
    request
        .set_scheme(Some(&scheme))
        .map_err(|()| bad("scheme"))?;
    request
        .set_authority(Some(&authority))
        .map_err(|()| bad("host"))?;
    request
        .set_path_with_query(Some(&path))
        .map_err(|()| bad("path"))?;
    let outgoing = request.body().map_err(|()| bad("body"))?;
    let pending = outgoing_handler::handle(request, Some(options(r)))?;
    // A request that fails (denied, refused) closes the body stream; the
    // response then says why, so a write error counts only without one.
    let mut write_error = None;
    if let Ok(stream) = outgoing.write() {
        for chunk in r.body.unwrap_or_default().chunks(4096) {
            if stream.blocking_write_and_flush(chunk).is_err() {
                write_error = Some(ErrorCode::HttpRequestBodySize(None));
                break;
            }
        }
    }
    if let Err(e) = OutgoingBody::finish(outgoing, None) {
        write_error.get_or_insert(e);
    }
    pending.subscribe().block();
    let response = match pending.get() {
        Some(Ok(Ok(resp))) => resp,
        Some(Ok(Err(e))) => return Err(e),
        Some(Err(())) | None => return Err(ErrorCode::InternalError(Some("no response".into()))),
    };
    if let Some(e) = write_error {
        return Err(e);
    }
    let headers = response.headers().entries();
    let status = response.status();
    let incoming = response.consume().map_err(|()| bad("response body"))?;
    let stream = incoming.stream().map_err(|()| bad("response body"))?;
    Ok(Response {
        status,
        headers,
        body: Body {
            stream,
            _incoming: incoming,
        },
    })
}
