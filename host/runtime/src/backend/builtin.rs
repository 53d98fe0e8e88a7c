//! Guest components built into this binary. `build.rs` embeds each one that
//! `scripts/build-guests.sh` has built; a missing one is simply absent.

/// Backend name of the built-in JavaScript guest.
pub const JS_BACKEND: &str = "js";
/// Backend name of the built-in shell guest.
pub const SHELL_BACKEND: &str = "shell";

/// The QuickJS guest, if it was built before this crate.
#[cfg(computer_js_guest)]
pub const JS_GUEST: Option<&[u8]> = Some(include_bytes!(env!("COMPUTER_JS_GUEST_WASM")));
#[cfg(not(computer_js_guest))]
pub const JS_GUEST: Option<&[u8]> = None;

/// The bash (bashkit) guest, if it was built before this crate.
#[cfg(computer_shell_guest)]
pub const SHELL_GUEST: Option<&[u8]> = Some(include_bytes!(env!("COMPUTER_SHELL_GUEST_WASM")));
#[cfg(not(computer_shell_guest))]
pub const SHELL_GUEST: Option<&[u8]> = None;

/// `(backend name, component bytes)` of every built-in guest.
pub fn builtin_guests() -> Vec<(&'static str, &'static [u8])> {
    let mut out = Vec::new();
    if let Some(js) = JS_GUEST {
        out.push((JS_BACKEND, js));
    }
    if let Some(sh) = SHELL_GUEST {
        out.push((SHELL_BACKEND, sh));
    }
    out
}
