//! The `wasi:http` hooks of a run's store (its commands: `curl`, `wget`,
//! user components): the workspace's allow-list, the run's deadline, and
//! an audit row per request.

use std::sync::Arc;
use std::time::Instant;

use computer_store::{AllowList, Workspace};
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks};

use super::audit::{RequestRecord, audited};
use super::policy::{SendFuture, Target, clamp_options};
use crate::durable::journal::SharedJournal;
use crate::host::sockets::Loopback;

/// A store's `wasi:http` state.
pub(crate) struct RunHttp {
    ctx: wasmtime_wasi_http::WasiHttpCtx,
    hooks: CommandHttp,
}

impl RunHttp {
    pub(crate) fn new(
        workspace: Arc<Workspace>,
        deadline: Instant,
        journal: Option<SharedJournal>,
        loopback: Loopback,
    ) -> Self {
        RunHttp {
            ctx: wasmtime_wasi_http::WasiHttpCtx::new(),
            hooks: CommandHttp {
                workspace,
                deadline,
                journal,
                loopback,
                // Made on the run's (or the command's) thread, under the
                // run's scope: `exec --allow-host`.
                extra: computer_store::current_scope()
                    .map(|s| s.allow_hosts().clone())
                    .unwrap_or_default(),
            },
        }
    }

    /// The view `wasi:http` works through, with the store's `table`.
    pub(crate) fn view<'a>(
        &'a mut self,
        table: &'a mut wasmtime::component::ResourceTable,
    ) -> wasmtime_wasi_http::WasiHttpCtxView<'a> {
        wasmtime_wasi_http::WasiHttpCtxView {
            ctx: &mut self.ctx,
            table,
            hooks: &mut self.hooks,
        }
    }
}

/// The hooks of one store.
pub(crate) struct CommandHttp {
    pub workspace: Arc<Workspace>,
    pub deadline: Instant,
    /// A durable run's journal (`super::journal`).
    pub journal: Option<SharedJournal>,
    /// The run's loopback network, where a server of the run listens.
    pub loopback: Loopback,
    /// Hosts this run may reach besides the workspace's list.
    pub extra: AllowList,
}

impl CommandHttp {
    /// The workspace's list, if it allows `target`; a store error denies.
    /// The hint names the port too: allowing the bare host would open
    /// every port of it.
    fn allowed(&self, target: &Target) -> Result<AllowList, String> {
        if let Some(p) = self.workspace.policy()
            && p.denies_host(&target.host, target.port)
        {
            return Err(format!(
                "{}:{} is denied by the workspace's policy (network.deny)",
                target.host, target.port
            ));
        }
        match self
            .workspace
            .net()
            .allow_list()
            .map(|l| l.union(&self.extra))
        {
            Ok(list) if list.allows(&target.host, target.port) => Ok(list),
            Ok(list) if list.is_empty() => Err(format!(
                "the workspace allows no network; allow the host with: computer net allow {}:{}",
                target.host, target.port
            )),
            Ok(_) => Err(format!(
                "{}:{} is not in the workspace's network allow-list (computer net allow {}:{})",
                target.host, target.port, target.host, target.port
            )),
            Err(e) => Err(format!("cannot read the network allow-list: {e}")),
        }
    }
}

impl WasiHttpHooks for CommandHttp {
    fn send_request(
        &mut self,
        mut request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Box<dyn Future<Output = Result<(), HttpError>> + Send>,
    ) -> SendFuture {
        let mut record = RequestRecord::of(self.workspace.clone(), &request);
        let target = Target::of(request.uri());
        let full_url = request.uri().to_string();
        // A server of the run's own needs no allow-list entry, and is not
        // journaled: a replay runs that server again too, so it must see
        // the request again (even a POST), as with the socket calls.
        let https = request.uri().scheme() == Some(&http::uri::Scheme::HTTPS);
        let own = super::loopback::dial(&self.loopback, &target, https);
        if own.is_none()
            && let Some(j) = &self.journal
            && let Err(why) = super::journal::step(j, &record.method, &record.url, &full_url)
        {
            record.write(None, 0, "error", Some(&why));
            return Box::new(async move { Err(HttpError::InternalError(Some(why))) });
        }
        let list = match own {
            Some(_) => AllowList::default(),
            None => match self.allowed(&target) {
                Ok(list) => list,
                Err(why) => return denied(record, why),
            },
        };
        let options = match clamp_options(options, self.deadline) {
            Ok(o) => o,
            Err(e) => {
                record.write(None, 0, "timeout", Some("the run's time is up"));
                return Box::new(async { Err(e) });
            }
        };
        if let Some(conn) = own {
            // A server of the run's own is inside the sandbox: it gets no
            // credential, whatever the rules for its address say.
            return audited(record, super::loopback::send(conn, request, options));
        }
        match super::attach_credentials(&self.workspace, &target, &mut request) {
            Ok(attached) => record.credentials = attached,
            Err(why) => return denied(record, why),
        }
        // The crate's default sender (hyper over tokio, rustls for https).
        let sent = wasmtime_wasi_http::default_hooks().send_request(request, Some(options), fut);
        Box::new(async move {
            if let Some(why) = target.resolves_inside(&list).await {
                return Box::into_pin(denied(record, why)).await;
            }
            Box::into_pin(audited(record, sent)).await
        })
    }
}

/// Refuses a request, with its audit row.
pub(crate) fn denied(record: RequestRecord, why: String) -> SendFuture {
    tracing::info!(url = %record.url, "denied HTTP request: {why}");
    record.write(None, 0, "denied", Some(&why));
    Box::new(async { Err(HttpError::HttpRequestDenied) })
}
