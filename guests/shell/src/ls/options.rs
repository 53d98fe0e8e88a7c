//! `ls` options, GNU's short and long forms.

use bashkit::ExecResult;

/// Width for `-C`, `-x` and `-m` when `COLUMNS` is unset (GNU's default).
const DEFAULT_WIDTH: usize = 80;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Sort {
    Name,
    Time,
    Size,
    Extension,
    Version,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Layout {
    OnePerLine,
    Columns,
    Across,
    Commas,
    Long,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Hidden {
    /// Names starting with `.` are skipped.
    Skip,
    /// `-A`: shown, but not `.` and `..`.
    AlmostAll,
    /// `-a`: shown, with `.` and `..`.
    All,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Indicator {
    None,
    /// `-p`: `/` after directories.
    Slash,
    /// `-F`: `/`, `@`, `*` and `|`.
    Classify,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Deref {
    /// Follow symlinks named on the command line unless listing long, `-d` or `-F`.
    CommandLine,
    /// `-H`: follow symlinks named on the command line.
    Operands,
    /// `-L`: follow every symlink.
    All,
}

#[derive(Debug)]
pub(super) struct Options {
    pub(super) layout: Layout,
    pub(super) hidden: Hidden,
    pub(super) sort: Sort,
    pub(super) reverse: bool,
    pub(super) recursive: bool,
    pub(super) directory: bool,
    pub(super) indicator: Indicator,
    pub(super) deref: Deref,
    pub(super) human: Human,
    pub(super) inode: bool,
    pub(super) blocks: bool,
    pub(super) show_owner: bool,
    pub(super) show_group: bool,
    pub(super) numeric_ids: bool,
    pub(super) full_time: bool,
    pub(super) dirs_first: bool,
    pub(super) width: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Human {
    No,
    /// `-h`: powers of 1024.
    Binary,
    /// `--si`: powers of 1000.
    Si,
}

pub(super) fn usage_error(message: String) -> ExecResult {
    ExecResult::err(
        format!("ls: {message}\nTry 'ls --help' for more information.\n"),
        2,
    )
}

pub(super) fn parse(
    args: &[String],
    env_columns: Option<&String>,
) -> Result<(Options, Vec<String>), String> {
    let mut o = Options {
        layout: Layout::OnePerLine,
        hidden: Hidden::Skip,
        sort: Sort::Name,
        reverse: false,
        recursive: false,
        directory: false,
        indicator: Indicator::None,
        deref: Deref::CommandLine,
        human: Human::No,
        inode: false,
        blocks: false,
        show_owner: true,
        show_group: true,
        numeric_ids: false,
        full_time: false,
        dirs_first: false,
        width: env_columns
            .and_then(|c| c.parse().ok())
            .filter(|w: &usize| *w > 0)
            .unwrap_or(DEFAULT_WIDTH),
    };
    let mut operands = Vec::new();
    let mut options_done = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if options_done || arg == "-" || !arg.starts_with('-') {
            operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            long_option(&mut o, long)?;
            continue;
        }
        for (i, c) in arg[1..].char_indices() {
            // `-w COLS` and `-T COLS` take a value: the rest of the word, or the next.
            if c == 'w' || c == 'T' {
                let rest = &arg[1 + i + 1..];
                let value = if rest.is_empty() {
                    args.next()
                        .cloned()
                        .ok_or_else(|| format!("option requires an argument -- '{c}'"))?
                } else {
                    rest.to_string()
                };
                if c == 'w' {
                    long_option(&mut o, &format!("width={value}"))?;
                }
                break;
            }
            short_option(&mut o, c)?;
        }
    }
    Ok((o, operands))
}

pub(super) fn short_option(o: &mut Options, c: char) -> Result<(), String> {
    match c {
        'l' => o.layout = Layout::Long,
        'g' => {
            o.layout = Layout::Long;
            o.show_owner = false;
        }
        'o' => {
            o.layout = Layout::Long;
            o.show_group = false;
        }
        'n' => {
            o.layout = Layout::Long;
            o.numeric_ids = true;
        }
        'G' => o.show_group = false,
        '1' => o.layout = Layout::OnePerLine,
        'C' => o.layout = Layout::Columns,
        'x' => o.layout = Layout::Across,
        'm' => o.layout = Layout::Commas,
        'a' => o.hidden = Hidden::All,
        'A' => o.hidden = Hidden::AlmostAll,
        'f' => {
            o.hidden = Hidden::All;
            o.sort = Sort::None;
        }
        't' => o.sort = Sort::Time,
        'S' => o.sort = Sort::Size,
        'X' => o.sort = Sort::Extension,
        'v' => o.sort = Sort::Version,
        'U' => o.sort = Sort::None,
        // Access and change times are not kept: the modification time stands in.
        'c' | 'u' => {}
        'r' => o.reverse = true,
        'R' => o.recursive = true,
        'd' => o.directory = true,
        'F' => o.indicator = Indicator::Classify,
        'p' => o.indicator = Indicator::Slash,
        'L' => o.deref = Deref::All,
        'H' => o.deref = Deref::Operands,
        'h' => o.human = Human::Binary,
        'i' => o.inode = true,
        's' => o.blocks = true,
        // Quoting and control-character styles: names are printed as they are.
        'N' | 'q' | 'b' | 'Q' | 'B' | 'k' => {}
        other => return Err(format!("invalid option -- '{other}'")),
    }
    Ok(())
}

pub(super) fn long_option(o: &mut Options, long: &str) -> Result<(), String> {
    let (name, value) = match long.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (long, None),
    };
    match (name, value) {
        ("all", None) => o.hidden = Hidden::All,
        ("almost-all", None) => o.hidden = Hidden::AlmostAll,
        ("directory", None) => o.directory = true,
        ("recursive", None) => o.recursive = true,
        ("reverse", None) => o.reverse = true,
        ("human-readable", None) => o.human = Human::Binary,
        ("si", None) => o.human = Human::Si,
        ("inode", None) => o.inode = true,
        ("size", None) => o.blocks = true,
        ("numeric-uid-gid", None) => {
            o.layout = Layout::Long;
            o.numeric_ids = true;
        }
        ("no-group", None) => o.show_group = false,
        ("classify", None | Some("always" | "yes" | "force")) => o.indicator = Indicator::Classify,
        ("classify", Some("never" | "no" | "none" | "auto" | "tty" | "if-tty")) => {}
        ("indicator-style", Some("none")) => o.indicator = Indicator::None,
        ("indicator-style", Some("slash")) => o.indicator = Indicator::Slash,
        ("indicator-style", Some("classify" | "file-type")) => o.indicator = Indicator::Classify,
        ("dereference", None) => o.deref = Deref::All,
        ("dereference-command-line", None) => o.deref = Deref::Operands,
        ("group-directories-first", None) => o.dirs_first = true,
        ("full-time", None) => {
            o.layout = Layout::Long;
            o.full_time = true;
        }
        ("sort", Some("none")) => o.sort = Sort::None,
        ("sort", Some("name")) => o.sort = Sort::Name,
        ("sort", Some("time")) => o.sort = Sort::Time,
        ("sort", Some("size")) => o.sort = Sort::Size,
        ("sort", Some("extension")) => o.sort = Sort::Extension,
        ("sort", Some("version")) => o.sort = Sort::Version,
        ("format", Some("long" | "verbose")) => o.layout = Layout::Long,
        ("format", Some("single-column")) => o.layout = Layout::OnePerLine,
        ("format", Some("vertical")) => o.layout = Layout::Columns,
        ("format", Some("across" | "horizontal")) => o.layout = Layout::Across,
        ("format", Some("commas")) => o.layout = Layout::Commas,
        ("width", Some(w)) => {
            o.width = w
                .parse()
                .map_err(|_| format!("invalid line width: '{w}'"))?;
            if o.width == 0 {
                o.width = usize::MAX;
            }
        }
        ("time-style", Some("full-iso")) => o.full_time = true,
        ("tabsize", Some(_)) => {}
        // Colors only go to terminals; quoting and time choices print as GNU does here.
        ("color" | "colour", _)
        | ("time-style", Some(_))
        | ("time", Some(_))
        | ("quoting-style", Some(_))
        | ("literal" | "show-control-chars" | "hide-control-chars" | "escape", None)
        | ("quote-name", None) => {}
        _ => return Err(format!("unrecognized option '--{long}'")),
    }
    Ok(())
}

pub(super) const HELP: &str = "Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Entries are sorted by name (byte order) unless -t, -S, -X, -v or -U is given.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -C                         list entries by columns
  -d, --directory            list directories themselves, not their contents
  -F, --classify             append indicator (one of */@) to entries
  -f                         do not sort, enable -a
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first  group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line  follow symbolic links listed on the command line
  -i, --inode                print the index number of each file
  -l                         use a long listing format
  -L, --dereference          show information for the file references rather than the link
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -o                         like -l, but do not list group information
  -p                         append / indicator to directories
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD: none, name, size, time, version, extension
  -t                         sort by time, newest first
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -1                         list one file per line
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let args: Vec<String> = ["-la", "--sort=size", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (o, ops) = parse(&args, None).expect("valid");
        assert_eq!(o.layout, Layout::Long);
        assert_eq!(o.hidden, Hidden::All);
        assert_eq!(o.sort, Sort::Size);
        assert_eq!(ops, vec!["x".to_string()]);
        assert!(parse(&["-Z".to_string()], None).is_err());
    }
}
