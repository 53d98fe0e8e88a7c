//! One container exec, start to end: pull what a crashed exec left, push
//! the workspace into the copy while the container starts, run the
//! command, pull its changes back.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cap_std::fs::Dir;
use computer_runtime::{OutputSink, SyncTimings};
use computer_store::Workspace;

use super::exec::ContainerRunInfo;
use super::options::ContainerExecOptions;
use super::{ContainerBackend, Engine};
use crate::command::{self, Command, Control, Ran, RunError};
use crate::config::{ContainerConfig, MOUNT_POINT};
use crate::error::ContainerError;
use crate::lifecycle::{self, Spec};
use crate::state::{WsState, workspace_file_id};
use crate::sync::{Manifest, Owner, SyncReport, Syncer, Watcher, open_root};

impl ContainerBackend {
    /// The user commands run as, and who the synced files belong to.
    pub(super) fn identity(&self, engine: &Engine) -> (String, Option<Owner>) {
        let euid = rustix::process::geteuid().as_raw();
        let egid = rustix::process::getegid().as_raw();
        let chown = euid == 0 && !engine.rootless;
        if let Some(user) = &self.inner.config.user {
            let owner = user.split_once(':').and_then(|(u, g)| {
                Some(Owner {
                    uid: u.parse().ok()?,
                    gid: g.parse().ok()?,
                })
            });
            return (user.clone(), owner.filter(|_| chown));
        }
        if engine.rootless {
            ("0:0".to_owned(), None)
        } else if euid == 0 {
            (
                "1000:1000".to_owned(),
                Some(Owner {
                    uid: 1000,
                    gid: 1000,
                }),
            )
        } else {
            (format!("{euid}:{egid}"), None)
        }
    }
}

/// What one attempt is asked to do.
pub(super) struct Attempt<'a> {
    pub ws: &'a Workspace,
    pub source: &'a str,
    pub options: &'a ContainerExecOptions,
    /// The working directory in the workspace (validated).
    pub cwd: &'a str,
    pub run_id: &'a str,
    pub cancel: &'a AtomicBool,
    pub stdout: &'a OutputSink,
    pub stderr: &'a OutputSink,
}

/// What an attempt found out, whether or not it ran the command.
#[derive(Default)]
pub(super) struct Account {
    pub report: SyncReport,
    pub info: Option<ContainerRunInfo>,
    pub timings: SyncTimings,
}

/// The workspace's synced copy on the host, locked for this attempt.
struct Site<'s> {
    st: &'s WsState,
    root: &'s Dir,
    owner: Option<Owner>,
    /// Marks a command that started and whose changes are not pulled yet.
    pending: PathBuf,
}

/// What the copy holds, and the change watch on it.
struct Synced {
    manifest: Manifest,
    watcher: Option<Watcher>,
}

impl ContainerBackend {
    /// The configuration of one exec: the backend's, with the exec's memory.
    fn exec_config(&self, options: &ContainerExecOptions) -> ContainerConfig {
        let mut config = self.inner.config.clone();
        if let Some(memory) = options.memory_bytes {
            config.memory_bytes = memory;
        }
        config
    }

    pub(super) fn attempt(
        &self,
        a: &Attempt<'_>,
        acct: &mut Account,
    ) -> Result<Ran, ContainerError> {
        let config = self.exec_config(a.options);
        let engine = self.engine()?;
        let st = WsState::for_workspace(a.ws, &config.state_root());
        st.create_dirs()?;
        let _lock = st.lock()?;
        st.touch_heartbeat();
        let root = open_root(&st.root).map_err(|e| ContainerError::sync(st.root.display(), e))?;
        let file_id = workspace_file_id(a.ws);
        let mut synced = Synced {
            manifest: self.load_manifest(&st, &file_id, &root)?,
            // Put back only after a successful pull: a failed one may have
            // consumed changes it did not apply.
            watcher: self.take_watcher(&st.root),
        };
        let (user, owner) = self.identity(&engine);
        let image = a.options.image.as_deref().unwrap_or(&config.image);
        let spec = Spec {
            name: st.container_name(),
            image,
            user: &user,
            root: &st.root,
            control: &st.control,
            identity: &st.identity,
            config: &config,
        };
        let site = Site {
            st: &st,
            root: &root,
            owner,
            pending: st.dir.join("pending"),
        };
        self.pull_leftovers(a, &site, &mut synced, acct)?;
        let created = self.push_and_start(a, &engine, &spec, &site, &mut synced, acct)?;
        // Newer than the watchdog's first mark.
        st.touch_heartbeat();
        let rev_at_push = synced.manifest.rev;
        let (ran, created) = self.run_command(a, &engine, &spec, &site, created, acct);
        acct.info = Some(ContainerRunInfo {
            name: spec.name.clone(),
            image: image.to_owned(),
            engine: engine.addr.clone(),
            created,
        });
        self.pull_back(&site, a.ws, synced, rev_at_push, ran, acct)
    }

    /// A run that crashed after its command started left changes behind:
    /// they took effect, so they are pulled before anything else.
    fn pull_leftovers(
        &self,
        a: &Attempt<'_>,
        site: &Site<'_>,
        synced: &mut Synced,
        acct: &mut Account,
    ) -> Result<(), ContainerError> {
        let Ok(prev) = std::fs::read_to_string(&site.pending) else {
            return Ok(());
        };
        let mut recovered = SyncReport::default();
        // The crashed run was not watched: scan the whole copy.
        if let Some(w) = synced.watcher.as_mut() {
            w.take(site.root);
        }
        let retry = Syncer {
            ws: a.ws,
            root: site.root,
            manifest: &mut synced.manifest,
            owner: site.owner,
            mount: MOUNT_POINT,
            report: &mut recovered,
        }
        .pull(None, None)?;
        if let Some(w) = synced.watcher.as_mut() {
            w.recheck(retry);
        }
        self.save_manifest(site.st, &mut synced.manifest)?;
        let _ = std::fs::remove_file(&site.pending);
        a.stderr.push_always(
            format!(
                "computer: pulled {} change(s) left by the interrupted container run {}\n",
                recovered.pulled,
                prev.trim()
            )
            .as_bytes(),
        );
        acct.report.skipped.extend(recovered.skipped);
        Ok(())
    }

    /// Pushes the workspace into the copy while the container is (re)created,
    /// if it has to be; then watches the copy. True if a container was created.
    fn push_and_start(
        &self,
        a: &Attempt<'_>,
        engine: &Engine,
        spec: &Spec<'_>,
        site: &Site<'_>,
        synced: &mut Synced,
        acct: &mut Account,
    ) -> Result<bool, ContainerError> {
        let fingerprint = spec.fingerprint();
        let marker = site.st.dir.join("container");
        let known = std::fs::read_to_string(&marker).ok() == Some(fingerprint.clone());
        let progress = self.inner.progress.clone();
        let docker = engine.docker.clone();
        let rt = &engine.rt;
        let ensure = || rt.block_on(lifecycle::ensure(&docker, spec, &*progress));
        let pushed_before = synced.manifest.rev;
        let timings = &mut acct.timings;
        let report = &mut acct.report;
        let (push, created) = std::thread::scope(|s| {
            let creating = (!known).then(|| {
                s.spawn(|| {
                    let t = Instant::now();
                    (ensure(), t.elapsed())
                })
            });
            let t = Instant::now();
            let push = Syncer {
                ws: a.ws,
                root: site.root,
                manifest: &mut synced.manifest,
                owner: site.owner,
                mount: MOUNT_POINT,
                report: &mut *report,
            }
            .push();
            timings.push = t.elapsed();
            let created = creating.map(|h| {
                let (r, took) = h.join().unwrap_or_else(|_| {
                    (
                        Err(ContainerError::Engine("container set-up panicked".into())),
                        Duration::ZERO,
                    )
                });
                timings.start = took;
                r
            });
            (push, created)
        });
        // Recording what the copy now holds is part of the push's cost.
        let t = Instant::now();
        if report.pushed > 0 || synced.manifest.rev != pushed_before {
            self.save_manifest(site.st, &mut synced.manifest)?;
        }
        timings.push += t.elapsed();
        push?;
        // Watch the copy while the command runs (new watches for what the
        // push created; a fresh watcher if there is none).
        let t = Instant::now();
        if synced.watcher.as_ref().is_some_and(Watcher::is_broken) {
            synced.watcher = None;
        }
        match synced.watcher.as_mut() {
            Some(w) => w.drain(site.root),
            None => synced.watcher = self.start_watcher(&site.st.root, site.root),
        }
        timings.push += t.elapsed();
        match created {
            Some(r) => {
                let c = r?;
                let _ = std::fs::write(&marker, &fingerprint);
                Ok(c)
            }
            None => Ok(false),
        }
    }

    /// Runs the command in the container, creating it once more if it is
    /// gone. Returns what ran and whether a container was created.
    fn run_command(
        &self,
        a: &Attempt<'_>,
        engine: &Engine,
        spec: &Spec<'_>,
        site: &Site<'_>,
        mut created: bool,
        acct: &mut Account,
    ) -> (Result<Ran, ContainerError>, bool) {
        let st = site.st;
        let config = spec.config;
        let mut argv = vec![
            "/bin/sh".to_owned(),
            "-c".to_owned(),
            a.source.to_owned(),
            "sh".to_owned(),
        ];
        argv.extend(a.options.args.iter().cloned());
        let env: Vec<String> = a
            .options
            .env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let container_cwd = if a.cwd == "/" {
            MOUNT_POINT.to_owned()
        } else {
            format!("{MOUNT_POINT}{}", a.cwd)
        };
        let heartbeat = || st.touch_heartbeat();
        // Well inside the watchdog's window, so a long command keeps it alive.
        let beat_every =
            (config.idle_timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
        if let Err(e) = std::fs::write(&site.pending, a.run_id) {
            return (
                Err(ContainerError::sync(site.pending.display(), e)),
                created,
            );
        }
        let rt = &engine.rt;
        let progress = self.inner.progress.clone();
        let mut tries = 0;
        let t = Instant::now();
        let ran = loop {
            tries += 1;
            let cmd = Command {
                container: &spec.name,
                argv: argv.clone(),
                env: env.clone(),
                cwd: container_cwd.clone(),
                user: spec.user,
                stdin: &a.options.stdin,
            };
            let ctl = Control {
                timeout: a.options.timeout,
                grace: config.kill_grace,
                cancel: a.cancel,
                heartbeat: &heartbeat,
                heartbeat_every: beat_every,
            };
            match rt.block_on(command::run(&engine.docker, cmd, ctl, a.stdout, a.stderr)) {
                Ok(ran) => break Ok(ran),
                // It died (or idled out) since we last used it: replace it once.
                Err(RunError::Gone(why)) if tries == 1 => {
                    tracing::info!(container = %spec.name, "container gone ({why}); creating it again");
                    let t = Instant::now();
                    let ensured = rt.block_on(lifecycle::ensure(&engine.docker, spec, &*progress));
                    acct.timings.start += t.elapsed();
                    match ensured {
                        Ok(c) => {
                            created = c;
                            let _ = std::fs::write(st.dir.join("container"), spec.fingerprint());
                            st.touch_heartbeat();
                        }
                        Err(e) => break Err(e),
                    }
                }
                Err(RunError::Gone(why)) => break Err(ContainerError::Engine(why)),
                Err(RunError::Engine(e)) => break Err(e),
            }
        };
        acct.timings.run = t.elapsed().saturating_sub(acct.timings.start);
        (ran, created)
    }

    /// Whatever happened, pulls what the command did back into the workspace.
    fn pull_back(
        &self,
        site: &Site<'_>,
        ws: &Workspace,
        synced: Synced,
        rev_at_push: Option<u64>,
        ran: Result<Ran, ContainerError>,
        acct: &mut Account,
    ) -> Result<Ran, ContainerError> {
        let Synced {
            mut manifest,
            mut watcher,
        } = synced;
        let report = &mut acct.report;
        let pulled_before = report.pulled;
        let rev_before = manifest.rev;
        let t = Instant::now();
        if let Some(w) = watcher.as_mut()
            && self.inner.break_watch.swap(false, Ordering::SeqCst)
        {
            w.set_broken();
        }
        let changes = watcher.as_mut().and_then(|w| w.take(site.root));
        acct.timings.watched = changes.as_ref().is_some_and(|d| !d.is_everything());
        let pull = Syncer {
            ws,
            root: site.root,
            manifest: &mut manifest,
            owner: site.owner,
            mount: MOUNT_POINT,
            report: &mut *report,
        }
        .pull(rev_at_push, changes.as_ref());
        let pull = match pull {
            Ok(retry) => {
                if let Some(mut w) = watcher {
                    w.recheck(retry);
                    self.put_watcher(&site.st.root, w);
                }
                Ok(())
            }
            Err(e) => Err(e),
        };
        let changed = report.pulled != pulled_before || manifest.rev != rev_before || pull.is_err();
        if changed || !report.skipped.is_empty() {
            self.save_manifest(site.st, &mut manifest)?;
        }
        self.keep_manifest(site.st, manifest);
        acct.timings.pull = t.elapsed();
        if pull.is_ok() {
            let _ = std::fs::remove_file(&site.pending);
        }
        site.st.touch_heartbeat();
        match (ran, pull) {
            (Ok(ran), Ok(())) => Ok(ran),
            (Ok(ran), Err(e)) => Err(ContainerError::Sync(format!(
                "the command ran (exit {}) but its changes could not all be synced back: {e}",
                ran.exit_code
                    .map_or("unknown".to_owned(), |c| c.to_string())
            ))),
            (Err(e), _) => Err(e),
        }
    }
}
