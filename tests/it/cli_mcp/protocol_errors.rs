//! Every request gets an answer, with the JSON-RPC 2.0 error code that
//! fits: nothing the server cannot read is dropped in silence (issue 18,
//! "MCP requests that never get an answer", "Wrong JSON-RPC error codes").

use super::raw::Raw;
use super::*;

fn error_of(msg: &Value) -> (i64, Value, String) {
    (
        msg["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {msg}")),
        msg["id"].clone(),
        msg["error"]["message"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_requests_get_a_parse_error_with_a_null_id() {
    let ws = Ws::new();
    let mut raw = Raw::start(&ws, &["--readonly"], &[]).await;
    let huge = vec![b'x'; 16 * 1024 * 1024 + 1];
    let bad_utf8 = b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"x\":\"\xff\"}".to_vec();
    let deep = "[".repeat(100_000).into_bytes();
    for (line, says) in [
        (huge, "16 MiB"),
        (bad_utf8, "not UTF-8"),
        (deep, "128 levels"),
        (b"this is not json {".to_vec(), "not JSON"),
    ] {
        raw.send_bytes(&line).await;
        let (code, id, message) = error_of(&raw.next().await);
        assert_eq!((code, id), (-32700, Value::Null), "{message}");
        assert!(message.contains(says), "{message}");
    }
    // Still serving.
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .await;
    assert_eq!(raw.next().await["id"], 1);
    assert!(raw.hang_up().await.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_params_are_invalid_params() {
    let ws = Ws::new();
    let mut raw = Raw::start(&ws, &["--backends", "shell"], &[]).await;
    for (request, says) in [
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":null}"#,
            "must be an object",
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":{}}}"#,
            "name",
        ),
    ] {
        raw.send(request).await;
        let (code, id, message) = error_of(&raw.next().await);
        assert_eq!((code, id), (-32602, json!(5)), "{request}: {message}");
        assert!(message.contains(says), "{message}");
    }
    raw.send(r#"{"jsonrpc":"2.0","id":6,"method":"no/such/method"}"#)
        .await;
    assert_eq!(error_of(&raw.next().await).0, -32601);
    // The schema's bounds of timeoutMs hold.
    for ms in [0, 3_600_001] {
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "exec", "arguments": {"command": "echo hi", "timeoutMs": ms}}});
        raw.send(&call.to_string()).await;
        let reply = raw.next().await;
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(&format!("invalid timeoutMs {ms}")), "{text}");
        let bound = if ms == 0 { "too small" } else { "too large" };
        assert!(text.contains(bound), "{text}");
        if ms > 0 {
            assert!(text.contains("3600000"), "{text}");
        }
    }
    assert!(raw.hang_up().await.success());
    assert!(ws.json(&["runs"])["runs"].as_array().unwrap().is_empty());
}

/// JSON-RPC ids (issue 41): a request whose id is an object, array or
/// boolean is an invalid request answered with `id: null` (it used to get
/// no answer at all), and an integer id too large for 64 bits comes back as
/// the client wrote it, not as a float.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_of_the_wrong_type_are_invalid_and_huge_ids_come_back_exact() {
    let ws = Ws::new();
    let mut raw = Raw::start(&ws, &["--readonly"], &[]).await;
    for id in [r#"{"a":1}"#, "[1,2]", "true"] {
        raw.send(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#))
            .await;
        let (code, got, message) = error_of(&raw.next().await);
        assert_eq!((code, got), (-32600, Value::Null), "{id}: {message}");
        assert!(message.contains("id must be"), "{message}");
    }
    let huge = "123456789012345678901234567890";
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":{huge},"method":"ping"}}"#
    ))
    .await;
    let text = raw.next_text().await;
    assert!(text.contains(&format!(r#""id":{huge}"#)), "{text}");
    // An id within 64 bits is answered as usual, exactly.
    raw.send(r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#)
        .await;
    let text = raw.next_text().await;
    assert!(text.contains(r#""id":9007199254740993"#), "{text}");
    assert!(raw.hang_up().await.success());
}
