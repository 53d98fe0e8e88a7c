//! Commands that are another bashkit command with fixed options, run through
//! bashkit's execution plans so they get the real command's behaviour.

use bashkit::{BuiltinContext, ExecResult, ExecutionPlan, SubCommand, async_trait};

/// A command name that runs `command` with `fixed` arguments before the given ones.
pub struct Alias {
    pub command: &'static str,
    pub fixed: &'static [&'static str],
}

/// `zcat` is `gunzip -c`: bashkit has gunzip but no zcat.
pub const ZCAT: Alias = Alias {
    command: "gunzip",
    fixed: &["-c"],
};

#[async_trait]
impl bashkit::Builtin for Alias {
    async fn execute(&self, _ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        // Never reached: the plan below runs instead.
        Ok(ExecResult::err(
            format!("{}: not available\n", self.command),
            127,
        ))
    }

    async fn execution_plan(
        &self,
        ctx: &BuiltinContext<'_>,
    ) -> bashkit::Result<Option<ExecutionPlan>> {
        let mut args: Vec<String> = self.fixed.iter().map(|s| s.to_string()).collect();
        args.extend(ctx.args.iter().cloned());
        Ok(Some(ExecutionPlan::Batch {
            commands: vec![SubCommand {
                name: self.command.to_string(),
                args,
                stdin: ctx.stdin.cloned(),
                assignments: Vec::new(),
            }],
        }))
    }
}
