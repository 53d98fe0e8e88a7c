//! `ffmpeg` and `ffprobe`: FFmpeg's own command-line programs (FFmpeg 5.1
//! from Debian's source package, built by scripts/build-ffmpeg.sh) as one
//! wasm32-wasip2 command, which is the tool its argv[0] names. This crate
//! is the glue: main, the tool's arguments, working directory and exit
//! code.

use std::ffi::{CString, c_char, c_int};

wit_bindgen::generate!({
    inline: "
        package computer:ffmpeg-program;
        world ffmpeg {
            import wasi:cli/exit@0.2.12;
        }
    ",
    path: "../../wit",
    world: "computer:ffmpeg-program/ffmpeg",
    generate_all,
});

unsafe extern "C" {
    /// fftools/ffmpeg.c's and fftools/ffprobe.c's `main`, renamed by the
    /// build.
    fn ffmpeg_main(argc: c_int, argv: *const *const c_char) -> c_int;
    fn ffprobe_main(argc: c_int, argv: *const *const c_char) -> c_int;
    /// c/tools.c: the names both tools define, set for one of them.
    fn computer_ffmpeg_select_tool(is_probe: c_int);
}

fn main() {
    // wasi-libc starts every program in `/`; the caller's directory comes
    // as $PWD (the host sets it for commands).
    if let Some(pwd) = std::env::var_os("PWD") {
        let _ = std::env::set_current_dir(pwd);
    }
    let args: Vec<CString> = std::env::args_os()
        .map(|a| CString::new(a.as_encoded_bytes()).unwrap_or_default())
        .collect();
    let mut argv: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let called = args.first().map(|a| a.as_bytes()).unwrap_or_default();
    let probe = called.rsplit(|b| *b == b'/').next() == Some(b"ffprobe");
    let main = if probe { ffprobe_main } else { ffmpeg_main };
    // ffmpeg's main ends in exit(); ffprobe's returns. Either way libc's
    // exit runs (flushing stdio) and ends in __wrap__Exit.
    let code = unsafe {
        computer_ffmpeg_select_tool(c_int::from(probe));
        main((argv.len() - 1) as c_int, argv.as_ptr())
    };
    std::process::exit(code)
}

/// wasi-libc's `_Exit`, wrapped at link time (build.rs): it can only say
/// 0 or 1, and FFmpeg's programs exit with other codes too (255 on a
/// signal, the error's code from ffprobe).
#[unsafe(no_mangle)]
pub extern "C" fn __wrap__Exit(code: c_int) -> ! {
    if code & 0xff == 0 {
        wasi::cli::exit::exit(Ok(()));
    }
    wasi::cli::exit::exit_with_code((code & 0xff) as u8);
    unreachable!("exit-with-code returned");
}
