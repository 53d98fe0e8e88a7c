//! `ls` output: the long format (mode, links, owner, size, date), sizes and block
//! counts as ext4 would report them, and the choice of layout.

use crate::computer::workspace::fs::{NodeKind, NodeStat};
use crate::{calendar, modes};

use super::Item;
use super::layout::{columns, commas};
use super::options::{Human, Indicator, Layout, Options};

/// GNU shows the year instead of the time for files older than this (or in the future).
const SIX_MONTHS_SECS: i64 = 31_556_952 / 2;
/// The size GNU reports for a directory on ext4.
const DIR_SIZE: u64 = 4096;

/// The size `ls -l` shows.
pub(super) fn shown_size(stat: &NodeStat) -> u64 {
    match stat.kind {
        NodeKind::Directory => DIR_SIZE,
        _ => stat.size,
    }
}

/// Allocated 1 KiB blocks, as ext4 with 4 KiB blocks would report.
pub(super) fn blocks_kib(stat: &NodeStat) -> u64 {
    match stat.kind {
        NodeKind::Directory => 4,
        NodeKind::Symlink => 0,
        NodeKind::File => stat.size.div_ceil(4096) * 4,
    }
}

pub(super) struct Render<'a> {
    pub(super) o: &'a Options,
    pub(super) user: &'a str,
    pub(super) now: i64,
}

impl Render<'_> {
    /// The listing of `items`: `total` (for a directory in long or `-s` format) and the
    /// entries in the chosen layout.
    pub(super) fn block(&self, items: &[Item], is_dir: bool) -> String {
        let mut out = String::new();
        if is_dir && (self.o.layout == Layout::Long || self.o.blocks) {
            let total: u64 = items.iter().map(|i| blocks_kib(&i.stat)).sum();
            out.push_str(&format!("total {}\n", self.blocks(total)));
        }
        if items.is_empty() {
            return out;
        }
        match self.o.layout {
            Layout::Long => out.push_str(&self.long(items)),
            Layout::OnePerLine => {
                let inode_w = self.inode_width(items);
                let blocks_w = self.blocks_width(items);
                for i in items {
                    out.push_str(&self.prefix(i, inode_w, blocks_w));
                    out.push_str(&self.name(i));
                    out.push('\n');
                }
            }
            Layout::Commas => {
                let names: Vec<String> = items
                    .iter()
                    .map(|i| format!("{}{}", self.prefix(i, 0, 0), self.name(i)))
                    .collect();
                out.push_str(&commas(&names, self.o.width));
            }
            Layout::Columns | Layout::Across => {
                let inode_w = self.inode_width(items);
                let blocks_w = self.blocks_width(items);
                let names: Vec<String> = items
                    .iter()
                    .map(|i| format!("{}{}", self.prefix(i, inode_w, blocks_w), self.name(i)))
                    .collect();
                out.push_str(&columns(
                    &names,
                    self.o.width,
                    self.o.layout == Layout::Across,
                ));
            }
        }
        out
    }

    fn inode_width(&self, items: &[Item]) -> usize {
        if !self.o.inode {
            return 0;
        }
        items
            .iter()
            .map(|i| i.stat.ino.to_string().len())
            .max()
            .unwrap_or(0)
    }

    fn blocks_width(&self, items: &[Item]) -> usize {
        if !self.o.blocks {
            return 0;
        }
        items
            .iter()
            .map(|i| self.blocks(blocks_kib(&i.stat)).len())
            .max()
            .unwrap_or(0)
    }

    /// `-i` and `-s` columns before the name.
    fn prefix(&self, item: &Item, inode_w: usize, blocks_w: usize) -> String {
        let mut p = String::new();
        if self.o.inode {
            p.push_str(&format!("{:>inode_w$} ", item.stat.ino));
        }
        if self.o.blocks {
            p.push_str(&format!(
                "{:>blocks_w$} ",
                self.blocks(blocks_kib(&item.stat))
            ));
        }
        p
    }

    fn blocks(&self, kib: u64) -> String {
        match self.o.human {
            Human::No => kib.to_string(),
            Human::Binary => human(kib * 1024, 1024),
            Human::Si => human(kib * 1024, 1000),
        }
    }

    fn name(&self, item: &Item) -> String {
        let suffix = match (self.o.indicator, item.stat.kind) {
            (Indicator::None, _) => "",
            (_, NodeKind::Directory) => "/",
            (Indicator::Slash, _) => "",
            (Indicator::Classify, NodeKind::Symlink) if item.target.is_none() => "@",
            (Indicator::Classify, NodeKind::Symlink) => "",
            (Indicator::Classify, NodeKind::File) if item.stat.mode & 0o111 != 0 => "*",
            (Indicator::Classify, NodeKind::File) => "",
        };
        format!("{}{suffix}", item.name)
    }

    fn long(&self, items: &[Item]) -> String {
        let owner = if self.o.numeric_ids {
            "1000".to_string()
        } else {
            self.user.to_string()
        };
        let sizes: Vec<String> = items.iter().map(|i| self.size(&i.stat)).collect();
        let size_w = sizes.iter().map(String::len).max().unwrap_or(0);
        let nlink_w = items
            .iter()
            .map(|i| i.nlink.to_string().len())
            .max()
            .unwrap_or(0);
        let inode_w = self.inode_width(items);
        let blocks_w = self.blocks_width(items);
        let mut out = String::new();
        for (item, size) in items.iter().zip(&sizes) {
            out.push_str(&self.prefix(item, inode_w, blocks_w));
            out.push_str(&modes::mode_string(item.stat.kind, item.stat.mode));
            out.push_str(&format!(" {:>nlink_w$}", item.nlink));
            if self.o.show_owner {
                out.push_str(&format!(" {owner}"));
            }
            if self.o.show_group {
                out.push_str(&format!(" {owner}"));
            }
            out.push_str(&format!(" {size:>size_w$} "));
            out.push_str(&self.time(item.stat.mtime_ns));
            out.push(' ');
            out.push_str(&self.name(item));
            if let Some(target) = &item.target {
                out.push_str(" -> ");
                out.push_str(target);
            }
            out.push('\n');
        }
        out
    }

    fn size(&self, stat: &NodeStat) -> String {
        let bytes = shown_size(stat);
        match self.o.human {
            Human::No => bytes.to_string(),
            Human::Binary => human(bytes, 1024),
            Human::Si => human(bytes, 1000),
        }
    }

    fn time(&self, mtime_ns: u64) -> String {
        let secs = (mtime_ns / 1_000_000_000) as i64;
        let (y, mo, d, h, mi, s) = calendar::civil(secs);
        if self.o.full_time {
            return format!(
                "{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{:09} +0000",
                mtime_ns % 1_000_000_000
            );
        }
        let month = calendar::MONTHS[(mo - 1) as usize];
        let age = self.now - secs;
        if (0..SIX_MONTHS_SECS).contains(&age) || (age < 0 && age > -3600) {
            format!("{month} {d:>2} {h:02}:{mi:02}")
        } else {
            format!("{month} {d:>2}  {y}")
        }
    }
}

/// GNU `-h`: one decimal below 10 (rounded up), whole numbers above.
pub(super) fn human(bytes: u64, base: u64) -> String {
    const UNITS: [&str; 8] = ["K", "M", "G", "T", "P", "E", "Z", "Y"];
    if bytes < base {
        return bytes.to_string();
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    value /= base as f64;
    while value >= base as f64 && unit + 1 < UNITS.len() {
        value /= base as f64;
        unit += 1;
    }
    let suffix = if base == 1000 && unit == 0 {
        "k"
    } else {
        UNITS[unit]
    };
    if value < 10.0 {
        let tenths = (value * 10.0).ceil() / 10.0;
        if tenths >= 10.0 {
            format!("{}{suffix}", tenths.ceil() as u64)
        } else {
            format!("{tenths:.1}{suffix}")
        }
    } else {
        format!("{}{suffix}", value.ceil() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes() {
        assert_eq!(human(512, 1024), "512");
        assert_eq!(human(1024, 1024), "1.0K");
        assert_eq!(human(1536, 1024), "1.5K");
        assert_eq!(human(4096, 1024), "4.0K");
        assert_eq!(human(10 * 1024 + 1, 1024), "11K");
        assert_eq!(human(104_857_613, 1024), "101M");
    }
}
