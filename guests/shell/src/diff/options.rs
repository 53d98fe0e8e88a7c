//! GNU diff's command line: the options the guest's `diff` understands.

/// How the differences are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// ed-style `2c2` commands, diff's default.
    Normal,
    /// `-u`/`-U N`: `@@` hunks with N lines of context.
    Unified(usize),
    /// `-c`/`-C N`: `***` hunks with N lines of context.
    Context(usize),
    /// `-y`: two columns.
    SideBySide,
}

/// Which differences between lines do not count.
#[derive(Clone, Copy, Default, Debug)]
pub struct Ignore {
    /// `-w`: all white space.
    pub all_space: bool,
    /// `-b`: changes in the amount of white space.
    pub space_change: bool,
    /// `-Z`: white space at line end.
    pub trailing_space: bool,
    /// `-E`: changes due to tab expansion (treated as `-b` for tabs vs spaces).
    pub tab_expansion: bool,
    /// `-i`: case.
    pub case: bool,
    /// `-B`: changes whose lines are all blank.
    pub blank_lines: bool,
    /// `--strip-trailing-cr`.
    pub trailing_cr: bool,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub format: Format,
    pub ignore: Ignore,
    /// `-q`: only say whether files differ.
    pub brief: bool,
    /// `-s`: say so when files are the same.
    pub report_identical: bool,
    /// `-r`: compare subdirectories too.
    pub recursive: bool,
    /// `-N`: a file missing on one side is compared as empty.
    pub new_file: bool,
    /// `-a`: compare binary files as text.
    pub text: bool,
    /// `-W N`: the line width of `-y` output.
    pub width: usize,
    /// `--suppress-common-lines`, `--left-column` (for `-y`).
    pub suppress_common: bool,
    pub left_column: bool,
    /// `--label`, at most two: the names shown in unified/context headers.
    pub labels: Vec<String>,
    /// The option words as given, for the `diff -r ...` line before each pair
    /// of files in a recursive comparison (GNU repeats them verbatim).
    pub switches: Vec<String>,
    pub operands: Vec<String>,
}

pub const TRY_HELP: &str = "diff: Try 'diff --help' for more information.\n";

fn context_count(value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .map_err(|_| format!("diff: invalid context length '{value}'\n{TRY_HELP}"))
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            format: Format::Normal,
            ignore: Ignore::default(),
            brief: false,
            report_identical: false,
            recursive: false,
            new_file: false,
            text: false,
            width: 130,
            suppress_common: false,
            left_column: false,
            labels: Vec::new(),
            switches: Vec::new(),
            operands: Vec::new(),
        };
        let mut i = 0;
        let mut options_done = false;
        while i < args.len() {
            let arg = &args[i];
            i += 1;
            if options_done || arg == "-" || !arg.starts_with('-') {
                o.operands.push(arg.clone());
                continue;
            }
            if arg == "--" {
                options_done = true;
                continue;
            }
            o.switches.push(arg.clone());
            if let Some(long) = arg.strip_prefix("--") {
                let (name, inline) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (long, None),
                };
                if let ("unified" | "context", Some(v)) = (name, &inline) {
                    let n = context_count(v)?;
                    o.format = if name == "unified" {
                        Format::Unified(n)
                    } else {
                        Format::Context(n)
                    };
                    continue;
                }
                let mut value = || -> Result<String, String> {
                    if let Some(v) = inline.clone() {
                        return Ok(v);
                    }
                    let v = args.get(i).cloned().ok_or_else(|| {
                        format!("diff: option '--{name}' requires an argument\n{TRY_HELP}")
                    })?;
                    i += 1;
                    Ok(v)
                };
                o.long(name, &mut value)?;
                continue;
            }
            let flags: Vec<char> = arg[1..].chars().collect();
            let mut k = 0;
            while k < flags.len() {
                let c = flags[k];
                k += 1;
                if matches!(c, 'U' | 'C' | 'W') {
                    let rest: String = flags[k..].iter().collect();
                    let value = if rest.is_empty() {
                        let v = args.get(i).cloned().ok_or_else(|| {
                            format!("diff: option requires an argument -- '{c}'\n{TRY_HELP}")
                        })?;
                        i += 1;
                        v
                    } else {
                        rest
                    };
                    let n = context_count(&value)?;
                    match c {
                        'U' => o.format = Format::Unified(n),
                        'C' => o.format = Format::Context(n),
                        _ => o.width = n,
                    }
                    break;
                }
                o.short(c)?;
            }
        }
        Ok(o)
    }

    fn short(&mut self, c: char) -> Result<(), String> {
        match c {
            'u' => self.format = Format::Unified(3),
            'c' => self.format = Format::Context(3),
            'y' => self.format = Format::SideBySide,
            'q' => self.brief = true,
            's' => self.report_identical = true,
            'r' => self.recursive = true,
            'N' => self.new_file = true,
            'a' => self.text = true,
            'w' => self.ignore.all_space = true,
            'b' => self.ignore.space_change = true,
            'Z' => self.ignore.trailing_space = true,
            'E' => self.ignore.tab_expansion = true,
            'i' => self.ignore.case = true,
            'B' => self.ignore.blank_lines = true,
            // `-d` (minimal), `-t`/`-T` are accepted; the first changes nothing here.
            'd' | 'H' => {}
            _ => return Err(format!("diff: invalid option -- '{c}'\n{TRY_HELP}")),
        }
        Ok(())
    }

    fn long(
        &mut self,
        name: &str,
        value: &mut dyn FnMut() -> Result<String, String>,
    ) -> Result<(), String> {
        let short = match name {
            "unified" => Some('u'),
            "context" => Some('c'),
            "brief" => Some('q'),
            "report-identical-files" => Some('s'),
            "recursive" => Some('r'),
            "new-file" => Some('N'),
            "text" => Some('a'),
            "ignore-all-space" => Some('w'),
            "ignore-space-change" => Some('b'),
            "ignore-trailing-space" => Some('Z'),
            "ignore-tab-expansion" => Some('E'),
            "ignore-case" => Some('i'),
            "ignore-blank-lines" => Some('B'),
            "minimal" | "speed-large-files" => Some('d'),
            "side-by-side" => Some('y'),
            _ => None,
        };
        if let Some(c) = short {
            return self.short(c);
        }
        match name {
            "strip-trailing-cr" => self.ignore.trailing_cr = true,
            "label" => self.labels.push(value()?),
            "width" => self.width = context_count(&value()?)?,
            "suppress-common-lines" => self.suppress_common = true,
            "left-column" => self.left_column = true,
            "color" | "no-dereference" => {}
            _ => return Err(format!("diff: unrecognized option '--{name}'\n{TRY_HELP}")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Options {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Options::parse(&args).unwrap()
    }

    #[test]
    fn clusters_and_context() {
        let o = parse(&["-ruw", "a", "b"]);
        assert!(o.recursive && o.ignore.all_space);
        assert_eq!(o.format, Format::Unified(3));
        assert_eq!(o.switches, vec!["-ruw"]);
        assert_eq!(parse(&["-U1", "a", "b"]).format, Format::Unified(1));
        assert_eq!(parse(&["-U", "0", "a", "b"]).format, Format::Unified(0));
        assert_eq!(parse(&["--unified", "a", "b"]).operands, vec!["a", "b"]);
        assert_eq!(parse(&["--unified=5", "a", "b"]).format, Format::Unified(5));
    }

    #[test]
    fn rejects_unknown() {
        let args: Vec<String> = vec!["-z".into()];
        assert!(
            Options::parse(&args)
                .unwrap_err()
                .contains("invalid option -- 'z'")
        );
    }
}
