//! `wasi:sockets` for a run: a loopback network of its own, in memory.
//!
//! A run (each attempt of it) has one [`Loopback`] namespace, which every
//! command it starts shares, so a server and a client meet whether they
//! are one process or two. Only loopback addresses (127.0.0.0/8, `::1`,
//! the wildcard for a bind) exist in it; a connect to any other address is
//! `access-denied` (HTTP leaves the run through the host's client and the
//! workspace's allow-list, never through a socket), a bind to one is
//! `address-not-bindable`. No host socket is ever opened.
//!
//! UDP stays wasmtime-wasi's with UDP turned off (`finish_wasi`): its
//! calls answer `access-denied`.
//!
//! Journal: socket calls are not journaled. What a socket reads was
//! written by the run's own processes, which run one at a time at points
//! that depend on their own behaviour (`commands::link`), so a replay that
//! makes the same calls recomputes the same bytes, as it does for
//! `wasi:io/poll` (also not journaled). Processes that run at once would
//! make reads depend on scheduling; they would have to record what each
//! read and poll returned.

mod lookup;
mod namespace;
mod pipe;
mod tcp;

use wasmtime::component::{HasData, ResourceTable};

pub(crate) use namespace::{Dialed, Loopback};
#[cfg(test)]
pub(crate) use pipe::LoopbackIo;

use crate::run::state::RunState;

/// The `HasData` the socket interfaces are linked with.
pub(crate) struct Sockets;

impl HasData for Sockets {
    type Data<'a> = SocketsView<'a>;
}

/// What the socket calls reach: the store's table and the run's network.
pub(crate) struct SocketsView<'a> {
    table: &'a mut ResourceTable,
    net: &'a Loopback,
}

pub(crate) fn view(s: &mut RunState) -> SocketsView<'_> {
    SocketsView {
        table: &mut s.table,
        net: &s.nesting.loopback,
    }
}

/// The bindings' `network` interface, which the TCP and lookup interfaces
/// name in their signatures; the linked one is wasmtime-wasi's (`link.rs`).
impl wasmtime_wasi::p2::bindings::sockets::network::Host for SocketsView<'_> {
    fn convert_error_code(
        &mut self,
        error: wasmtime_wasi::p2::SocketError,
    ) -> wasmtime::Result<wasmtime_wasi::p2::bindings::sockets::network::ErrorCode> {
        error.downcast()
    }

    fn network_error_code(
        &mut self,
        _err: wasmtime::component::Resource<wasmtime::Error>,
    ) -> wasmtime::Result<Option<wasmtime_wasi::p2::bindings::sockets::network::ErrorCode>> {
        Ok(None)
    }
}

impl wasmtime_wasi::p2::bindings::sockets::network::HostNetwork for SocketsView<'_> {
    fn drop(
        &mut self,
        this: wasmtime::component::Resource<wasmtime_wasi::p2::Network>,
    ) -> wasmtime::Result<()> {
        self.table.delete(this)?;
        Ok(())
    }
}
