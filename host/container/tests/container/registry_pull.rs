//! Pulling an image the engine does not have, from a registry. No registry
//! is reachable from these machines, so the test serves one: plain HTTP on
//! 127.0.0.1:47291 (`scripts/setup-podman.sh` marks that address insecure
//! for Podman), holding one image made from the default image's layer
//! with a config of its own, so it is a new image to the engine.
//!
//! Skips loudly without an engine or the `podman` CLI (used to export the
//! default image's layer), unless `COMPUTER_REQUIRE_CONTAINER=1`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use computer_container::{ContainerBackend, ContainerConfig, ContainerExecOptions, EXIT_ENGINE};
use computer_runtime::RunResult;
use computer_store::Workspace;
use sha2::{Digest, Sha256};

use crate::support::{TEST_IMAGE, skip};

const REGISTRY: &str = "127.0.0.1:47291";
const REPO: &str = "computer-test/pulled";

fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// What the registry serves: one manifest and its blobs.
struct Image {
    manifest: Vec<u8>,
    manifest_type: String,
    blobs: HashMap<String, Vec<u8>>,
}

/// The test image exported as an OCI layout, with a config of its own
/// (a label), so its id is new to the engine.
fn test_image(dir: &Path) -> Result<Image, String> {
    let out = dir.join("oci");
    let saved = Command::new("podman")
        .args(["save", "--format", "oci-dir", "-o"])
        .arg(&out)
        .arg(TEST_IMAGE)
        .output()
        .map_err(|e| format!("podman CLI: {e}"))?;
    if !saved.status.success() {
        return Err(format!(
            "podman save {TEST_IMAGE}: {}",
            String::from_utf8_lossy(&saved.stderr)
        ));
    }
    let blob = |d: &str| std::fs::read(out.join("blobs/sha256").join(&d[7..])).unwrap();
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("index.json")).unwrap()).unwrap();
    let desc = &index["manifests"][0];
    let manifest_type = desc["mediaType"].as_str().unwrap().to_owned();
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&blob(desc["digest"].as_str().unwrap())).unwrap();
    let mut config: serde_json::Value =
        serde_json::from_slice(&blob(manifest["config"]["digest"].as_str().unwrap())).unwrap();
    config["config"]["Labels"] = serde_json::json!({"computer.test": "registry-pull"});
    let config = serde_json::to_vec(&config).unwrap();
    let mut blobs = HashMap::new();
    manifest["config"]["digest"] = digest(&config).into();
    manifest["config"]["size"] = config.len().into();
    blobs.insert(digest(&config), config);
    for layer in manifest["layers"].as_array().unwrap() {
        let d = layer["digest"].as_str().unwrap();
        blobs.insert(d.to_owned(), blob(d));
    }
    Ok(Image {
        manifest: serde_json::to_vec(&manifest).unwrap(),
        manifest_type,
        blobs,
    })
}

/// A registry (the parts of the distribution API a pull uses) on
/// [`REGISTRY`], answering until the process ends. Returns the log of
/// request lines.
fn serve(image: Image) -> Result<Arc<Mutex<Vec<String>>>, String> {
    let listener =
        TcpListener::bind(REGISTRY).map_err(|e| format!("cannot listen on {REGISTRY}: {e}"))?;
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = log.clone();
    let image = Arc::new(image);
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let (image, seen) = (image.clone(), seen.clone());
            std::thread::spawn(move || answer(conn, &image, &seen));
        }
    });
    Ok(log)
}

fn answer(conn: TcpStream, image: &Image, log: &Mutex<Vec<String>>) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        // Not text: a TLS handshake, which the engine tries first.
        let _ = respond(&conn, 400, &[], b"", true);
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => return,
            Ok(_) if header == "\r\n" => break,
            Ok(_) => {}
        }
    }
    let mut parts = first.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        let _ = respond(&conn, 400, &[], b"", true);
        return;
    };
    log.lock().unwrap().push(format!("{method} {path}"));
    let body = method != "HEAD";
    let prefix = format!("/v2/{REPO}/");
    let result = if path == "/v2/" {
        respond(
            &conn,
            200,
            &[("Content-Type", "application/json")],
            b"{}",
            body,
        )
    } else if let Some(rest) = path.strip_prefix(&prefix) {
        if rest.starts_with("manifests/") {
            let d = digest(&image.manifest);
            let headers = [
                ("Content-Type", image.manifest_type.as_str()),
                ("Docker-Content-Digest", d.as_str()),
            ];
            respond(&conn, 200, &headers, &image.manifest, body)
        } else if let Some(bytes) = rest.strip_prefix("blobs/").and_then(|d| image.blobs.get(d)) {
            let headers = [("Content-Type", "application/octet-stream")];
            respond(&conn, 200, &headers, bytes, body)
        } else {
            not_found(&conn, body)
        }
    } else {
        not_found(&conn, body)
    };
    drop(result);
    let _ = reader.read_to_end(&mut Vec::new());
}

fn not_found(conn: &TcpStream, body: bool) -> std::io::Result<()> {
    let msg = br#"{"errors":[{"code":"MANIFEST_UNKNOWN","message":"unknown"}]}"#;
    respond(
        conn,
        404,
        &[("Content-Type", "application/json")],
        msg,
        body,
    )
}

fn respond(
    mut conn: &TcpStream,
    status: u16,
    headers: &[(&str, &str)],
    bytes: &[u8],
    body: bool,
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\nDocker-Distribution-API-Version: registry/2.0\r\n",
        bytes.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    conn.write_all(head.as_bytes())?;
    if body {
        conn.write_all(bytes)?;
    }
    conn.flush()?;
    conn.shutdown(std::net::Shutdown::Write)
}

fn remove_image(image: &str) {
    let _ = Command::new("podman").args(["rmi", "-f", image]).output();
}

fn exec(backend: &ContainerBackend, ws: &Arc<Workspace>, script: &str) -> RunResult {
    let opts = ContainerExecOptions {
        timeout: Duration::from_secs(120),
        ..Default::default()
    };
    backend.exec(ws.clone(), script, opts).unwrap().wait()
}

#[test]
fn an_absent_image_is_pulled_from_a_registry_with_progress_shown() {
    let name = "an_absent_image_is_pulled_from_a_registry_with_progress_shown";
    let dir = tempfile::tempdir().unwrap();
    let config = |image: &str| ContainerConfig {
        image: image.to_owned(),
        state_dir: Some(dir.path().join("state")),
        ..ContainerConfig::default()
    };
    if let Err(e) = ContainerBackend::new(config(TEST_IMAGE)).unwrap().connect() {
        return skip(name, &e.to_string());
    }
    let image = match test_image(dir.path()) {
        Ok(i) => i,
        Err(e) => return skip(name, &e),
    };
    let log = serve(image).expect("the test registry");
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
    let pulled = format!("{REGISTRY}/{REPO}:latest");
    remove_image(&pulled);

    let progress = Arc::new(Mutex::new(Vec::<String>::new()));
    let lines = progress.clone();
    let backend = ContainerBackend::new(config(&pulled))
        .unwrap()
        .with_progress(move |l| lines.lock().unwrap().push(l.to_owned()));
    let r = exec(&backend, &ws, "echo from the pulled image");
    let shown = progress.lock().unwrap().clone();
    let requests = log.lock().unwrap().clone();
    let _ = backend.stop(&ws);
    remove_image(&pulled);

    assert_eq!(r.exit_code, 0, "error: {:?}, progress: {shown:?}", r.error);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "from the pulled image\n"
    );
    assert_eq!(shown.first(), Some(&format!("pulling image {pulled}")));
    assert!(
        shown.len() > 1,
        "the engine's progress is passed on: {shown:?}"
    );
    assert!(
        requests
            .iter()
            .any(|l| l.starts_with("GET") && l.contains(&format!("/v2/{REPO}/manifests/latest"))),
        "{requests:?}"
    );
    assert!(
        requests
            .iter()
            .any(|l| l.starts_with("GET") && l.contains("/blobs/sha256:")),
        "{requests:?}"
    );
}

#[test]
fn a_pull_that_fails_or_is_not_allowed_names_the_image() {
    let name = "a_pull_that_fails_or_is_not_allowed_names_the_image";
    let dir = tempfile::tempdir().unwrap();
    let config = |image: &str, pull: bool| ContainerConfig {
        image: image.to_owned(),
        pull,
        state_dir: Some(dir.path().join("state")),
        ..ContainerConfig::default()
    };
    if let Err(e) = ContainerBackend::new(config(TEST_IMAGE, true))
        .unwrap()
        .connect()
    {
        return skip(name, &e.to_string());
    }
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
    // Nothing listens on port 9 of 127.0.0.1: the pull fails at once.
    let absent = "127.0.0.1:9/computer-test/absent:latest";
    let backend = ContainerBackend::new(config(absent, true)).unwrap();
    let r = exec(&backend, &ws, "true");
    assert_eq!(r.exit_code, EXIT_ENGINE);
    let err = r.error.unwrap_or_default();
    assert!(
        err.contains(absent) && err.contains("not present locally and the pull failed"),
        "{err}"
    );

    let backend = ContainerBackend::new(config(absent, false)).unwrap();
    let r = exec(&backend, &ws, "true");
    assert_eq!(r.exit_code, EXIT_ENGINE);
    let err = r.error.unwrap_or_default();
    assert!(
        err.contains(absent) && err.contains("not present locally"),
        "{err}"
    );
    assert!(!err.contains("pull failed"), "no pull was tried: {err}");
}
