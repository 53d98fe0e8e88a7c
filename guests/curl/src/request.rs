//! What curl sends for a URL: the method, the headers (its defaults,
//! `-H` additions and removals, `-u`, `--json`), the body, and how a
//! redirect changes them.

use url::Url;

use crate::args::Config;
use crate::errors::{self, CurlError};

/// One hop's request, before sending.
#[derive(Debug, Clone)]
pub struct Plan {
    pub method: String,
    pub url: Url,
    pub body: Option<Vec<u8>>,
    /// Whether `-u`, `Authorization` and `Cookie` still go along: only to
    /// the first URL's scheme, host and port (curl 7.83 on; a redirect to
    /// another port of the same host does not get them).
    pub send_auth: bool,
    pub first_origin: Origin,
}

/// A URL's scheme, host and port (the default port spelled out).
pub type Origin = (String, String, Option<u16>);

pub fn origin(url: &Url) -> Origin {
    (
        url.scheme().to_owned(),
        url.host_str().unwrap_or_default().to_ascii_lowercase(),
        url.port_or_known_default(),
    )
}

/// curl's URL rules: no scheme means `http://`; only http and https here.
pub fn parse_url(raw: &str) -> Result<Url, CurlError> {
    let bad = || {
        CurlError::new(
            errors::URL_MALFORMAT,
            "URL using bad/illegal format or missing URL",
        )
    };
    let with_scheme = if raw.contains("://") {
        raw.to_owned()
    } else {
        format!("http://{raw}")
    };
    let url = Url::parse(&with_scheme).map_err(|_| bad())?;
    match url.scheme() {
        "http" | "https" => {}
        other => {
            return Err(CurlError::new(
                errors::UNSUPPORTED_PROTOCOL,
                format!("Protocol \"{other}\" not supported or disabled in libcurl"),
            ));
        }
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad());
    }
    Ok(url)
}

/// `%XX`-encodes what `application/x-www-form-urlencoded` must.
fn urlencode(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b);
        } else {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
    out
}

/// `--data-urlencode`: `content`, `=content`, `name=content`, `@file`,
/// `name@file`.
pub fn urlencode_arg(v: &str) -> Vec<u8> {
    let read = |p: &str| std::fs::read(p).unwrap_or_default();
    if let Some((name, content)) = v.split_once('=') {
        let mut out = name.as_bytes().to_vec();
        if !name.is_empty() {
            out.push(b'=');
        }
        out.extend(urlencode(content.as_bytes()));
        return out;
    }
    if let Some((name, file)) = v.split_once('@') {
        let mut out = name.as_bytes().to_vec();
        if !name.is_empty() {
            out.push(b'=');
        }
        out.extend(urlencode(&read(file)));
        return out;
    }
    urlencode(v.as_bytes())
}

/// The first hop of `raw`.
pub fn first(cfg: &Config, raw: &str) -> Result<Plan, CurlError> {
    let mut url = parse_url(raw)?;
    let data = (!cfg.data.is_empty()).then(|| cfg.data.join(&b'&'));
    let mut body = None;
    if let Some(data) = data {
        if cfg.get {
            let q = String::from_utf8_lossy(&data).into_owned();
            let query = match url.query() {
                Some(old) if !old.is_empty() => format!("{old}&{q}"),
                _ => q,
            };
            url.set_query(Some(&query));
        } else {
            body = Some(data);
        }
    }
    let method = match (&cfg.method, cfg.head, &body) {
        (Some(m), _, _) => m.clone(),
        (None, true, _) => "HEAD".to_owned(),
        (None, false, Some(_)) => "POST".to_owned(),
        (None, false, None) => "GET".to_owned(),
    };
    Ok(Plan {
        method,
        first_origin: origin(&url),
        url,
        body,
        send_auth: true,
    })
}

/// The next hop after a `status` redirect to `location`, as curl -L does:
/// 301/302/303 turn a POST into a GET without a body (303 anything but
/// HEAD), and credentials go only to the first origin.
pub fn redirect(cfg: &Config, plan: &Plan, status: u16, location: &str) -> Result<Plan, CurlError> {
    let url = plan.url.join(location).map_err(|_| {
        CurlError::new(
            errors::URL_MALFORMAT,
            "URL using bad/illegal format or missing URL",
        )
    })?;
    let url = parse_url(url.as_str())?;
    let mut next = plan.clone();
    let to_get = match status {
        301 | 302 => plan.method == "POST" && cfg.method.is_none(),
        303 => plan.method != "HEAD" && cfg.method.is_none(),
        _ => false,
    };
    if to_get {
        next.method = "GET".to_owned();
        next.body = None;
    }
    next.send_auth = origin(&url) == plan.first_origin;
    next.url = url;
    Ok(next)
}

fn is_auth_header(name: &str) -> bool {
    name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("cookie")
}

/// The headers of one hop, in curl's order: User-Agent, Accept, then ours.
/// (`Host` is the host's to set.)
pub fn headers(cfg: &Config, plan: &Plan) -> Vec<(String, Vec<u8>)> {
    let mut defaults: Vec<(String, Vec<u8>)> = Vec::new();
    if plan.send_auth
        && let Some(user) = &cfg.user
    {
        let creds = if user.contains(':') {
            user.clone()
        } else {
            format!("{user}:")
        };
        let value = format!("Basic {}", crate::base64::encode(creds.as_bytes()));
        defaults.push(("Authorization".into(), value.into_bytes()));
    }
    let ua = cfg
        .user_agent
        .clone()
        .unwrap_or_else(|| format!("curl/{}", crate::CURL_VERSION));
    defaults.push(("User-Agent".into(), ua.into_bytes()));
    let accept = if cfg.json { "application/json" } else { "*/*" };
    defaults.push(("Accept".into(), accept.as_bytes().to_vec()));
    if let Some(r) = &cfg.referer {
        defaults.push(("Referer".into(), r.clone().into_bytes()));
    }
    let mut mentioned: Vec<String> = Vec::new();
    let mut custom: Vec<(String, Vec<u8>)> = Vec::new();
    for h in &cfg.headers {
        if let Some((name, value)) = h.split_once(':') {
            let name = name.trim().to_owned();
            mentioned.push(name.to_ascii_lowercase());
            defaults.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
            let value = value.trim();
            // `-H 'Name:'` only removes curl's own header.
            if !value.is_empty() && (plan.send_auth || !is_auth_header(&name)) {
                custom.push((name, value.as_bytes().to_vec()));
            }
        } else if let Some(name) = h.strip_suffix(';') {
            // `-H 'Name;'` sends it empty.
            mentioned.push(name.trim().to_ascii_lowercase());
            defaults.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            custom.push((name.trim().to_owned(), Vec::new()));
        }
    }
    defaults.extend(custom);
    // curl sends these after the custom headers, unless `-H` named them.
    if let Some(body) = &plan.body {
        let unnamed = |n: &str| !mentioned.iter().any(|m| m == n);
        if unnamed("content-length") {
            defaults.push(("Content-Length".into(), body.len().to_string().into_bytes()));
        }
        if unnamed("content-type") {
            let ct = if cfg.json {
                "application/json"
            } else {
                "application/x-www-form-urlencoded"
            };
            defaults.push(("Content-Type".into(), ct.as_bytes().to_vec()));
        }
    }
    defaults
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            parse_url("example.com/x").unwrap().as_str(),
            "http://example.com/x"
        );
        assert_eq!(
            parse_url("ftp://x").unwrap_err().code,
            errors::UNSUPPORTED_PROTOCOL
        );
        assert_eq!(
            parse_url("http://").unwrap_err().code,
            errors::URL_MALFORMAT
        );
        assert_eq!(urlencode_arg("q=a b&c"), b"q=a%20b%26c");
    }
}
