//! A repository: where `.git` and the work tree are, its config, objects
//! and refs (loose files and `packed-refs`), and revisions as git names
//! them (`HEAD`, branches, tags, hex prefixes, `~N`, `^N`, `REV:path`).

use std::path::{Path, PathBuf};

use gix_hash::ObjectId;

use crate::config::Config;
use crate::error::{Error, Result, fatal};
use crate::objects::{self, Commit};
use crate::odb::{Kind, Odb};

pub struct Repo {
    pub git_dir: PathBuf,
    pub work_tree: PathBuf,
    /// The cwd relative to the work tree, `/`-terminated (`""` at the top).
    pub prefix: String,
    pub odb: Odb,
    pub config: Config,
    /// `--full-name`: paths are shown from the top, not from the cwd.
    pub display_prefix_off: bool,
}

/// What HEAD says.
pub enum Head {
    /// On a branch (which may have no commit yet).
    Branch(String, Option<ObjectId>),
    Detached(ObjectId),
}

pub fn not_a_repo() -> Error {
    Error::Fatal("not a git repository (or any of the parent directories): .git".to_owned())
}

impl Repo {
    pub fn discover(overrides: &[(String, String)]) -> Result<Repo> {
        let cwd = std::env::current_dir()?;
        let mut dir = cwd.clone();
        loop {
            let dotgit = dir.join(".git");
            if dotgit.join("HEAD").is_file() {
                return Ok(Repo::at(dotgit, dir.clone(), &cwd, overrides));
            }
            if !dir.pop() {
                return Err(not_a_repo());
            }
        }
    }

    pub fn at(
        git_dir: PathBuf,
        work_tree: PathBuf,
        cwd: &Path,
        overrides: &[(String, String)],
    ) -> Repo {
        let prefix = cwd
            .strip_prefix(&work_tree)
            .ok()
            .map(|p| p.to_string_lossy().into_owned())
            .filter(|p| !p.is_empty())
            .map(|p| format!("{p}/"))
            .unwrap_or_default();
        let odb = Odb::new(&git_dir.join("objects"));
        let config = Config::load(Some(&git_dir), overrides);
        Repo {
            git_dir,
            work_tree,
            prefix,
            odb,
            config,
            display_prefix_off: false,
        }
    }

    // ---------------------------------------------------------------- refs

    pub fn read_ref_file(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.git_dir.join(name))
            .ok()
            .map(|s| s.trim_end().to_owned())
    }

    pub fn packed_refs(&self) -> Vec<(String, ObjectId)> {
        let text = std::fs::read_to_string(self.git_dir.join("packed-refs")).unwrap_or_default();
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with('^'))
            .filter_map(|l| {
                let (hex, name) = l.split_once(' ')?;
                Some((name.to_owned(), ObjectId::from_hex(hex.as_bytes()).ok()?))
            })
            .collect()
    }

    /// The id a full ref name points to, following symbolic refs.
    pub fn resolve_ref(&self, name: &str) -> Option<ObjectId> {
        let mut name = name.to_owned();
        for _ in 0..5 {
            match self.read_ref_file(&name) {
                Some(content) => match content.strip_prefix("ref: ") {
                    Some(target) => name = target.to_owned(),
                    None => return ObjectId::from_hex(content.as_bytes()).ok(),
                },
                None => {
                    return self
                        .packed_refs()
                        .into_iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, id)| id);
                }
            }
        }
        None
    }

    pub fn head(&self) -> Result<Head> {
        let Some(content) = self.read_ref_file("HEAD") else {
            return Err(not_a_repo());
        };
        if let Some(target) = content.strip_prefix("ref: ") {
            let branch = target
                .strip_prefix("refs/heads/")
                .unwrap_or(target)
                .to_owned();
            return Ok(Head::Branch(branch, self.resolve_ref(target)));
        }
        match ObjectId::from_hex(content.as_bytes()) {
            Ok(id) => Ok(Head::Detached(id)),
            Err(_) => fatal("HEAD is corrupt"),
        }
    }

    pub fn head_commit(&self) -> Result<Option<ObjectId>> {
        Ok(match self.head()? {
            Head::Branch(_, id) => id,
            Head::Detached(id) => Some(id),
        })
    }

    /// Writes a loose ref (through a lock file and a rename, as git does).
    pub fn write_ref(&self, name: &str, id: &ObjectId) -> Result<()> {
        let path = self.git_dir.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let lock = path.with_file_name(format!(
            "{}.lock",
            path.file_name()
                .map(|f| f.to_string_lossy())
                .unwrap_or_default()
        ));
        std::fs::write(&lock, format!("{id}\n"))?;
        std::fs::rename(&lock, &path)?;
        Ok(())
    }

    /// Moves what HEAD points at (its branch, or HEAD itself when detached).
    pub fn update_head(&self, id: &ObjectId) -> Result<()> {
        let content = self.read_ref_file("HEAD").unwrap_or_default();
        match content.strip_prefix("ref: ") {
            Some(target) => self.write_ref(target, id),
            None => self.write_ref("HEAD", id),
        }
    }

    pub fn branches(&self) -> Vec<(String, ObjectId)> {
        self.refs_under("refs/heads/")
    }

    /// Every ref under `prefix` (loose ones shadow packed), sorted by name.
    pub fn refs_under(&self, prefix: &str) -> Vec<(String, ObjectId)> {
        let mut out: std::collections::BTreeMap<String, ObjectId> = self
            .packed_refs()
            .into_iter()
            .filter(|(n, _)| n.starts_with(prefix))
            .collect();
        let root = self.git_dir.join(prefix);
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let path = e.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Ok(rel) = path.strip_prefix(&self.git_dir) {
                    let name = rel.to_string_lossy().into_owned();
                    if name.ends_with(".lock") {
                        continue;
                    }
                    if let Some(id) = self.resolve_ref(&name) {
                        out.insert(name, id);
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    // ----------------------------------------------------------- revisions

    /// A revision to an object id, or `None` if it names nothing.
    pub fn rev_parse(&mut self, rev: &str) -> Result<Option<ObjectId>> {
        if let Some(path) = rev.strip_prefix(':') {
            // `:path` (or `:0:path`): the staged blob.
            let path = path.strip_prefix("0:").unwrap_or(path);
            let index = crate::index::Index::load(&self.git_dir)?;
            return Ok(index.files().get(path).map(|(_, id)| *id));
        }
        if let Some((base, path)) = rev.split_once(':') {
            let Some(tree_of) = self.rev_parse(if base.is_empty() { "HEAD" } else { base })? else {
                return Ok(None);
            };
            let tree = self.tree_of(&tree_of)?;
            return objects::lookup_path(&mut self.odb, &tree, path.trim_start_matches("./"));
        }
        let (base, suffix) = match rev.find(['~', '^']) {
            Some(i) => (&rev[..i], &rev[i..]),
            None => (rev, ""),
        };
        let Some(mut id) = self.rev_base(if base.is_empty() { "HEAD" } else { base })? else {
            return Ok(None);
        };
        let mut rest = suffix;
        while !rest.is_empty() {
            let op = rest.as_bytes()[0];
            rest = &rest[1..];
            if op == b'^' && rest.starts_with('{') {
                let end = rest.find('}').unwrap_or(rest.len());
                let what = &rest[1..end];
                rest = rest.get(end + 1..).unwrap_or("");
                id = match what {
                    "tree" => self.tree_of(&id)?,
                    "commit" | "" => self.peel_to_commit(&id)?,
                    _ => return Ok(None),
                };
                continue;
            }
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let n: usize = if digits == 0 {
                1
            } else {
                rest[..digits].parse().unwrap_or(1)
            };
            rest = &rest[digits..];
            let peeled = self.peel_to_commit(&id)?;
            let commit = self.commit(&peeled)?;
            if op == b'~' {
                let mut c = commit;
                let mut cur = peeled;
                for _ in 0..n {
                    let Some(p) = c.parents.first().copied() else {
                        return Ok(None);
                    };
                    cur = p;
                    c = self.commit(&p)?;
                }
                id = cur;
            } else if n == 0 {
                id = peeled;
            } else {
                match commit.parents.get(n - 1) {
                    Some(p) => id = *p,
                    None => return Ok(None),
                }
            }
        }
        Ok(Some(id))
    }

    fn rev_base(&mut self, name: &str) -> Result<Option<ObjectId>> {
        if name == "HEAD" || name == "@" {
            return self.head_commit();
        }
        if let Some(n) = name.strip_prefix("@{-").and_then(|r| r.strip_suffix('}')) {
            let Some(prev) = crate::reflog::previous_checkout(self, n.parse().unwrap_or(1)) else {
                return Ok(None);
            };
            return self.rev_base(&prev);
        }
        if let Some((base, n)) = name.strip_suffix('}').and_then(|r| r.rsplit_once("@{"))
            && let Ok(n) = n.parse::<usize>()
        {
            return Ok(self.reflog_entry(base, n));
        }
        if matches!(
            name,
            "ORIG_HEAD" | "MERGE_HEAD" | "FETCH_HEAD" | "CHERRY_PICK_HEAD"
        ) {
            return Ok(self
                .read_ref_file(name)
                .and_then(|h| ObjectId::from_hex(h.as_bytes()).ok()));
        }
        for candidate in [
            name.to_owned(),
            format!("refs/{name}"),
            format!("refs/tags/{name}"),
            format!("refs/heads/{name}"),
            format!("refs/remotes/{name}"),
        ] {
            if let Some(id) = self.resolve_ref(&candidate) {
                return Ok(Some(id));
            }
        }
        if name.len() >= 4 && name.len() <= 40 && name.bytes().all(|b| b.is_ascii_hexdigit()) {
            let lower = name.to_ascii_lowercase();
            let ids = self.odb.ids_with_prefix(&lower)?;
            return match ids.len() {
                0 => Ok(None),
                1 => Ok(Some(ids[0])),
                _ => fatal(format!("ambiguous argument '{name}'")),
            };
        }
        Ok(None)
    }

    /// `REF@{N}`: the value `REF` had N moves ago, from its reflog (0 is
    /// now; `stash@{N}` is the Nth stash).
    fn reflog_entry(&self, base: &str, n: usize) -> Option<ObjectId> {
        let full = match base {
            "" | "HEAD" | "@" => "HEAD".to_owned(),
            b if b.starts_with("refs/") => b.to_owned(),
            b => [
                "refs/{b}",
                "refs/heads/{b}",
                "refs/tags/{b}",
                "refs/remotes/{b}",
            ]
            .iter()
            .map(|f| f.replace("{b}", b))
            .find(|f| self.resolve_ref(f).is_some())?,
        };
        let text = std::fs::read_to_string(self.git_dir.join("logs").join(&full)).ok()?;
        let line = text.lines().rev().nth(n)?;
        let new = line.split(' ').nth(1)?;
        ObjectId::from_hex(new.as_bytes()).ok()
    }

    /// What an annotated tag object points to (without reading packs
    /// again for a ref that is not a tag).
    pub fn read_tag_target(&self, id: &ObjectId) -> Option<ObjectId> {
        let mut odb = Odb::new(&self.git_dir.join("objects"));
        let o = odb.read(id).ok()??;
        if o.kind != Kind::Tag {
            return None;
        }
        objects::tag_target(&o.data).ok()
    }

    /// `rev` for a start point (`git checkout -b NAME START`).
    pub fn clone_rev(&mut self, rev: &str) -> Result<ObjectId> {
        match self.rev_parse(rev)? {
            Some(id) => Ok(id),
            None => fatal(format!(
                "'{rev}' is not a commit and a branch cannot be created from it"
            )),
        }
    }

    /// `rev`, or the git error for an unknown revision.
    pub fn must_rev(&mut self, rev: &str) -> Result<ObjectId> {
        match self.rev_parse(rev)? {
            Some(id) => Ok(id),
            None => fatal(format!(
                "ambiguous argument '{rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'"
            )),
        }
    }

    pub fn peel_to_commit(&mut self, id: &ObjectId) -> Result<ObjectId> {
        let mut id = *id;
        for _ in 0..10 {
            let o = self.odb.must_read(&id)?;
            match o.kind {
                Kind::Commit => return Ok(id),
                Kind::Tag => id = objects::tag_target(&o.data)?,
                _ => return fatal(format!("{id} is not a commit")),
            }
        }
        fatal("tag chain too long")
    }

    pub fn commit(&mut self, id: &ObjectId) -> Result<Commit> {
        let o = self.odb.must_read(id)?;
        if o.kind != Kind::Commit {
            return fatal(format!("{id} is not a commit"));
        }
        objects::parse_commit(&o.data)
    }

    pub fn tree_of(&mut self, id: &ObjectId) -> Result<ObjectId> {
        let o = self.odb.must_read(id)?;
        match o.kind {
            Kind::Tree => Ok(*id),
            Kind::Commit => Ok(objects::parse_commit(&o.data)?.tree),
            Kind::Tag => {
                let target = objects::tag_target(&o.data)?;
                self.tree_of(&target)
            }
            Kind::Blob => fatal(format!("{id} is not a tree")),
        }
    }

    /// The shortest unambiguous hex prefix, at least 7 (core.abbrev).
    pub fn abbrev(&mut self, id: &ObjectId) -> String {
        let hex = id.to_string();
        let min = self
            .config
            .get("core.abbrev")
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(7)
            .clamp(4, 40);
        for len in min..40 {
            match self.odb.ids_with_prefix(&hex[..len]) {
                Ok(ids) if ids.len() <= 1 => return hex[..len].to_owned(),
                Ok(_) => continue,
                Err(_) => break,
            }
        }
        hex[..min].to_owned()
    }

    /// A path given on the command line, relative to the cwd, as a
    /// repository path (`a/b`), or `None` if it leaves the work tree.
    pub fn repo_path(&self, arg: &str) -> Option<String> {
        let joined = format!("{}{}", self.prefix, arg);
        let mut parts: Vec<&str> = Vec::new();
        for part in joined.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                p => parts.push(p),
            }
        }
        Some(parts.join("/"))
    }

    /// A repository path as the user sees it from the cwd.
    pub fn display_path(&self, path: &str) -> String {
        if self.prefix.is_empty() || self.display_prefix_off {
            return path.to_owned();
        }
        let prefix_parts: Vec<&str> = self.prefix.trim_end_matches('/').split('/').collect();
        let parts: Vec<&str> = path.split('/').collect();
        let common = prefix_parts
            .iter()
            .zip(&parts)
            .take_while(|(a, b)| a == b)
            .count();
        let mut out: Vec<&str> = vec![".."; prefix_parts.len() - common];
        out.extend(&parts[common..]);
        out.join("/")
    }
}

/// An absolute path with `.` and `..` resolved lexically (what `init`
/// and `clone` name their directories by; wasi has no realpath here).
pub fn normalize(p: &std::path::Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}
