//! How the embedded JS files become functions; shared by `build.rs` (which compiles
//! them to QuickJS bytecode) and the guest.

/// The embedded files: the bootstrap and the internal CommonJS-style modules.
pub const FILES: &[&str] = &[
    "bootstrap",
    "buffer",
    "clone",
    "encoding",
    "events",
    "fs",
    "fs_fd",
    "fs_handle",
    "fs_streams",
    "inspect",
    "path",
    "readline",
    "readline_promises",
    "stdin",
    "stream",
    "stream_duplex",
    "stream_pipeline",
    "stream_promises",
    "stream_readable",
    "stream_readable_extra",
    "stream_shared",
    "stream_writable",
    "string_decoder",
    "util",
    "abort",
    "crypto",
    "os",
    "querystring",
    "timers",
    "timers_promises",
    "url",
    "url_host",
    "url_legacy",
    "url_parse",
    "url_search",
    "url_states",
    "web",
    "webcrypto",
    "zlib",
    "zlib_streams",
];

/// The script for `name`: a function expression around the file's body. The body
/// starts on the wrapper's line so that line numbers in stacks match the file.
pub fn wrap(name: &str, body: &str) -> String {
    let params = if name == "bootstrap" {
        "native"
    } else {
        "exports, require, module, native"
    };
    format!("(function ({params}) {{{body}\n}})")
}

/// The script's file name, as stacks show it.
pub fn filename(name: &str) -> String {
    if name == "bootstrap" {
        "node:internal/bootstrap".to_string()
    } else {
        format!("node:{name}")
    }
}
