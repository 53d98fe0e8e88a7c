//! `wasi:sockets/ip-name-lookup` for a run: `localhost` (and its usual
//! aliases) is the loopback, an IP literal is itself, and no other name
//! resolves, since TCP reaches nothing outside the run. Answers are
//! immediate and never ask the host's resolver.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use wasmtime::component::Resource;
use wasmtime_wasi::p2::bindings::sockets::ip_name_lookup::{
    Host, HostResolveAddressStream, ResolveAddressStream,
};
use wasmtime_wasi::p2::bindings::sockets::network::{ErrorCode, IpAddress};
use wasmtime_wasi::p2::{DynPollable, Network, SocketError, subscribe};
use wasmtime_wasi_io::poll::Pollable;

use super::SocketsView;

/// The addresses a lookup found, handed out one by one.
pub(crate) struct Resolved(VecDeque<IpAddr>);

#[async_trait::async_trait]
impl Pollable for Resolved {
    async fn ready(&mut self) {}
}

/// What `name` resolves to in a run.
pub(crate) fn resolve(name: &str) -> Result<Vec<IpAddr>, ErrorCode> {
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(vec![ip]);
    }
    let lower = bare.trim_end_matches('.').to_ascii_lowercase();
    if lower.is_empty() || lower.len() > 253 {
        return Err(ErrorCode::InvalidArgument);
    }
    if is_loopback_name(&lower) {
        return Ok(vec![
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(Ipv6Addr::LOCALHOST),
        ]);
    }
    Err(ErrorCode::NameUnresolvable)
}

/// `localhost`, `*.localhost` (RFC 6761) and Debian's `ip6-localhost`.
fn is_loopback_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name == "localhost.localdomain"
        || name == "ip6-localhost"
        || name == "ip6-loopback"
}

fn ours(r: &Resource<ResolveAddressStream>) -> Resource<Resolved> {
    Resource::new_borrow(r.rep())
}

impl Host for SocketsView<'_> {
    fn resolve_addresses(
        &mut self,
        network: Resource<Network>,
        name: String,
    ) -> Result<Resource<ResolveAddressStream>, SocketError> {
        self.table.get(&network)?;
        let found = Resolved(resolve(&name)?.into());
        Ok(Resource::new_own(self.table.push(found)?.rep()))
    }
}

impl HostResolveAddressStream for SocketsView<'_> {
    fn resolve_next_address(
        &mut self,
        this: Resource<ResolveAddressStream>,
    ) -> Result<Option<IpAddress>, SocketError> {
        Ok(self
            .table
            .get_mut(&ours(&this))?
            .0
            .pop_front()
            .map(Into::into))
    }

    fn subscribe(
        &mut self,
        this: Resource<ResolveAddressStream>,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        subscribe(self.table, ours(&this))
    }

    fn drop(&mut self, this: Resource<ResolveAddressStream>) -> wasmtime::Result<()> {
        self.table
            .delete(Resource::<Resolved>::new_own(this.rep()))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_a_run() {
        assert_eq!(resolve("LocalHost.").unwrap().len(), 2);
        assert_eq!(
            resolve("::1").unwrap(),
            vec![IpAddr::V6(Ipv6Addr::LOCALHOST)]
        );
        assert_eq!(
            resolve("[::1]").unwrap(),
            vec![IpAddr::V6(Ipv6Addr::LOCALHOST)]
        );
        assert_eq!(resolve("example.com"), Err(ErrorCode::NameUnresolvable));
        assert_eq!(resolve(""), Err(ErrorCode::InvalidArgument));
    }
}
