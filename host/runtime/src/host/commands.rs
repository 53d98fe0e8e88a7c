//! `computer:workspace/commands` for runs: listing the commands a run can
//! call, and starting and driving one (`commands::invocation`).
//!
//! Nothing here is journalled: a command's events follow from its own host
//! calls, which are. The exception is the first `poll-next` of a run: it
//! marks where commands began to run beside each other
//! (`Journal::mark_concurrent`).

use std::time::Duration;

use wasmtime::component::Resource;

use crate::bindings::commands::{self, CommandInfo, Event, InvocationRequest, StartError};
use crate::commands::invocation::{self, Invocation, Request};
use crate::commands::link::Step;
use crate::durable::journal;
use crate::run::output::Channel;
use crate::run::state::RunState;

impl commands::Host for RunState {
    fn list_commands(&mut self) -> wasmtime::Result<Vec<CommandInfo>> {
        let inner = &self.nesting.inner;
        Ok(match inner.commands.list(&self.workspace) {
            Ok(all) => all
                .into_iter()
                .map(|c| CommandInfo {
                    name: c.name,
                    description: c.description,
                })
                .collect(),
            Err(e) => {
                tracing::warn!("cannot list the workspace's commands: {e}");
                Vec::new()
            }
        })
    }
}

/// Longest a `poll-next` waits: the caller's own deadline and kill checks
/// run only between host calls.
const MAX_POLL_WAIT_MS: u32 = 100;

fn event(step: Step) -> Event {
    match step {
        Step::Output(Channel::Stdout, bytes) => Event::Stdout(bytes),
        Step::Output(Channel::Stderr, bytes) => Event::Stderr(bytes),
        Step::StdinWanted => Event::StdinWanted,
        Step::Exited(code) => Event::Exited(code),
    }
}

impl commands::HostInvocation for RunState {
    fn start(
        &mut self,
        request: InvocationRequest,
    ) -> wasmtime::Result<Result<Resource<Invocation>, StartError>> {
        self.wasi_fs.hand_over()?;
        let request = Request {
            name: request.name,
            argv: request.argv,
            env: request.env,
            cwd: request.cwd,
        };
        match Invocation::start(self, request) {
            Ok(inv) => Ok(Ok(self.table.push(inv)?)),
            Err(invocation::StartError::NotFound) => Ok(Err(StartError::NotFound)),
            Err(invocation::StartError::TooDeep(n)) => Ok(Err(StartError::TooDeep(n))),
            Err(invocation::StartError::Failed(why)) => Ok(Err(StartError::Failed(why))),
        }
    }

    fn next(&mut self, inv: Resource<Invocation>) -> wasmtime::Result<Event> {
        // The command sees the workspace as this run left it so far.
        self.wasi_fs.hand_over()?;
        Ok(event(self.table.get(&inv)?.next()))
    }

    fn poll_next(
        &mut self,
        inv: Resource<Invocation>,
        wait_ms: u32,
    ) -> wasmtime::Result<Option<Event>> {
        self.wasi_fs.hand_over()?;
        if let Some(j) = &self.journal {
            let marked = journal::lock(j).mark_concurrent();
            marked.map_err(|e| self.trap(e))?;
        }
        let wait = Duration::from_millis(u64::from(wait_ms.min(MAX_POLL_WAIT_MS)));
        Ok(self.table.get(&inv)?.poll_next(wait).map(event))
    }

    fn feed(&mut self, inv: Resource<Invocation>, data: Vec<u8>) -> wasmtime::Result<()> {
        self.table.get(&inv)?.feed(&data);
        Ok(())
    }

    fn drop(&mut self, inv: Resource<Invocation>) -> wasmtime::Result<()> {
        // Dropping stops the command and waits for its thread.
        self.table.delete(inv)?;
        Ok(())
    }
}
