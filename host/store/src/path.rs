//! Path validation and normalization. The workspace only speaks absolute
//! POSIX paths; lexical `..` never climbs above `/`.

use crate::error::{Errno, FsError, Result};

/// Longest accepted path, in bytes (PATH_MAX).
pub const MAX_PATH: usize = 4096;
/// Longest accepted path component, in bytes (NAME_MAX).
pub const MAX_NAME: usize = 255;

/// A validated, lexically normalized absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WsPath {
    components: Vec<String>,
    /// The caller wrote a trailing `/`, which POSIX reads as "must be a directory".
    trailing_slash: bool,
}

impl WsPath {
    /// The root, `/`.
    pub fn root() -> Self {
        WsPath {
            components: Vec::new(),
            trailing_slash: false,
        }
    }

    /// Validates and normalizes `raw`.
    pub fn parse(raw: &str) -> Result<Self> {
        if raw.contains('\0') {
            return Err(FsError::custom(
                Errno::EINVAL,
                raw.replace('\0', "\\0"),
                format!(
                    "invalid argument: path contains a NUL byte: {}",
                    raw.replace('\0', "\\0")
                ),
            ));
        }
        if raw.is_empty() {
            return Err(FsError::custom(
                Errno::EINVAL,
                raw,
                "invalid argument: empty path (paths must be absolute, like /src/main.rs)",
            ));
        }
        if !raw.starts_with('/') {
            return Err(FsError::custom(
                Errno::EINVAL,
                raw,
                format!(
                    "invalid argument: path must be absolute (start with /): {raw}; did you mean /{raw}?"
                ),
            ));
        }
        if raw.len() > MAX_PATH {
            return Err(FsError::custom(
                Errno::ENAMETOOLONG,
                truncate_for_message(raw),
                format!(
                    "file name too long: path is {} bytes, the limit is {MAX_PATH}: {}",
                    raw.len(),
                    truncate_for_message(raw)
                ),
            ));
        }
        let mut components: Vec<String> = Vec::new();
        for part in raw.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    components.pop();
                }
                name => {
                    if name.len() > MAX_NAME {
                        return Err(FsError::custom(
                            Errno::ENAMETOOLONG,
                            truncate_for_message(raw),
                            format!(
                                "file name too long: component is {} bytes, the limit is {MAX_NAME}: {}",
                                name.len(),
                                truncate_for_message(raw)
                            ),
                        ));
                    }
                    components.push(name.to_owned());
                }
            }
        }
        let trailing_slash = raw.len() > 1 && (raw.ends_with('/') || raw.ends_with("/."));
        Ok(WsPath {
            components,
            trailing_slash,
        })
    }

    /// Its length in bytes as text (`/a/b` is 4).
    pub fn byte_len(&self) -> usize {
        if self.components.is_empty() {
            return 1;
        }
        self.components.iter().map(|c| c.len() + 1).sum()
    }

    /// The components, root first.
    pub fn components(&self) -> &[String] {
        &self.components
    }

    /// Whether this is `/`.
    pub fn is_root(&self) -> bool {
        self.components.is_empty()
    }

    /// Whether the caller wrote a trailing `/` (must be a directory).
    pub fn trailing_slash(&self) -> bool {
        self.trailing_slash
    }

    /// The last component, or `None` for `/`.
    pub fn file_name(&self) -> Option<&str> {
        self.components.last().map(String::as_str)
    }

    /// The parent (the root's parent is the root).
    pub fn parent(&self) -> WsPath {
        let mut components = self.components.clone();
        components.pop();
        WsPath {
            components,
            trailing_slash: false,
        }
    }

    /// This path with `name` appended.
    pub fn join(&self, name: &str) -> WsPath {
        let mut components = self.components.clone();
        components.push(name.to_owned());
        WsPath {
            components,
            trailing_slash: false,
        }
    }

    /// A path from its components (no trailing slash).
    pub fn from_components(components: Vec<String>) -> WsPath {
        WsPath {
            components,
            trailing_slash: false,
        }
    }

    /// `self` joined with a relative `a/b` path, as a string.
    pub fn join_relative(&self, rel: &str) -> String {
        if self.is_root() {
            format!("/{rel}")
        } else {
            format!("{self}/{rel}")
        }
    }

    /// True when `self` is `other` or lies below it.
    pub fn starts_with(&self, other: &WsPath) -> bool {
        self.components.len() >= other.components.len()
            && self.components[..other.components.len()] == other.components[..]
    }

    /// The part of `self` below `base`, joined with `/`, if `self` is under `base`.
    pub fn relative_to(&self, base: &WsPath) -> Option<String> {
        self.starts_with(base)
            .then(|| self.components[base.components.len()..].join("/"))
    }
}

impl std::fmt::Display for WsPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.components.is_empty() {
            return f.write_str("/");
        }
        for c in &self.components {
            f.write_str("/")?;
            f.write_str(c)?;
        }
        Ok(())
    }
}

fn truncate_for_message(raw: &str) -> String {
    const SHOW: usize = 80;
    if raw.len() <= SHOW {
        return raw.to_owned();
    }
    let mut end = SHOW;
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &raw[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(p: &str) -> String {
        WsPath::parse(p).unwrap().to_string()
    }

    #[test]
    fn normalizes_dots_and_slashes() {
        assert_eq!(norm("/"), "/");
        assert_eq!(norm("/a/./b//c/"), "/a/b/c");
        assert_eq!(norm("/a/b/../c"), "/a/c");
        assert_eq!(norm("/../../x"), "/x");
        assert_eq!(norm("/a/.."), "/");
    }

    #[test]
    fn rejects_relative_and_nul() {
        let e = WsPath::parse("a/b").unwrap_err();
        assert_eq!(e.code, Errno::EINVAL);
        assert!(e.message.contains("a/b"), "{}", e.message);
        assert_eq!(WsPath::parse("").unwrap_err().code, Errno::EINVAL);
        let e = WsPath::parse("/a\0b").unwrap_err();
        assert_eq!(e.code, Errno::EINVAL);
        assert!(e.message.contains("NUL"));
    }

    #[test]
    fn enforces_length_limits() {
        let long_name = format!("/{}", "x".repeat(256));
        assert_eq!(
            WsPath::parse(&long_name).unwrap_err().code,
            Errno::ENAMETOOLONG
        );
        assert!(WsPath::parse(&format!("/{}", "x".repeat(255))).is_ok());
        let long_path = "/abcdefgh".repeat(600);
        assert_eq!(
            WsPath::parse(&long_path).unwrap_err().code,
            Errno::ENAMETOOLONG
        );
    }

    #[test]
    fn trailing_slash_is_remembered() {
        assert!(WsPath::parse("/a/").unwrap().trailing_slash());
        assert!(!WsPath::parse("/a").unwrap().trailing_slash());
        assert!(!WsPath::parse("/").unwrap().trailing_slash());
    }

    #[test]
    fn prefix_relations() {
        let a = WsPath::parse("/a/b").unwrap();
        let b = WsPath::parse("/a/b/c").unwrap();
        assert!(b.starts_with(&a));
        assert!(!a.starts_with(&b));
        assert!(!WsPath::parse("/a/bc").unwrap().starts_with(&a));
        assert_eq!(b.relative_to(&a).as_deref(), Some("c"));
    }
}
