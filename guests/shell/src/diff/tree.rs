//! What the two operands are, and directories compared name by name (`-r`
//! descends; `-N` compares a file or directory missing on one side as empty).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;

use super::files::Side;
use super::{Run, file_name, join_display};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    Missing,
}

impl Run {
    /// What `path` is, following symlinks; a missing one is reported unless `-N`
    /// may stand in an empty file for it.
    async fn kind(&mut self, name: &str, path: &Path, report: bool) -> Kind {
        match self.fs.stat(path).await {
            Ok(m) if m.file_type.is_dir() => Kind::Dir,
            Ok(_) => Kind::File,
            Err(e) => {
                if report {
                    self.trouble(name, &e);
                }
                Kind::Missing
            }
        }
    }

    async fn names(&mut self, name: &str, dir: Option<&PathBuf>) -> Option<Vec<String>> {
        let Some(dir) = dir else {
            return Some(Vec::new());
        };
        match self.fs.read_dir(dir).await {
            Ok(entries) => {
                let mut names: Vec<String> = entries.into_iter().map(|e| e.name).collect();
                names.sort();
                Some(names)
            }
            Err(e) => {
                self.trouble(name, &e);
                None
            }
        }
    }

    fn say(&mut self, line: String) {
        self.out.extend_from_slice(line.as_bytes());
    }
}

fn side<'a>(name: &'a str, path: &'a Option<PathBuf>, kind: Kind) -> Side<'a> {
    Side {
        name,
        path: path.as_deref(),
        missing: kind == Kind::Missing,
    }
}

/// The two operands of `diff`.
pub async fn top(run: &mut Run, a: &str, b: &str) {
    let pa = (a != "-").then(|| run.resolve(a));
    let pb = (b != "-").then(|| run.resolve(b));
    let new_file = run.opts.new_file;
    let ka = match &pa {
        Some(p) => run.kind(a, p, !new_file).await,
        None => Kind::File,
    };
    let kb = match &pb {
        Some(p) => run.kind(b, p, !new_file).await,
        None => Kind::File,
    };
    match (ka, kb) {
        (Kind::Missing, Kind::Missing) if new_file => {
            // Both missing even with -N: report them as GNU does, one each.
            for (name, path) in [(a, &pa), (b, &pb)] {
                if let Some(p) = path {
                    run.kind(name, p, true).await;
                }
            }
        }
        (Kind::Missing, _) | (_, Kind::Missing) if !new_file => {}
        (Kind::Dir, Kind::Dir) => dirs(run, pa, pb, a.to_string(), b.to_string()).await,
        (Kind::Dir, Kind::File) => {
            let name = join_display(a, &file_name(b));
            let inner = pa.map(|p| p.join(file_name(b)));
            let kind = run.kind(&name, inner.as_ref().unwrap(), true).await;
            if kind != Kind::Missing {
                run.files(side(&name, &inner, kind), side(b, &pb, kb), false)
                    .await;
            }
        }
        (Kind::File, Kind::Dir) => {
            let name = join_display(b, &file_name(a));
            let inner = pb.map(|p| p.join(file_name(a)));
            let kind = run.kind(&name, inner.as_ref().unwrap(), true).await;
            if kind != Kind::Missing {
                run.files(side(a, &pa, ka), side(&name, &inner, kind), false)
                    .await;
            }
        }
        _ => run.files(side(a, &pa, ka), side(b, &pb, kb), false).await,
    }
}

/// Two directories, entry by entry in byte order; `None` is a directory that is
/// missing on that side (`-N`).
fn dirs(
    run: &mut Run,
    a: Option<PathBuf>,
    b: Option<PathBuf>,
    an: String,
    bn: String,
) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
    Box::pin(async move {
        let Some(names_a) = run.names(&an, a.as_ref()).await else {
            return;
        };
        let Some(names_b) = run.names(&bn, b.as_ref()).await else {
            return;
        };
        let mut all: Vec<&String> = names_a.iter().chain(names_b.iter()).collect();
        all.sort();
        all.dedup();
        for name in all {
            let in_a = names_a.binary_search(name).is_ok();
            let in_b = names_b.binary_search(name).is_ok();
            let pa = a.as_ref().filter(|_| in_a).map(|p| p.join(name));
            let pb = b.as_ref().filter(|_| in_b).map(|p| p.join(name));
            let (na, nb) = (join_display(&an, name), join_display(&bn, name));
            entry(run, (pa, na), (pb, nb), (&an, &bn), name).await;
        }
    })
}

/// One name of a directory comparison; a path is `None` on the side that lacks it.
async fn entry(
    run: &mut Run,
    (pa, na): (Option<PathBuf>, String),
    (pb, nb): (Option<PathBuf>, String),
    (an, bn): (&str, &str),
    name: &str,
) {
    let ka = match &pa {
        Some(p) => run.kind(&na, p, true).await,
        None => Kind::Missing,
    };
    let kb = match &pb {
        Some(p) => run.kind(&nb, p, true).await,
        None => Kind::Missing,
    };
    if ka == Kind::Missing || kb == Kind::Missing {
        if pa.is_some() == pb.is_some() {
            return; // a dangling link, already reported
        }
        let present_is_dir = ka == Kind::Dir || kb == Kind::Dir;
        if !run.opts.new_file || (present_is_dir && !run.opts.recursive) {
            let dir = if pa.is_some() { an } else { bn };
            run.differ();
            run.say(format!("Only in {dir}: {name}\n"));
            return;
        }
    }
    match (ka, kb) {
        (Kind::Dir, Kind::Dir) | (Kind::Dir, Kind::Missing) | (Kind::Missing, Kind::Dir) => {
            if run.opts.recursive {
                dirs(
                    run,
                    pa.filter(|_| ka == Kind::Dir),
                    pb.filter(|_| kb == Kind::Dir),
                    na,
                    nb,
                )
                .await;
            } else {
                run.say(format!("Common subdirectories: {na} and {nb}\n"));
            }
        }
        (Kind::Dir, Kind::File) => {
            run.differ();
            run.say(format!(
                "File {na} is a directory while file {nb} is a regular file\n"
            ));
        }
        (Kind::File, Kind::Dir) => {
            run.differ();
            run.say(format!(
                "File {na} is a regular file while file {nb} is a directory\n"
            ));
        }
        _ => {
            run.files(side(&na, &pa, ka), side(&nb, &pb, kb), true)
                .await
        }
    }
}
