//! How the embedded JS files become functions; shared by `build.rs` (which compiles
//! them to QuickJS bytecode) and the guest.

/// The embedded files: the bootstrap and the internal CommonJS-style modules.
pub const FILES: &[&str] = &[
    "bootstrap",
    "assert",
    "assert_diff",
    "assert_error",
    "assert_source",
    "assert_throws",
    "comparisons",
    "buffer",
    "cjs",
    "cjs_lexer",
    "child_exec",
    "child_pipes",
    "child_process",
    "clone",
    "encoding",
    "esm",
    "events",
    "fetch",
    "fetch_body",
    "fs",
    "fs_fd",
    "fs_handle",
    "fs_streams",
    "inspect",
    "node_cli",
    "npm",
    "path",
    "path_win32",
    "resolve",
    "stdin",
    "test",
    "test_cli",
    "test_core",
    "test_mock",
    "test_tap",
    "readline",
    "readline_promises",
    "stream",
    "stream_duplex",
    "stream_operators",
    "stream_pipeline",
    "stream_promises",
    "stream_readable",
    "stream_readable_extra",
    "stream_shared",
    "stream_writable",
    "string_decoder",
    "tty",
    "intl",
    "util",
    "util_parse_args",
    "util_types",
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
