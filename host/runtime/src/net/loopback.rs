//! `wasi:http` requests to a server of the run's own (`curl
//! http://127.0.0.1:8000/` after `python3 -m http.server 8000`): carried
//! over the run's loopback network (`host::sockets`) by hyper's HTTP/1
//! client, never over a host socket.
//!
//! Only plain HTTP to a loopback address or `localhost`, and only when
//! something in the run listens on that port: that request leaves nothing
//! (the run talks to itself), so it needs no allow-list entry. With nobody
//! listening, the request takes the ordinary route, where the allow-list
//! decides whether a server on the host's own loopback may be reached.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use http_body_util::BodyExt;
use wasmtime_wasi_http::io::TokioIo;
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody};

use super::policy::{SendFuture, Target};
use crate::host::sockets::{Dialed, Loopback};

/// The run's addresses `target` names, if it names the loopback.
fn loopback_addrs(target: &Target) -> Vec<SocketAddr> {
    let bare = target.host.trim_start_matches('[').trim_end_matches(']');
    let name = bare.trim_end_matches('.').to_ascii_lowercase();
    match bare.parse::<IpAddr>() {
        Ok(ip) if ip.is_loopback() => vec![SocketAddr::new(ip, target.port)],
        Ok(_) => vec![],
        Err(_) if name == "localhost" || name.ends_with(".localhost") => vec![
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), target.port),
            SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), target.port),
        ],
        Err(_) => vec![],
    }
}

/// A connection to a server of the run that `target` names, if one
/// listens there (plain HTTP only: a run's server has no certificate).
pub(crate) fn dial(net: &Loopback, target: &Target, https: bool) -> Option<Dialed> {
    if https {
        return None;
    }
    loopback_addrs(target)
        .into_iter()
        .find_map(|addr| net.dial(addr).ok())
}

/// Sends `request` over `conn` with hyper's HTTP/1 client.
pub(crate) fn send(
    conn: Dialed,
    mut request: http::Request<WasiBody>,
    options: RequestOptions,
) -> SendFuture {
    Box::new(async move {
        let (mut sender, driver) = hyper::client::conn::http1::handshake(TokioIo::new(conn))
            .await
            .map_err(HttpError::from)?;
        // The connection's I/O runs on its own; it ends with the response.
        tokio::spawn(async move {
            let _ = driver.await;
        });
        // Origin form: the scheme and authority are for proxies.
        let path = request
            .uri()
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned();
        *request.uri_mut() = http::Uri::builder()
            .path_and_query(path)
            .build()
            .map_err(|_| HttpError::HttpRequestUriInvalid)?;
        let first_byte = options
            .first_byte_timeout
            .unwrap_or(Duration::from_secs(600));
        let response = tokio::time::timeout(first_byte, sender.send_request(request))
            .await
            .map_err(|_| HttpError::ConnectionReadTimeout)?
            .map_err(HttpError::from)?;
        let response = response.map(|body| body.map_err(HttpError::from).boxed_unsync());
        let io: Box<dyn Future<Output = Result<(), HttpError>> + Send> = Box::new(async { Ok(()) });
        Ok((response, io))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(host: &str) -> Target {
        Target {
            host: host.to_owned(),
            port: 8000,
        }
    }

    #[test]
    fn which_targets_are_the_runs_own() {
        assert_eq!(loopback_addrs(&target("127.0.0.1")).len(), 1);
        assert_eq!(loopback_addrs(&target("127.1.2.3")).len(), 1);
        assert_eq!(loopback_addrs(&target("[::1]")).len(), 1);
        assert_eq!(loopback_addrs(&target("localhost")).len(), 2);
        assert!(loopback_addrs(&target("10.0.0.1")).is_empty());
        assert!(loopback_addrs(&target("example.com")).is_empty());
    }

    #[test]
    fn nobody_listening_means_no_connection() {
        let net = Loopback::default();
        assert!(dial(&net, &target("127.0.0.1"), false).is_none());
        let bound = net.bind("127.0.0.1:8000".parse().unwrap()).unwrap();
        net.listen(bound);
        assert!(
            dial(&net, &target("127.0.0.1"), true).is_none(),
            "https is never the run's"
        );
    }

    /// A request reaches a listener of the run as HTTP/1.1 bytes, and
    /// the bytes it writes back are the response.
    #[test]
    fn a_request_goes_to_the_runs_listener_and_back() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let net = Loopback::default();
            let bound = net.bind("[::]:8000".parse().unwrap()).unwrap();
            let listener = net.listen(bound);
            let conn = dial(&net, &target("localhost"), false).expect("a listener");
            let server = tokio::spawn(async move {
                let end = listener.accept().expect("queued by dial");
                let mut io = crate::host::sockets::LoopbackIo {
                    incoming: end.incoming,
                    outgoing: end.outgoing,
                };
                let mut got = Vec::new();
                while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                    let mut buf = [0u8; 1024];
                    let n = io.read(&mut buf).await.unwrap();
                    assert!(n > 0, "the request ended early");
                    got.extend_from_slice(&buf[..n]);
                }
                io.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello")
                    .await
                    .unwrap();
                String::from_utf8(got).unwrap()
            });
            let request = http::Request::get("http://localhost:8000/file?x=1")
                .body(
                    http_body_util::Empty::new()
                        .map_err(|never: std::convert::Infallible| match never {})
                        .boxed_unsync(),
                )
                .unwrap();
            let sent = send(conn, request, RequestOptions::default());
            let (response, _io) = Box::into_pin(sent).await.unwrap();
            assert_eq!(response.status(), 200);
            let body = response.into_body().collect().await.unwrap().to_bytes();
            assert_eq!(&body[..], b"hello");
            let request = server.await.unwrap();
            assert!(
                request.starts_with("GET /file?x=1 HTTP/1.1\r\n"),
                "{request}"
            );
        });
    }
}
