//! Held-back appends (`guests/shell/src/appends.rs`): a command that was told its
//! append succeeded finds it in the workspace, else it (or the run) fails.

use super::*;

/// The repro of the issue: another process renames the directory back and forth
/// while a loop appends to a file in it. Every `echo` that returned 0 must have
/// its line stored (before, about a third of the reported lines were lost).
#[test]
fn every_append_reported_ok_is_stored_under_concurrent_renames() {
    let (_dir, ws) = on_disk(Config::default());
    mkdir(&ws, "/d1");
    let other = Workspace::open(ws.location().expect("on disk")).expect("second handle");
    let done = std::sync::atomic::AtomicBool::new(false);
    let script = "n=0; for i in $(seq 1 1500); do echo $i >> /d1/log && n=$((n+1)); done; echo $n";
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = other.rename("/d1", "/d2");
                let _ = other.rename("/d2", "/d1");
            }
        });
        let r = run(&ws, script);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        r
    });
    let reported: usize = stdout(&r).trim().parse().unwrap_or_else(|_| {
        panic!("no count printed\n{}", show(script, &r));
    });
    let log = ws
        .read("/d1/log")
        .or_else(|_| ws.read("/d2/log"))
        .unwrap_or_default();
    let stored = log.iter().filter(|b| **b == b'\n').count();
    assert_eq!(
        stored,
        reported,
        "lines stored vs reported ok\n{}",
        show(script, &r)
    );
    assert!(
        reported < 1500,
        "the renames never got in the way: the test proves nothing\n{}",
        show(script, &r)
    );
}

/// Files may not grow past `LIMIT`. `seq 1 100000` writes 588,895 bytes: the first
/// 4 KiB append and two 256 KiB pieces stay under the limit, so what fails is a piece
/// held back after the first append (sent by the 20 ms timer or at the end).
const LIMIT: u64 = 550_000;

fn limited_workspace() -> (tempfile::TempDir, Arc<Workspace>) {
    on_disk(Config {
        max_file_size: LIMIT,
        ..Config::default()
    })
}

/// The guest's own streaming `cat`: a held-back piece fails (the file would pass the
/// size limit), so `cat` fails and `&&` does not go on (before, the run printed
/// `ok` and exited 0 with a `write error` line).
#[test]
fn cat_fails_when_a_held_back_append_fails() {
    let (_dir, ws) = limited_workspace();
    let script = "seq 1 100000 | cat > /f && echo ok";
    let r = run(&ws, script);
    let shown = show(script, &r);
    assert_eq!(r.exit_code, 1, "{shown}");
    assert!(!stdout(&r).contains("ok"), "{shown}");
    assert!(stderr(&r).contains("cat: write error"), "{shown}");
    assert!(stderr(&r).contains("File too large"), "{shown}");
}

/// bashkit's streaming `seq` (like `grep`, `tr`, `yes`) has no end hook the guest
/// can use: its last piece is sent when the next command starts, and a failure then
/// fails the run; a piece the timer sent fails `seq` itself. Before, the run exited
/// 0 either way.
#[test]
fn a_lost_tail_of_a_bashkit_streaming_command_fails_the_run() {
    let (_dir, ws) = limited_workspace();
    let script = "seq 1 100000 > /f && echo next";
    let r = run(&ws, script);
    let shown = show(script, &r);
    assert_ne!(r.exit_code, 0, "{shown}");
    assert!(stderr(&r).contains("write error"), "{shown}");
    assert!(stderr(&r).contains("File too large"), "{shown}");
}

/// Streaming through a redirect stays batched and whole.
#[test]
fn streamed_appends_arrive_whole() {
    let ws = in_memory();
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    write(&ws, "/src", &data);
    let script = "cat /src > /copy && cat /src /src >> /twice && head -c 2500000 /src > /cut";
    let r = run(&ws, script);
    assert_eq!(r.exit_code, 0, "{}", show(script, &r));
    assert_eq!(ws.read("/copy").expect("copy"), data);
    assert_eq!(
        ws.read("/twice").expect("twice"),
        [&data[..], &data[..]].concat()
    );
    assert_eq!(ws.read("/cut").expect("cut"), &data[..2_500_000]);
}
