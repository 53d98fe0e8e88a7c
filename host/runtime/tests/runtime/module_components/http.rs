//! Outgoing HTTP allowed and denied, `ws:github` end to end, and module functions from JavaScript.

use super::*;

// ------------------------------------------------------------ HTTP

/// One request the test server received.
#[derive(Debug, Clone)]
struct Received {
    head: String,
    body: String,
}

/// An HTTP server on 127.0.0.1 that answers every request with `status`
/// and `body`, and records what it received.
struct Server {
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start(status: u16, body: &str) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (rec, stopping, body) = (received.clone(), stop.clone(), body.to_owned());
        std::thread::spawn(move || {
            while !stopping.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => serve(stream, status, &body, &rec),
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Server {
            port,
            received,
            stop,
        }
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Reads one request, records it (before answering, so a caller that got
/// the answer sees the record), and answers.
fn serve(stream: TcpStream, status: u16, body: &str, rec: &Mutex<Vec<Received>>) {
    let _ = serve_one(stream, status, body, rec);
}

fn serve_one(
    mut stream: TcpStream,
    status: u16,
    body: &str,
    rec: &Mutex<Vec<Received>>,
) -> Option<()> {
    stream.set_nonblocking(false).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let req_body = String::from_utf8_lossy(&buf[head_end..]).into_owned();
    let reply = format!(
        "HTTP/1.1 {status} Whatever\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    rec.lock().unwrap().push(Received {
        head,
        body: req_body,
    });
    stream.write_all(reply.as_bytes()).ok()
}

fn github(port: u16, allow: Vec<String>) -> ComponentModule {
    let config = vec![
        ("base_url".to_owned(), format!("http://127.0.0.1:{port}")),
        ("repo".to_owned(), "octo/cat".to_owned()),
    ];
    ComponentModule::load(&runtime(), "ws:github", github_bytes(), config, allow)
        .unwrap_or_else(|e| panic!("loading the github example: {e}"))
}

fn approved(call_id: &str) -> CallContext {
    CallContext::with_answers(
        call_id,
        "github",
        "post-comment",
        vec![Answer::Approved(json!({"approved": true}))],
    )
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[test]
fn github_posts_an_approved_comment_with_the_call_id_as_idempotency_key() {
    let server = Server::start(
        201,
        r#"{"id": 1, "html_url": "https://github.test/octo/cat/issues/7#c1"}"#,
    );
    let m = github(server.port, vec![format!("127.0.0.1:{}", server.port)]);
    let info = m.functions();
    assert_eq!(info.len(), 1);
    assert_eq!(info[0].name, "post-comment");
    assert_eq!(
        info[0]
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.type_desc))
            .collect::<Vec<_>>(),
        ["issue: u32", "body: string"]
    );
    assert_eq!(info[0].result.as_deref(), Some("result<string, string>"));

    let mut c = approved("run-1:4");
    let r = m.call("post-comment", json!([7, "LGTM"]), &mut c);
    assert_eq!(r, Ok(json!("https://github.test/octo/cat/issues/7#c1")));
    let got = server.received();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0]
            .head
            .starts_with("POST /repos/octo/cat/issues/7/comments HTTP/1.1\r\n"),
        "{}",
        got[0].head
    );
    assert_eq!(header(&got[0].head, "idempotency-key"), Some("run-1:4"));
    assert_eq!(
        serde_json::from_str::<Value>(&got[0].body).unwrap(),
        json!({"body": "LGTM"})
    );
}

#[test]
fn github_reports_rejections_parks_and_server_errors() {
    let server = Server::start(422, r#"{"message": "Validation Failed"}"#);
    let m = github(server.port, vec![format!("127.0.0.1:{}", server.port)]);

    let mut c = CallContext::with_answers(
        "r",
        "github",
        "post-comment",
        vec![Answer::Rejected {
            reason: "too rude".into(),
            value: None,
        }],
    );
    assert_eq!(
        m.call("post-comment", json!([7, "x"]), &mut c),
        Err(ModuleCallError::ErrorValue(json!("too rude")))
    );
    let mut c = CallContext::with_answers(
        "r",
        "github",
        "post-comment",
        vec![Answer::Approved(json!({"approved": false}))],
    );
    match m.call("post-comment", json!([7, "x"]), &mut c) {
        Err(ModuleCallError::ErrorValue(v)) => {
            assert!(v.as_str().unwrap().contains("not approved"), "{v}")
        }
        other => panic!("{other:?}"),
    }
    let mut c = CallContext::with_answers("p", "github", "post-comment", vec![]);
    assert_eq!(
        m.call("post-comment", json!([7, "x"]), &mut c),
        Err(ModuleCallError::Parked)
    );
    assert!(
        server.received().is_empty(),
        "nothing is sent before approval"
    );

    let mut c = approved("e");
    match m.call("post-comment", json!([7, "x"]), &mut c) {
        Err(ModuleCallError::ErrorValue(v)) => {
            let v = v.as_str().unwrap().to_owned();
            assert!(v.contains("answered 422"), "{v}");
            assert!(v.contains("Validation Failed"), "{v}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.received().len(), 1);
}

#[test]
fn http_to_hosts_not_allowed_is_denied() {
    let server = Server::start(201, r#"{"html_url": "u"}"#);
    let other_port = if server.port == 65535 {
        1
    } else {
        server.port + 1
    };
    for allow in [
        vec![],
        vec![format!("127.0.0.1:{other_port}")],
        vec!["localhost".to_owned(), "example.com".to_owned()],
    ] {
        let m = github(server.port, allow.clone());
        let mut c = approved("d");
        match m.call("post-comment", json!([1, "x"]), &mut c) {
            Err(ModuleCallError::ErrorValue(v)) => {
                let v = v.as_str().unwrap_or_default().to_owned();
                assert!(v.contains("HTTP-request-denied"), "{allow:?}: {v}");
            }
            other => panic!("{allow:?}: expected a denial, got {other:?}"),
        }
    }
    // A host entry without a port allows every port of that host.
    let m = github(server.port, vec!["127.0.0.1".to_owned()]);
    assert_eq!(
        m.call("post-comment", json!([1, "x"]), &mut approved("a")),
        Ok(json!("u"))
    );
    assert_eq!(
        server.received().len(),
        1,
        "only the allowed request arrived"
    );
}

#[test]
fn http_to_an_unreachable_allowed_host_fails_the_call_cleanly() {
    // Bind then drop: nothing listens on this port.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let m = github(port, vec![format!("127.0.0.1:{port}")]);
    match m.call("post-comment", json!([1, "x"]), &mut approved("u")) {
        Err(ModuleCallError::ErrorValue(v)) => {
            assert!(v.as_str().unwrap().contains("connection refused"), "{v}")
        }
        other => panic!("{other:?}"),
    }
}

// ------------------------------------------------------------ from JavaScript

#[test]
fn javascript_imports_module_functions_by_camel_case_name() {
    let Some(js) = JS_GUEST else {
        panic!("the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh");
    };
    let rt = runtime();
    rt.register_guest("js", js).unwrap();
    rt.register_module_component("ws:kinds", test_module_bytes(), vec![], vec![])
        .unwrap();
    let ws = Arc::new(Workspace::in_memory().unwrap());
    let run = |source: &str| {
        rt.exec(
            ws.clone(),
            source,
            ExecOptions {
                backend: "js".into(),
                ..Default::default()
            },
        )
        .expect("exec")
        .wait()
    };
    let r = run(
        "import { greet, divide, echoPoint, failUnit } from 'ws:kinds';\n\
         console.log(greet('Ann'), divide(9, 3));\n\
         console.log(JSON.stringify(echoPoint({x: 1, y: 2})));\n\
         try { divide(1, 0) } catch (e) { console.log('caught', String(e.message ?? e)) }\n\
         try { failUnit('red') } catch (e) { console.log('caught', JSON.stringify(e.message ?? e)) }",
    );
    let stdout = String::from_utf8_lossy(&r.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
    assert_eq!(r.status, RunStatus::Completed, "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "Hello, Ann! 3", "{stdout}");
    assert_eq!(lines[1], r#"{"x":1,"y":2,"label":null}"#, "{stdout}");
    assert!(
        lines[2].starts_with("caught") && lines[2].contains("cannot divide 1 by zero"),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("caught") && lines[3].contains("red"),
        "{stdout}"
    );

    let r = run("import { postComment } from 'ws:kinds';\nconsole.log(postComment);");
    let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
    assert_eq!(r.status, RunStatus::Failed, "{stderr}");
    assert!(stderr.contains("postComment"), "{stderr}");
    assert!(
        stderr.contains("echoPoint") && stderr.contains("greet"),
        "the error lists what the module exports: {stderr}"
    );
}
