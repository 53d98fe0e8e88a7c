//! `sqlite3`: SQLite's command-line shell, reimplemented on rusqlite and
//! matched against the sqlite3 3.40 CLI (Debian 12) for what scripts use.
//! See README.md.

mod args;
mod columnar;
mod db;
mod dot;
mod dump;
mod import;
mod modes;
mod numfmt;
mod quote;
mod schema;
mod shell;
mod x87;

use std::io::Write;

#[cfg(target_os = "wasi")]
mod wasi_exit {
    wit_bindgen::generate!({
        inline: "
            package computer:sqlite3;
            world sqlite3 {
                import wasi:cli/exit@0.2.12;
            }
        ",
        path: "../../wit",
        world: "computer:sqlite3/sqlite3",
        generate_all,
    });
    pub use wasi::cli::exit::exit_with_code;
}

/// Ends the program with `code` (any 0-255: WASI's plain `exit` only
/// says 0 or 1).
pub fn exit(code: i32) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[cfg(target_os = "wasi")]
    {
        wasi_exit::exit_with_code((code & 0xff) as u8);
        unreachable!("exit-with-code returned");
    }
    #[cfg(not(target_os = "wasi"))]
    std::process::exit(code & 0xff);
}

fn main() {
    // WASI programs start in `/`; the host passes the caller's directory
    // in PWD.
    if let Ok(pwd) = std::env::var("PWD") {
        let _ = std::env::set_current_dir(pwd);
    }
    let argv: Vec<Vec<u8>> = std::env::args_os()
        .map(|a| a.into_encoded_bytes())
        .collect();
    let code = args::main(argv);
    exit(code);
}
