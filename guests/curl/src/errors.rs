//! curl's exit codes and the messages it prints with them
//! (`curl: (CODE) MESSAGE`), and how a `wasi:http` error becomes one.

use crate::wasi::http::types::ErrorCode;

pub const UNSUPPORTED_PROTOCOL: i32 = 1;
pub const USAGE: i32 = 2;
pub const URL_MALFORMAT: i32 = 3;
pub const COULDNT_RESOLVE_HOST: i32 = 6;
pub const COULDNT_CONNECT: i32 = 7;
pub const HTTP_RETURNED_ERROR: i32 = 22;
pub const WRITE_ERROR: i32 = 23;
pub const OPERATION_TIMEDOUT: i32 = 28;
pub const SSL_CONNECT_ERROR: i32 = 35;
pub const TOO_MANY_REDIRECTS: i32 = 47;
pub const GOT_NOTHING: i32 = 52;
pub const SEND_ERROR: i32 = 55;
pub const RECV_ERROR: i32 = 56;
pub const PEER_FAILED_VERIFICATION: i32 = 60;

/// A failed transfer: curl's exit code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurlError {
    pub code: i32,
    pub message: String,
}

impl CurlError {
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        CurlError {
            code,
            message: message.into(),
        }
    }
}

/// Where a request was going, for the messages that name it.
pub struct Dest {
    pub host: String,
    pub port: u16,
    pub elapsed_ms: u128,
    pub received: u64,
}

/// The curl error for a `wasi:http` error code.
pub fn from_http(e: &ErrorCode, d: &Dest) -> CurlError {
    let (host, port, ms) = (&d.host, d.port, d.elapsed_ms);
    match e {
        ErrorCode::HttpRequestDenied => CurlError::new(
            COULDNT_CONNECT,
            format!(
                "Failed to connect to {host} port {port} after {ms} ms: host not in the workspace's network allow-list (computer net allow {host}:{port})"
            ),
        ),
        ErrorCode::DnsError(_) | ErrorCode::DestinationNotFound => CurlError::new(
            COULDNT_RESOLVE_HOST,
            format!("Could not resolve host: {host}"),
        ),
        ErrorCode::ConnectionRefused
        | ErrorCode::DestinationUnavailable
        | ErrorCode::DestinationIpUnroutable
        | ErrorCode::DestinationIpProhibited => CurlError::new(
            COULDNT_CONNECT,
            format!(
                "Failed to connect to {host} port {port} after {ms} ms: Couldn't connect to server"
            ),
        ),
        ErrorCode::ConnectionTimeout => CurlError::new(
            OPERATION_TIMEDOUT,
            format!("Failed to connect to {host} port {port} after {ms} ms: Timeout was reached"),
        ),
        ErrorCode::ConnectionReadTimeout | ErrorCode::HttpResponseTimeout => timed_out(d),
        ErrorCode::TlsCertificateError | ErrorCode::TlsAlertReceived(_) => CurlError::new(
            PEER_FAILED_VERIFICATION,
            "SSL certificate problem: unable to get local issuer certificate",
        ),
        ErrorCode::TlsProtocolError => CurlError::new(SSL_CONNECT_ERROR, "SSL connect error"),
        ErrorCode::ConnectionTerminated if d.received == 0 => {
            CurlError::new(GOT_NOTHING, "Empty reply from server")
        }
        ErrorCode::ConnectionTerminated | ErrorCode::ConnectionLimitReached => {
            CurlError::new(RECV_ERROR, "Failure when receiving data from the peer")
        }
        ErrorCode::HttpRequestBodySize(_) | ErrorCode::HttpRequestLengthRequired => {
            CurlError::new(SEND_ERROR, "Failed sending data to the peer")
        }
        ErrorCode::InternalError(Some(m)) => CurlError::new(RECV_ERROR, m.clone()),
        other => CurlError::new(
            RECV_ERROR,
            format!("Failure when receiving data from the peer ({other:?})"),
        ),
    }
}

/// curl's `--max-time` message.
pub fn timed_out(d: &Dest) -> CurlError {
    CurlError::new(
        OPERATION_TIMEDOUT,
        format!(
            "Operation timed out after {} milliseconds with {} bytes received",
            d.elapsed_ms, d.received
        ),
    )
}
