//! Allow-list entries: which hosts outgoing HTTP may reach.
//!
//! An entry is `host` (any port) or `host:port`; `*.example.com` allows the
//! subdomains of `example.com`, and `*` any host; neither wildcard reaches
//! this machine or a private network (`is_internal_host`): an entry must name
//! those. Hosts compare
//! case-insensitively; IPv6 addresses are written in brackets
//! (`[::1]:8080`). An empty list allows nothing.

use std::fmt;

/// One allowed host (lowercase, IPv6 in brackets) and maybe one port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    host: String,
    port: Option<u16>,
}

impl Entry {
    /// Parses one entry; `Err` says what is wrong with it and how to write it.
    pub fn parse(raw: &str) -> Result<Entry, String> {
        parse_entry(raw)
    }
}

/// The normalized form: lowercase, IPv6 in brackets, `:port` if any.
impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(p) => write!(f, "{}:{p}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// The hosts a module or a workspace's commands may reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowList(Vec<Entry>);

impl AllowList {
    /// Parses `host` / `host:port` entries; `Err` explains the first bad one.
    pub fn parse(entries: &[String]) -> Result<Self, String> {
        entries
            .iter()
            .map(|e| parse_entry(e))
            .collect::<Result<Vec<_>, _>>()
            .map(AllowList)
    }

    /// A list of entries already parsed.
    pub fn from_entries(entries: Vec<Entry>) -> Self {
        AllowList(entries)
    }

    /// Whether nothing is allowed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Both lists' entries.
    pub fn union(&self, other: &AllowList) -> AllowList {
        let mut all = self.0.clone();
        all.extend(other.0.iter().filter(|e| !self.0.contains(e)).cloned());
        AllowList(all)
    }

    /// Whether a request to `host` (as in a URI: IPv6 in brackets) on
    /// `port` is allowed. A wildcard never reaches an internal host (see
    /// [`is_internal_host`]): only an entry that names it does.
    pub fn allows(&self, host: &str, port: u16) -> bool {
        let host = host.to_ascii_lowercase();
        let internal = is_internal_host(&host);
        self.0.iter().any(|e| {
            let host_ok = if e.host == "*" {
                !internal
            } else if let Some(suffix) = e.host.strip_prefix("*.") {
                !internal
                    && host.len() > suffix.len() + 1
                    && host.ends_with(suffix)
                    && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
            } else {
                e.host == host
            };
            host_ok && e.port.is_none_or(|p| p == port)
        })
    }

    /// Whether an entry names `host` itself (no wildcard) for `port`: what
    /// lets a name that resolves to an internal address reach it.
    pub fn names(&self, host: &str, port: u16) -> bool {
        let host = host.to_ascii_lowercase();
        self.0
            .iter()
            .any(|e| e.host == host && e.port.is_none_or(|p| p == port))
    }
}

/// Whether `host` (as in a URI: IPv6 in brackets) is this machine or its
/// private network: `localhost` and its subdomains, and addresses that are
/// loopback, private (RFC 1918, unique-local), link-local, shared (CGNAT)
/// or unspecified. A wildcard entry does not reach them.
pub fn is_internal_host(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(&host);
    bare.parse::<std::net::IpAddr>().is_ok_and(is_internal)
}

/// See [`is_internal_host`].
pub fn is_internal(ip: std::net::IpAddr) -> bool {
    use std::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || (a == 100 && (64..128).contains(&b))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_internal(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
        }
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
    fn wildcards_do_not_reach_internal_hosts() {
        let star = list(&["*"]);
        for host in [
            "127.0.0.1",
            "127.1.2.3",
            "localhost",
            "api.localhost",
            "10.0.0.8",
            "172.16.5.5",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "[::1]",
            "[fe80::1]",
            "[fd00::5]",
            "[::ffff:127.0.0.1]",
        ] {
            assert!(!star.allows(host, 80), "{host}");
            assert!(list(&[host]).allows(host, 80), "named: {host}");
        }
        assert!(star.allows("8.8.8.8", 53));
        assert!(star.allows("[2001:db8::1]", 443));
        assert!(!list(&["*.localhost"]).allows("api.localhost", 80));
        let named = list(&["127.0.0.1:8080", "*"]);
        assert!(named.allows("127.0.0.1", 8080));
        assert!(!named.allows("127.0.0.1", 8081));
        assert!(named.names("127.0.0.1", 8080) && !named.names("127.0.0.1", 1));
        assert!(!named.names("example.com", 80));
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
