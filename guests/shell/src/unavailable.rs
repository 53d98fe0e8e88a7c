//! The commands turned off (`commands::DISABLED`) still end in 127, the `auto`
//! backend's signal to run the script in a container, but say why: `bash: mkfifo:
//! command not found (the workspace has no named pipes)`. A last-chance resolver,
//! so `command -v mkfifo` and `type` still find nothing, as they should.

use std::sync::Arc;

use bashkit::{BuiltinContext, CommandResolver, ExecResult, async_trait};

use crate::commands::DISABLED;

pub struct Resolver;

struct Unavailable {
    name: &'static str,
    why: &'static str,
}

impl CommandResolver for Resolver {
    fn resolve(&self, name: &str) -> Option<Arc<dyn bashkit::Builtin>> {
        let (name, why) = DISABLED.iter().find(|(n, _)| *n == name)?;
        Some(Arc::new(Unavailable { name, why }))
    }
}

#[async_trait]
impl bashkit::Builtin for Unavailable {
    async fn execute(&self, _ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let message = format!("bash: {}: command not found ({})\n", self.name, self.why);
        Ok(ExecResult::err(message, 127))
    }
}
