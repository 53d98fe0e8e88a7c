//! Commits, trees and tags: decoded with gix-object, encoded here in
//! git's exact byte layout (so ids match real git's), and trees flattened
//! to and built from sorted path lists.

use std::collections::BTreeMap;

use gix_hash::ObjectId;

use crate::error::{Result, fatal};
use crate::odb::{Kind, Odb};

pub const MODE_TREE: u32 = 0o40000;

pub struct Commit {
    pub tree: ObjectId,
    pub parents: Vec<ObjectId>,
    /// The raw `Name <email> seconds +zone` lines.
    pub author: String,
    pub committer: String,
    pub message: String,
}

pub fn parse_commit(data: &[u8]) -> Result<Commit> {
    let c = match gix_object::CommitRef::from_bytes(data, gix_hash::Kind::Sha1) {
        Ok(c) => c,
        Err(e) => return fatal(format!("a commit is corrupt: {e}")),
    };
    let id =
        |hex: &[u8]| ObjectId::from_hex(hex).map_err(|e| crate::error::Error::Fatal(e.to_string()));
    Ok(Commit {
        tree: id(c.tree)?,
        parents: c.parents.iter().map(|p| id(p)).collect::<Result<_>>()?,
        author: c.author.to_string(),
        committer: c.committer.to_string(),
        message: c.message.to_string(),
    })
}

pub fn encode_commit(c: &Commit) -> Vec<u8> {
    let mut out = format!("tree {}\n", c.tree);
    for p in &c.parents {
        out.push_str(&format!("parent {p}\n"));
    }
    out.push_str(&format!(
        "author {}\ncommitter {}\n\n{}",
        c.author, c.committer, c.message
    ));
    out.into_bytes()
}

pub fn tag_target(data: &[u8]) -> Result<ObjectId> {
    let text = String::from_utf8_lossy(data);
    let hex = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("object "))
        .unwrap_or("");
    ObjectId::from_hex(hex.as_bytes()).or_else(|_| fatal("a tag is corrupt"))
}

pub struct TreeEntry {
    pub mode: u32,
    pub name: String,
    pub id: ObjectId,
}

pub fn parse_tree(data: &[u8]) -> Result<Vec<TreeEntry>> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let Some(space) = rest.iter().position(|&b| b == b' ') else {
            return fatal("a tree is corrupt");
        };
        let Some(nul) = rest.iter().position(|&b| b == 0) else {
            return fatal("a tree is corrupt");
        };
        if nul + 21 > rest.len() || space > nul {
            return fatal("a tree is corrupt");
        }
        if nul == space + 1 {
            return fatal("empty filename in tree entry");
        }
        let mode = u32::from_str_radix(&String::from_utf8_lossy(&rest[..space]), 8).unwrap_or(0);
        let name = String::from_utf8_lossy(&rest[space + 1..nul]).into_owned();
        let id = ObjectId::from_bytes_or_panic(&rest[nul + 1..nul + 21]);
        out.push(TreeEntry { mode, name, id });
        rest = &rest[nul + 21..];
    }
    Ok(out)
}

/// git's tree order: names compared as if a tree's had a trailing `/`.
fn tree_sort_key(e: &TreeEntry) -> Vec<u8> {
    let mut k = e.name.as_bytes().to_vec();
    if e.mode == MODE_TREE {
        k.push(b'/');
    }
    k
}

pub fn encode_tree(entries: &mut [TreeEntry]) -> Vec<u8> {
    entries.sort_by_key(tree_sort_key);
    let mut out = Vec::new();
    for e in entries.iter() {
        out.extend_from_slice(format!("{:o} {}\0", e.mode, e.name).as_bytes());
        out.extend_from_slice(e.id.as_bytes());
    }
    out
}

/// Every blob (and submodule) under `tree`, by full path.
pub fn flatten(odb: &mut Odb, tree: &ObjectId) -> Result<BTreeMap<String, (u32, ObjectId)>> {
    let mut out = BTreeMap::new();
    flatten_into(odb, tree, "", &mut out)?;
    Ok(out)
}

fn flatten_into(
    odb: &mut Odb,
    tree: &ObjectId,
    prefix: &str,
    out: &mut BTreeMap<String, (u32, ObjectId)>,
) -> Result<()> {
    let o = odb.must_read(tree)?;
    for e in parse_tree(&o.data)? {
        let path = format!("{prefix}{}", e.name);
        if e.mode == MODE_TREE {
            flatten_into(odb, &e.id, &format!("{path}/"), out)?;
        } else {
            out.insert(path, (e.mode, e.id));
        }
    }
    Ok(())
}

/// Writes the trees for `files` (sorted full paths); the root tree's id.
pub fn write_trees(odb: &mut Odb, files: &[(String, u32, ObjectId)]) -> Result<ObjectId> {
    write_level(odb, files, "")
}

fn write_level(odb: &mut Odb, files: &[(String, u32, ObjectId)], prefix: &str) -> Result<ObjectId> {
    let mut entries = Vec::new();
    let mut i = 0;
    while i < files.len() {
        let rest = &files[i].0[prefix.len()..];
        match rest.find('/') {
            None => {
                entries.push(TreeEntry {
                    mode: files[i].1,
                    name: rest.to_owned(),
                    id: files[i].2,
                });
                i += 1;
            }
            Some(slash) => {
                let dir = &rest[..slash];
                let sub_prefix = format!("{prefix}{dir}/");
                let end = files[i..]
                    .iter()
                    .position(|f| !f.0.starts_with(&sub_prefix))
                    .map_or(files.len(), |n| i + n);
                let id = write_level(odb, &files[i..end], &sub_prefix)?;
                entries.push(TreeEntry {
                    mode: MODE_TREE,
                    name: dir.to_owned(),
                    id,
                });
                i = end;
            }
        }
    }
    let data = encode_tree(&mut entries);
    odb.write(Kind::Tree, &data)
}

/// The object at `path` inside `tree`.
pub fn lookup_path(odb: &mut Odb, tree: &ObjectId, path: &str) -> Result<Option<ObjectId>> {
    let mut cur = *tree;
    for part in path.split('/').filter(|p| !p.is_empty()) {
        let o = odb.must_read(&cur)?;
        if o.kind != Kind::Tree {
            return Ok(None);
        }
        match parse_tree(&o.data)?.into_iter().find(|e| e.name == part) {
            Some(e) => cur = e.id,
            None => return Ok(None),
        }
    }
    Ok(Some(cur))
}
