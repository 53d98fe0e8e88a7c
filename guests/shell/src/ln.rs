//! `ln`, as GNU's: bashkit's makes symbolic links only (its filesystem has no
//! hard links), so `ln a b` made a symlink. This one makes hard links through
//! the workspace's `fs.link` and symbolic ones with `-s`, with `-f`, `-n`/`-T`,
//! `-v`, `-t DIR` and the three forms: `ln TARGET LINK`, `ln TARGET` (into the
//! cwd), `ln TARGET... DIR`. Messages and exit codes are coreutils 9's.

use std::sync::Arc;

use bashkit::{BuiltinContext, ExecResult, async_trait};

use crate::computer::workspace::fs::{self, ErrorCode, NodeKind};
use crate::fs_errors;
use crate::workspace_fs::WorkspaceFs;

pub struct Ln {
    pub fs: Arc<WorkspaceFs>,
}

#[derive(Default)]
struct Options {
    symbolic: bool,
    force: bool,
    no_deref: bool,
    no_target_dir: bool,
    verbose: bool,
    target_dir: Option<String>,
}

fn usage(message: &str) -> ExecResult {
    ExecResult::err(
        format!("ln: {message}\nTry 'ln --help' for more information.\n"),
        1,
    )
}

/// `path` made absolute against `cwd`, for the workspace's calls.
fn absolute(cwd: &str, path: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{}/{path}", cwd.trim_end_matches('/'))
    }
}

fn base_name(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|b| !b.is_empty())
        .unwrap_or(path)
}

/// Parses the arguments; `Err` is the usage problem to report.
fn parse(args: &[String]) -> Result<(Options, Vec<String>), String> {
    let mut o = Options::default();
    let mut files = Vec::new();
    let mut it = args.iter();
    let mut options_done = false;
    while let Some(arg) = it.next() {
        if options_done || !arg.starts_with('-') || arg == "-" {
            files.push(arg.clone());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "--symbolic" => o.symbolic = true,
            "--force" => o.force = true,
            "--no-dereference" => o.no_deref = true,
            "--no-target-directory" => o.no_target_dir = true,
            "--verbose" => o.verbose = true,
            "--physical" | "--logical" => {}
            "--target-directory" | "-t" => match it.next() {
                Some(dir) => o.target_dir = Some(dir.clone()),
                None => return Err("option requires an argument -- 't'".into()),
            },
            long if long.starts_with("--target-directory=") => {
                o.target_dir = Some(long["--target-directory=".len()..].to_owned());
            }
            long if long.starts_with("--") => {
                return Err(format!("unrecognized option '{long}'"));
            }
            short => {
                let letters: Vec<char> = short[1..].chars().collect();
                for (i, c) in letters.iter().enumerate() {
                    match c {
                        's' => o.symbolic = true,
                        'f' => o.force = true,
                        'n' => o.no_deref = true,
                        'T' => o.no_target_dir = true,
                        'v' => o.verbose = true,
                        'P' | 'L' => {}
                        't' => {
                            let rest: String = letters[i + 1..].iter().collect();
                            o.target_dir = Some(match rest.is_empty() {
                                false => rest,
                                true => it.next().cloned().ok_or_else(|| {
                                    "option requires an argument -- 't'".to_owned()
                                })?,
                            });
                            break;
                        }
                        other => return Err(format!("invalid option -- '{other}'")),
                    }
                }
            }
        }
    }
    Ok((o, files))
}

impl Ln {
    fn is_dir(&self, path: &str, follow: bool) -> bool {
        let st = if follow {
            fs::stat(path)
        } else {
            fs::lstat(path)
        };
        st.is_ok_and(|s| s.kind == NodeKind::Directory)
    }

    /// One link: `name` (as typed) for `target` (as typed); the error line.
    fn make(&self, o: &Options, cwd: &str, target: &str, name: &str) -> Result<String, String> {
        let kind = if o.symbolic {
            "symbolic link"
        } else {
            "hard link"
        };
        let dest = absolute(cwd, name);
        if !o.symbolic {
            let source = absolute(cwd, target);
            match fs::lstat(&source) {
                Err(e) => {
                    return Err(format!(
                        "ln: failed to access '{target}': {}",
                        fs_errors::strerror(e.code)
                    ));
                }
                Ok(st) if st.kind == NodeKind::Directory => {
                    return Err(format!("ln: {target}: hard link not allowed for directory"));
                }
                Ok(_) => {}
            }
        }
        if o.force && fs::lstat(&dest).is_ok() {
            if self.is_dir(&dest, false) {
                return Err(format!("ln: {name}: cannot overwrite directory"));
            }
            let _ = fs::rm(&dest, false, true);
        }
        let made = if o.symbolic {
            fs::symlink(target, &dest)
        } else {
            fs::link(&absolute(cwd, target), &dest)
        };
        match made {
            Ok(()) => Ok(match (o.verbose, o.symbolic) {
                (false, _) => String::new(),
                (true, true) => format!("'{name}' -> '{target}'\n"),
                (true, false) => format!("'{name}' => '{target}'\n"),
            }),
            Err(e) => Err(format!(
                "ln: failed to create {kind} '{name}': {}",
                match e.code {
                    ErrorCode::Eexist => "File exists",
                    code => fs_errors::strerror(code),
                }
            )),
        }
    }
}

#[async_trait]
impl bashkit::Builtin for Ln {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        self.fs.appends().flush();
        let (o, files) = match parse(ctx.args) {
            Ok(parsed) => parsed,
            Err(problem) => return Ok(usage(&problem)),
        };
        let cwd = ctx.cwd.to_string_lossy().into_owned();
        // (target, link name) pairs, as GNU decides them.
        let pairs: Vec<(String, String)> = match (&o.target_dir, files.as_slice()) {
            (_, []) => return Ok(usage("missing file operand")),
            (Some(dir), targets) => targets
                .iter()
                .map(|t| {
                    (
                        t.clone(),
                        format!("{}/{}", dir.trim_end_matches('/'), base_name(t)),
                    )
                })
                .collect(),
            (None, [target]) => vec![(target.clone(), base_name(target).to_owned())],
            (None, [target, name]) => {
                let into_dir =
                    !o.no_target_dir && self.is_dir(&absolute(&cwd, name), !o.no_deref || !o.force);
                let name = match into_dir {
                    true => format!("{}/{}", name.trim_end_matches('/'), base_name(target)),
                    false => name.clone(),
                };
                vec![(target.clone(), name)]
            }
            (None, many) => {
                let (dir, targets) = many.split_last().expect("two or more");
                if o.no_target_dir {
                    return Ok(usage(&format!("extra operand '{}'", many[2])));
                }
                if !self.is_dir(&absolute(&cwd, dir), true) {
                    let why = match fs::stat(&absolute(&cwd, dir)) {
                        Err(e) => format!(": {}", fs_errors::strerror(e.code)),
                        Ok(_) => " is not a directory".to_owned(),
                    };
                    return Ok(ExecResult::err(format!("ln: target '{dir}'{why}\n"), 1));
                }
                targets
                    .iter()
                    .map(|t| {
                        (
                            t.clone(),
                            format!("{}/{}", dir.trim_end_matches('/'), base_name(t)),
                        )
                    })
                    .collect()
            }
        };
        let (mut out, mut err) = (String::new(), String::new());
        for (target, name) in &pairs {
            match self.make(&o, &cwd, target, name) {
                Ok(line) => out.push_str(&line),
                Err(line) => {
                    err.push_str(&line);
                    err.push('\n');
                }
            }
        }
        let mut result = ExecResult::ok(out);
        result.exit_code = i32::from(!err.is_empty());
        result.stderr = err.into();
        Ok(result)
    }
}
