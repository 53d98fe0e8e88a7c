//! Where an archive member lands: its stored name made relative to the extraction
//! directory as Info-ZIP's `unzip` 6.0 makes it. A name is data from whoever made the
//! archive; `../x`, `/etc/x` or `a/../../x` must not reach outside the directory.
//! Info-ZIP strips leading `/` (warning "stripped absolute path spec"), drops `../`
//! components (warning "skipped "../" path component(s)"), drops `./` and empty
//! components silently, and renames a last component `.` or `..` to `_` or `__`.

/// A member's name mapped to a path below the extraction directory.
#[derive(Debug, PartialEq, Eq)]
pub struct Mapped {
    /// The relative path, `/`-separated, without a trailing `/`; empty for the
    /// extraction directory itself.
    pub path: String,
    /// Leading `/` were stripped.
    pub was_absolute: bool,
    /// `..` components were dropped.
    pub skipped_parent: bool,
}

/// Maps stored name `name` (a directory entry ends in `/`).
pub fn map_name(name: &str) -> Mapped {
    let relative = name.trim_start_matches('/');
    let was_absolute = relative.len() != name.len();
    let mut parts: Vec<&str> = Vec::new();
    let mut skipped_parent = false;
    let mut components = relative.split('/').peekable();
    while let Some(c) = components.next() {
        let last = components.peek().is_none();
        match c {
            "" => {}
            "." if last => parts.push("_"),
            ".." if last => parts.push("__"),
            "." => {}
            ".." => skipped_parent = true,
            _ => parts.push(c),
        }
    }
    Mapped {
        path: parts.join("/"),
        was_absolute,
        skipped_parent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(name: &str) -> String {
        map_name(name).path
    }

    #[test]
    fn names_stay_below_the_directory() {
        assert_eq!(path("../x1"), "x1");
        assert_eq!(path("a/../../x2"), "a/x2");
        assert_eq!(path("../../d/../e"), "d/e");
        assert_eq!(path("/tmp/zt/abs1"), "tmp/zt/abs1");
        assert_eq!(path("//x3"), "x3");
        assert_eq!(path("./a/./b"), "a/b");
        assert_eq!(path("a/.."), "a/__");
        assert_eq!(path(".."), "__");
        assert_eq!(path("."), "_");
        assert_eq!(path("../evildir/"), "evildir");
        assert_eq!(path("..."), "...");
        assert_eq!(path("a\\..\\..\\w"), "a\\..\\..\\w");
        let m = map_name("/a/../b");
        assert!(m.was_absolute && m.skipped_parent);
        let m = map_name("a/./b");
        assert!(!m.was_absolute && !m.skipped_parent);
    }
}
