//! `ffmpeg` against the native one: deterministic encoders give the same
//! bytes, decoders the same frames, lossy encoders a picture close to the
//! native one, and bad input ffmpeg's own error.

use super::{Ran, audio_snr, exported, framemd5, native, normalized, ours, psnr, workspace};

/// `script` in the sandbox, which must succeed.
fn ok(ws: &computer_tests::Ws, script: &str) -> Ran {
    let ran = ours(ws, script);
    assert_eq!(ran.code, Some(0), "{script}: {}", ran.stderr);
    ran
}

#[test]
fn deterministic_encodes_give_the_native_bytes() {
    // (command line, the file it writes)
    let cases = [
        ("ffmpeg -v error -i tone.wav -b:a 128k out.mp3", "out.mp3"),
        (
            "ffmpeg -v error -i tone.wav -c:a aac -b:a 96k out.m4a",
            "out.m4a",
        ),
        (
            "ffmpeg -v error -i clip.mp4 -vf fps=10,scale=160:-1 -t 1 out.gif",
            "out.gif",
        ),
        (
            "ffmpeg -v error -ss 0.5 -i tone.wav -t 1 -c copy out.wav",
            "out.wav",
        ),
        (
            "printf \"file 'song.flac'\\nfile 'song.flac'\\n\" > list.txt && \
             ffmpeg -v error -f concat -i list.txt -c copy joined.flac",
            "joined.flac",
        ),
        (
            "ffmpeg -v error -i still.png -vf crop=320:180:0:0,hflip out.png",
            "out.png",
        ),
    ];
    let ws = workspace();
    let mut failures = Vec::new();
    for (line, file) in cases {
        ok(&ws, line);
        let (want, dir) = native(line);
        assert_eq!(want.code, Some(0), "native {line}: {}", want.stderr);
        let got = ws.read(&format!("/m/{file}"));
        let expected = std::fs::read(dir.path().join(file)).unwrap();
        if got != expected {
            failures.push(format!(
                "{line}: {} bytes, native {}",
                got.len(),
                expected.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn lossless_encodes_decode_to_the_native_frames() {
    // The bytes differ (FLAC's LPC search is float and SIMD-dependent;
    // Matroska writes random UIDs), what they decode to does not.
    let cases = [
        ("ffmpeg -v error -i tone.wav out.flac", "out.flac"),
        (
            "ffmpeg -v error -i clip.mkv -an -c:v ffv1 -frames:v 10 lossless.mkv",
            "lossless.mkv",
        ),
        (
            "ffmpeg -v error -i clip.mp4 -an -c:v utvideo -frames:v 5 frames.avi",
            "frames.avi",
        ),
    ];
    let ws = workspace();
    for (line, file) in cases {
        ok(&ws, line);
        let (want, dir) = native(line);
        assert_eq!(want.code, Some(0), "native {line}: {}", want.stderr);
        assert_eq!(
            framemd5(&exported(&ws, &format!("/m/{file}"))),
            framemd5(&dir.path().join(file)),
            "{line}"
        );
    }
}

#[test]
fn decoders_give_the_native_frames() {
    let lines = [
        // h264 and VP9 decoding and the mpeg4 one are exact integer
        // transforms: every frame's checksum is native's.
        "ffmpeg -v error -i clip.mp4 -an -f framemd5 -",
        "ffmpeg -v error -i clip.webm -an -f framemd5 -",
        "ffmpeg -v error -i clip.mkv -f framemd5 -",
        "ffmpeg -v error -i anim.gif -f framemd5 -",
        "ffmpeg -v error -i song.flac -f framemd5 -",
        "ffmpeg -v error -i tone.wav -af atrim=0.5:1.5,volume=0.5 -f framemd5 -",
        "ffmpeg -v error -i clip.mp4 -vf trim=start_frame=10:end_frame=20,setpts=PTS-STARTPTS -an -f framemd5 -",
        "ffmpeg -v error -i clip.mkv -i clip.mkv -filter_complex concat=n=2:v=1:a=0 -f framemd5 -",
        // From standard input to standard output.
        "cat tone.wav | ffmpeg -v error -i - -f s16le -",
    ];
    let ws = workspace();
    let mut failures = Vec::new();
    for line in lines {
        let got = ok(&ws, line);
        let (want, _dir) = native(line);
        if got.stdout != want.stdout {
            failures.push(format!(
                "{line}: {} bytes of output, native {}",
                got.stdout.len(),
                want.stdout.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn lossy_encodes_and_conversions_are_close_to_native() {
    let ws = workspace();
    // (command line, the file it writes, the least PSNR against native's)
    let cases = [
        (
            "ffmpeg -v error -i clip.mp4 -c:v libx264 -preset veryfast -crf 20 -an x264.mp4",
            "x264.mp4",
            35.0,
        ),
        (
            "ffmpeg -v error -i clip.mp4 -c:v mpeg4 -q:v 3 -an out.avi",
            "out.avi",
            35.0,
        ),
        // A thumbnail: yuv420p to RGB in swscale's C path; the native
        // one takes x86 SIMD paths that round differently.
        (
            "ffmpeg -v error -ss 1 -i clip.mp4 -frames:v 1 thumb.png",
            "thumb.png",
            40.0,
        ),
        (
            "ffmpeg -v error -i photo.jpg -vf scale=400:-1 small.jpg",
            "small.jpg",
            35.0,
        ),
    ];
    let mut failures = Vec::new();
    for (line, file, least) in cases {
        ok(&ws, line);
        let (want, dir) = native(line);
        assert_eq!(want.code, Some(0), "native {line}: {}", want.stderr);
        let got = exported(&ws, &format!("/m/{file}"));
        let value = psnr(&got, &dir.path().join(file));
        if value < least {
            failures.push(format!(
                "{line}: PSNR {value:.1} dB against native, want {least}"
            ));
        }
    }
    // Audio: the signal-to-noise ratio of ours against native's.
    let cases = [
        (
            "ffmpeg -v error -i tone.wav -c:a libvorbis out.ogg",
            "out.ogg",
            30.0,
        ),
        (
            "ffmpeg -v error -i tone.wav -c:a libopus -b:a 96k out.opus",
            "out.opus",
            30.0,
        ),
        (
            "ffmpeg -v error -i song.mp3 -ac 1 -ar 22050 mono.wav",
            "mono.wav",
            60.0,
        ),
    ];
    for (line, file, least) in cases {
        ok(&ws, line);
        let (want, dir) = native(line);
        assert_eq!(want.code, Some(0), "native {line}: {}", want.stderr);
        let value = audio_snr(
            &exported(&ws, &format!("/m/{file}")),
            &dir.path().join(file),
        );
        if value < least {
            failures.push(format!(
                "{line}: SNR {value:.1} dB against native, want {least}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The thumbnail is exactly what the native ffmpeg makes in C.
    let (_, dir) = native("ffmpeg -v error -cpuflags 0 -ss 1 -i clip.mp4 -frames:v 1 thumb.png");
    assert_eq!(
        framemd5(&exported(&ws, "/m/thumb.png")),
        framemd5(&dir.path().join("thumb.png"))
    );
}

#[test]
fn bad_input_ends_with_ffmpegs_own_error() {
    let lines = [
        "ffmpeg -v error -i missing.mp4 out.wav",
        "head -c 3000 clip.mp4 > cut.mp4; ffmpeg -v error -i cut.mp4 out.wav",
        "ffmpeg -hide_banner -i tone.wav -c:a nosuch out.wav",
        "ffmpeg -v error -i tone.wav -vf nosuchfilter out.wav",
        "ffmpeg -v error -i tone.wav out.unknownext",
        // The size a PNG claims (60000 x 60000) is refused before anything is
        // allocated for it.
        "printf '\\211PNG\\r\\n\\032\\n\\000\\000\\000\\rIHDR\\000\\000\\352`\\000\\000\\352`\\010\\002\\000\\000\\000\\000\\000\\000\\000' > bomb.png; ffmpeg -v error -i bomb.png out.jpg",
    ];
    let ws = workspace();
    let mut failures = Vec::new();
    for line in lines {
        let got = ours(&ws, line);
        let (want, _dir) = native(line);
        let last = |s: &str| normalized(s.lines().last().unwrap_or_default());
        if got.code != want.code || last(&got.stderr) != last(&want.stderr) {
            failures.push(format!(
                "{line}: exit {:?}, native {:?}\n--- ours\n{}\n--- native\n{}",
                got.code, want.code, got.stderr, want.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
