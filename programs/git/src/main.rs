//! `git`: git's own C (git 2.39.5 from Debian's source package, built by
//! scripts/build-git.sh) as a wasm32-wasip2 command. This crate is the
//! glue: the program's `main`, its exit codes, its children (children.rs)
//! and what the workspace knows that WASI does not (files.rs).

mod children;
mod files;
mod remote_http;

use std::ffi::{CString, c_char, c_int};

wit_bindgen::generate!({
    inline: "
        package computer:git-program;
        world git {
            import wasi:cli/exit@0.2.12;
            import computer:workspace/fs@0.1.0;
            import computer:workspace/commands@0.1.0;
            import computer:workspace/process@0.1.0;
            import wasi:http/outgoing-handler@0.2.12;
        }
    ",
    path: "../../wit",
    world: "computer:git-program/git",
    generate_all,
});

unsafe extern "C" {
    /// git's common-main.c `main`, renamed when the build compiles it.
    fn git_main(argc: c_int, argv: *const *const c_char) -> c_int;
    /// `git sh-i18n--envsubst` (its own program in git's build, used by
    /// git's shell scripts), whose `cmd_main` the build renames.
    fn envsubst_cmd_main(argc: c_int, argv: *const *const c_char) -> c_int;
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
    if called.ends_with(b"git-remote-http") || called.ends_with(b"git-remote-https") {
        let args: Vec<String> = std::env::args().collect();
        computer_git_exit(remote_http::main(&args));
    }
    let main = if called.ends_with(b"git-sh-i18n--envsubst") {
        envsubst_cmd_main
    } else {
        git_main
    };
    // git's mains end in exit(), which comes back through computer_git_exit.
    let code = unsafe { main((argv.len() - 1) as c_int, argv.as_ptr()) };
    computer_git_exit(code);
}

/// wasi-libc's `_Exit` (wrapped at link time) can only say 0 or 1.
#[unsafe(no_mangle)]
pub extern "C" fn computer_git_exit(code: c_int) -> ! {
    // Not std::process::exit: that is libc's exit, which git's exit
    // already ran (and which ends here again).
    if code & 0xff == 0 {
        wasi::cli::exit::exit(Ok(()));
    }
    wasi::cli::exit::exit_with_code((code & 0xff) as u8);
    unreachable!("exit-with-code returned");
}
