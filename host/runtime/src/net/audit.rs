//! The audit row of one outgoing request: method, URL, status, bytes each
//! way, and the request's headers with secrets redacted. The row is written
//! when the response body has been read to its end or dropped, so `bytes`
//! is what the guest actually received.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use computer_store::Workspace;
use http::HeaderMap;
use http_body::{Body, Frame, SizeHint};
use serde_json::{Map, Value, json};
use wasmtime_wasi_http::{Error as HttpError, WasiBody};

use super::policy::SendFuture;

/// Header names whose values are kept in the log: they describe the
/// request and carry no credential. Every other value is redacted, since
/// services invent their own key headers (`Ocp-Apim-Subscription-Key`,
/// `X-Functions-Key`, ...) and no list of secret names can be complete.
const SAFE_HEADERS: &[&str] = &[
    "accept",
    "accept-encoding",
    "accept-language",
    "cache-control",
    "connection",
    "content-encoding",
    "content-length",
    "content-type",
    "expect",
    "host",
    "pragma",
    "range",
    "te",
    "transfer-encoding",
    "user-agent",
];

/// The headers as a JSON object, values redacted but for [`SAFE_HEADERS`].
/// An `Authorization` keeps its scheme (`Bearer [redacted]`), which is
/// what someone reading the log needs.
pub(crate) fn redacted_headers(headers: &HeaderMap) -> Value {
    let mut out = Map::new();
    for (name, value) in headers {
        let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
        let shown = if SAFE_HEADERS.contains(&name.as_str()) {
            text
        } else {
            match text.split_once(' ') {
                Some((scheme, _)) if name.as_str().ends_with("authorization") => {
                    format!("{scheme} [redacted]")
                }
                _ => "[redacted]".to_owned(),
            }
        };
        match out.get_mut(name.as_str()) {
            Some(Value::String(prev)) => {
                prev.push_str(", ");
                prev.push_str(&shown);
            }
            _ => {
                out.insert(name.as_str().to_owned(), Value::String(shown));
            }
        }
    }
    Value::Object(out)
}

/// A URL with any `user:password@` and every query value taken out
/// (`?page=[redacted]&access_token=[redacted]`): tokens and keys travel in
/// query strings as often as in headers. The keys stay, for the reader.
pub(crate) fn redacted_url(uri: &http::Uri) -> String {
    let path = uri.path();
    let query = uri.query().map(redacted_query);
    let rest = match &query {
        Some(q) => format!("{path}?{q}"),
        None => path.to_owned(),
    };
    match (uri.authority(), uri.scheme_str()) {
        (Some(a), Some(scheme)) => {
            let (user, host) = match a.as_str().rsplit_once('@') {
                Some((_, host)) => ("[redacted]@", host),
                None => ("", a.as_str()),
            };
            format!("{scheme}://{user}{host}{rest}")
        }
        _ => rest,
    }
}

fn redacted_query(query: &str) -> String {
    query
        .split('&')
        .map(|part| match part.split_once('=') {
            Some((key, _)) => format!("{key}=[redacted]"),
            None if part.is_empty() => String::new(),
            None => "[redacted]".to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// What is known of a request before its response.
pub(crate) struct RequestRecord {
    pub workspace: Arc<Workspace>,
    pub actor: String,
    pub method: String,
    pub url: String,
    pub headers: Value,
    pub request_bytes: Option<u64>,
    pub started: Instant,
    /// What the host attached (`header authorization`, `query key`,
    /// `basic`): names only, never values.
    pub credentials: Vec<String>,
}

impl RequestRecord {
    /// What a request's row says before its response: values redacted.
    pub(crate) fn of(workspace: Arc<Workspace>, request: &http::Request<WasiBody>) -> Self {
        let request_bytes = request
            .headers()
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse().ok());
        RequestRecord {
            workspace,
            actor: computer_store::current_actor(),
            method: request.method().to_string(),
            url: redacted_url(request.uri()),
            headers: redacted_headers(request.headers()),
            request_bytes,
            started: Instant::now(),
            credentials: Vec::new(),
        }
    }

    /// Writes the row: `status` when a response came, `error` otherwise.
    pub(crate) fn write(
        &self,
        status: Option<u16>,
        bytes: u64,
        outcome: &str,
        error: Option<&str>,
    ) {
        let mut args = json!({
            "method": self.method,
            "url": self.url,
            "status": status,
            "bytes": bytes,
            "request_bytes": self.request_bytes,
            "headers": self.headers,
        });
        if !self.credentials.is_empty() {
            args["credentials"] = json!(self.credentials);
        }
        computer_store::with_actor(self.actor.clone(), || {
            self.workspace.audit().event(
                "http",
                &self.url,
                Some(args),
                outcome,
                error,
                self.started.elapsed(),
            )
        });
    }
}

/// The request `sent`, whose row is written when its response body ends
/// (or at once, when no response came).
pub(crate) fn audited(record: RequestRecord, sent: SendFuture) -> SendFuture {
    Box::new(async move {
        match Box::into_pin(sent).await {
            Ok((response, io)) => {
                let status = response.status().as_u16();
                let response = response.map(|body| CountingBody::wrap(body, record, status));
                Ok((response, io))
            }
            Err(e) => {
                record.write(None, 0, "error", Some(&e.to_string()));
                Err(e)
            }
        }
    })
}

/// A response body that counts what passes through it and writes the
/// request's audit row at its end (or when dropped before it).
pub(crate) struct CountingBody {
    inner: WasiBody,
    record: RequestRecord,
    status: u16,
    bytes: u64,
    error: Option<String>,
}

impl CountingBody {
    pub(crate) fn wrap(inner: WasiBody, record: RequestRecord, status: u16) -> WasiBody {
        use http_body_util::BodyExt;
        CountingBody {
            inner,
            record,
            status,
            bytes: 0,
            error: None,
        }
        .boxed_unsync()
    }
}

impl Body for CountingBody {
    type Data = Bytes;
    type Error = HttpError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, HttpError>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    self.bytes += data.len() as u64;
                }
            }
            Poll::Ready(Some(Err(e))) => self.error = Some(e.to_string()),
            _ => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for CountingBody {
    fn drop(&mut self) {
        let outcome = if self.error.is_some() { "error" } else { "ok" };
        self.record.write(
            Some(self.status),
            self.bytes,
            outcome,
            self.error.as_deref(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted() {
        let mut h = HeaderMap::new();
        h.insert("authorization", "Bearer abc123".parse().unwrap());
        h.insert("cookie", "session=xyz".parse().unwrap());
        h.insert("x-github-token", "ghp_secret".parse().unwrap());
        h.insert("accept", "application/json".parse().unwrap());
        h.insert("ocp-apim-subscription-key", "k1".parse().unwrap());
        h.insert("x-functions-key", "k2".parse().unwrap());
        h.insert("x-made-up", "k3".parse().unwrap());
        let v = redacted_headers(&h);
        assert_eq!(v["authorization"], "Bearer [redacted]");
        assert_eq!(v["cookie"], "[redacted]");
        assert_eq!(v["x-github-token"], "[redacted]");
        assert_eq!(v["accept"], "application/json");
        for name in ["ocp-apim-subscription-key", "x-functions-key", "x-made-up"] {
            assert_eq!(v[name], "[redacted]", "{name}");
        }
        assert!(!v.to_string().contains("abc123"));
    }

    #[test]
    fn user_info_leaves_the_url() {
        let u: http::Uri = "http://me:pw@example.com:8080/a?b=1".parse().unwrap();
        assert_eq!(
            redacted_url(&u),
            "http://[redacted]@example.com:8080/a?b=[redacted]"
        );
        let u: http::Uri = "https://example.com/x".parse().unwrap();
        assert_eq!(redacted_url(&u), "https://example.com/x");
        let u: http::Uri = "https://example.com/x?access_token=t0k&&TOKEN&api_key="
            .parse()
            .unwrap();
        assert_eq!(
            redacted_url(&u),
            "https://example.com/x?access_token=[redacted]&&[redacted]&api_key=[redacted]"
        );
    }
}
