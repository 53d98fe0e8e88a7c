//! What a run's `Store` holds: WASI state, the workspace, limits, and why
//! the run was stopped, if it was; and the pieces every store of a run
//! shares (its WASI context's clocks and randomness, the epoch check).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use computer_store::{GroupCommit, Workspace};
use wasmtime::component::ResourceTable;
use wasmtime::{Store, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use crate::Inner;
use crate::durable::journal::{self, JournalMonotonicClock, JournalWallClock, SharedJournal};
use crate::host::modules::ModuleRegistry;
use crate::host::wasi_fs::WasiFs;
use crate::net::RunHttp;
use crate::run::limits::MemoryLimiter;

/// Why the host stopped a guest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    TimedOut,
    Cancelled,
    /// An interrupt parked the run: it waits for an answer.
    Parked,
    /// A replay made a call other than the journal's.
    Diverged,
    /// The journal could not be written.
    Journal,
    /// Another process took the run over (this one's lease ran out).
    LeaseLost,
    /// The guest kept writing output far past its cap.
    Flooded,
}

/// What a store needs to start commands (`computer:workspace/commands`).
pub(crate) struct Nesting {
    pub inner: Arc<Inner>,
    /// 0 for a run, 1 for a command it started, ...
    pub depth: u32,
    /// A durable run's seed; each command started gets one derived from it.
    pub seed: Option<[u8; 32]>,
    /// Commands started so far by this store.
    pub started: u32,
    /// This store's process id, its parent's, and the run's pid counter.
    pub pids: crate::host::process::Pids,
    /// The run's loopback network, shared by the run and its commands.
    pub loopback: crate::host::sockets::Loopback,
    /// News from the commands this store started (`poll-next`).
    pub activity: Arc<crate::commands::link::Activity>,
    /// A command's: set when its caller dropped it.
    pub killed: Option<Arc<AtomicBool>>,
    /// Time the run's clock stood still, shared by the run and every
    /// command it starts: a command's first start in this process, when
    /// its component is loaded or compiled (pandoc's compile takes minutes),
    /// is the host's work, not the run's. Every deadline check adds it.
    pub grace: Arc<Grace>,
}

/// Nanoseconds added to a run's deadline (see [`Nesting::grace`]).
#[derive(Debug, Default)]
pub(crate) struct Grace(std::sync::atomic::AtomicU64);

impl Grace {
    /// Stops the run's clock for `d` more.
    pub(crate) fn add(&self, d: std::time::Duration) {
        let nanos = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.0.fetch_add(nanos, Ordering::SeqCst);
    }

    /// `deadline` pushed back by the time added so far.
    pub(crate) fn deadline(&self, deadline: Instant) -> Instant {
        let grace = std::time::Duration::from_nanos(self.0.load(Ordering::SeqCst));
        deadline.checked_add(grace).unwrap_or(deadline)
    }
}

impl Nesting {
    /// A run's own store (not a command's).
    pub(crate) fn top(
        inner: Arc<Inner>,
        seed: Option<[u8; 32]>,
        loopback: crate::host::sockets::Loopback,
    ) -> Self {
        Nesting {
            inner,
            depth: 0,
            seed,
            started: 0,
            pids: crate::host::process::Pids::run(),
            loopback,
            activity: Default::default(),
            killed: None,
            grace: Default::default(),
        }
    }

    /// Whether this store's command was dropped by its caller.
    pub(crate) fn is_killed(&self) -> bool {
        self.killed
            .as_ref()
            .is_some_and(|k| k.load(Ordering::SeqCst))
    }

    /// The seed of the next command this store starts.
    pub(crate) fn next_seed(&mut self) -> Option<[u8; 32]> {
        self.started += 1;
        let n = self.started;
        self.seed.map(|mut seed| {
            for (i, b) in n
                .to_le_bytes()
                .iter()
                .chain(&self.depth.to_le_bytes())
                .enumerate()
            {
                seed[24 + i] ^= b;
            }
            seed
        })
    }
}

pub(crate) struct RunState {
    pub wasi: WasiCtx,
    pub table: ResourceTable,
    pub workspace: Arc<Workspace>,
    pub modules: Arc<ModuleRegistry>,
    pub limiter: MemoryLimiter,
    pub cancel: Arc<AtomicBool>,
    /// Set by the run's output sinks when the guest floods them.
    pub flooded: Arc<AtomicBool>,
    pub deadline: Instant,
    pub stop: Option<Stop>,
    /// A durable run's journal; `None` for an ephemeral run.
    pub journal: Option<SharedJournal>,
    /// `wasi:filesystem`: preopens and open descriptors.
    pub wasi_fs: WasiFs,
    /// Where descriptors 0, 1 and 2 go (`redirect-stdio`).
    pub stdio: crate::host::stdio::StdioRoutes,
    pub nesting: Nesting,
    /// `wasi:http`, limited to the workspace's allow-list.
    pub http: RunHttp,
    /// The group commit the run's changes share (the run's and its
    /// commands'); `None`: each change commits on its own.
    pub group: Option<GroupCommit>,
}

impl wasmtime_wasi_http::WasiHttpView for RunState {
    fn http(&mut self) -> wasmtime_wasi_http::WasiHttpCtxView<'_> {
        self.http.view(&mut self.table)
    }
}

impl WasiView for RunState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// Finishes a guest's WASI context: no host network (TCP and name lookup
/// are the run's loopback, `host::sockets`, which ignores these), and for a durable run,
/// clocks from the journal and randomness from the run's recorded seed, so
/// a replay sees what the first attempt saw.
pub(crate) fn finish_wasi(
    mut wasi: WasiCtxBuilder,
    journal: Option<&SharedJournal>,
    seed: Option<[u8; 32]>,
) -> WasiCtx {
    wasi.allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    if let (Some(j), Some(seed)) = (journal, seed) {
        use rand::SeedableRng;
        let mut insecure = seed;
        insecure[0] ^= 0x5a;
        wasi.wall_clock(JournalWallClock(j.clone()))
            .monotonic_clock(JournalMonotonicClock(j.clone()))
            .secure_random(rand::rngs::StdRng::from_seed(seed))
            .insecure_random(rand::rngs::StdRng::from_seed(insecure))
            .insecure_random_seed(u128::from_le_bytes(
                seed[..16].try_into().expect("16 bytes"),
            ));
    }
    wasi.build()
}

/// A store whose epoch callback ends the guest on a lost lease (`lost`), a
/// journal failure, a kill, an output flood or the deadline.
pub(crate) fn watched_store(
    inner: &Inner,
    state: RunState,
    lost: Option<Arc<AtomicBool>>,
) -> Store<RunState> {
    let mut store = Store::new(&inner.engine, state);
    store.limiter(|s| &mut s.limiter);
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(move |mut ctx| {
        let state = ctx.data_mut();
        if lost.as_ref().is_some_and(|l| l.load(Ordering::SeqCst)) {
            state.stop = Some(Stop::LeaseLost);
            return Err(wasmtime::Error::msg("lease lost"));
        }
        if let Some(j) = &state.journal {
            let mut j = journal::lock(j);
            if j.ws.is_fenced(&j.run_id) {
                drop(j);
                state.stop = Some(Stop::LeaseLost);
                return Err(wasmtime::Error::msg(
                    "fenced: another process took the run over",
                ));
            }
            j.flush_if_stale();
            if j.failure.is_some() || j.diverged.is_some() {
                drop(j);
                state.stop = Some(Stop::Journal);
                return Err(wasmtime::Error::msg("journal failure"));
            }
        }
        if let Some(why) = state.group.as_ref().and_then(GroupCommit::failure) {
            state.stop = Some(Stop::Journal);
            return Err(wasmtime::Error::msg(format!(
                "the run's changes were lost: {why}"
            )));
        }
        if state.cancel.load(Ordering::SeqCst) || state.nesting.is_killed() {
            state.stop = Some(Stop::Cancelled);
            return Err(wasmtime::Error::msg("run cancelled"));
        }
        if state.flooded.load(Ordering::SeqCst) {
            state.stop = Some(Stop::Flooded);
            return Err(wasmtime::Error::msg("output flood"));
        }
        if Instant::now() >= state.nesting.grace.deadline(state.deadline) {
            state.stop = Some(Stop::TimedOut);
            return Err(wasmtime::Error::msg("run timed out"));
        }
        Ok(UpdateDeadline::Continue(1))
    });
    store
}
