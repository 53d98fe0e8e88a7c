//! `zip [-r] [-q] [-j] [-y] [-D] [-0..-9] ARCHIVE FILE...`: add files (and with
//! `-r` whole trees) to a new or existing archive, replacing entries of the same
//! name, with Info-ZIP's messages ("  adding: x (deflated 40%)") and exit codes
//! (12: nothing to do). Each file is deflated, or stored when deflating does not
//! make it smaller, as Info-ZIP decides. The percentages are flate2's, so they
//! can differ from Info-ZIP's by a point or two.

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use bashkit::{BuiltinContext, ExecResult, FileSystem, Metadata, async_trait};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use super::{dos_time, resolve};

pub struct Zip;

struct Options {
    recursive: bool,
    quiet: bool,
    junk_paths: bool,
    store_links: bool,
    no_dir_entries: bool,
    level: i64,
    archive: String,
    files: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        recursive: false,
        quiet: false,
        junk_paths: false,
        store_links: false,
        no_dir_entries: false,
        level: 6,
        archive: String::new(),
        files: Vec::new(),
    };
    let mut operands = Vec::new();
    for arg in args {
        if arg.len() < 2 || !arg.starts_with('-') {
            operands.push(arg.clone());
            continue;
        }
        for c in arg[1..].chars() {
            match c {
                'r' | 'R' => o.recursive = true,
                'q' => o.quiet = true,
                'j' => o.junk_paths = true,
                'y' => o.store_links = true,
                'D' => o.no_dir_entries = true,
                'X' | 'o' | 'v' => {}
                '0'..='9' => o.level = i64::from(c as u8 - b'0'),
                _ => {
                    return Err(format!(
                        "zip error: Invalid command arguments (no such option: {c})\n"
                    ));
                }
            }
        }
    }
    let mut operands = operands.into_iter();
    o.archive = operands
        .next()
        .ok_or("zip error: Invalid command arguments (nothing to select from)\n")?;
    // Info-ZIP adds `.zip` to a name without a suffix.
    let last = o.archive.rsplit('/').next().unwrap_or(&o.archive);
    if !last.contains('.') {
        o.archive.push_str(".zip");
    }
    o.files = operands.collect();
    Ok(o)
}

/// One thing to put in the archive.
struct Entry {
    name: String,
    path: PathBuf,
    meta: Metadata,
}

/// A run of `zip`: what it found and what it says.
struct Run<'c> {
    fs: &'c dyn FileSystem,
    opts: Options,
    tz: Option<String>,
    /// The archive itself, which a tree being added may hold: never added to itself.
    archive_path: PathBuf,
    entries: Vec<Entry>,
    out: String,
    err: String,
}

impl Run<'_> {
    fn entry_name(&self, operand: &str, is_dir: bool) -> String {
        let name = if self.opts.junk_paths {
            operand
                .rsplit('/')
                .find(|s| !s.is_empty())
                .unwrap_or(operand)
        } else {
            operand.trim_start_matches("./").trim_start_matches('/')
        };
        let name = name.trim_end_matches('/');
        if is_dir {
            format!("{name}/")
        } else {
            name.to_string()
        }
    }

    async fn meta(&self, path: &Path) -> Option<Metadata> {
        if self.opts.store_links {
            self.fs.lstat(path).await.ok()
        } else {
            self.fs.stat(path).await.ok()
        }
    }

    /// Collect `operand` (and below it with `-r`), depth first in name order.
    fn collect<'a>(
        &'a mut self,
        operand: String,
        path: PathBuf,
        meta: Metadata,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            let is_dir = meta.file_type.is_dir();
            if is_dir && self.opts.junk_paths && self.opts.recursive {
                // `-j` keeps no directories, only their files.
            } else if !(is_dir && self.opts.no_dir_entries) {
                let name = self.entry_name(&operand, is_dir);
                self.entries.push(Entry {
                    name,
                    path: path.clone(),
                    meta,
                });
            }
            if !is_dir || !self.opts.recursive {
                return;
            }
            let Ok(mut children) = self.fs.read_dir(&path).await else {
                return;
            };
            children.sort_by(|a, b| a.name.cmp(&b.name));
            for child in children {
                let child_path = path.join(&child.name);
                if child_path == self.archive_path {
                    continue;
                }
                let Some(child_meta) = self.meta(&child_path).await else {
                    continue;
                };
                let shown = format!("{}/{}", operand.trim_end_matches('/'), child.name);
                self.collect(shown, child_path, child_meta).await;
            }
        })
    }
}

#[async_trait]
impl bashkit::Builtin for Zip {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let opts = match parse(ctx.args) {
            Ok(o) => o,
            Err(message) => return Ok(ExecResult::err(message, 16)),
        };
        let mut run = Run {
            fs: &*ctx.fs,
            tz: ctx.env.get("TZ").cloned(),
            archive_path: resolve(ctx.cwd, &opts.archive),
            entries: Vec::new(),
            out: String::new(),
            err: String::new(),
            opts,
        };
        let mut matched = false;
        for operand in run.opts.files.clone() {
            let path = resolve(ctx.cwd, &operand);
            match run.meta(&path).await {
                Some(meta) => {
                    matched = true;
                    run.collect(operand, path, meta).await;
                }
                // Info-ZIP writes its warnings and errors on stdout.
                None if !run.opts.quiet => run
                    .out
                    .push_str(&format!("\tzip warning: name not matched: {operand}\n")),
                None => {}
            }
        }
        let archive_path = run.archive_path.clone();
        if !matched {
            let message = format!("\nzip error: Nothing to do! ({})\n", run.opts.archive);
            run.out.push_str(&message);
            return Ok(finish(run, 12));
        }
        let existing = ctx.fs.read_file(&archive_path).await.ok();
        let bytes = match write_archive(&mut run, existing).await {
            Ok(bytes) => bytes,
            Err(message) => {
                run.out.push_str(&format!("zip error: {message}\n"));
                return Ok(finish(run, 15));
            }
        };
        if let Err(e) = ctx.fs.write_file(&archive_path, &bytes).await {
            run.err.push_str(&format!(
                "zip I/O error: {e}\nzip error: Could not create output file ({})\n",
                run.opts.archive
            ));
            return Ok(finish(run, 15));
        }
        Ok(finish(run, 0))
    }
}

fn finish(run: Run<'_>, code: i32) -> ExecResult {
    let mut result = ExecResult::with_code(run.out, code);
    result.stderr = run.err.into();
    result
}

/// Info-ZIP's percentage: how much smaller the stored bytes are, rounded.
fn percent(original: u64, stored: u64) -> u64 {
    if original == 0 || stored >= original {
        return 0;
    }
    ((original - stored) * 100 + original / 2) / original
}

fn deflate(data: &[u8], level: i64) -> Vec<u8> {
    let mut enc =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(level as u32));
    let _ = enc.write_all(data);
    enc.finish().unwrap_or_default()
}

/// The new archive: the old one's entries that are not replaced, then the new ones.
async fn write_archive(run: &mut Run<'_>, existing: Option<Vec<u8>>) -> Result<Vec<u8>, String> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let new_names: std::collections::HashSet<String> =
        run.entries.iter().map(|e| e.name.clone()).collect();
    let mut old_names = std::collections::HashSet::new();
    if let Some(bytes) = existing {
        let mut old = ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| format!("Zip file structure invalid ({e})"))?;
        for i in 0..old.len() {
            let file = old.by_index(i).map_err(|e| e.to_string())?;
            let name = file.name().map_err(|e| e.to_string())?.into_owned();
            old_names.insert(name.clone());
            if !new_names.contains(&name) {
                writer.raw_copy_file(file).map_err(|e| e.to_string())?;
            }
        }
    }
    let entries = std::mem::take(&mut run.entries);
    for entry in &entries {
        let verb = if old_names.contains(&entry.name) {
            "updating"
        } else {
            "  adding"
        };
        let how = add_entry(run, &mut writer, entry).await?;
        if !run.opts.quiet {
            run.out
                .push_str(&format!("{verb}: {} ({how})\n", entry.name));
        }
    }
    let cursor = writer.finish().map_err(|e| e.to_string())?;
    Ok(cursor.into_inner())
}

/// Add one entry; says how it was stored ("deflated 40%", "stored 0%").
async fn add_entry(
    run: &Run<'_>,
    writer: &mut ZipWriter<Cursor<Vec<u8>>>,
    entry: &Entry,
) -> Result<String, String> {
    let options = SimpleFileOptions::default()
        .last_modified_time(dos_time(entry.meta.modified, run.tz.as_deref()))
        .unix_permissions(entry.meta.mode & 0o7777);
    let e = |e: zip::result::ZipError| e.to_string();
    if entry.meta.file_type.is_dir() {
        writer
            .add_directory(entry.name.trim_end_matches('/'), options)
            .map_err(e)?;
        return Ok("stored 0%".to_string());
    }
    if entry.meta.file_type.is_symlink() {
        let target = run
            .fs
            .read_link(&entry.path)
            .await
            .map_err(|e| e.to_string())?;
        writer
            .add_symlink(&entry.name, target.to_string_lossy(), options)
            .map_err(e)?;
        return Ok("stored 0%".to_string());
    }
    let data = run
        .fs
        .read_file(&entry.path)
        .await
        .map_err(|e| e.to_string())?;
    let deflated = if run.opts.level > 0 {
        deflate(&data, run.opts.level)
    } else {
        data.clone()
    };
    let (method, stored) = if run.opts.level > 0 && deflated.len() < data.len() {
        (CompressionMethod::Deflated, deflated.len())
    } else {
        (CompressionMethod::Stored, data.len())
    };
    let options = options
        .compression_method(method)
        .compression_level((method == CompressionMethod::Deflated).then_some(run.opts.level));
    writer.start_file(&entry.name, options).map_err(e)?;
    writer.write_all(&data).map_err(|e| e.to_string())?;
    Ok(match method {
        CompressionMethod::Deflated => {
            format!("deflated {}%", percent(data.len() as u64, stored as u64))
        }
        _ => "stored 0%".to_string(),
    })
}
