//! `unzip [-l] [-Z1] [-p] [-q] [-o] [-n] [-j] [-d DIR] ARCHIVE [MEMBER...]`: list or
//! extract with Info-ZIP's messages, modes and times restored, symlinks as links.
//! Without `-o` or `-n` an existing file would make unzip ask; there is no terminal,
//! so it answers as Info-ZIP does at end of input: none are replaced (exit 1).

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use bashkit::{BuiltinContext, ExecResult, FileSystem, async_trait};
use zip::ZipArchive;

use super::{file_time, listing_time, plural, resolve};

pub struct Unzip;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Extract,
    List,
    Names,
    Pipe,
    Test,
}

struct Options {
    mode: Mode,
    quiet: bool,
    overwrite: Option<bool>,
    junk_paths: bool,
    dir: Option<String>,
    archive: String,
    members: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        mode: Mode::Extract,
        quiet: false,
        overwrite: None,
        junk_paths: false,
        dir: None,
        archive: String::new(),
        members: Vec::new(),
    };
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-Z1" {
            o.mode = Mode::Names;
            continue;
        }
        if arg.len() < 2 || !arg.starts_with('-') {
            operands.push(arg.clone());
            continue;
        }
        for (k, c) in arg[1..].char_indices() {
            match c {
                'l' | 'v' => o.mode = Mode::List,
                'p' | 'c' => o.mode = Mode::Pipe,
                't' => o.mode = Mode::Test,
                'q' => o.quiet = true,
                'o' => o.overwrite = Some(true),
                'n' => o.overwrite = Some(false),
                'j' => o.junk_paths = true,
                'd' => {
                    let rest = &arg[k + 2..];
                    o.dir = Some(if rest.is_empty() {
                        i += 1;
                        args.get(i - 1)
                            .cloned()
                            .ok_or("unzip: option -d needs a directory\n")?
                    } else {
                        rest.to_string()
                    });
                    break;
                }
                'a' | 'b' | 'C' | 'L' | 'X' | 'K' | 'D' | 'U' => {}
                _ => return Err(format!("unzip: invalid option -- {c}\n")),
            }
        }
    }
    let mut operands = operands.into_iter();
    o.archive = operands.next().ok_or("UnZip: no zipfile specified\n")?;
    o.members = operands.collect();
    Ok(o)
}

/// What a run says, and its exit code.
struct Out {
    out: Vec<u8>,
    err: String,
    code: i32,
}

impl Out {
    fn say(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }
}

#[async_trait]
impl bashkit::Builtin for Unzip {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let opts = match parse(ctx.args) {
            Ok(o) => o,
            Err(message) => return Ok(ExecResult::err(message, 10)),
        };
        let a = &opts.archive;
        let mut bytes = None;
        for candidate in [a.clone(), format!("{a}.zip"), format!("{a}.ZIP")] {
            if let Ok(b) = ctx.fs.read_file(&resolve(ctx.cwd, &candidate)).await {
                bytes = Some(b);
                break;
            }
        }
        let Some(bytes) = bytes else {
            let message = format!("unzip:  cannot find or open {a}, {a}.zip or {a}.ZIP.\n");
            return Ok(ExecResult::err(message, 9));
        };
        let mut archive = match ZipArchive::new(Cursor::new(bytes)) {
            Ok(z) => z,
            Err(_) => {
                let message = format!(
                    "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.\nunzip:  cannot find zipfile directory in {a}.\n"
                );
                return Ok(ExecResult::err(message, 9));
            }
        };
        let mut o = Out {
            out: Vec::new(),
            err: String::new(),
            code: 0,
        };
        let chosen = chosen(&mut archive, &opts, &mut o);
        match opts.mode {
            Mode::List => list(&mut archive, &opts, &chosen, &mut o),
            Mode::Names => chosen
                .iter()
                .for_each(|(_, name)| o.say(&format!("{name}\n"))),
            Mode::Pipe => pipe(&mut archive, &chosen, &mut o),
            Mode::Test => test(&mut archive, &opts, &chosen, &mut o),
            Mode::Extract => {
                let env_tz = ctx.env.get("TZ").cloned();
                let base = resolve(ctx.cwd, opts.dir.as_deref().unwrap_or("."));
                extract(
                    &*ctx.fs,
                    &mut archive,
                    &opts,
                    &chosen,
                    &base,
                    env_tz.as_deref(),
                    &mut o,
                )
                .await;
            }
        }
        let mut result = ExecResult::with_code(o.out, o.code);
        result.stderr = o.err.into();
        Ok(result)
    }
}

/// Whether member `name` matches `pattern`, a shell-style pattern (`*`, `?`,
/// `[...]`) as unzip takes them; `*` crosses `/`, as in unzip.
fn matches(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len()).any(|k| go(&p[1..], &n[k..])),
            Some('?') => !n.is_empty() && go(&p[1..], &n[1..]),
            Some('[') => match p.iter().position(|c| *c == ']') {
                Some(end) if !n.is_empty() => {
                    let set = &p[1..end];
                    let (negate, set) = match set.first() {
                        Some('!' | '^') => (true, &set[1..]),
                        _ => (false, set),
                    };
                    let mut hit = false;
                    let mut k = 0;
                    while k < set.len() {
                        if k + 2 < set.len() && set[k + 1] == '-' {
                            hit |= set[k] <= n[0] && n[0] <= set[k + 2];
                            k += 3;
                        } else {
                            hit |= set[k] == n[0];
                            k += 1;
                        }
                    }
                    hit != negate && go(&p[end + 1..], &n[1..])
                }
                _ => !n.is_empty() && n[0] == '[' && go(&p[1..], &n[1..]),
            },
            Some(c) => n.first() == Some(c) && go(&p[1..], &n[1..]),
        }
    }
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    go(&p, &n)
}

/// The entries the members select (all without members), in archive order;
/// members that select nothing are reported (exit 11).
fn chosen(
    archive: &mut ZipArchive<Cursor<Vec<u8>>>,
    opts: &Options,
    o: &mut Out,
) -> Vec<(usize, String)> {
    let names: Vec<(usize, String)> = (0..archive.len())
        .filter_map(|i| Some((i, archive.by_index_raw(i).ok()?.name().ok()?.into_owned())))
        .collect();
    if opts.members.is_empty() {
        return names;
    }
    for m in &opts.members {
        if !names.iter().any(|(_, n)| matches(m, n)) {
            o.err
                .push_str(&format!("caution: filename not matched:  {m}\n"));
            o.code = 11;
        }
    }
    names
        .into_iter()
        .filter(|(_, n)| opts.members.iter().any(|m| matches(m, n)))
        .collect()
}

fn list(
    archive: &mut ZipArchive<Cursor<Vec<u8>>>,
    opts: &Options,
    chosen: &[(usize, String)],
    o: &mut Out,
) {
    o.say(&format!("Archive:  {}\n", opts.archive));
    o.say("  Length      Date    Time    Name\n---------  ---------- -----   ----\n");
    let mut total = 0;
    for (i, name) in chosen {
        let Ok(file) = archive.by_index_raw(*i) else {
            continue;
        };
        total += file.size();
        o.say(&format!(
            "{:>9}  {}   {name}\n",
            file.size(),
            listing_time(file.last_modified())
        ));
    }
    let n = chosen.len();
    o.say(&format!(
        "---------                     -------\n{total:>9}                     {n} file{}\n",
        plural(n)
    ));
}

fn pipe(archive: &mut ZipArchive<Cursor<Vec<u8>>>, chosen: &[(usize, String)], o: &mut Out) {
    for (i, _) in chosen {
        if let Ok(mut file) = archive.by_index(*i) {
            let _ = file.read_to_end(&mut o.out);
        }
    }
}

/// `-t`: decompress every entry and check it against its CRC.
fn test(
    archive: &mut ZipArchive<Cursor<Vec<u8>>>,
    opts: &Options,
    chosen: &[(usize, String)],
    o: &mut Out,
) {
    if !opts.quiet {
        o.say(&format!("Archive:  {}\n", opts.archive));
    }
    let mut bad = 0;
    for (i, name) in chosen {
        let ok = match archive.by_index(*i) {
            Ok(mut file) => std::io::copy(&mut file, &mut std::io::sink()).is_ok(),
            Err(_) => false,
        };
        bad += usize::from(!ok);
        if !opts.quiet || !ok {
            let verdict = if ok { "OK" } else { "bad CRC" };
            o.say(&format!("    testing: {name:<22}   {verdict}\n"));
        }
    }
    if bad == 0 {
        o.say(&format!(
            "No errors detected in compressed data of {}.\n",
            opts.archive
        ));
    } else {
        o.say(&format!(
            "At least one error was detected in {}.\n",
            opts.archive
        ));
        o.code = 2;
    }
}

async fn extract(
    fs: &dyn FileSystem,
    archive: &mut ZipArchive<Cursor<Vec<u8>>>,
    opts: &Options,
    chosen: &[(usize, String)],
    base: &Path,
    tz: Option<&str>,
    o: &mut Out,
) {
    if !opts.quiet {
        o.say(&format!("Archive:  {}\n", opts.archive));
    }
    let _ = fs.mkdir(base, true).await;
    let mut replace_none = false;
    for (i, name) in chosen {
        let Ok(mut file) = archive.by_index(*i) else {
            continue;
        };
        let shown = if opts.junk_paths {
            name.rsplit('/').next().unwrap_or(name).to_string()
        } else {
            name.clone()
        };
        if file.is_dir() {
            let dir = base.join(name.trim_end_matches('/'));
            if !opts.junk_paths && fs.stat(&dir).await.is_err() {
                let _ = fs.mkdir(&dir, true).await;
                if !opts.quiet {
                    o.say(&format!("   creating: {name}\n"));
                }
            }
            continue;
        }
        let Some(relative) = file.enclosed_name() else {
            continue;
        };
        let target: PathBuf = if opts.junk_paths {
            base.join(&shown)
        } else {
            base.join(relative)
        };
        if fs.lstat(&target).await.is_ok() {
            match opts.overwrite {
                Some(true) => {}
                Some(false) => continue,
                None => {
                    if !replace_none {
                        o.err.push_str(&format!("replace {shown}? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as \"[N]one\" ...)\n"));
                        replace_none = true;
                        o.code = o.code.max(1);
                    }
                    continue;
                }
            }
        }
        let stored = file.compression() == zip::CompressionMethod::Stored;
        match write_entry(fs, &mut file, &target, tz).await {
            Ok(link) if !opts.quiet => o.say(&extracted(&shown, stored, link.as_deref())),
            Ok(_) => {}
            Err((message, code)) => {
                o.err.push_str(&format!("{message} {shown}\n"));
                o.code = o.code.max(code);
            }
        }
    }
}

/// The line for an extracted entry: `  inflating: name` (padded as Info-ZIP pads
/// it), ` extracting:` for a stored one, `    linking: name -> target`.
fn extracted(shown: &str, stored: bool, link: Option<&str>) -> String {
    match link {
        Some(target) => format!("    linking: {shown:<22}  -> {target} \n"),
        None if stored => format!(" extracting: {shown:<22}  \n"),
        None => format!("  inflating: {shown:<22}  \n"),
    }
}

/// Write one entry at `target` (its parents made first), with its mode and time;
/// a symlink entry becomes a link, whose target is returned. The error is
/// Info-ZIP's message start and exit code.
async fn write_entry(
    fs: &dyn FileSystem,
    file: &mut zip::read::ZipFile<'_, Cursor<Vec<u8>>>,
    target: &Path,
    tz: Option<&str>,
) -> Result<Option<String>, (&'static str, i32)> {
    if let Some(parent) = target.parent() {
        let _ = fs.mkdir(parent, true).await;
    }
    let mut data = Vec::new();
    if file.read_to_end(&mut data).is_err() {
        return Err(("  error:  invalid compressed data to inflate", 2));
    }
    if file.is_symlink() {
        let link = String::from_utf8_lossy(&data).into_owned();
        let _ = fs.remove(target, false).await;
        fs.symlink(Path::new(&link), target)
            .await
            .map_err(|_| ("error:  cannot create symbolic link", 50))?;
        return Ok(Some(link));
    }
    fs.write_file(target, &data)
        .await
        .map_err(|_| ("error:  cannot create", 50))?;
    if let Some(mode) = file.unix_mode() {
        let _ = fs.chmod(target, mode & 0o7777).await;
    }
    if let Some(t) = file.last_modified().and_then(|d| file_time(d, tz)) {
        let _ = fs.set_modified_time(target, t).await;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_patterns() {
        assert!(matches("docs/*.md", "docs/design/a.md"));
        assert!(matches("d?c[a-z]", "doce"));
        assert!(!matches("d?c[!a-z]", "doce"));
        assert!(matches("exact.txt", "exact.txt"));
        assert!(!matches("exact.txt", "exact.txt2"));
    }
}
