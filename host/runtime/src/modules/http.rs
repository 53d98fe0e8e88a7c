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

use crate::net::{RequestRecord, SendFuture, Target, audited, clamp_options};

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
    /// The module's list with the workspace's: what a request is judged by.
    fn list(&self) -> AllowList {
        let Some(ws) = &self.workspace else {
            return (*self.allow).clone();
        };
        match ws.net().allow_list() {
            Ok(list) => self.allow.union(&list),
            Err(e) => {
                tracing::warn!("cannot read the workspace's network allow-list: {e}");
                (*self.allow).clone()
            }
        }
    }
}

impl WasiHttpHooks for HttpPolicy {
    fn send_request(
        &mut self,
        mut request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Box<dyn Future<Output = Result<(), HttpError>> + Send>,
    ) -> SendFuture {
        let target = Target::of(request.uri());
        // Every request a module makes gets its `http` row, as a command's
        // does, in the calling run's workspace (a module called with none
        // has nowhere to write one).
        let mut record = self
            .workspace
            .as_ref()
            .map(|ws| RequestRecord::of(ws.clone(), &request));
        let list = self.list();
        let policy_denies = self
            .workspace
            .as_ref()
            .and_then(|ws| ws.policy())
            .is_some_and(|p| p.denies_host(&target.host, target.port));
        if policy_denies || !list.allows(&target.host, target.port) {
            let why = format!(
                "{}:{} is in neither {}'s allowed hosts nor the workspace's allow-list",
                target.host, target.port, self.module
            );
            tracing::warn!(module = %self.module, "denied HTTP request: {why}");
            if let Some(r) = &record {
                r.write(None, 0, "denied", Some(&why));
            }
            return Box::new(async { Err(HttpError::HttpRequestDenied) });
        }
        let options = match clamp_options(options, self.deadline) {
            Ok(o) => o,
            Err(e) => {
                if let Some(r) = &record {
                    r.write(None, 0, "timeout", Some("the call's time is up"));
                }
                return Box::new(async { Err(e) });
            }
        };
        // The workspace's credentials for this host, set outside the module.
        if let Some(ws) = &self.workspace {
            match crate::net::attach_credentials(ws, &target, &mut request) {
                Ok(attached) => {
                    if let Some(r) = &mut record {
                        r.credentials = attached;
                    }
                }
                Err(why) => {
                    tracing::warn!(module = %self.module, "denied HTTP request: {why}");
                    if let Some(r) = &record {
                        r.write(None, 0, "denied", Some(&why));
                    }
                    return Box::new(async { Err(HttpError::HttpRequestDenied) });
                }
            }
        }
        // The crate's default sender (hyper over tokio, rustls for https).
        let sent = wasmtime_wasi_http::default_hooks().send_request(request, Some(options), fut);
        let module = self.module.clone();
        Box::new(async move {
            if let Some(why) = target.resolves_inside(&list).await {
                tracing::warn!(module = %module, "denied HTTP request: {why}");
                if let Some(r) = &record {
                    r.write(None, 0, "denied", Some(&why));
                }
                return Err(HttpError::HttpRequestDenied);
            }
            match record {
                Some(r) => Box::into_pin(audited(r, sent)).await,
                None => Box::into_pin(sent).await,
            }
        })
    }
}
