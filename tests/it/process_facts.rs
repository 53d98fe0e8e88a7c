//! The process facts every guest shares (issue 32): `/dev` devices through
//! wasi:filesystem, one user and group, pids per run, a per-process umask.
//! Host python3 and bash are the oracles for formats; the guests must agree
//! with each other on values.

use std::process::Command;

use computer_tests::{Ws, component_cache_dir, run_command, text};

fn ws() -> Ws {
    let ws = Ws::new();
    ws.ok(&["init"]);
    ws
}

/// `computer ARGS` with the shared component cache; stdout, asserting success.
fn ours(ws: &Ws, args: &[&str], stdin: &[u8]) -> String {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}\n{}",
        out.status,
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn host(program: &str, args: &[&str]) -> String {
    let out = run_command(Command::new(program).args(args), b"");
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// What a program sees of `/dev`, in a form that is the same on Linux.
const DEVICES_PY: &str = r#"
import os, stat
with open("/dev/null", "w") as f:
    print(f.write("gone"))
print(repr(open("/dev/null").read()))
print(open("/dev/zero", "rb").read(5))
for name in ("urandom", "random"):
    data = open("/dev/" + name, "rb").read(64)
    print(name, len(data), len(set(data)) > 8)
for name in ("null", "zero", "random", "urandom"):
    print(name, stat.S_ISCHR(os.stat("/dev/" + name).st_mode))
print({"null", "zero", "random", "urandom"} <= set(os.listdir("/dev")))
print(stat.S_ISDIR(os.fstat(os.open("/dev", os.O_RDONLY)).st_mode))
"#;

#[test]
fn devices_answer_as_linux_does_for_commands() {
    let ws = ws();
    let expected = host("/usr/bin/python3", &["-c", DEVICES_PY]);
    let actual = ours(&ws, &["run", "python3", "-c", DEVICES_PY], b"");
    assert_eq!(actual, expected);
}

#[test]
fn standard_stream_devices_reach_the_commands_own_streams() {
    let ws = ws();
    let script = "import sys\n\
        data = open('/dev/stdin').read()\n\
        open('/dev/stdout', 'w').write('out:' + data)\n\
        open('/dev/stderr', 'w').write('err\\n')\n\
        print(open('/dev/fd/0').read() == '')";
    let mut cmd = ws.command(&["run", "--stdin", "-", "python3", "-c", script]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"hello\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "out:hello\nTrue\n");
    assert_eq!(text(&out.stderr), "err\n");
}

#[test]
fn a_workspace_dev_directory_keeps_its_other_entries() {
    let ws = ws();
    ours(&ws, &["fs", "mkdir", "/dev"], b"");
    ours(&ws, &["fs", "write", "/dev/mine"], b"kept");
    ours(&ws, &["fs", "write", "/dev/null"], b"shadowed");
    let script = "import os\n\
        print(sorted(os.listdir('/dev')))\n\
        print(open('/dev/mine').read(), repr(open('/dev/null').read()))";
    let out = ours(&ws, &["run", "python3", "-c", script], b"");
    assert_eq!(
        out,
        "['mine', 'null', 'random', 'stderr', 'stdin', 'stdout', 'urandom', 'zero']\n\
         kept ''\n"
    );
}

#[test]
fn every_guest_is_the_same_user_with_the_shells_formats() {
    let ws = ws();
    let shell = ours(
        &ws,
        &[
            "exec",
            "id; id -u; id -un; whoami; echo $UID $EUID; umask; umask -S; echo ~",
        ],
        b"",
    );
    assert_eq!(
        shell,
        "uid=1000(user) gid=1000(user) groups=1000(user)\n1000\nuser\nuser\n1000 1000\n0022\nu=rwx,g=rx,o=rx\n/\n"
    );
    // bash prints the umask in these shapes.
    assert_eq!(
        host("bash", &["-c", "umask 022; umask; umask -S"]),
        "0022\nu=rwx,g=rx,o=rx\n"
    );
    let py = "import os, pwd, grp, getpass, pathlib\n\
        u = pwd.getpwuid(os.getuid())\n\
        print(os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups())\n\
        print(u.pw_name, u.pw_dir, grp.getgrgid(os.getgid()).gr_name, getpass.getuser())\n\
        print(os.path.expanduser('~'), pathlib.Path.home(), os.getlogin())\n\
        print(os.umask(0o077), os.umask(0o022))\n\
        try:\n    pwd.getpwuid(4242)\nexcept KeyError as e:\n    print('KeyError', e)";
    let out = ours(&ws, &["run", "python3", "-c", py], b"");
    assert_eq!(
        out,
        "1000 1000 1000 1000 [1000]\nuser / user user\n/ / user\n18 63\n\
         KeyError 'getpwuid(): uid not found: 4242'\n"
    );
    let js = "const os = require('os');\n\
        console.log(process.getuid(), process.geteuid(), process.getgid(), process.getegid(), process.getgroups());\n\
        const u = os.userInfo();\n\
        console.log(u.uid, u.gid, u.username, u.homedir, os.homedir(), os.hostname());\n\
        console.log(process.umask(0o077), process.umask(), process.umask());";
    ours(&ws, &["fs", "write", "/id.cjs"], js.as_bytes());
    let out = ours(&ws, &["run", "node", "/id.cjs"], b"");
    assert_eq!(
        out,
        "1000 1000 1000 1000 [ 1000 ]\n1000 1000 user / / computer\n18 63 63\n"
    );
}

#[test]
fn each_command_is_a_new_process_whose_parent_started_it() {
    let ws = ws();
    let script = "echo $$ $PPID\n\
        python3 -c 'import os; print(os.getpid(), os.getppid())'\n\
        python3 -c 'import os; print(os.getpid(), os.getppid())'\n\
        node -e 'console.log(process.pid, process.ppid)'";
    let out = ours(&ws, &["exec", script], b"");
    assert_eq!(out, "1 0\n2 1\n3 1\n4 1\n");
    let out = ours(
        &ws,
        &[
            "run",
            "python3",
            "-c",
            "import os; print(os.getpid(), os.getppid())",
        ],
        b"",
    );
    assert_eq!(out, "1 0\n");
}
