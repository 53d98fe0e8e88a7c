//! `unzip [-l] [-Z1] [-p] [-q] [-o] [-n] [-j] [-d DIR] ARCHIVE [MEMBER...]`: list or
//! extract with Info-ZIP's messages, modes and times restored, symlinks as links.
//! Without `-o` or `-n` an existing file would make unzip ask; there is no terminal,
//! so it answers as Info-ZIP does at end of input: none are replaced (exit 1).

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use bashkit::{BuiltinContext, ExecResult, FileSystem, async_trait};
use zip::ZipArchive;

use super::entry_path::map_name;
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
    // Info-ZIP shows paths with the -d directory in front.
    let prefix = match &opts.dir {
        Some(d) => format!("{}/", d.trim_end_matches('/')),
        None => String::new(),
    };
    let mut replace_none = false;
    // Symlinks are made last, as Info-ZIP does: until then each is a plain file
    // holding its target, so no later member is written through a link this
    // archive made (`lnk -> /elsewhere` then `lnk/x`).
    let mut deferred: Vec<(PathBuf, String, String)> = Vec::new();
    for (i, name) in chosen {
        let Ok(mut file) = archive.by_index(*i) else {
            continue;
        };
        let mapped = map_name(name);
        if mapped.was_absolute {
            o.err.push_str(&format!(
                "warning:  stripped absolute path spec from {name}\n"
            ));
            o.code = o.code.max(1);
        }
        if mapped.skipped_parent && !opts.quiet && !opts.junk_paths {
            o.say(&format!(
                "warning:  skipped \"../\" path component(s) in {name}\n"
            ));
            o.code = o.code.max(1);
        }
        let relative = if opts.junk_paths {
            mapped
                .path
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_string()
        } else {
            mapped.path
        };
        if relative.is_empty() {
            continue;
        }
        if file.is_dir() {
            if opts.junk_paths {
                continue;
            }
            match make_dirs(fs, base, &relative, true).await {
                Ok(true) if !opts.quiet => o.say(&format!("   creating: {prefix}{relative}/\n")),
                Ok(_) => {}
                Err(lead) => checkdir_error(o, &format!("{prefix}{lead}"), name),
            }
            continue;
        }
        if let Err(lead) = make_dirs(fs, base, &relative, false).await {
            checkdir_error(o, &format!("{prefix}{lead}"), name);
            continue;
        }
        let shown = format!("{prefix}{relative}");
        let target = base.join(&relative);
        if let Ok(meta) = fs.lstat(&target).await {
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
            // What is replaced goes first: writing to a symlink would write
            // where it points.
            if meta.file_type.is_symlink() {
                let _ = fs.remove(&target, false).await;
            }
        }
        let stored = file.compression() == zip::CompressionMethod::Stored;
        match write_entry(fs, &mut file, &target, tz).await {
            Ok(link) => {
                if !opts.quiet {
                    o.say(&extracted(&shown, stored, link.as_deref()));
                }
                if let Some(link) = link {
                    deferred.push((target, shown, link));
                }
            }
            Err((message, code)) => {
                o.err.push_str(&format!("{message} {shown}\n"));
                o.code = o.code.max(code);
            }
        }
    }
    if deferred.is_empty() {
        return;
    }
    if !opts.quiet {
        o.say("finishing deferred symbolic links:\n");
    }
    for (target, shown, link) in deferred {
        let _ = fs.remove(&target, false).await;
        match fs.symlink(Path::new(&link), &target).await {
            Ok(()) if !opts.quiet => o.say(&format!("  {shown:<22} -> {link}\n")),
            Ok(()) => {}
            Err(_) => {
                o.err
                    .push_str(&format!("error:  cannot create symbolic link {shown}\n"));
                o.code = o.code.max(50);
            }
        }
    }
}

/// Info-ZIP's message for a member whose directory is taken by a file (or a
/// symlink this run has not made yet): the member is skipped, exit 2.
fn checkdir_error(o: &mut Out, lead: &str, name: &str) {
    o.err.push_str(&format!(
        "checkdir error:  {lead} exists but is not directory\n                 unable to process {name}.\n"
    ));
    o.code = o.code.max(2);
}

/// Makes the directories of `relative` under `base` (its last component too
/// with `itself`), one level at a time. `Ok(true)` if one was made; the error
/// is the first that exists and is not a directory.
async fn make_dirs(
    fs: &dyn FileSystem,
    base: &Path,
    relative: &str,
    itself: bool,
) -> Result<bool, String> {
    let mut made = false;
    let parts: Vec<&str> = relative.split('/').collect();
    let count = if itself { parts.len() } else { parts.len() - 1 };
    for n in 1..=count {
        let lead = parts[..n].join("/");
        let dir = base.join(&lead);
        match fs.stat(&dir).await {
            Ok(meta) if meta.file_type.is_dir() => {}
            Ok(_) => return Err(lead),
            Err(_) => {
                fs.mkdir(&dir, false).await.map_err(|_| lead)?;
                made = true;
            }
        }
    }
    Ok(made)
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

/// Write one entry at `target` (its directories exist), with its mode and time. A
/// symlink entry is written as a plain file holding its target, which is returned:
/// the caller makes the link once every member is out.  The error is Info-ZIP's
/// message start and exit code.
async fn write_entry(
    fs: &dyn FileSystem,
    file: &mut zip::read::ZipFile<'_, Cursor<Vec<u8>>>,
    target: &Path,
    tz: Option<&str>,
) -> Result<Option<String>, (&'static str, i32)> {
    let mut data = Vec::new();
    if file.read_to_end(&mut data).is_err() {
        return Err(("  error:  invalid compressed data to inflate", 2));
    }
    fs.write_file(target, &data)
        .await
        .map_err(|_| ("error:  cannot create", 50))?;
    if file.is_symlink() {
        return Ok(Some(String::from_utf8_lossy(&data).into_owned()));
    }
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
