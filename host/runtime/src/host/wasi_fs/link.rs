//! The `Linker`'s WASI: every interface wasmtime-wasi's `add_to_linker_sync`
//! adds, interface by interface, except `wasi:filesystem/types` and
//! `wasi:filesystem/preopens`, which are ours (over the store), and TCP and
//! name lookup, which are the run's loopback (`host::sockets`).

use wasmtime::component::{HasData, HasSelf, Linker, ResourceTable};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::cli::WasiCli;
use wasmtime_wasi::cli::WasiCliView;
use wasmtime_wasi::clocks::WasiClocks;
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::bindings::{self as wasi, sync};
use wasmtime_wasi::random::WasiRandom;
use wasmtime_wasi::sockets::WasiSockets;
use wasmtime_wasi::sockets::WasiSocketsView;

use crate::host::poll::{WatchedPoll, watched};
use crate::host::sockets::{self, Sockets};
use crate::run::state::RunState;

/// `wasi:io` reaches the resource table only.
struct Io;

impl HasData for Io {
    type Data<'a> = &'a mut ResourceTable;
}

pub(crate) fn add_wasi(l: &mut Linker<RunState>) -> wasmtime::Result<()> {
    type T = RunState;
    wasmtime_wasi_io::bindings::wasi::io::error::add_to_linker::<T, Io>(l, |t| t.ctx().table)?;
    // Watched: a guest waiting in poll stops at the run's limits.
    sync::io::poll::add_to_linker::<T, WatchedPoll>(l, watched)?;
    sync::io::streams::add_to_linker::<T, Io>(l, |t| t.ctx().table)?;

    wasi::clocks::wall_clock::add_to_linker::<T, WasiClocks>(l, T::clocks)?;
    wasi::clocks::monotonic_clock::add_to_linker::<T, WasiClocks>(l, T::clocks)?;
    wasi::random::random::add_to_linker::<T, WasiRandom>(l, |t| t.ctx().ctx.random())?;
    wasi::random::insecure::add_to_linker::<T, WasiRandom>(l, |t| t.ctx().ctx.random())?;
    wasi::random::insecure_seed::add_to_linker::<T, WasiRandom>(l, |t| t.ctx().ctx.random())?;
    // `exit` and `exit-with-code` (wasi:cli 0.2.12).
    wasi::cli::exit::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::environment::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::stdin::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::stdout::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::stderr::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::terminal_input::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::terminal_output::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::terminal_stdin::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::terminal_stdout::add_to_linker::<T, WasiCli>(l, T::cli)?;
    wasi::cli::terminal_stderr::add_to_linker::<T, WasiCli>(l, T::cli)?;

    let options = sync::LinkOptions::default();
    let network: wasi::sockets::network::LinkOptions = (&options).into();
    // wasmtime-wasi's `network` resource and error codes, and its UDP,
    // which `finish_wasi` turns off.
    wasi::sockets::instance_network::add_to_linker::<T, WasiSockets>(l, T::sockets)?;
    wasi::sockets::network::add_to_linker::<T, WasiSockets>(l, &network, T::sockets)?;
    sync::sockets::udp::add_to_linker::<T, WasiSockets>(l, T::sockets)?;
    sync::sockets::udp_create_socket::add_to_linker::<T, WasiSockets>(l, T::sockets)?;

    // Ours: TCP and name lookup over the run's loopback.
    wasi::sockets::tcp_create_socket::add_to_linker::<T, Sockets>(l, sockets::view)?;
    sync::sockets::tcp::add_to_linker::<T, Sockets>(l, sockets::view)?;
    wasi::sockets::ip_name_lookup::add_to_linker::<T, Sockets>(l, sockets::view)?;

    // Ours: the workspace, /tmp and the run's mounts.
    wasi::filesystem::preopens::add_to_linker::<T, HasSelf<T>>(l, |s| s)?;
    sync::filesystem::types::add_to_linker::<T, HasSelf<T>>(l, |s| s)?;
    Ok(())
}
