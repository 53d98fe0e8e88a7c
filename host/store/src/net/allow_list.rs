//! Allow-list entries: which hosts outgoing HTTP may reach.
//!
//! An entry is `host` (any port) or `host:port`; `*.example.com` allows the
//! subdomains of `example.com`, and `*` any host. Hosts compare
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
    /// `port` is allowed.
    pub fn allows(&self, host: &str, port: u16) -> bool {
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
