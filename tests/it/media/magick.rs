//! ImageMagick's tools against Debian's native ImageMagick 6.9.11 on the
//! same files: what `identify` says, the pixels `convert` and `mogrify`
//! make (ImageMagick's own `compare` as the judge), and their errors.

use super::{exported, native, normalized, ours, workspace};

/// The native tools by their paths: a `convert` elsewhere on PATH may be
/// something else.
fn native_magick(line: &str) -> (super::Ran, tempfile::TempDir) {
    native(&format!("PATH=/usr/bin:$PATH; {line}"))
}

/// How many pixels of `a` and `b` differ (`compare -metric AE`), by the
/// native compare.
fn differing_pixels(a: &std::path::Path, b: &std::path::Path) -> u64 {
    let out = std::process::Command::new("/usr/bin/compare")
        .args(["-metric", "AE"])
        .arg(a)
        .arg(b)
        .arg("null:")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    text.split_whitespace()
        .next()
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("compare said: {text}")) as u64
}

#[test]
fn identify_says_what_native_identify_says() {
    let lines = [
        "identify still.png photo.jpg anim.gif",
        "identify -format '%m %w %h %z %[colorspace] %[type] %k\\n' still.png",
        "identify -format '%m %w %h %z %Q %[jpeg:sampling-factor]\\n' photo.jpg",
        "identify -format '%n %T %W %H\\n' anim.gif | head -3",
        "identify -ping -format '%wx%h\\n' still.png",
    ];
    let ws = workspace();
    let mut failures = Vec::new();
    for line in lines {
        let got = ours(&ws, line);
        let (want, _dir) = native_magick(line);
        // Time and the file's path are the only things allowed to differ
        // in identify's default line: its last two fields are user time
        // and elapsed time.
        let trim = |s: &[u8]| -> String {
            String::from_utf8_lossy(s)
                .lines()
                .map(|l| {
                    if l.ends_with(|c: char| c.is_ascii_digit()) && l.contains("u 0:") {
                        l.rsplitn(3, ' ').nth(2).unwrap_or(l).to_owned()
                    } else {
                        l.to_owned()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        if trim(&got.stdout) != trim(&want.stdout) || got.code != want.code {
            failures.push(format!(
                "{line}: exit {:?} (native {:?})\n--- ours\n{}{}\n--- native\n{}",
                got.code,
                want.code,
                String::from_utf8_lossy(&got.stdout),
                got.stderr,
                String::from_utf8_lossy(&want.stdout)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn convert_and_mogrify_make_the_native_pixels() {
    // (command line, the file it writes, how many pixels may differ)
    let cases = [
        ("convert still.png -resize 50% half.png", "half.png", 0),
        (
            "convert still.png -rotate 90 -flip -crop 100x80+10+10 +repage out.gif",
            "out.gif",
            0,
        ),
        (
            "convert photo.jpg -resize 200x200 -quality 85 thumb.jpg",
            "thumb.jpg",
            0,
        ),
        (
            "convert still.png -colorspace Gray -blur 0x2 -negate gray.png",
            "gray.png",
            0,
        ),
        (
            "convert still.png photo.jpg -append both.png",
            "both.png",
            0,
        ),
        ("convert still.png -resize 120x68! out.tiff", "out.tiff", 0),
        ("convert still.png -quality 90 out.webp", "out.webp", 0),
        (
            "cp still.png m.png && mogrify -resize 64x64 -format jpg m.png",
            "m.jpg",
            0,
        ),
        (
            "convert anim.gif -coalesce frame_%02d.png && ls frame_*.png > list.txt",
            "frame_05.png",
            0,
        ),
    ];
    let ws = workspace();
    let mut failures = Vec::new();
    for (line, file, allowed) in cases {
        let got = ours(&ws, line);
        let (want, dir) = native_magick(line);
        assert_eq!(want.code, Some(0), "native {line}: {}", want.stderr);
        if got.code != Some(0) {
            failures.push(format!("{line}: exit {:?}: {}", got.code, got.stderr));
            continue;
        }
        let differ = differing_pixels(
            &exported(&ws, &format!("/m/{file}")),
            &dir.path().join(file),
        );
        if differ > allowed {
            failures.push(format!("{line}: {differ} pixels differ from native's"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compare_and_errors_are_imagemagicks_own() {
    let lines = [
        // compare's metric, on stderr, and its exit code (1: they differ).
        "convert still.png -fill red -draw 'point 5,5' dot.png; compare -metric AE still.png dot.png diff.png",
        "compare -metric AE still.png still.png null:",
        "convert missing.png out.png",
        "identify missing.jpg",
        "echo 'not an image' > junk.png; identify junk.png",
        "convert still.png -resize foo out.png",
        // A PNG claiming 60000 x 60000 pixels: refused by the policy's
        // limits before anything is allocated for it.
        "printf '\\211PNG\\r\\n\\032\\n\\000\\000\\000\\rIHDR\\000\\000\\352`\\000\\000\\352`\\010\\002\\000\\000\\000\\000\\000\\000\\000' > bomb.png; convert bomb.png out.jpg",
    ];
    let ws = workspace();
    let mut failures = Vec::new();
    for line in lines {
        let got = ours(&ws, line);
        let (want, _dir) = native_magick(line);
        // The source line in ImageMagick's messages (`@ error/blob.c/
        // OpenBlob/3014.`) is the build's: Debian's archive serves an
        // older revision of the source than the binary it installs.
        let last = |s: &str| {
            let line = normalized(s.lines().last().unwrap_or_default());
            match line.rfind('/') {
                Some(at) if line[at + 1..].trim_end_matches('.').parse::<u32>().is_ok() => {
                    line[..at].to_owned()
                }
                _ => line,
            }
        };
        if got.code != want.code || last(&got.stderr) != last(&want.stderr) {
            failures.push(format!(
                "{line}: exit {:?}, native {:?}\n--- ours\n{}\n--- native\n{}",
                got.code, want.code, got.stderr, want.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
