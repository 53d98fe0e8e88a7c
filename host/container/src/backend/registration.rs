//! The container backend behind the runtime's `Backend` trait, and its
//! registration, with `auto` (the shell, falling back to a container).

use std::sync::Arc;

use computer_runtime::{
    Backend, BackendInfo, Commands, ExecError, ExecOptions, FallbackBackend, Limits, RunHandle,
    RunResult, Runtime, SHELL_BACKEND,
};
use computer_store::Workspace;

use super::options::ContainerExecOptions;
use super::{CONTAINER_BACKEND, ContainerBackend, ContainerRunInfo};
use crate::config::{DEFAULT_IMAGE, DEFAULT_IMAGE_PROGRAMS, build_hint};
use crate::error::{ContainerError, NO_ENGINE};

/// Name of the fallback backend: the shell, then the container.
pub const AUTO_BACKEND: &str = "auto";

/// Registers `backend` as `container`, and `auto` (the shell first, the
/// container when the shell has no such command) with `runtime`.
pub fn register(runtime: &Runtime, backend: ContainerBackend) -> Result<(), ExecError> {
    runtime.register_backend(Arc::new(backend))?;
    runtime.register_backend(Arc::new(FallbackBackend::new(
        AUTO_BACKEND,
        SHELL_BACKEND,
        CONTAINER_BACKEND,
    )))
}

impl From<ContainerError> for ExecError {
    fn from(e: ContainerError) -> Self {
        match e {
            ContainerError::Workspace(fs) => ExecError::Workspace(fs),
            ContainerError::InvalidOption(m) => ExecError::InvalidOption(m),
            other => ExecError::Unavailable {
                backend: CONTAINER_BACKEND.to_owned(),
                reason: other.to_string(),
                exit_code: other.exit_code(),
            },
        }
    }
}

impl Backend for ContainerBackend {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: CONTAINER_BACKEND.to_owned(),
            description: format!(
                "/bin/sh in a Linux container (image {}) with the workspace at /workspace. Use it for real binaries (python3, npm, cargo); slower to start.",
                self.config().image
            ),
            source: "sh script".into(),
            commands: Commands::Any,
            slow_start: true,
        }
    }

    fn default_limits(&self, rt: &Runtime) -> Limits {
        let _ = rt;
        Limits {
            memory_bytes: usize::try_from(self.config().memory_bytes).unwrap_or(usize::MAX),
            ..Limits::default()
        }
    }

    fn available(&self) -> Result<(), String> {
        self.engine_choice()
            .and_then(|choice| crate::engine::socket_present(&choice))
            .map_err(|why| format!("{NO_ENGINE} ({why})"))
    }

    fn runs_on(&self, options: &ExecOptions) -> Option<String> {
        let engine = match self.engine_choice() {
            Ok(choice) => choice.to_string(),
            Err(why) => format!("none: {why}"),
        };
        let image = options.image.as_deref().unwrap_or(&self.config().image);
        Some(format!("image {image}, engine {engine}"))
    }

    fn missing_command_note(&self, result: &RunResult, command: &str) -> Option<String> {
        let image = ContainerRunInfo::of(result)
            .map(|info| info.image)
            .unwrap_or_else(|| self.config().image.clone());
        Some(missing_program_note(&image, command))
    }

    fn exec(
        &self,
        rt: &Runtime,
        ws: Arc<Workspace>,
        source: &str,
        options: ExecOptions,
    ) -> Result<RunHandle, ExecError> {
        let limits = options
            .limits
            .clone()
            .unwrap_or_else(|| self.default_limits(rt));
        // The runtime's cap on concurrent runs holds for containers too.
        let slot = rt.run_slot()?;
        Ok(ContainerBackend::exec_in_slot(
            self,
            ws,
            source,
            ContainerExecOptions::from_exec(&options, &limits),
            Some(slot),
        )?)
    }

    fn kill(&self, run_id: &str) -> bool {
        ContainerBackend::kill(self, run_id)
    }

    fn abandoned(&self, owner: &str) -> String {
        // A command in a container cannot be replayed: it may have changed
        // the workspace or the outside world already.
        format!(
            "the process running this container exec ({owner}) died mid-exec: \
             it may have taken effect, so it was not run again"
        )
    }
}

/// Why `command` was not found in a container of `image`, and which image
/// has it: the default one for the programs it is built with.
fn missing_program_note(image: &str, command: &str) -> String {
    let choose = "choose it with --image or COMPUTER_CONTAINER_IMAGE";
    if image != DEFAULT_IMAGE && DEFAULT_IMAGE_PROGRAMS.contains(&command) {
        let build = build_hint(DEFAULT_IMAGE).unwrap_or_default();
        format!(
            "the image {image} has no `{command}`; the default image {DEFAULT_IMAGE} has it \
             ({build}; {choose}, or leave COMPUTER_CONTAINER_IMAGE unset)"
        )
    } else {
        format!(
            "the image {image} has no `{command}`: install it in the image, or {choose} \
             naming an image that has it"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BUSYBOX_IMAGE;

    #[test]
    fn a_program_of_the_default_image_points_to_it() {
        let note = missing_program_note(BUSYBOX_IMAGE, "gcc");
        assert!(
            note.contains(&format!("the image {BUSYBOX_IMAGE} has no `gcc`"))
                && note.contains(&format!("the default image {DEFAULT_IMAGE} has it"))
                && note.contains("scripts/build-image.sh"),
            "{note}"
        );
        let note = missing_program_note(DEFAULT_IMAGE, "cargo");
        assert!(
            note.contains(&format!("the image {DEFAULT_IMAGE} has no `cargo`"))
                && note.contains("naming an image that has it")
                && !note.contains("the default image"),
            "{note}"
        );
    }
}
