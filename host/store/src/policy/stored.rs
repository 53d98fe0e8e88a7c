//! The workspace's policy file, kept in the workspace (table `policy`) so
//! every handle that opens it (the CLI, `computer mcp`, the library) is
//! gated by it. A handle reads it when it opens, and again when it sets it.

use std::sync::Arc;

use rusqlite::{OptionalExtension, params};

use super::file::Policy;
use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

impl Workspace {
    /// Sets the policy (TOML, see [`Policy`]); this handle is gated by it
    /// at once, others when they next open the workspace.
    pub fn set_policy(&self, toml_text: &str) -> Result<Arc<Policy>> {
        let policy = Arc::new(
            Policy::parse(toml_text).map_err(|e| FsError::custom(Errno::EINVAL, "policy", e))?,
        );
        self.audited(
            "policy-set",
            "policy",
            || None,
            || {
                self.meta_tx(|c| {
                    c.prepare_cached(
                        "INSERT INTO policy (id, toml, updated_ns) VALUES (1, ?1, ?2)
                     ON CONFLICT (id) DO UPDATE SET toml = ?1, updated_ns = ?2",
                    )?
                    .execute(params![toml_text, now_ns()])?;
                    Ok(())
                })
            },
        )?;
        self.install_policy(Some(policy.clone()));
        Ok(policy)
    }

    /// Removes the policy; whether there was one.
    pub fn clear_policy(&self) -> Result<bool> {
        let n = self.audited(
            "policy-rm",
            "policy",
            || None,
            || self.meta_tx(|c| Ok(c.prepare_cached("DELETE FROM policy")?.execute([])?)),
        )?;
        self.install_policy(None);
        Ok(n > 0)
    }

    /// The policy as it was set, if any.
    pub fn policy_text(&self) -> Result<Option<String>> {
        self.read_tx(|c| {
            Ok(c.prepare_cached("SELECT toml FROM policy WHERE id = 1")?
                .query_row([], |r| r.get(0))
                .optional()?)
        })
    }

    /// Reads the stored policy into this handle (at open). A policy that
    /// no longer parses (written by a newer version) is refused loudly:
    /// every change fails rather than running ungated.
    pub(crate) fn load_policy(&self) {
        match self.policy_text() {
            Ok(None) => {}
            Ok(Some(text)) => match Policy::parse(&text) {
                Ok(p) => self.install_policy(Some(Arc::new(p))),
                Err(e) => {
                    tracing::error!("the workspace's policy cannot be read: {e}");
                    self.install_policy(Some(Arc::new(Policy::unreadable(e))));
                }
            },
            Err(e) => tracing::warn!("cannot read the workspace's policy: {e}"),
        }
    }

    fn install_policy(&self, policy: Option<Arc<Policy>>) {
        *self.policy.write().unwrap_or_else(|p| p.into_inner()) = policy;
        self.refresh_gated();
    }

    pub(crate) fn policy_gate(&self) -> Option<Arc<Policy>> {
        if !self.gated.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        self.policy
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The policy this handle is gated by, if any.
    pub fn policy(&self) -> Option<Arc<Policy>> {
        self.policy_gate()
    }

    pub(crate) fn refresh_gated(&self) {
        let any = self
            .policy
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
            || !self
                .gates
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .is_empty();
        self.gated.store(any, std::sync::atomic::Ordering::Relaxed);
    }
}
