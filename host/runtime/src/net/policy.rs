//! What every outgoing request is checked against: where it goes and how
//! long it may take.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use computer_store::{AllowList, is_internal, is_internal_host};

use http::Uri;
use http::uri::Scheme;
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody};

/// The future `WasiHttpHooks::send_request` returns.
pub(crate) type SendFuture = Box<
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

/// Where a request goes, as the allow-list sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// As in a URI: IPv6 in brackets.
    pub host: String,
    pub port: u16,
}

impl Target {
    pub(crate) fn of(uri: &Uri) -> Target {
        let https = uri.scheme() == Some(&Scheme::HTTPS);
        Target {
            host: uri.host().unwrap_or("").to_owned(),
            port: uri.port_u16().unwrap_or(if https { 443 } else { 80 }),
        }
    }
}

impl Target {
    /// Why a request to this target must not go out although the list
    /// allows its name: the name resolves to an internal address (the
    /// host's own ports, its private network) that no entry names. A
    /// public-looking name can point anywhere; only an entry that names
    /// the address (or `localhost`) opens those. A failed lookup is left
    /// to the request itself, which fails the same way.
    ///
    /// The sender resolves the name again when it connects, so a name
    /// whose answer changes between the two lookups is not caught.
    pub(crate) async fn resolves_inside(&self, list: &AllowList) -> Option<String> {
        let bare = self.host.trim_start_matches('[').trim_end_matches(']');
        if bare.parse::<IpAddr>().is_ok() || is_internal_host(&self.host) {
            // Addresses and localhost were judged by the list itself.
            return None;
        }
        let addrs = tokio::net::lookup_host((bare, self.port)).await.ok()?;
        for addr in addrs {
            let ip = addr.ip();
            let shown = match ip {
                IpAddr::V6(v6) => format!("[{v6}]"),
                IpAddr::V4(v4) => v4.to_string(),
            };
            if is_internal(ip) && !list.names(&shown, self.port) {
                return Some(format!(
                    "{} resolves to {ip}, an internal address the allow-list does not name; allow the address itself with: computer net allow {shown}:{}",
                    self.host, self.port
                ));
            }
        }
        None
    }
}

fn clamp(requested: Option<Duration>, left: Duration) -> Option<Duration> {
    Some(requested.map_or(left, |r| r.min(left)))
}

/// The guest's timeouts, none longer than the time left before `deadline`;
/// `Err` when none is left.
pub(crate) fn clamp_options(
    options: Option<RequestOptions>,
    deadline: Instant,
) -> Result<RequestOptions, HttpError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(HttpError::ConnectionTimeout);
    }
    let options = options.unwrap_or_default();
    Ok(RequestOptions {
        connect_timeout: clamp(options.connect_timeout, left),
        first_byte_timeout: clamp(options.first_byte_timeout, left),
        between_bytes_timeout: clamp(options.between_bytes_timeout, left),
    })
}
