//! The workspace's container: created on first use, reused, replaced when
//! it died or its settings changed, removed by `stop` or by its own idle
//! watchdog.

use std::collections::HashMap;
use std::path::Path;

use bollard::Docker;
use bollard::models::{ContainerCreateBody, HostConfig};
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, CreateImageOptionsBuilder, RemoveContainerOptionsBuilder,
};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};

use crate::config::{ContainerConfig, MOUNT_POINT};
use crate::error::{ContainerError, is_conflict, is_not_found};

/// Where the control directory (the heartbeat) is mounted, read-only.
pub(crate) const CONTROL_MOUNT: &str = "/.computer";

pub(crate) const LABEL_MANAGED: &str = "computer.managed";
pub(crate) const LABEL_WORKSPACE: &str = "computer.workspace";
pub(crate) const LABEL_SPEC: &str = "computer.spec";

/// PID 1 of the container: exits (and the container removes itself) once
/// the heartbeat file has not been touched for `$1` seconds. Plain `sh`:
/// `: >` and `[ -nt ]` are built in, `sleep` is the only other program.
const WATCHDOG: &str = r#"idle="$1"
while :; do
  : > /tmp/.computer-idle 2>/dev/null || exec sleep 2147483647
  # Interrupted (a command's `kill -1` reaches this sleep too): look again later.
  sleep "$idle" || continue
  [ /.computer/heartbeat -nt /tmp/.computer-idle ] || exit 0
done"#;

/// Everything the container is made from.
pub(crate) struct Spec<'a> {
    pub name: String,
    pub image: &'a str,
    pub user: &'a str,
    pub root: &'a Path,
    pub control: &'a Path,
    pub identity: &'a str,
    pub config: &'a ContainerConfig,
}

impl Spec<'_> {
    /// A digest of the settings: a container made from others is replaced.
    pub fn fingerprint(&self) -> String {
        let c = self.config;
        let text = format!(
            "{}|{}|{:?}|{}|{}|{}|{}|{}|{}",
            self.image,
            self.user,
            c.network,
            c.memory_bytes,
            c.pids_limit,
            c.idle_timeout.as_secs(),
            self.root.display(),
            self.control.display(),
            WATCHDOG
        );
        let d = Sha256::digest(text.as_bytes());
        d[..8].iter().map(|b| format!("{b:02x}")).collect()
    }

    fn body(&self) -> ContainerCreateBody {
        let c = self.config;
        let labels = HashMap::from([
            (LABEL_MANAGED.to_owned(), "1".to_owned()),
            (LABEL_WORKSPACE.to_owned(), self.identity.to_owned()),
            (LABEL_SPEC.to_owned(), self.fingerprint()),
        ]);
        let host = HostConfig {
            binds: Some(vec![
                format!("{}:{MOUNT_POINT}:rw", self.root.display()),
                format!("{}:{CONTROL_MOUNT}:ro", self.control.display()),
            ]),
            network_mode: Some(c.network.clone().unwrap_or_else(|| "none".to_owned())),
            cap_drop: Some(vec!["ALL".to_owned()]),
            security_opt: Some(vec!["no-new-privileges".to_owned()]),
            memory: Some(c.memory_bytes.min(i64::MAX as u64) as i64),
            // No swap beyond the memory limit.
            memory_swap: Some(c.memory_bytes.min(i64::MAX as u64) as i64),
            pids_limit: Some(c.pids_limit),
            auto_remove: Some(true),
            ..Default::default()
        };
        ContainerCreateBody {
            image: Some(self.image.to_owned()),
            user: Some(self.user.to_owned()),
            working_dir: Some(MOUNT_POINT.to_owned()),
            entrypoint: Some(vec!["/bin/sh".to_owned(), "-c".to_owned()]),
            cmd: Some(vec![
                WATCHDOG.to_owned(),
                "computer-idle".to_owned(),
                c.idle_timeout.as_secs().max(1).to_string(),
            ]),
            labels: Some(labels),
            network_disabled: c.network.is_none().then_some(true),
            host_config: Some(host),
            ..Default::default()
        }
    }
}

/// Makes sure the container runs with this spec; true if it was created now.
pub(crate) async fn ensure(
    docker: &Docker,
    spec: &Spec<'_>,
    progress: &(dyn Fn(&str) + Send + Sync),
) -> Result<bool, ContainerError> {
    match docker.inspect_container(&spec.name, None).await {
        Ok(info) => {
            let running = info.state.as_ref().and_then(|s| s.running).unwrap_or(false);
            let fits = info
                .config
                .as_ref()
                .and_then(|c| c.labels.as_ref())
                .and_then(|l| l.get(LABEL_SPEC))
                .is_some_and(|f| *f == spec.fingerprint());
            if running && fits {
                return Ok(false);
            }
            tracing::info!(
                container = %spec.name,
                running,
                fits,
                "replacing the workspace's container"
            );
            remove(docker, &spec.name).await?;
        }
        Err(e) if is_not_found(&e) => {}
        // Podman reports states the Docker API does not have (`stopped`,
        // while its watchdog exit is being cleaned up): not usable either.
        Err(bollard::errors::Error::JsonDataError { .. }) => {
            remove(docker, &spec.name).await?;
        }
        Err(e) => return Err(ContainerError::engine(e)),
    }
    ensure_image(docker, spec.image, spec.config.pull, progress).await?;
    let options = CreateContainerOptionsBuilder::default()
        .name(&spec.name)
        .build();
    let mut attempt = 0;
    loop {
        match docker
            .create_container(Some(options.clone()), spec.body())
            .await
        {
            Ok(_) => break,
            // The name is still held by a container being removed.
            Err(e) if is_conflict(&e) && attempt < 20 => {
                attempt += 1;
                remove(docker, &spec.name).await?;
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(e) => return Err(ContainerError::engine(e)),
        }
    }
    docker
        .start_container(&spec.name, None)
        .await
        .map_err(ContainerError::engine)?;
    Ok(true)
}

/// Removes the container (killing what runs in it); true if there was one.
pub(crate) async fn remove(docker: &Docker, name: &str) -> Result<bool, ContainerError> {
    let options = RemoveContainerOptionsBuilder::default()
        .force(true)
        .v(true)
        .build();
    match docker.remove_container(name, Some(options)).await {
        Ok(()) => Ok(true),
        Err(e) if is_not_found(&e) => Ok(false),
        // Already being removed (its watchdog exited).
        Err(e) if is_conflict(&e) => Ok(true),
        Err(e) => Err(ContainerError::engine(e)),
    }
}

/// Checks the image is present; pulls it (reporting progress) if it is not
/// and pulling is allowed.
async fn ensure_image(
    docker: &Docker,
    image: &str,
    pull: bool,
    progress: &(dyn Fn(&str) + Send + Sync),
) -> Result<(), ContainerError> {
    match docker.inspect_image(image).await {
        Ok(_) => return Ok(()),
        Err(e) if is_not_found(&e) => {}
        Err(e) => return Err(ContainerError::engine(e)),
    }
    let hint = crate::config::build_hint(image).map_or(String::new(), |h| {
        format!("; {h}, or choose another image with --image or COMPUTER_CONTAINER_IMAGE")
    });
    // localhost/ images come from `podman import` or a local build: there
    // is no registry to ask.
    if !pull || image.starts_with("localhost/") {
        return Err(ContainerError::Image {
            image: image.to_owned(),
            reason: format!("not present locally{hint}"),
        });
    }
    progress(&format!("pulling image {image}"));
    let (repo, tag) = split_image(image);
    let options = CreateImageOptionsBuilder::default()
        .from_image(repo)
        .tag(tag)
        .build();
    let mut stream = docker.create_image(Some(options), None, None);
    while let Some(item) = stream.next().await {
        match item {
            Ok(info) => {
                let mut line = String::new();
                if let Some(id) = &info.id {
                    line.push_str(id);
                    line.push_str(": ");
                }
                if let Some(status) = &info.status {
                    line.push_str(status);
                }
                if let Some(d) = &info.progress_detail
                    && let (Some(cur), Some(total)) = (d.current, d.total)
                    && total > 0
                {
                    line.push_str(&format!(" {}%", cur * 100 / total));
                }
                if !line.is_empty() {
                    progress(&line);
                }
            }
            Err(e) => {
                return Err(ContainerError::Image {
                    image: image.to_owned(),
                    reason: format!("not present locally and the pull failed: {e}{hint}"),
                });
            }
        }
    }
    Ok(())
}

/// `repo[:tag]`, with `latest` as the default tag (a `:` in a registry
/// host's port is not a tag).
fn split_image(image: &str) -> (&str, &str) {
    let image = image.split('@').next().unwrap_or(image);
    match image.rfind(':') {
        Some(i) if !image[i..].contains('/') => (&image[..i], &image[i + 1..]),
        _ => (image, "latest"),
    }
}

/// What `status` reports about the container.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ContainerState {
    pub name: String,
    pub id: Option<String>,
    /// `running`, `exited`, ...
    pub state: Option<String>,
    pub image: Option<String>,
    pub created: Option<String>,
}

pub(crate) async fn inspect(
    docker: &Docker,
    name: &str,
) -> Result<Option<ContainerState>, ContainerError> {
    match docker.inspect_container(name, None).await {
        Ok(info) => Ok(Some(ContainerState {
            name: name.to_owned(),
            id: info.id,
            state: info
                .state
                .and_then(|s| s.status)
                .map(|s| format!("{s:?}").to_lowercase()),
            image: info.config.and_then(|c| c.image),
            created: info.created.map(|c| c.to_string()),
        })),
        Err(e) if is_not_found(&e) => Ok(None),
        // A Podman-only state such as `stopped`.
        Err(bollard::errors::Error::JsonDataError { message, .. }) => Ok(Some(ContainerState {
            name: name.to_owned(),
            id: None,
            state: Some(if message.contains("stopped") {
                "stopped".to_owned()
            } else {
                "unknown".to_owned()
            }),
            image: None,
            created: None,
        })),
        Err(e) => Err(ContainerError::engine(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::split_image;

    #[test]
    fn image_names_split_into_repo_and_tag() {
        assert_eq!(split_image("busybox"), ("busybox", "latest"));
        assert_eq!(split_image("node:22"), ("node", "22"));
        assert_eq!(split_image("reg:5000/a/b"), ("reg:5000/a/b", "latest"));
        assert_eq!(split_image("reg:5000/a/b:1.0"), ("reg:5000/a/b", "1.0"));
    }
}
