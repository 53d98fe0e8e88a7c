//! `wasi:sockets/tcp` and `tcp-create-socket` over the run's loopback.
//! The resource handed to the guest is wasmtime-wasi's `tcp-socket` type
//! by name only: the table holds our [`Socket`] under its rep.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use wasmtime::component::Resource;
use wasmtime_wasi::p2::bindings::sockets::network::{ErrorCode, IpAddressFamily, IpSocketAddress};
use wasmtime_wasi::p2::bindings::sockets::tcp_create_socket;
use wasmtime_wasi::p2::bindings::sync::sockets::tcp::{
    self, Duration, HostTcpSocket, InputStream, OutputStream, Pollable as GuestPollable,
    ShutdownType, TcpSocket,
};
use wasmtime_wasi::p2::{DynInputStream, DynOutputStream, Network, SocketResult, subscribe};
use wasmtime_wasi_io::poll::Pollable;

use super::SocketsView;
use super::namespace::{End, Listener, Loopback};
use super::pipe::{Pipe, Reader, Writer};

enum State {
    Unbound,
    BindStarted(SocketAddr),
    Bound,
    ListenStarted,
    Listening(Arc<Listener>),
    /// The connection is made (or refused) at once; `finish-connect`
    /// reports it.
    ConnectStarted(Result<End, ErrorCode>),
    Connected {
        local: SocketAddr,
        remote: SocketAddr,
        incoming: Arc<Pipe>,
        outgoing: Arc<Pipe>,
    },
    /// A failed connect leaves the socket unusable, as in WASI.
    Closed,
}

/// A TCP socket of the run's loopback.
pub(crate) struct Socket {
    family: IpAddressFamily,
    state: State,
    /// The address this socket holds in the namespace, freed on drop.
    bound: Option<SocketAddr>,
    net: Loopback,
    backlog: Option<u64>,
    /// Options a guest may set and read back; they change nothing here.
    keep_alive: bool,
    keep_alive_idle: Duration,
    keep_alive_interval: Duration,
    keep_alive_count: u32,
    hop_limit: u8,
    receive_buffer: u64,
    send_buffer: u64,
}

impl Socket {
    fn new(net: Loopback, family: IpAddressFamily, state: State) -> Self {
        Socket {
            family,
            state,
            bound: None,
            net,
            backlog: None,
            keep_alive: false,
            keep_alive_idle: 7_200_000_000_000,
            keep_alive_interval: 75_000_000_000,
            keep_alive_count: 9,
            hop_limit: 64,
            receive_buffer: super::pipe::CAPACITY as u64,
            send_buffer: super::pipe::CAPACITY as u64,
        }
    }

    /// `addr` checked against the socket's family (an IPv6 socket takes
    /// IPv4-mapped addresses, as a dual-stack socket does).
    fn check_family(&self, addr: &SocketAddr) -> Result<(), ErrorCode> {
        match (self.family, addr.ip()) {
            (IpAddressFamily::Ipv4, IpAddr::V4(_)) | (IpAddressFamily::Ipv6, IpAddr::V6(_)) => {
                Ok(())
            }
            _ => Err(ErrorCode::InvalidArgument),
        }
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        if let Some(addr) = self.bound.take() {
            self.net.release(addr);
        }
        if let State::Connected {
            incoming, outgoing, ..
        } = &self.state
        {
            incoming.close_read();
            outgoing.close_write();
        }
    }
}

#[async_trait::async_trait]
impl Pollable for Socket {
    async fn ready(&mut self) {
        // Only a listener waits: for a connection to accept.
        if let State::Listening(listener) = &self.state {
            loop {
                let arrived = listener.arrived.notified();
                if listener.has_pending() {
                    return;
                }
                arrived.await;
            }
        }
    }
}

fn ours(r: &Resource<TcpSocket>) -> Resource<Socket> {
    Resource::new_borrow(r.rep())
}

impl SocketsView<'_> {
    fn socket(&mut self, r: &Resource<TcpSocket>) -> SocketResult<&mut Socket> {
        Ok(self.table.get_mut(&ours(r))?)
    }

    fn push(&mut self, socket: Socket) -> SocketResult<Resource<TcpSocket>> {
        Ok(Resource::new_own(self.table.push(socket)?.rep()))
    }

    fn streams(
        &mut self,
        incoming: &Arc<Pipe>,
        outgoing: &Arc<Pipe>,
    ) -> SocketResult<(Resource<InputStream>, Resource<OutputStream>)> {
        let input: DynInputStream = Box::new(Reader(incoming.clone()));
        let output: DynOutputStream = Box::new(Writer(outgoing.clone()));
        Ok((self.table.push(input)?, self.table.push(output)?))
    }
}

impl tcp_create_socket::Host for SocketsView<'_> {
    fn create_tcp_socket(&mut self, family: IpAddressFamily) -> SocketResult<Resource<TcpSocket>> {
        let socket = Socket::new(self.net.clone(), family, State::Unbound);
        self.push(socket)
    }
}

impl tcp::Host for SocketsView<'_> {}

impl HostTcpSocket for SocketsView<'_> {
    fn start_bind(
        &mut self,
        this: Resource<TcpSocket>,
        network: Resource<Network>,
        local_address: IpSocketAddress,
    ) -> SocketResult<()> {
        self.table.get(&network)?;
        let addr = SocketAddr::from(local_address);
        let s = self.socket(&this)?;
        if !matches!(s.state, State::Unbound) {
            return Err(ErrorCode::InvalidState.into());
        }
        s.check_family(&addr)?;
        s.state = State::BindStarted(addr);
        Ok(())
    }

    fn finish_bind(&mut self, this: Resource<TcpSocket>) -> SocketResult<()> {
        let s = self.socket(&this)?;
        let State::BindStarted(addr) = s.state else {
            return Err(ErrorCode::NotInProgress.into());
        };
        match s.net.bind(addr) {
            Ok(bound) => {
                s.bound = Some(bound);
                s.state = State::Bound;
                Ok(())
            }
            Err(e) => {
                s.state = State::Unbound;
                Err(e.into())
            }
        }
    }

    fn start_connect(
        &mut self,
        this: Resource<TcpSocket>,
        network: Resource<Network>,
        remote_address: IpSocketAddress,
    ) -> SocketResult<()> {
        self.table.get(&network)?;
        let remote = SocketAddr::from(remote_address);
        let s = self.socket(&this)?;
        if !matches!(s.state, State::Unbound | State::Bound) {
            return Err(ErrorCode::InvalidState.into());
        }
        s.check_family(&remote)?;
        if !super::namespace::is_local(remote.ip()) {
            // TCP leaves the run nowhere: HTTP goes through the host's
            // client and the workspace's allow-list.
            return Err(ErrorCode::AccessDenied.into());
        }
        if s.bound.is_none() {
            // An implicit bind, as connect does: an ephemeral port on the
            // loopback address of the target's kind.
            let ip = match remote.ip() {
                IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
                IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => {
                    IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped())
                }
                IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
            };
            s.bound = Some(s.net.bind(SocketAddr::new(ip, 0))?);
        }
        let local = s.bound.expect("bound above");
        s.state = State::ConnectStarted(s.net.connect(local, remote));
        Ok(())
    }

    fn finish_connect(
        &mut self,
        this: Resource<TcpSocket>,
    ) -> SocketResult<(Resource<InputStream>, Resource<OutputStream>)> {
        let s = self.socket(&this)?;
        let State::ConnectStarted(_) = &s.state else {
            return Err(ErrorCode::NotInProgress.into());
        };
        let State::ConnectStarted(made) = std::mem::replace(&mut s.state, State::Closed) else {
            unreachable!("matched above")
        };
        let end = made?;
        let (incoming, outgoing) = (end.incoming.clone(), end.outgoing.clone());
        s.state = State::Connected {
            local: end.local,
            remote: end.remote,
            incoming: end.incoming,
            outgoing: end.outgoing,
        };
        self.streams(&incoming, &outgoing)
    }

    fn start_listen(&mut self, this: Resource<TcpSocket>) -> SocketResult<()> {
        let s = self.socket(&this)?;
        match s.state {
            State::Bound => {
                s.state = State::ListenStarted;
                Ok(())
            }
            State::ListenStarted => Err(ErrorCode::ConcurrencyConflict.into()),
            _ => Err(ErrorCode::InvalidState.into()),
        }
    }

    fn finish_listen(&mut self, this: Resource<TcpSocket>) -> SocketResult<()> {
        let s = self.socket(&this)?;
        let (State::ListenStarted, Some(addr)) = (&s.state, s.bound) else {
            return Err(ErrorCode::NotInProgress.into());
        };
        let listener = s.net.listen(addr);
        if let Some(backlog) = s.backlog {
            listener.set_backlog(backlog as usize);
        }
        s.state = State::Listening(listener);
        Ok(())
    }

    fn accept(
        &mut self,
        this: Resource<TcpSocket>,
    ) -> SocketResult<(
        Resource<TcpSocket>,
        Resource<InputStream>,
        Resource<OutputStream>,
    )> {
        let s = self.socket(&this)?;
        let State::Listening(listener) = &s.state else {
            return Err(ErrorCode::InvalidState.into());
        };
        let end = listener.accept().ok_or(ErrorCode::WouldBlock)?;
        let (family, net) = (s.family, s.net.clone());
        let (incoming, outgoing) = (end.incoming.clone(), end.outgoing.clone());
        let accepted = Socket::new(
            net,
            family,
            State::Connected {
                local: end.local,
                remote: end.remote,
                incoming: end.incoming,
                outgoing: end.outgoing,
            },
        );
        let socket = self.push(accepted)?;
        let (input, output) = self.streams(&incoming, &outgoing)?;
        Ok((socket, input, output))
    }

    fn local_address(&mut self, this: Resource<TcpSocket>) -> SocketResult<IpSocketAddress> {
        let s = self.socket(&this)?;
        match (&s.state, s.bound) {
            (State::Connected { local, .. }, _) => Ok((*local).into()),
            (State::Unbound | State::BindStarted(_), _) | (_, None) => {
                Err(ErrorCode::InvalidState.into())
            }
            (_, Some(bound)) => Ok(bound.into()),
        }
    }

    fn remote_address(&mut self, this: Resource<TcpSocket>) -> SocketResult<IpSocketAddress> {
        match &self.socket(&this)?.state {
            State::Connected { remote, .. } => Ok((*remote).into()),
            _ => Err(ErrorCode::InvalidState.into()),
        }
    }

    fn is_listening(&mut self, this: Resource<TcpSocket>) -> wasmtime::Result<bool> {
        let s = self.table.get(&ours(&this))?;
        Ok(matches!(s.state, State::Listening(_)))
    }

    fn address_family(&mut self, this: Resource<TcpSocket>) -> wasmtime::Result<IpAddressFamily> {
        Ok(self.table.get(&ours(&this))?.family)
    }

    fn set_listen_backlog_size(
        &mut self,
        this: Resource<TcpSocket>,
        value: u64,
    ) -> SocketResult<()> {
        let value = positive(value)?;
        let s = self.socket(&this)?;
        s.backlog = Some(value);
        match &s.state {
            State::Listening(listener) => listener.set_backlog(value as usize),
            State::Connected { .. } | State::ConnectStarted(_) => {
                return Err(ErrorCode::InvalidState.into());
            }
            _ => {}
        }
        Ok(())
    }

    fn keep_alive_enabled(&mut self, this: Resource<TcpSocket>) -> SocketResult<bool> {
        Ok(self.socket(&this)?.keep_alive)
    }

    fn set_keep_alive_enabled(
        &mut self,
        this: Resource<TcpSocket>,
        value: bool,
    ) -> SocketResult<()> {
        self.socket(&this)?.keep_alive = value;
        Ok(())
    }

    fn keep_alive_idle_time(&mut self, this: Resource<TcpSocket>) -> SocketResult<Duration> {
        Ok(self.socket(&this)?.keep_alive_idle)
    }

    fn set_keep_alive_idle_time(
        &mut self,
        this: Resource<TcpSocket>,
        value: Duration,
    ) -> SocketResult<()> {
        self.socket(&this)?.keep_alive_idle = positive(value)?;
        Ok(())
    }

    fn keep_alive_interval(&mut self, this: Resource<TcpSocket>) -> SocketResult<Duration> {
        Ok(self.socket(&this)?.keep_alive_interval)
    }

    fn set_keep_alive_interval(
        &mut self,
        this: Resource<TcpSocket>,
        value: Duration,
    ) -> SocketResult<()> {
        self.socket(&this)?.keep_alive_interval = positive(value)?;
        Ok(())
    }

    fn keep_alive_count(&mut self, this: Resource<TcpSocket>) -> SocketResult<u32> {
        Ok(self.socket(&this)?.keep_alive_count)
    }

    fn set_keep_alive_count(&mut self, this: Resource<TcpSocket>, value: u32) -> SocketResult<()> {
        self.socket(&this)?.keep_alive_count = positive(value)?;
        Ok(())
    }

    fn hop_limit(&mut self, this: Resource<TcpSocket>) -> SocketResult<u8> {
        Ok(self.socket(&this)?.hop_limit)
    }

    fn set_hop_limit(&mut self, this: Resource<TcpSocket>, value: u8) -> SocketResult<()> {
        self.socket(&this)?.hop_limit = positive(value)?;
        Ok(())
    }

    fn receive_buffer_size(&mut self, this: Resource<TcpSocket>) -> SocketResult<u64> {
        Ok(self.socket(&this)?.receive_buffer)
    }

    fn set_receive_buffer_size(
        &mut self,
        this: Resource<TcpSocket>,
        value: u64,
    ) -> SocketResult<()> {
        self.socket(&this)?.receive_buffer = positive(value)?;
        Ok(())
    }

    fn send_buffer_size(&mut self, this: Resource<TcpSocket>) -> SocketResult<u64> {
        Ok(self.socket(&this)?.send_buffer)
    }

    fn set_send_buffer_size(&mut self, this: Resource<TcpSocket>, value: u64) -> SocketResult<()> {
        self.socket(&this)?.send_buffer = positive(value)?;
        Ok(())
    }

    fn subscribe(
        &mut self,
        this: Resource<TcpSocket>,
    ) -> wasmtime::Result<Resource<GuestPollable>> {
        subscribe(self.table, ours(&this))
    }

    fn shutdown(&mut self, this: Resource<TcpSocket>, how: ShutdownType) -> SocketResult<()> {
        let State::Connected {
            incoming, outgoing, ..
        } = &self.socket(&this)?.state
        else {
            return Err(ErrorCode::InvalidState.into());
        };
        if matches!(how, ShutdownType::Receive | ShutdownType::Both) {
            incoming.close_read();
        }
        if matches!(how, ShutdownType::Send | ShutdownType::Both) {
            outgoing.close_write();
        }
        Ok(())
    }

    fn drop(&mut self, this: Resource<TcpSocket>) -> wasmtime::Result<()> {
        self.table.delete(Resource::<Socket>::new_own(this.rep()))?;
        Ok(())
    }
}

/// `value`, or `invalid-argument` for zero (every socket option set here
/// must be positive).
fn positive<T: Default + PartialEq>(value: T) -> SocketResult<T> {
    if value == T::default() {
        return Err(ErrorCode::InvalidArgument.into());
    }
    Ok(value)
}
