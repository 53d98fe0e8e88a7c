//! A small blocking HTTP client over `wasi:http/outgoing-handler`.

use crate::bindings::wasi::http::outgoing_handler;
use crate::bindings::wasi::http::types::{
    ErrorCode, Fields, Method, OutgoingBody, OutgoingRequest, Scheme,
};
use crate::bindings::wasi::io::streams::StreamError;

pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

/// Splits `http(s)://authority/path` into its parts.
fn split_url(url: &str) -> Result<(Scheme, &str, &str), String> {
    let (scheme, rest) = if let Some(rest) = url.strip_prefix("https://") {
        (Scheme::Https, rest)
    } else if let Some(rest) = url.strip_prefix("http://") {
        (Scheme::Http, rest)
    } else {
        return Err(format!(
            "{url}: only http:// and https:// URLs are supported"
        ));
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    if authority.is_empty() {
        return Err(format!("{url}: no host"));
    }
    Ok((scheme, authority, path))
}

fn describe(e: &ErrorCode) -> String {
    match e {
        ErrorCode::HttpRequestDenied => {
            "HTTP-request-denied (the host is not among the module's allowed hosts)".to_owned()
        }
        ErrorCode::ConnectionRefused => "connection refused".to_owned(),
        other => format!("{other:?}"),
    }
}

/// `POST url` with `headers` and `body`; the whole response.
pub fn post(url: &str, headers: &[(String, String)], body: &[u8]) -> Result<Response, String> {
    let (scheme, authority, path) = split_url(url)?;
    let fail = |what: &str, e: String| format!("POST {url}: {what}: {e}");

    let mut fields: Vec<(String, Vec<u8>)> = headers
        .iter()
        .map(|(k, v)| (k.clone(), v.as_bytes().to_vec()))
        .collect();
    fields.push((
        "content-length".to_owned(),
        body.len().to_string().into_bytes(),
    ));
    let fields = Fields::from_list(&fields).map_err(|e| fail("bad header", format!("{e:?}")))?;
    let request = OutgoingRequest::new(fields);
    let set = request
        .set_method(&Method::Post)
        .and(request.set_scheme(Some(&scheme)))
        .and(request.set_authority(Some(authority)))
        .and(request.set_path_with_query(Some(path)));
    set.map_err(|()| fail("invalid request", url.to_owned()))?;
    let outgoing = request
        .body()
        .map_err(|()| fail("no request body", String::new()))?;

    let pending = outgoing_handler::handle(request, None)
        .map_err(|e| format!("POST {url}: {}", describe(&e)))?;
    // A request that fails (denied, refused) closes the body stream; the
    // response then says why, so a write error is reported only without one.
    let mut write_error = None;
    {
        let stream = outgoing
            .write()
            .map_err(|()| fail("cannot write the body", String::new()))?;
        for chunk in body.chunks(4096) {
            if let Err(e) = stream.blocking_write_and_flush(chunk) {
                write_error = Some(fail("sending the body", format!("{e:?}")));
                break;
            }
        }
    }
    if let Err(e) = OutgoingBody::finish(outgoing, None) {
        write_error.get_or_insert_with(|| format!("POST {url}: {}", describe(&e)));
    }

    pending.subscribe().block();
    let response = match pending.get() {
        Some(Ok(Ok(r))) => r,
        Some(Ok(Err(e))) => return Err(format!("POST {url}: {}", describe(&e))),
        Some(Err(())) | None => return Err(fail("no response", String::new())),
    };
    if let Some(e) = write_error {
        return Err(e);
    }
    let status = response.status();
    let incoming = response
        .consume()
        .map_err(|()| fail("no response body", String::new()))?;
    let mut data = Vec::new();
    {
        let stream = incoming
            .stream()
            .map_err(|()| fail("no response body", String::new()))?;
        loop {
            match stream.blocking_read(64 * 1024) {
                Ok(chunk) => data.extend_from_slice(&chunk),
                Err(StreamError::Closed) => break,
                Err(e) => return Err(fail("reading the response", format!("{e:?}"))),
            }
        }
    }
    drop(incoming);
    Ok(Response { status, body: data })
}
