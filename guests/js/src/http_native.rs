//! `native.http`: one HTTP exchange over `wasi:http/outgoing-handler`, for `fetch`
//! (`js/fetch.js`, which does redirects, headers and bodies the WHATWG way).
//!
//! The exchange is synchronous: the request goes out, the whole response body is
//! read, and `fetch` settles its promise on a later turn.

use rquickjs::{Array, ArrayBuffer, Ctx, Object, Result, Value};
use url::Url;

use crate::natives::{bytes_of, set_fn};
use crate::state::Shared;
use crate::wasi::http::outgoing_handler;
use crate::wasi::http::types::{
    ErrorCode, Fields, Method, OutgoingBody, OutgoingRequest, Scheme, http_error_code,
};
use crate::wasi::io::streams::StreamError;

pub fn create<'js>(ctx: &Ctx<'js>, _state: &Shared) -> Result<Object<'js>> {
    let http = Object::new(ctx.clone())?;
    // The href of `input` (against `base`), or null when it is not a URL.
    set_fn(
        &http,
        "resolve",
        |input: String, base: rquickjs::function::Opt<String>| -> Option<String> {
            let parsed = match base.0 {
                Some(b) => Url::parse(&b).and_then(|b| b.join(&input)),
                None => Url::parse(&input),
            };
            parsed.ok().map(String::from)
        },
    )?;
    set_fn(
        &http,
        "request",
        |ctx: Ctx<'js>, method: String, url: String, headers: Array<'js>, body: Value<'js>| {
            let url = match Url::parse(&url) {
                Ok(u) => u,
                Err(e) => return failure(&ctx, "bad-url", &e.to_string()),
            };
            let mut list = Vec::with_capacity(headers.len());
            for pair in headers.iter::<Vec<String>>() {
                let mut pair = pair?.into_iter();
                if let (Some(k), Some(v)) = (pair.next(), pair.next()) {
                    list.push((k, v.into_bytes()));
                }
            }
            let body = if body.is_null() || body.is_undefined() {
                None
            } else {
                Some(bytes_of(&ctx, &body)?)
            };
            match exchange(&method, &url, &list, body.as_deref()) {
                Ok(resp) => response_object(&ctx, resp),
                Err(e) => {
                    let (kind, message) = describe(&e);
                    failure(&ctx, kind, &message)
                }
            }
        },
    )?;
    Ok(http)
}

struct Response {
    status: u16,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
}

fn failure<'js>(ctx: &Ctx<'js>, kind: &str, message: &str) -> Result<Value<'js>> {
    let obj = Object::new(ctx.clone())?;
    obj.set("error", kind)?;
    obj.set("message", message)?;
    Ok(obj.into_value())
}

fn response_object<'js>(ctx: &Ctx<'js>, resp: Response) -> Result<Value<'js>> {
    let obj = Object::new(ctx.clone())?;
    obj.set("status", resp.status)?;
    let headers = Array::new(ctx.clone())?;
    for (i, (name, value)) in resp.headers.into_iter().enumerate() {
        // Header values are bytes; fetch exposes them as latin1 ("byte strings").
        let value: String = value.iter().map(|&b| b as char).collect();
        headers.set(i, vec![name, value])?;
    }
    obj.set("headers", headers)?;
    obj.set("body", ArrayBuffer::new(ctx.clone(), resp.body)?)?;
    Ok(obj.into_value())
}

/// The kind JS maps to node's errors, and a message.
fn describe(e: &ErrorCode) -> (&'static str, String) {
    match e {
        ErrorCode::HttpRequestDenied => ("denied", String::new()),
        ErrorCode::DnsError(_) | ErrorCode::DestinationNotFound => ("dns", String::new()),
        ErrorCode::ConnectionRefused | ErrorCode::DestinationUnavailable => {
            ("refused", String::new())
        }
        ErrorCode::ConnectionTimeout | ErrorCode::ConnectionReadTimeout => {
            ("timeout", String::new())
        }
        ErrorCode::TlsCertificateError | ErrorCode::TlsAlertReceived(_) => {
            ("tls", format!("{e:?}"))
        }
        ErrorCode::TlsProtocolError => ("tls", format!("{e:?}")),
        ErrorCode::InternalError(Some(m)) => ("failed", m.clone()),
        other => ("failed", format!("{other:?}")),
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

fn internal(what: &str) -> ErrorCode {
    ErrorCode::InternalError(Some(format!("invalid request {what}")))
}

fn outgoing_request(
    method_name: &str,
    url: &Url,
    headers: &[(String, Vec<u8>)],
) -> std::result::Result<OutgoingRequest, ErrorCode> {
    let fields = Fields::from_list(headers)
        .map_err(|e| ErrorCode::InternalError(Some(format!("invalid header: {e:?}"))))?;
    let request = OutgoingRequest::new(fields);
    let scheme = match url.scheme() {
        "https" => Scheme::Https,
        "http" => Scheme::Http,
        other => Scheme::Other(other.to_owned()),
    };
    let authority = match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_owned(),
        (None, _) => String::new(),
    };
    let mut path = url.path().to_owned();
    if let Some(q) = url.query() {
        path.push('?');
        path.push_str(q);
    }
    request
        .set_method(&method(method_name))
        .map_err(|()| internal("method"))?;
    request
        .set_scheme(Some(&scheme))
        .map_err(|()| internal("scheme"))?;
    request
        .set_authority(Some(&authority))
        .map_err(|()| internal("host"))?;
    request
        .set_path_with_query(Some(&path))
        .map_err(|()| internal("path"))?;
    Ok(request)
}

/// Send the request, wait for the head, read the whole body.
fn exchange(
    method_name: &str,
    url: &Url,
    headers: &[(String, Vec<u8>)],
    body: Option<&[u8]>,
) -> std::result::Result<Response, ErrorCode> {
    let request = outgoing_request(method_name, url, headers)?;
    let outgoing = request.body().map_err(|()| internal("body"))?;
    let pending = outgoing_handler::handle(request, None)?;
    // A request that fails (denied, refused) closes the body stream; the response
    // then says why, so a write error counts only without one.
    let mut write_error = None;
    if let Ok(stream) = outgoing.write() {
        for chunk in body.unwrap_or_default().chunks(4096) {
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
    let incoming = response.consume().map_err(|()| internal("response body"))?;
    let stream = incoming.stream().map_err(|()| internal("response body"))?;
    let mut data = Vec::new();
    loop {
        match stream.blocking_read(64 << 10) {
            Ok(chunk) => data.extend_from_slice(&chunk),
            Err(StreamError::Closed) => break,
            Err(StreamError::LastOperationFailed(e)) => {
                return Err(http_error_code(&e)
                    .unwrap_or(ErrorCode::InternalError(Some(e.to_debug_string()))));
            }
        }
    }
    // The stream belongs to the body resource: it must go first.
    drop(stream);
    drop(incoming);
    Ok(Response {
        status,
        headers,
        body: data,
    })
}
