//! POSIX path arithmetic for the guest's own view of the workspace: the WIT `fs` takes
//! only absolute paths, so relative ones are resolved here against a directory.

/// Join `path` onto the absolute directory `base` (unless it is absolute itself) and
/// resolve `.` and `..` lexically; `..` never climbs above `/`. Keeps a trailing slash,
/// which the host reads as "must be a directory".
pub fn resolve(base: &str, path: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{base}/{path}")
    };
    normalize(&joined)
}

pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let mut out = String::with_capacity(path.len() + 1);
    for p in &parts {
        out.push('/');
        out.push_str(p);
    }
    // The root, or a path that must name a directory, ends in a slash.
    if out.is_empty() || path.ends_with('/') {
        out.push('/');
    }
    out
}

/// The directory part of an absolute path (`/a/b.js` -> `/a`, `/x` -> `/`).
/// `%XX` escapes decoded (a `file://` URL's path); bad escapes are kept as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub fn dirname(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves() {
        assert_eq!(resolve("/a/b", "../c"), "/a/c");
        assert_eq!(resolve("/a", "/x/./y/../z"), "/x/z");
        assert_eq!(resolve("/", "../../x"), "/x");
        assert_eq!(resolve("/a", "."), "/a");
        assert_eq!(resolve("/a", "b/"), "/a/b/");
        assert_eq!(dirname("/a/b.js"), "/a");
        assert_eq!(dirname("/b.js"), "/");
    }
}
