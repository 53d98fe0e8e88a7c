//! Credentials attached outside the sandbox: for a request to a host the
//! workspace has credential rules for (`Net::credentials_for`), the host
//! renders each rule's `{secret:NAME}` placeholders and sets the header,
//! query parameter or basic auth on the request just before it leaves.
//! The guest never sees the value or the placeholder: its audit row and
//! journal row are made from the request as the guest wrote it, and a
//! redirect is a new request from the guest, judged by its own host.

use base64::Engine;
use computer_store::{CredentialKind, Workspace, render_credential};
use http::{HeaderName, HeaderValue};
use wasmtime_wasi_http::WasiBody;
use zeroize::Zeroizing;

use super::policy::Target;

/// Sets the workspace's credentials for `target` on `request`. Returns
/// what was attached (`header authorization`, `query key`, `basic`), for
/// the audit row; `Err` says why the request must not leave (a secret that
/// is unset or cannot be decrypted), never with a value.
pub(crate) fn attach(
    ws: &Workspace,
    target: &Target,
    request: &mut http::Request<WasiBody>,
) -> Result<Vec<String>, String> {
    let rules = ws
        .net()
        .credentials_for(&target.host, target.port)
        .map_err(|e| format!("cannot read the network credentials: {e}"))?;
    let mut attached = Vec::new();
    for rule in rules {
        let value = render_credential(&rule.template, |name| ws.secrets().reveal(name))
            .map_err(|e| format!("credential for {} not attached: {}", rule.entry, e.message))?;
        match rule.kind {
            CredentialKind::Header => {
                let name = HeaderName::from_bytes(rule.name.as_bytes())
                    .map_err(|_| format!("invalid header name {}", rule.name))?;
                request
                    .headers_mut()
                    .insert(name, sensitive(&value, &rule.name)?);
                attached.push(format!("header {}", rule.name));
            }
            CredentialKind::Basic => {
                let encoded = Zeroizing::new(
                    base64::engine::general_purpose::STANDARD.encode(value.as_slice()),
                );
                let mut full = Zeroizing::new(b"Basic ".to_vec());
                full.extend_from_slice(encoded.as_bytes());
                request.headers_mut().insert(
                    http::header::AUTHORIZATION,
                    sensitive(&full, "authorization")?,
                );
                attached.push("basic".to_owned());
            }
            CredentialKind::Query => {
                set_query(request, &rule.name, &value)?;
                attached.push(format!("query {}", rule.name));
            }
        }
    }
    Ok(attached)
}

fn sensitive(value: &[u8], name: &str) -> Result<HeaderValue, String> {
    let mut v = HeaderValue::from_bytes(value)
        .map_err(|_| format!("the credential for header {name} is not a valid header value"))?;
    v.set_sensitive(true);
    Ok(v)
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
fn encode(bytes: &[u8]) -> Zeroizing<String> {
    let mut out = Zeroizing::new(String::with_capacity(bytes.len() * 3));
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Sets `key=value` in the request's query, replacing the guest's pairs of
/// that key.
fn set_query(request: &mut http::Request<WasiBody>, key: &str, value: &[u8]) -> Result<(), String> {
    let uri = request.uri().clone();
    let key_enc = encode(key.as_bytes());
    let mut pairs: Vec<&str> = uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .filter(|p| p.split('=').next() != Some(key) && p.split('=').next() != Some(&key_enc))
        .collect();
    let pair = Zeroizing::new(format!("{}={}", key_enc.as_str(), encode(value).as_str()));
    pairs.push(&pair);
    let path_and_query = Zeroizing::new(format!("{}?{}", uri.path(), pairs.join("&")));
    let mut parts = uri.into_parts();
    parts.path_and_query = Some(
        path_and_query
            .parse()
            .map_err(|_| "cannot add the credential to the query".to_owned())?,
    );
    *request.uri_mut() = http::Uri::from_parts(parts)
        .map_err(|_| "cannot add the credential to the query".to_owned())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str) -> http::Request<WasiBody> {
        use http_body_util::BodyExt;
        let body = http_body_util::Empty::<bytes::Bytes>::new()
            .map_err(|never| match never {})
            .boxed_unsync();
        http::Request::builder().uri(uri).body(body).unwrap()
    }

    #[test]
    fn header_query_and_basic_go_only_to_their_host() {
        let ws = Workspace::in_memory().unwrap();
        ws.secrets().set("TOK", b"t0k/en+1").unwrap();
        ws.net()
            .attach(
                "127.0.0.1:9",
                CredentialKind::Header,
                "authorization",
                "Bearer {secret:TOK}",
            )
            .unwrap();
        ws.net()
            .attach("127.0.0.1:9", CredentialKind::Query, "key", "{secret:TOK}")
            .unwrap();
        ws.net()
            .attach("example.test", CredentialKind::Basic, "", "me:{secret:TOK}")
            .unwrap();
        let mut r = request("http://127.0.0.1:9/a?key=guest&x=1");
        let uri = r.uri().clone();
        let got = attach(&ws, &Target::of(&uri), &mut r).unwrap();
        assert_eq!(got, ["header authorization", "query key"]);
        assert_eq!(r.headers()["authorization"], "Bearer t0k/en+1");
        assert!(r.headers()["authorization"].is_sensitive());
        assert_eq!(
            r.uri().to_string(),
            "http://127.0.0.1:9/a?x=1&key=t0k%2Fen%2B1"
        );
        let mut r = request("http://127.0.0.1:10/a");
        let uri = r.uri().clone();
        assert!(attach(&ws, &Target::of(&uri), &mut r).unwrap().is_empty());
        assert!(r.headers().is_empty());
        let mut r = request("https://EXAMPLE.test/");
        let uri = r.uri().clone();
        assert_eq!(attach(&ws, &Target::of(&uri), &mut r).unwrap(), ["basic"]);
        let expect = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("me:t0k/en+1")
        );
        assert_eq!(r.headers()["authorization"], expect.as_str());
        // A secret removed after the rule was made: refused, without a value.
        ws.secrets().remove("TOK").unwrap();
        let mut r = request("http://127.0.0.1:9/");
        let uri = r.uri().clone();
        let e = attach(&ws, &Target::of(&uri), &mut r).unwrap_err();
        assert!(e.contains("TOK is not set"), "{e}");
    }
}
