//! What every outgoing request is checked against: where it goes and how
//! long it may take.

use std::time::{Duration, Instant};

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
