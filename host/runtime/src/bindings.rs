//! Host bindings for the `runner` world of `computer:workspace`.

wasmtime::component::bindgen!({
    world: "computer:workspace/runner",
    path: "../../wit",
    with: {
        "wasi": wasmtime_wasi::p2::bindings::sync,
        "computer:workspace/commands.invocation": crate::commands::invocation::Invocation,
    },
    imports: {
        // Module calls may need to stop the guest (approvals, divergence).
        "computer:workspace/modules": trappable,
        default: trappable,
    },
    require_store_data_send: true,
    // Durable runs journal the results of host calls.
    additional_derives: [serde::Serialize, serde::Deserialize],
});

pub use computer::workspace::{commands, fs, modules, process};
