//! Outgoing HTTP of module components (`wasi:http/outgoing-handler`),
//! limited to the hosts allowed for the module (its `allow_hosts`) or for
//! the calling run's workspace (`Workspace::net`). With neither a module
//! has no network: every request fails with `HTTP-request-denied`.
//! Requests are also bounded by the time left for the call, so a slow
//! server cannot outlive the call's timeout.

use std::sync::Arc;
use std::time::Instant;

use computer_store::{AllowList, Workspace};
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks};

use crate::net::{SendFuture, Target, clamp_options};

/// The `wasi:http` hooks of one module call: the allow-lists and the call's
/// deadline.
pub(crate) struct HttpPolicy {
    pub allow: Arc<AllowList>,
    /// The calling run's workspace, whose list also applies.
    pub workspace: Option<Arc<Workspace>>,
    pub deadline: Instant,
    /// `ws:NAME`, for the log.
    pub module: Arc<str>,
}

impl HttpPolicy {
    fn allows(&self, target: &Target) -> bool {
        if self.allow.allows(&target.host, target.port) {
            return true;
        }
        let Some(ws) = &self.workspace else {
            return false;
        };
        match ws.net().allow_list() {
            Ok(list) => list.allows(&target.host, target.port),
            Err(e) => {
                tracing::warn!("cannot read the workspace's network allow-list: {e}");
                false
            }
        }
    }
}

impl WasiHttpHooks for HttpPolicy {
    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Box<dyn Future<Output = Result<(), HttpError>> + Send>,
    ) -> SendFuture {
        let target = Target::of(request.uri());
        if !self.allows(&target) {
            tracing::warn!(
                module = %self.module,
                "denied HTTP request to {}:{}: not in the module's allowed hosts nor the workspace's",
                target.host, target.port
            );
            return Box::new(async { Err(HttpError::HttpRequestDenied) });
        }
        tracing::debug!(module = %self.module, method = %request.method(), uri = %request.uri(), "HTTP request");
        let options = match clamp_options(options, self.deadline) {
            Ok(o) => o,
            Err(e) => return Box::new(async { Err(e) }),
        };
        // The crate's default sender (hyper over tokio, rustls for https).
        wasmtime_wasi_http::default_hooks().send_request(request, Some(options), fut)
    }
}
