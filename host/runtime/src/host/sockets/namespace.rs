//! A run's loopback network: which addresses are bound, who listens, and
//! the connections waiting to be accepted. One per run attempt, shared by
//! the run and every command it starts, so a server in one process and a
//! client in another meet here. Never a host socket.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;
use wasmtime_wasi::p2::bindings::sockets::network::ErrorCode;

use super::pipe::{LoopbackIo, Pipe};

/// Ports handed out for port 0 (Linux's default ephemeral range).
const EPHEMERAL: std::ops::RangeInclusive<u16> = 32768..=60999;
/// `listen`'s default backlog, and the most a guest may ask for.
pub(crate) const DEFAULT_BACKLOG: usize = 128;
pub(crate) const MAX_BACKLOG: usize = 4096;

/// One end of an established connection: what it reads and writes.
pub(crate) struct End {
    pub local: SocketAddr,
    pub remote: SocketAddr,
    pub incoming: Arc<Pipe>,
    pub outgoing: Arc<Pipe>,
}

/// A listening socket's queue of connections not yet accepted.
#[derive(Default)]
pub(crate) struct Listener {
    queue: Mutex<ListenQueue>,
    pub arrived: Notify,
}

#[derive(Default)]
struct ListenQueue {
    pending: VecDeque<End>,
    backlog: usize,
    closed: bool,
}

impl Listener {
    fn lock(&self) -> MutexGuard<'_, ListenQueue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn set_backlog(&self, backlog: usize) {
        self.lock().backlog = backlog.clamp(1, MAX_BACKLOG);
    }

    pub(crate) fn accept(&self) -> Option<End> {
        self.lock().pending.pop_front()
    }

    pub(crate) fn has_pending(&self) -> bool {
        !self.lock().pending.is_empty()
    }

    /// The listener is gone: connections it never accepted are reset.
    fn close(&self) {
        let mut q = self.lock();
        q.closed = true;
        for end in q.pending.drain(..) {
            end.incoming.close_read();
            end.outgoing.close_write();
        }
    }
}

#[derive(Default)]
struct Table {
    /// Every bound address, listening or not.
    bound: HashMap<SocketAddr, Option<Arc<Listener>>>,
    next_ephemeral: u16,
}

/// Connections a run may hold open at once: with `pipe::CAPACITY` per
/// direction, at most 128 MiB of buffers, whatever the guests do.
pub(crate) const MAX_CONNECTIONS: usize = 256;

/// A run's loopback network (cheap to clone: one namespace).
#[derive(Clone, Default)]
pub(crate) struct Loopback {
    table: Arc<Mutex<Table>>,
    /// Pipes alive (two per connection), each counted until dropped.
    pipes: Arc<AtomicUsize>,
}

/// Whether `ip` is this machine's in the run's network: the loopback
/// ranges, IPv4-mapped loopback, or the unspecified address (a wildcard
/// bind, as `http.server` does).
pub(crate) fn is_local(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_unspecified(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.is_unspecified(),
    }
}

/// `::ffff:a.b.c.d` is `a.b.c.d`.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Whether a socket bound to `bound` receives connections for `to`.
fn covers(bound: IpAddr, to: IpAddr) -> bool {
    let (bound, to) = (canonical(bound), canonical(to));
    bound == to
        || match bound {
            IpAddr::V4(b) => b.is_unspecified() && to.is_ipv4(),
            // `[::]` is dual-stack, as on Linux by default.
            IpAddr::V6(b) => b.is_unspecified(),
        }
}

/// Whether two bindings of one port clash (one of them a wildcard, or the
/// same address).
fn clashes(a: IpAddr, b: IpAddr) -> bool {
    covers(a, b) || covers(b, a)
}

impl Loopback {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Binds `addr` (port 0: an ephemeral port); the address bound.
    pub(crate) fn bind(&self, addr: SocketAddr) -> Result<SocketAddr, ErrorCode> {
        if !is_local(addr.ip()) {
            // As Linux answers a bind to an address the machine lacks.
            return Err(ErrorCode::AddressNotBindable);
        }
        let mut t = self.lock();
        let free = |t: &Table, port: u16| {
            !t.bound
                .keys()
                .any(|b| b.port() == port && clashes(b.ip(), addr.ip()))
        };
        let port = if addr.port() != 0 {
            if !free(&t, addr.port()) {
                return Err(ErrorCode::AddressInUse);
            }
            addr.port()
        } else {
            let span = (EPHEMERAL.end() - EPHEMERAL.start()) as u32 + 1;
            let found = (0..span).find_map(|i| {
                let port = EPHEMERAL.start() + ((t.next_ephemeral as u32 + i) % span) as u16;
                free(&t, port).then_some(port)
            });
            let port = found.ok_or(ErrorCode::AddressInUse)?;
            t.next_ephemeral = port - EPHEMERAL.start() + 1;
            port
        };
        let bound = SocketAddr::new(addr.ip(), port);
        t.bound.insert(bound, None);
        Ok(bound)
    }

    /// Makes a bound address a listener.
    pub(crate) fn listen(&self, addr: SocketAddr) -> Arc<Listener> {
        let listener = Arc::new(Listener::default());
        listener.set_backlog(DEFAULT_BACKLOG);
        self.lock().bound.insert(addr, Some(listener.clone()));
        listener
    }

    /// Frees a bound address (its socket is gone).
    pub(crate) fn release(&self, addr: SocketAddr) {
        if let Some(Some(listener)) = self.lock().bound.remove(&addr) {
            listener.close();
        }
    }

    /// Connects `local` (already bound) to whoever listens on `remote`:
    /// the client's end, the server's queued for `accept`.
    pub(crate) fn connect(&self, local: SocketAddr, remote: SocketAddr) -> Result<End, ErrorCode> {
        if !is_local(remote.ip()) {
            return Err(ErrorCode::AccessDenied);
        }
        if remote.port() == 0 {
            return Err(ErrorCode::InvalidArgument);
        }
        // A connect to `0.0.0.0` reaches this machine, as on Linux.
        let to = if remote.ip().is_unspecified() {
            SocketAddr::new(
                match remote.ip() {
                    IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
                    IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
                },
                remote.port(),
            )
        } else {
            remote
        };
        let t = self.lock();
        // The most specific listener: an exact address before a wildcard.
        let listener = t
            .bound
            .iter()
            .filter_map(|(b, l)| Some((b, l.as_ref()?)))
            .filter(|(b, _)| b.port() == to.port() && covers(b.ip(), to.ip()))
            .min_by_key(|(b, _)| b.ip().is_unspecified())
            .map(|(_, l)| l.clone())
            .ok_or(ErrorCode::ConnectionRefused)?;
        drop(t);
        let mut q = listener.lock();
        if q.closed || q.pending.len() >= q.backlog {
            // Linux would retry a full backlog's SYN for a while; a run's
            // loopback answers at once rather than hang.
            return Err(ErrorCode::ConnectionRefused);
        }
        if self.pipes.load(Ordering::SeqCst) + 2 > 2 * MAX_CONNECTIONS {
            return Err(ErrorCode::NewSocketLimit);
        }
        let (up, down) = (
            Arc::new(Pipe::counted(&self.pipes)),
            Arc::new(Pipe::counted(&self.pipes)),
        );
        q.pending.push_back(End {
            local: to,
            remote: local,
            incoming: up.clone(),
            outgoing: down.clone(),
        });
        drop(q);
        listener.arrived.notify_waiters();
        Ok(End {
            local,
            remote: to,
            incoming: down,
            outgoing: up,
        })
    }
}

impl Loopback {
    /// The host's own client side of a connection to `remote` (a
    /// `wasi:http` request to a server of the run): an ephemeral port of
    /// its own, freed when the connection ends.
    pub(crate) fn dial(&self, remote: SocketAddr) -> Result<Dialed, ErrorCode> {
        let ip = match remote.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        };
        let local = self.bind(SocketAddr::new(ip, 0))?;
        match self.connect(local, remote) {
            Ok(end) => Ok(Dialed {
                io: LoopbackIo {
                    incoming: end.incoming,
                    outgoing: end.outgoing,
                },
                local,
                net: self.clone(),
            }),
            Err(e) => {
                self.release(local);
                Err(e)
            }
        }
    }
}

/// A connection the host made into the run's network.
pub(crate) struct Dialed {
    pub io: LoopbackIo,
    local: SocketAddr,
    net: Loopback,
}

impl Drop for Dialed {
    fn drop(&mut self) {
        self.net.release(self.local);
    }
}

impl tokio::io::AsyncRead for Dialed {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Dialed {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ports_in_use_and_ephemeral_ports() {
        let net = Loopback::default();
        assert_eq!(net.bind(addr("127.0.0.1:8000")), Ok(addr("127.0.0.1:8000")));
        assert_eq!(
            net.bind(addr("127.0.0.1:8000")),
            Err(ErrorCode::AddressInUse)
        );
        assert_eq!(net.bind(addr("0.0.0.0:8000")), Err(ErrorCode::AddressInUse));
        assert_eq!(net.bind(addr("[::]:8000")), Err(ErrorCode::AddressInUse));
        assert_eq!(net.bind(addr("[::1]:8000")), Ok(addr("[::1]:8000")));
        let a = net.bind(addr("127.0.0.1:0")).unwrap();
        let b = net.bind(addr("127.0.0.1:0")).unwrap();
        assert!(EPHEMERAL.contains(&a.port()) && a.port() != b.port());
        net.release(addr("127.0.0.1:8000"));
        assert!(net.bind(addr("127.0.0.1:8000")).is_ok());
        assert_eq!(
            net.bind(addr("10.0.0.1:80")),
            Err(ErrorCode::AddressNotBindable)
        );
    }

    #[test]
    fn connect_reaches_a_listener_or_is_refused() {
        let net = Loopback::default();
        let client = net.bind(addr("127.0.0.1:0")).unwrap();
        assert_eq!(
            net.connect(client, addr("127.0.0.1:9")).err(),
            Some(ErrorCode::ConnectionRefused)
        );
        assert_eq!(
            net.connect(client, addr("93.184.216.34:80")).err(),
            Some(ErrorCode::AccessDenied)
        );
        let server = net.bind(addr("[::]:8000")).unwrap();
        let listener = net.listen(server);
        let end = net.connect(client, addr("127.0.0.1:8000")).unwrap();
        let accepted = listener.accept().unwrap();
        assert_eq!(accepted.remote, client);
        assert_eq!(end.remote, addr("127.0.0.1:8000"));
        assert!(Arc::ptr_eq(&accepted.incoming, &end.outgoing));
        net.release(server);
        assert_eq!(
            net.connect(client, addr("127.0.0.1:8000")).err(),
            Some(ErrorCode::ConnectionRefused)
        );
    }

    #[test]
    fn open_connections_are_capped_and_freed() {
        let net = Loopback::default();
        let server = net.bind(addr("127.0.0.1:8000")).unwrap();
        let listener = net.listen(server);
        listener.set_backlog(MAX_BACKLOG);
        let client = net.bind(addr("127.0.0.1:0")).unwrap();
        let mut open = Vec::new();
        for _ in 0..MAX_CONNECTIONS {
            open.push(net.connect(client, server).unwrap());
        }
        assert_eq!(
            net.connect(client, server).err(),
            Some(ErrorCode::NewSocketLimit)
        );
        // Both ends of the first connection gone: room for another.
        open.remove(0);
        drop(listener.accept());
        assert!(net.connect(client, server).is_ok());
    }
}
