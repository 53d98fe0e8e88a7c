//! Permission bits as `ls -l`, `stat` and `chmod -v` print them.

use crate::computer::workspace::fs::NodeKind;

/// The type letter of `ls -l` (`d`, `l`, `-`).
pub fn type_char(kind: NodeKind) -> char {
    match kind {
        NodeKind::Directory => 'd',
        NodeKind::Symlink => 'l',
        NodeKind::File => '-',
    }
}

/// `rwxr-xr-x`, with `s`/`S` for set-id bits and `t`/`T` for the sticky bit.
pub fn permissions(mode: u32) -> String {
    let mut s = String::with_capacity(9);
    for (shift, special, lower, upper) in [
        (6, 0o4000, 's', 'S'),
        (3, 0o2000, 's', 'S'),
        (0, 0o1000, 't', 'T'),
    ] {
        let bits = (mode >> shift) & 7;
        s.push(if bits & 4 != 0 { 'r' } else { '-' });
        s.push(if bits & 2 != 0 { 'w' } else { '-' });
        s.push(match (bits & 1 != 0, mode & special != 0) {
            (true, true) => lower,
            (false, true) => upper,
            (true, false) => 'x',
            (false, false) => '-',
        });
    }
    s
}

/// `-rw-r--r--`: the type letter and the permissions.
pub fn mode_string(kind: NodeKind, mode: u32) -> String {
    format!("{}{}", type_char(kind), permissions(mode))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        assert_eq!(mode_string(NodeKind::File, 0o644), "-rw-r--r--");
        assert_eq!(mode_string(NodeKind::Directory, 0o1777), "drwxrwxrwt");
        assert_eq!(permissions(0o4755), "rwsr-xr-x");
        assert_eq!(permissions(0o1644), "rw-r--r-T");
        assert_eq!(permissions(0o2644), "rw-r-Sr--");
    }
}
