//! The endless devices (`guests/shell/src/devices.rs`, `head.rs`): the bytes asked
//! for, or a clear error; never fewer bytes with exit 0.

use super::*;

fn size(ws: &Workspace, path: &str) -> u64 {
    ws.stat(path)
        .unwrap_or_else(|e| panic!("stat {path}: {e}"))
        .size
}

/// The issue's cases: 3,000,000 random bytes gave 8 KiB, `head -c` of `/dev/zero`
/// 1 MiB, both with exit 0.
#[test]
fn head_gives_the_bytes_asked_for() {
    let ws = in_memory();
    let script = "head -c 3000000 /dev/urandom > /r && head -c 5M /dev/zero > /z";
    let r = run(&ws, script);
    assert_eq!(r.exit_code, 0, "{}", show(script, &r));
    assert_eq!(size(&ws, "/r"), 3_000_000);
    assert_eq!(size(&ws, "/z"), 5 << 20);
    assert!(ws.read("/z").expect("/z").iter().all(|b| *b == 0));
    let random = ws.read("/r").expect("/r");
    let distinct: std::collections::BTreeSet<u8> = random.iter().copied().collect();
    assert!(
        distinct.len() > 200,
        "not random: {} byte values",
        distinct.len()
    );
}

/// What agents write, against GNU's answers.
#[test]
fn device_pipelines_as_gnu() {
    let ws = in_memory();
    let cases = [
        ("cat /dev/urandom | head -c 2000000 | wc -c", "2000000\n"),
        (
            "cat /dev/zero | tr '\\0' x | head -c 300000 | wc -c",
            "300000\n",
        ),
        ("head -c 10 < /dev/zero | wc -c", "10\n"),
        (
            "tr -dc a-z < /dev/urandom | head -c 10 | tr -d a-z | wc -c",
            "0\n",
        ),
        ("tr -dc a-z < /dev/urandom | head -c 10 | wc -c", "10\n"),
        ("head -n 2 /dev/null | wc -c", "0\n"),
        ("printf 'a\\nb\\nc' | head -n -1", "a\nb\n"),
        ("printf 'a\\nb\\nc\\n' | head -2", "a\nb\n"),
    ];
    for (script, want) in cases {
        let r = run(&ws, script);
        assert_eq!(
            (r.exit_code, stdout(&r).as_str()),
            (0, want),
            "{}",
            show(script, &r)
        );
    }
}

/// bashkit reads an input redirection whole, so `< /dev/zero` is a bounded
/// prefix: the guest's `head` and `cat` say so when they run out of it.
#[test]
fn a_redirected_device_that_runs_out_is_an_error() {
    let ws = in_memory();
    for script in [
        "set -o pipefail; < /dev/zero head -c 2M | wc -c",
        "set -o pipefail; cat < /dev/urandom | wc -c",
    ] {
        let r = run(&ws, script);
        let shown = show(script, &r);
        assert_eq!(r.exit_code, 1, "{shown}");
        assert!(
            stderr(&r).contains("an endless device read through '<' is cut short"),
            "{shown}"
        );
    }
}
