//! Which paths may enter the index and the work tree. A tree is data from
//! anyone (a clone, a merge): an entry named `..`, `/x`, `a//b` or `.git`
//! would make a checkout write outside the work tree or over the
//! repository's own files. git 2.39 refuses such a path with
//! `error: invalid path 'P'` wherever one would reach its index; these are
//! its rules as they stand on Linux, where `core.protectNTFS` is on by
//! default and `core.protectHFS` is off: besides `.`, `..`, empty
//! components and `.git` in any case, the names NTFS treats as `.git`
//! (`.git.`, `.git `, `.git::$INDEX_ALLOCATION`, the short name `git~1`)
//! are refused, and a symlink may not be called `.gitmodules` (a later
//! checkout could otherwise read submodule settings through it).

const MODE_SYMLINK: u32 = 0o120000;
const MODE_TREE: u32 = 0o040000;

/// Whether git would let `path` (a `/`-separated repository path) with
/// mode `mode` into its index.
pub fn verify_path(path: &str, mode: u32) -> bool {
    let symlink = mode == MODE_SYMLINK;
    let bytes = path.as_bytes();
    let mut start = 0;
    loop {
        // `start` is at the beginning of a component.
        let rest = &bytes[start..];
        if ntfs_dotgit(rest) || (symlink && ntfs_dot_generic(rest, b"gitmodules", b"gi7eba")) {
            return false;
        }
        let end = rest.iter().position(|&b| b == b'/').unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() {
            // An empty component; only a directory entry may end in `/`.
            return end == rest.len() && mode == MODE_TREE;
        }
        if name[0] == b'.' && !dotfile_allowed(&name[1..], symlink) {
            return false;
        }
        // A backslash is a separator to Windows: what follows one is
        // checked as a component too.
        for (i, &b) in name.iter().enumerate() {
            if b == b'\\' {
                let after = &rest[i + 1..];
                if ntfs_dotgit(after)
                    || (symlink && ntfs_dot_generic(after, b"gitmodules", b"gi7eba"))
                {
                    return false;
                }
            }
        }
        if end == rest.len() {
            return true;
        }
        start += end + 1;
    }
}

/// A component starting with `.`: `after_dot` is the rest of its name.
fn dotfile_allowed(after_dot: &[u8], symlink: bool) -> bool {
    if after_dot.is_empty() || after_dot == b"." {
        return false;
    }
    if after_dot.eq_ignore_ascii_case(b"git") {
        return false;
    }
    // A symlink entry may not have `.gitmodules` anywhere in its path.
    !(symlink && after_dot.eq_ignore_ascii_case(b"gitmodules"))
}

/// `.git` or `git~1` (any case), then only dots and spaces up to the end
/// of the component, or a `:` (an NTFS stream name): names NTFS opens as
/// the `.git` directory.
fn ntfs_dotgit(name: &[u8]) -> bool {
    let rest = if name.len() >= 4 && name[0] == b'.' && name[1..4].eq_ignore_ascii_case(b"git") {
        &name[4..]
    } else if name.len() >= 5 && name[..3].eq_ignore_ascii_case(b"git") && &name[3..5] == b"~1" {
        &name[5..]
    } else {
        return false;
    };
    for &c in rest {
        if c == b'/' || c == b'\\' || c == b':' {
            return true;
        }
        if c != b'.' && c != b' ' {
            return false;
        }
    }
    true
}

/// Whether `name` (up to the end of the path: only a last component can
/// match) is what NTFS would open as `.<dotgit_name>`: the name itself,
/// its 8.3 short form (the first six letters then `~1` to `~4`), or a
/// fall-back short name (`shortname_prefix` up to six letters, `~` and
/// digits), each followed only by dots and spaces or a `:`.
fn ntfs_dot_generic(name: &[u8], dotgit_name: &[u8], shortname_prefix: &[u8]) -> bool {
    fn only_spaces_and_periods(rest: &[u8]) -> bool {
        for &c in rest {
            if c == b':' {
                return true;
            }
            if c != b' ' && c != b'.' {
                return false;
            }
        }
        true
    }
    let n = dotgit_name.len();
    if name.len() > n && name[0] == b'.' && name[1..=n].eq_ignore_ascii_case(dotgit_name) {
        return only_spaces_and_periods(&name[n + 1..]);
    }
    if name.len() >= 8
        && name[..6].eq_ignore_ascii_case(&dotgit_name[..6])
        && name[6] == b'~'
        && (b'1'..=b'4').contains(&name[7])
    {
        return only_spaces_and_periods(&name[8..]);
    }
    // The fall-back form: within the first eight characters, at most six
    // matching the prefix, then `~`, a digit 1-9 and digits.
    let mut saw_tilde = false;
    let mut i = 0;
    while i < 8 {
        let Some(&c) = name.get(i) else {
            return false;
        };
        if saw_tilde {
            if !c.is_ascii_digit() {
                return false;
            }
        } else if c == b'~' {
            i += 1;
            match name.get(i) {
                Some(d) if (b'1'..=b'9').contains(d) => {}
                _ => return false,
            }
            saw_tilde = true;
        } else if i >= 6 || c >= 0x80 || c.to_ascii_lowercase() != shortname_prefix[i] {
            return false;
        }
        i += 1;
    }
    only_spaces_and_periods(&name[8..])
}

#[cfg(test)]
mod tests {
    use super::verify_path;

    const FILE: u32 = 0o100644;
    const LINK: u32 = 0o120000;

    #[test]
    fn refuses_what_git_refuses() {
        for p in [
            "..",
            ".",
            "../x",
            "/x",
            "a/../../x",
            "./x",
            "a//b",
            "",
            "a/",
            ".git",
            ".GIT",
            ".Git/config",
            "x/.git/config",
            "git~1",
            "GIT~1/f",
            ".git.",
            ".git ",
            ".git::$INDEX_ALLOCATION",
            "a\\.git",
            "sub/.gIt",
        ] {
            assert!(!verify_path(p, FILE), "{p:?} should be refused");
        }
        for p in [
            ".gitmodules",
            "a/.GITMODULES",
            "gitmod~1",
            "gi7eba~9",
            ".gitmodules .",
        ] {
            assert!(!verify_path(p, LINK), "symlink {p:?} should be refused");
        }
    }

    #[test]
    fn allows_ordinary_names() {
        for p in [
            "a",
            "a/b/c.txt",
            ".gitignore",
            ".gitmodules",
            ".github/x",
            "..a",
            ".a",
            "a..b",
            "git~2",
            "git",
            "x.git",
            "a/.gitx",
            "café.txt",
            "a\\b",
            "...",
        ] {
            assert!(verify_path(p, FILE), "{p:?} should be allowed");
        }
        assert!(!verify_path(".gitmodules/x", LINK));
        assert!(verify_path("a/", 0o040000));
    }
}
