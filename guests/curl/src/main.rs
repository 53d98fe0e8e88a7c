//! `curl` and `wget` for the workspace: one `wasi:cli/command` component
//! that answers to both names (`argv[0]`), making its requests through
//! `wasi:http/outgoing-handler`, so the host decides which hosts it may
//! reach (the workspace's network allow-list) and records each request.
//! Output, messages and exit codes follow curl 7.88 and GNU Wget 1.21.

mod args;
mod base64;
mod clock;
mod errors;
mod help;
mod http;
mod output;
mod progress;
mod request;
mod transfer;
mod wget;
mod writeout;

wit_bindgen::generate!({
    inline: "
        package computer:curl;
        world curl {
            import wasi:cli/exit@0.2.12;
            import wasi:http/outgoing-handler@0.2.12;
        }
    ",
    path: "../../wit",
    world: "computer:curl/curl",
    generate_all,
});

/// What curl says it is (`-V`, the default `User-Agent`).
pub const CURL_VERSION: &str = "7.88.1";
/// What wget says it is.
pub const WGET_VERSION: &str = "1.21.3";

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let name = argv
        .first()
        .map(|a| a.rsplit('/').next().unwrap_or(a).to_owned())
        .unwrap_or_default();
    // wasi-libc starts programs in `/`; relative paths (-o, -d @file) are
    // the caller's.
    if let Ok(pwd) = std::env::var("PWD") {
        let _ = std::env::set_current_dir(pwd);
    }
    let rest = argv.get(1..).unwrap_or_default();
    let code = if name == "wget" {
        wget::main(rest)
    } else {
        args::main(rest)
    };
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    wasi::cli::exit::exit_with_code(code.clamp(0, 255) as u8);
}
