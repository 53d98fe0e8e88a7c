//! Outgoing HTTP of module components (`wasi:http/outgoing-handler`),
//! limited to the hosts allowed for the module.
//!
//! An allow-list entry is `host` (any port) or `host:port`; `*.example.com`
//! allows the subdomains of `example.com`, and `*` any host. Hosts compare
//! case-insensitively; IPv6 addresses are written in brackets
//! (`[::1]:8080`). With no entries a module has no network: every request
//! fails with `HTTP-request-denied`. Requests are also bounded by the time
//! left for the call, so a slow server cannot outlive the call's timeout.

use std::sync::Arc;
use std::time::{Duration, Instant};

use http::uri::Scheme;
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks};

/// One allowed host (lowercase, IPv6 in brackets) and maybe one port.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    host: String,
    port: Option<u16>,
}

/// The hosts a module may reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AllowList(Vec<Entry>);

impl AllowList {
    /// Parses `host` / `host:port` entries; `Err` explains the first bad one.
    pub(crate) fn parse(entries: &[String]) -> Result<Self, String> {
        entries
            .iter()
            .map(|e| parse_entry(e))
            .collect::<Result<Vec<_>, _>>()
            .map(AllowList)
    }

    /// Whether a request to `host` (as in a URI: IPv6 in brackets) on
    /// `port` is allowed.
    pub(crate) fn allows(&self, host: &str, port: u16) -> bool {
        let host = host.to_ascii_lowercase();
        self.0.iter().any(|e| {
            let host_ok = if e.host == "*" {
                true
            } else if let Some(suffix) = e.host.strip_prefix("*.") {
                host.len() > suffix.len() + 1
                    && host.ends_with(suffix)
                    && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
            } else {
                e.host == host
            };
            host_ok && e.port.is_none_or(|p| p == port)
        })
    }
}

fn parse_entry(raw: &str) -> Result<Entry, String> {
    let bad = |why: &str| {
        Err(format!(
            "invalid allowed host {raw:?}: {why}; write host or host:port (e.g. api.github.com or 127.0.0.1:8080)"
        ))
    };
    let s = raw.trim();
    if s.is_empty() {
        return bad("it is empty");
    }
    if s.contains("://") || s.contains('/') || s.contains('@') || s.contains(char::is_whitespace) {
        return bad("give only the host, without scheme, path or user");
    }
    let (host, port) = if let Some(rest) = s.strip_prefix('[') {
        let Some((addr, after)) = rest.split_once(']') else {
            return bad("unclosed [");
        };
        if addr.parse::<std::net::Ipv6Addr>().is_err() {
            return bad("not an IPv6 address in brackets");
        }
        let port = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(p) => Some(p),
                None => return bad("expected :port after ]"),
            },
        };
        (format!("[{}]", addr.to_ascii_lowercase()), port)
    } else {
        match s.rsplit_once(':') {
            Some((h, p)) => (h.to_ascii_lowercase(), Some(p)),
            None => (s.to_ascii_lowercase(), None),
        }
    };
    let port = match port {
        None => None,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if n > 0 => Some(n),
            _ => return bad("the port is not a number from 1 to 65535"),
        },
    };
    let name = host.strip_prefix("*.").unwrap_or(&host);
    let ok = host == "*"
        || host.starts_with('[')
        || (!name.is_empty()
            && !name.contains('*')
            && !name.contains(':')
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_')));
    if !ok {
        return bad("not a host name or address");
    }
    Ok(Entry { host, port })
}

/// The `wasi:http` hooks of one module call: the allow-list and the call's
/// deadline.
pub(crate) struct HttpPolicy {
    pub allow: Arc<AllowList>,
    pub deadline: Instant,
    /// `ws:NAME`, for the log.
    pub module: Arc<str>,
}

fn clamp(requested: Option<Duration>, left: Duration) -> Option<Duration> {
    Some(requested.map_or(left, |r| r.min(left)))
}

type SendFuture = Box<
    dyn Future<
            Output = Result<
                (
                    http::Response<WasiBody>,
                    Box<dyn Future<Output = Result<(), HttpError>> + Send>,
                ),
                HttpError,
            >,
        > + Send,
>;

impl WasiHttpHooks for HttpPolicy {
    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Box<dyn Future<Output = Result<(), HttpError>> + Send>,
    ) -> SendFuture {
        let uri = request.uri();
        let host = uri.host().unwrap_or("").to_owned();
        let port = uri
            .port_u16()
            .unwrap_or(if uri.scheme() == Some(&Scheme::HTTPS) {
                443
            } else {
                80
            });
        if !self.allow.allows(&host, port) {
            tracing::warn!(
                module = %self.module,
                "denied HTTP request to {host}:{port}: not in the module's allowed hosts"
            );
            return Box::new(async { Err(HttpError::HttpRequestDenied) });
        }
        tracing::debug!(module = %self.module, method = %request.method(), %uri, "HTTP request");
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Box::new(async { Err(HttpError::ConnectionTimeout) });
        }
        let options = options.unwrap_or_default();
        let options = RequestOptions {
            connect_timeout: clamp(options.connect_timeout, left),
            first_byte_timeout: clamp(options.first_byte_timeout, left),
            between_bytes_timeout: clamp(options.between_bytes_timeout, left),
        };
        // The crate's default sender (hyper over tokio, rustls for https).
        wasmtime_wasi_http::default_hooks().send_request(request, Some(options), fut)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(entries: &[&str]) -> AllowList {
        AllowList::parse(&entries.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .expect("valid entries")
    }

    #[test]
    fn hosts_and_ports() {
        let l = list(&[
            "api.github.com",
            "127.0.0.1:8080",
            "[::1]:9000",
            "*.example.org",
        ]);
        assert!(l.allows("api.github.com", 443));
        assert!(l.allows("API.GitHub.com", 80));
        assert!(l.allows("127.0.0.1", 8080));
        assert!(!l.allows("127.0.0.1", 8081));
        assert!(l.allows("[::1]", 9000));
        assert!(!l.allows("[::1]", 9001));
        assert!(l.allows("a.example.org", 443));
        assert!(l.allows("a.b.example.org", 443));
        assert!(!l.allows("example.org", 443));
        assert!(!l.allows("badexample.org", 443));
        assert!(!l.allows("github.com", 443));
        assert!(list(&["*"]).allows("anything.test", 1));
        assert!(!AllowList::default().allows("localhost", 80));
    }

    #[test]
    fn bad_entries_are_explained() {
        for bad in [
            "",
            "http://x.com",
            "x.com/path",
            "x.com:0",
            "x.com:99999",
            "x.com:http",
            "[::1",
            "[nope]:80",
            "a b",
            "x*.com",
        ] {
            let e = AllowList::parse(&[bad.to_string()]).expect_err(bad);
            assert!(e.contains("invalid allowed host"), "{bad}: {e}");
        }
    }
}
