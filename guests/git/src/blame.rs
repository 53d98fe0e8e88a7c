//! Who wrote each line: blame passed from a commit to its parents along
//! the equal runs of a line diff, as git's blame does, newest commit first.
//! A file's whole-file renames are followed when the blob is unchanged;
//! git's similarity-scored rename detection and `-M`/`-C` moves are not.

use std::collections::{BTreeMap, BinaryHeap, HashMap};

use gix_hash::ObjectId;

use crate::diff::{lines, ops};
use crate::error::Result;
use crate::objects;
use crate::repo::Repo;
use similar::DiffOp;

/// Where a line of the final file came from.
#[derive(Clone, Debug)]
pub struct Origin {
    /// `None`: the line is in the work tree only.
    pub commit: Option<ObjectId>,
    pub path: String,
    /// 1-based line number in that commit's version of the file.
    pub line: usize,
}

/// A commit whose version of a path still holds lines to place.
struct Suspect {
    path: String,
    blob: ObjectId,
    /// (0-based line in this suspect, 0-based final line)
    lines: Vec<(usize, usize)>,
}

/// What porcelain output needs about a blamed commit besides its id.
#[derive(Default)]
pub struct Facts {
    /// The parent and path the blame was last compared with (`previous`).
    pub previous: HashMap<ObjectId, (ObjectId, String)>,
}

/// Blames `final_lines` lines of `path`, starting from `start` whose
/// version is `blob`; `pending` are the (suspect line, final line) pairs
/// still to place (all of them for a committed file).
pub fn run(
    repo: &mut Repo,
    start: ObjectId,
    path: &str,
    blob: ObjectId,
    pending: Vec<(usize, usize)>,
    origins: &mut [Option<Origin>],
) -> Result<Facts> {
    let mut facts = Facts::default();
    let mut queue: BinaryHeap<(i64, ObjectId)> = BinaryHeap::new();
    let mut suspects: BTreeMap<ObjectId, Suspect> = BTreeMap::new();
    queue.push((committer_time(repo, &start)?, start));
    suspects.insert(
        start,
        Suspect {
            path: path.to_owned(),
            blob,
            lines: pending,
        },
    );
    while let Some((_, id)) = queue.pop() {
        let Some(mut suspect) = suspects.remove(&id) else {
            continue;
        };
        let commit = repo.commit(&id)?;
        for parent in &commit.parents {
            if suspect.lines.is_empty() {
                break;
            }
            let Some((ppath, pblob)) = find_in_parent(repo, &commit.tree, parent, &suspect)? else {
                continue;
            };
            facts
                .previous
                .entry(id)
                .or_insert_with(|| (*parent, ppath.clone()));
            let passed = pass_lines(repo, &pblob, &mut suspect)?;
            if passed.is_empty() {
                continue;
            }
            match suspects.get_mut(parent) {
                // A commit reached twice keeps its first path (renames on
                // both sides of a merge are not told apart).
                Some(s) => s.lines.extend(passed),
                None => {
                    queue.push((committer_time(repo, parent)?, *parent));
                    suspects.insert(
                        *parent,
                        Suspect {
                            path: ppath,
                            blob: pblob,
                            lines: passed,
                        },
                    );
                }
            }
        }
        for (own, fin) in suspect.lines {
            origins[fin] = Some(Origin {
                commit: Some(id),
                path: suspect.path.clone(),
                line: own + 1,
            });
        }
    }
    Ok(facts)
}

/// The parent's version of the suspect's file: the same path, or else a
/// path the commit deleted whose blob is the suspect's (a pure rename).
fn find_in_parent(
    repo: &mut Repo,
    tree: &ObjectId,
    parent: &ObjectId,
    suspect: &Suspect,
) -> Result<Option<(String, ObjectId)>> {
    let ptree = repo.tree_of(parent)?;
    if let Some(id) = objects::lookup_path(&mut repo.odb, &ptree, &suspect.path)? {
        return Ok(Some((suspect.path.clone(), id)));
    }
    let before = objects::flatten(&mut repo.odb, &ptree)?;
    let after = objects::flatten(&mut repo.odb, tree)?;
    Ok(before
        .into_iter()
        .find(|(p, (_, id))| *id == suspect.blob && !after.contains_key(p))
        .map(|(p, (_, id))| (p, id)))
}

/// Moves the suspect's lines that the parent's version also has (an equal
/// run of the diff) to the parent, renumbered; the rest stay.
fn pass_lines(
    repo: &mut Repo,
    parent_blob: &ObjectId,
    suspect: &mut Suspect,
) -> Result<Vec<(usize, usize)>> {
    if *parent_blob == suspect.blob {
        return Ok(std::mem::take(&mut suspect.lines));
    }
    let old = repo.odb.must_read(parent_blob)?.data;
    let new = repo.odb.must_read(&suspect.blob)?.data;
    let map = equal_map(&old, &new);
    let mut passed = Vec::new();
    suspect.lines.retain(|&(own, fin)| match map.get(&own) {
        Some(&theirs) => {
            passed.push((theirs, fin));
            false
        }
        None => true,
    });
    Ok(passed)
}

/// new line → old line, for the lines in the diff's equal runs.
pub fn equal_map(old: &[u8], new: &[u8]) -> HashMap<usize, usize> {
    let (a, b) = (lines(old), lines(new));
    let mut map = HashMap::new();
    for op in ops(&a, &b) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for k in 0..len {
                map.insert(new_index + k, old_index + k);
            }
        }
    }
    map
}

fn committer_time(repo: &mut Repo, id: &ObjectId) -> Result<i64> {
    let c = repo.commit(id)?;
    Ok(crate::ident::parse_sig(&c.committer).seconds)
}
