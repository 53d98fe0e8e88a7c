//! The 4096-byte path limit holds for every path an operation makes, moves
//! and copies of directories included, and import and export handle trees
//! as deep as the limit allows.

use computer_store::{Errno, MAX_PATH, Workspace};

use crate::support::*;

/// `/` then `a/` `levels` times: a path of `2 * levels` bytes.
fn chain(levels: usize) -> String {
    "/a".repeat(levels)
}

#[test]
fn nesting_by_rename_stops_at_the_path_limit() {
    let ws = ws();
    mkdirp(&ws, "/x");
    let mut depth = 1;
    let err = loop {
        mkdirp(&ws, "/y");
        if let Err(e) = ws.rename("/x", "/y/x") {
            break e;
        }
        ws.rename("/y", "/x").unwrap();
        depth += 1;
        assert!(depth <= MAX_PATH, "nested {depth} levels");
    };
    assert_eq!(err.code, Errno::ENAMETOOLONG, "{err}");
    assert!(
        err.message.contains("/y/x") && err.message.contains("4096"),
        "{err}"
    );
    // Every level is two bytes ("/x"): the deepest path fits the limit.
    assert_eq!(depth, MAX_PATH / 2);
    let deepest = "/x".repeat(depth);
    assert!(ws.stat(&deepest).is_ok());
}

#[test]
fn a_directory_moves_or_copies_only_where_its_deepest_entry_fits() {
    let ws = ws();
    // /t/a/a/.../a/f: the file's path is 2 + 2 * 2000 + 2 = 4004 bytes.
    let deep = format!("/t{}/f", chain(2000));
    put(&ws, &deep, "x");
    mkdirp(&ws, &format!("/{}", "p".repeat(100)));
    let far = format!("/{}/t", "p".repeat(100));
    for result in [ws.rename("/t", &far), ws.copy("/t", &far, true)] {
        let e = result.unwrap_err();
        assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    }
    assert_eq!(get(&ws, &deep), "x");
    assert!(!ws.exists(&far).unwrap());
    // Ninety bytes more still fit: 4004 + 90 = 4094.
    let near = format!("/{}/t", "p".repeat(88));
    mkdirp(&ws, &format!("/{}", "p".repeat(88)));
    ws.copy("/t", &near, true).unwrap();
    ws.rename("/t", "/u").unwrap();
    assert_eq!(get(&ws, &format!("{near}{}/f", chain(2000))), "x");
}

#[test]
fn a_symlink_cannot_lengthen_a_new_path_past_the_limit() {
    let ws = ws();
    // 4090 bytes: room for "/f" below it, not for "/0123456789".
    let deep = chain(2045);
    mkdirp(&ws, &deep);
    ws.symlink(&deep, "/l").unwrap();
    let e = ws.mkdir("/l/0123456789", &Default::default()).unwrap_err();
    assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    let e = ws
        .write("/l/0123456789", b"x", &Default::default())
        .unwrap_err();
    assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    ws.write("/l/f", b"x", &Default::default()).unwrap();
    assert_eq!(get(&ws, &format!("{deep}/f")), "x");
}

#[test]
fn export_and_import_round_trip_a_tree_as_deep_as_the_limit() {
    let ws = Workspace::in_memory().unwrap();
    let deep = format!("{}/f", chain(2000));
    put(&ws, &deep, "bottom\n");
    let host = tempfile::tempdir().unwrap();
    let stats = ws.export("/", host.path()).unwrap();
    assert_eq!((stats.files, stats.dirs), (1, 2000));
    let back = Workspace::in_memory().unwrap();
    let stats = back.import(host.path(), "/", &mut |_| {}).unwrap();
    assert_eq!((stats.files, stats.dirs), (1, 2000));
    assert_eq!(get(&back, &deep), "bottom\n");
}

#[test]
fn a_bound_left_high_by_removals_refuses_no_move_that_fits() {
    let ws = ws();
    // A path of 4004 bytes, then gone: the workspace's bound stays high.
    let deep = format!("/t{}/f", chain(2000));
    put(&ws, &deep, "x");
    rmrf(&ws, "/t");
    put(&ws, "/s/a/b", "y");
    let top = format!("/{}", "q".repeat(200));
    mkdirp(&ws, &top);
    let far = format!("{top}/{}", "q".repeat(99));
    ws.rename("/s", &far).unwrap();
    ws.copy(&far, &format!("{far}2"), true).unwrap();
    assert_eq!(get(&ws, &format!("{far}2/a/b")), "y");
    // The bound was made exact again; the limit still holds on the next move.
    put(&ws, &format!("/t{}/f", chain(1900)), "z");
    let e = ws.rename("/t", &format!("{far}/t")).unwrap_err();
    assert_eq!(e.code, Errno::ENAMETOOLONG, "{e}");
    let report = ws.fsck().unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
}

/// A small deterministic generator (no dependency for one test).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Random mkdir, rename, copy and rm of directories with long names, each
/// checked against a model that knows every path: an operation fails with
/// ENAMETOOLONG exactly when some path it would make is past the limit,
/// and `fsck` (which checks the stored bound against the tree) stays clean.
#[test]
fn moves_and_copies_are_refused_exactly_when_a_path_would_pass_the_limit() {
    let ws = ws();
    let mut dirs: Vec<String> = vec![];
    let mut rng = Lcg(17);
    let mut made = 0usize;
    let (mut refused, mut allowed) = (0, 0);
    let under = |d: &str, top: &str| d == top || d.starts_with(&format!("{top}/"));
    for step in 0..2000 {
        made += 1;
        let name = format!("{}{made}", "n".repeat(1 + rng.below(240)));
        // Half the time the deepest directory, so that paths reach the limit.
        let pick = |rng: &mut Lcg, dirs: &[String]| {
            let i = rng.below(2 * dirs.len() + 1);
            if i == 2 * dirs.len() {
                String::new()
            } else if i >= dirs.len() {
                dirs.iter()
                    .max_by_key(|d| d.len())
                    .cloned()
                    .unwrap_or_default()
            } else {
                dirs[i].clone()
            }
        };
        let op = rng.below(10);
        if dirs.is_empty() || op < 5 {
            let path = format!("{}/{name}", pick(&mut rng, &dirs));
            let result = ws.mkdir(&path, &Default::default());
            if path.len() <= MAX_PATH {
                result.unwrap_or_else(|e| panic!("step {step}: mkdir {path}: {e}"));
                dirs.push(path);
            } else {
                assert_eq!(result.unwrap_err().code, Errno::ENAMETOOLONG);
            }
            continue;
        }
        let src = dirs[rng.below(dirs.len())].clone();
        if op == 9 {
            rmrf(&ws, &src);
            dirs.retain(|d| !under(d, &src));
            continue;
        }
        let parent = pick(&mut rng, &dirs);
        let copy = op == 8 && dirs.len() < 300;
        if under(&parent, &src) {
            continue;
        }
        let dst = format!("{parent}/{name}");
        let moved: Vec<String> = dirs
            .iter()
            .filter(|d| under(d, &src))
            .map(|d| format!("{dst}{}", &d[src.len()..]))
            .collect();
        let fits = moved.iter().all(|p| p.len() <= MAX_PATH);
        let result = if copy {
            ws.copy(&src, &dst, true)
        } else {
            ws.rename(&src, &dst)
        };
        if fits {
            result.unwrap_or_else(|e| panic!("step {step}: {src} -> {dst}: {e}"));
            allowed += 1;
            if !copy {
                dirs.retain(|d| !under(d, &src));
            }
            dirs.extend(moved);
        } else {
            let e = result.expect_err(&format!("step {step}: {src} -> {dst} fit"));
            assert_eq!(e.code, Errno::ENAMETOOLONG, "step {step}: {e}");
            refused += 1;
        }
        if step % 50 == 0 {
            let report = ws.fsck().unwrap();
            assert!(report.is_clean(), "step {step}: {:?}", report.problems);
        }
    }
    // Both outcomes were exercised, or the model proved nothing.
    assert!(
        refused > 10 && allowed > 50,
        "{refused} refused, {allowed} allowed"
    );
    for d in &dirs {
        assert!(ws.stat(d).is_ok(), "{d} is gone");
    }
    let report = ws.fsck().unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
}
