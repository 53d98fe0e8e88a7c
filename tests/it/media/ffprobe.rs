//! `ffprobe` against the native one: the same bytes on stdout, the same
//! exit code, and the same errors.

use super::{INPUTS, native, normalized, ours, workspace};

/// Runs each command line in the sandbox and natively; every difference
/// is reported at once.
fn same_as_native(lines: &[String]) {
    let ws = workspace();
    let mut failures = Vec::new();
    for line in lines {
        let got = ours(&ws, line);
        let (want, _dir) = native(line);
        if got.stdout != want.stdout {
            failures.push(format!(
                "{line}: stdout differs\n--- ours\n{}\n--- native\n{}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want.stdout)
            ));
        }
        if got.code != want.code {
            failures.push(format!(
                "{line}: exit {:?}, native {:?}; stderr: {}",
                got.code, want.code, got.stderr
            ));
        }
        if normalized(&got.stderr) != normalized(&want.stderr) {
            failures.push(format!(
                "{line}: stderr differs\n--- ours\n{}\n--- native\n{}",
                got.stderr, want.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn streams_and_format_of_every_input_as_json_match_native() {
    let lines: Vec<String> = INPUTS
        .iter()
        .map(|(name, _)| format!("ffprobe -v error -show_format -show_streams -of json {name}"))
        .collect();
    same_as_native(&lines);
}

#[test]
fn writers_entries_packets_and_frames_match_native() {
    let lines = [
        "ffprobe -v error -show_format -show_streams -of csv clip.mp4",
        "ffprobe -v error -show_streams -of flat tone.wav",
        "ffprobe -v error -show_format -of xml song.mp3",
        "ffprobe -v error -show_format -show_streams song.flac",
        "ffprobe -v error -show_entries format=duration,bit_rate -of default=noprint_wrappers=1:nokey=1 clip.mkv",
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 clip.mp4",
        "ffprobe -v error -select_streams a -show_entries stream=codec_name,sample_rate,channels -of json clip.webm",
        "ffprobe -v error -show_packets -read_intervals %+#12 -of compact clip.mp4",
        "ffprobe -v error -show_frames -select_streams v -read_intervals %+#4 -of json clip.mkv",
        "ffprobe -v error -show_entries stream=width,height,pix_fmt:format=format_name photo.jpg",
        "ffprobe -hide_banner anim.gif",
        "ffprobe -v quiet -print_format json -show_chapters -show_programs song.ogg",
    ];
    same_as_native(&lines.map(String::from));
}

#[test]
fn errors_are_ffprobes_own() {
    let lines = [
        // A file that is not there, one that is not media, and an MP4 cut
        // short before its index.
        "ffprobe -v error missing.mp4",
        "echo 'not media at all' > junk.bin; ffprobe -v error junk.bin",
        "head -c 3000 clip.mp4 > cut.mp4; ffprobe -v error -show_format cut.mp4",
        "ffprobe -v error -of nosuchwriter tone.wav",
        "ffprobe -v error -show_entries nosuch=x tone.wav",
        "ffprobe -v error -select_streams v:7 -show_streams tone.wav",
    ];
    same_as_native(&lines.map(String::from));
}

#[test]
fn names_versions_and_help_are_the_native_ones() {
    // One program is both tools: each says its own name, birth year and
    // help, and the version is Debian's.
    let lines = [
        "ffmpeg -version | head -1",
        "ffprobe -version | head -1",
        "ffmpeg -hide_banner -h | head -4",
        "ffprobe -hide_banner -h | head -4",
        "ffprobe -hide_banner -L | head -3",
        "ffmpeg -hide_banner -h encoder=libmp3lame | head -3",
    ];
    same_as_native(&lines.map(String::from));
}
