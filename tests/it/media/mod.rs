//! Media programs as the real ones (issue 36): `ffmpeg` and `ffprobe`
//! built from FFmpeg's source (scripts/build-ffmpeg.sh) and ImageMagick's
//! tools (scripts/build-magick.sh), run in the sandbox with their own
//! command lines against Debian's native programs of the same versions
//! (FFmpeg 5.1.9, ImageMagick 6.9.11) as the oracle, on the same files.
//!
//! The inputs are made by the native ffmpeg from its test sources (lavfi)
//! once per test process; each test imports them into a fresh workspace
//! and runs the same command line in both places.

mod ffmpeg;
mod ffprobe;
mod magick;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use computer_tests::{Ws, component_cache_dir, run_command, text};

/// What one command line did: exit code, stdout, stderr.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// The inputs, made by the native ffmpeg into a directory kept for the
/// whole test process. (name, ffmpeg arguments that write it)
const INPUTS: &[(&str, &str)] = &[
    (
        "tone.wav",
        "-f lavfi -i sine=frequency=440:duration=3 -f lavfi -i sine=frequency=660:duration=3 \
         -filter_complex amerge=inputs=2 -ar 44100",
    ),
    (
        "clip.mp4",
        "-f lavfi -i testsrc2=duration=3:size=320x240:rate=25 -f lavfi -i sine=duration=3 \
         -c:v libx264 -threads 1 -pix_fmt yuv420p -c:a aac -shortest",
    ),
    (
        "clip.webm",
        "-f lavfi -i testsrc=duration=2:size=176x144:rate=10 -f lavfi -i sine=duration=2 \
         -c:v libvpx-vp9 -b:v 200k -c:a libopus -shortest",
    ),
    (
        "clip.mkv",
        "-f lavfi -i smptebars=duration=2:size=320x180:rate=30 -c:v mpeg4 -q:v 4",
    ),
    (
        "song.mp3",
        "-f lavfi -i sine=frequency=330:duration=4 -b:a 96k",
    ),
    ("song.flac", "-f lavfi -i sine=frequency=550:duration=2"),
    (
        "song.ogg",
        "-f lavfi -i sine=frequency=220:duration=2 -c:a libvorbis",
    ),
    ("still.png", "-f lavfi -i testsrc2=size=640x360 -frames:v 1"),
    (
        "photo.jpg",
        "-f lavfi -i mandelbrot=size=800x600 -frames:v 1 -q:v 3",
    ),
    (
        "anim.gif",
        "-f lavfi -i testsrc=duration=1:size=160x120:rate=10",
    ),
];

/// The directory holding the inputs (made once).
pub fn inputs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = component_cache_dir()
            .parent()
            .expect("the cache is under target/tmp")
            .join("media-inputs");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, args) in INPUTS {
            if dir.join(name).is_file() {
                continue;
            }
            let part = dir.join(format!("{name}.part.{}", name.rsplit('.').next().unwrap()));
            let status = Command::new("ffmpeg")
                .args(["-v", "error", "-y"])
                .args(args.split_whitespace())
                .arg(&part)
                .status()
                .expect("the native ffmpeg (Debian's `ffmpeg` package) runs: scripts/setup.sh");
            assert!(
                status.success(),
                "making {name} with the native ffmpeg failed"
            );
            std::fs::rename(&part, dir.join(name)).unwrap();
        }
        dir
    })
}

/// A workspace holding the inputs under `/m`, the programs' cwd.
pub fn workspace() -> Ws {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/m"]);
    let dir = inputs();
    for (name, _) in INPUTS {
        ws.ok_with(
            &["fs", "write", &format!("/m/{name}")],
            std::fs::read(dir.join(name)).unwrap(),
        );
    }
    ws
}

/// `script` (a shell command line) run by the sandbox's shell in `/m`.
pub fn ours(ws: &Ws, script: &str) -> Ran {
    let mut cmd = ws.command(&["exec", "--cwd", "/m", script]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"");
    Ran {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: text(&out.stderr),
    }
}

/// `script` run by bash natively in a fresh copy of the inputs, which is
/// returned with what ran (outputs are read from it).
pub fn native(script: &str) -> (Ran, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    for (name, _) in INPUTS {
        std::fs::copy(inputs().join(name), dir.path().join(name)).unwrap();
    }
    let mut cmd = Command::new("bash");
    cmd.args(["-c", script]).current_dir(dir.path());
    let out = run_command(&mut cmd, b"");
    (
        Ran {
            code: out.status.code(),
            stdout: out.stdout,
            stderr: text(&out.stderr),
        },
        dir,
    )
}

/// stderr with what differs between any two runs of FFmpeg taken out: the
/// addresses in its log prefixes (`[mov,mp4 @ 0x5580...]`).
pub fn normalized(stderr: &str) -> String {
    let mut out = String::with_capacity(stderr.len());
    let mut rest = stderr;
    while let Some(at) = rest.find(" @ 0x") {
        out.push_str(&rest[..at + 3]);
        rest = &rest[at + 5..];
        rest = rest.trim_start_matches(|c: char| c.is_ascii_hexdigit());
        out.push_str("ADDR");
    }
    out.push_str(rest);
    out
}

/// The native ffmpeg's PSNR (average, dB) of `a` against `b`, both host
/// files.
pub fn psnr(a: &Path, b: &Path) -> f64 {
    let out = Command::new("ffmpeg")
        .args(["-hide_banner", "-nostats", "-i"])
        .arg(a)
        .arg("-i")
        .arg(b)
        .args(["-lavfi", "psnr", "-f", "null", "-"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    let line = stderr
        .lines()
        .rfind(|l| l.contains("PSNR"))
        .unwrap_or_else(|| panic!("no PSNR from ffmpeg:\n{stderr}"));
    let value = line
        .split("average:")
        .nth(1)
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or_else(|| panic!("no average in {line}"));
    if value == "inf" {
        f64::INFINITY
    } else {
        value.parse().unwrap()
    }
}

/// The native ffmpeg's `framemd5` of a host file: every decoded frame's
/// checksum, the header comment lines left out.
pub fn framemd5(file: &Path) -> String {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(file)
        .args(["-f", "framemd5", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "framemd5 of {}: {}",
        file.display(),
        text(&out.stderr)
    );
    text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A file the sandbox wrote, copied out to the host for the native tools.
pub fn exported(ws: &Ws, path: &str) -> PathBuf {
    let bytes = ws.read(path);
    let host = ws.host(&path.replace('/', "_"));
    std::fs::write(&host, bytes).unwrap();
    host
}

/// The signal-to-noise ratio (dB) of `a` against `b`, both decoded by the
/// native ffmpeg to mono 32-bit float samples.
pub fn audio_snr(a: &Path, b: &Path) -> f64 {
    let samples = |file: &Path| -> Vec<f32> {
        let out = Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(file)
            .args(["-ac", "1", "-f", "f32le", "-"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "decoding {}: {}",
            file.display(),
            text(&out.stderr)
        );
        out.stdout
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (a, b) = (samples(a), samples(b));
    assert!(
        a.len().abs_diff(b.len()) <= a.len() / 100,
        "lengths differ: {} and {} samples",
        a.len(),
        b.len()
    );
    let (signal, noise) = a.iter().zip(&b).fold((0f64, 0f64), |(s, n), (x, y)| {
        let (x, y) = (f64::from(*x), f64::from(*y));
        (s + y * y, n + (x - y) * (x - y))
    });
    if noise == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (signal / noise).log10()
    }
}
