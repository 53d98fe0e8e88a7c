//! What `computer mcp` makes of one line of input, before rmcp sees it.
//!
//! rmcp drops a line it cannot read (too long, not UTF-8, not JSON, nested
//! too deep) without a word, so the client waits forever; and it reads a
//! request for a known method whose params do not fit as a custom request,
//! answered "method not found". Here every request gets an answer, as
//! JSON-RPC 2.0 says: -32700 (parse error, `id: null`) for what is not JSON,
//! -32600 for JSON that is not a request, -32602 for a known method with
//! bad params. Notifications never get one. A request whose `id` is not a
//! string, number or null is an invalid request (answered with `id: null`),
//! and a numeric id is echoed as it was written: serde_json reads an integer
//! past 64 bits as a float, so the id's JSON text is taken from the line.

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::service::RxJsonRpcMessage;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// Longest line read as one message (rmcp's own cap, and its streamable
/// HTTP client's largest event).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC 2.0 error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

/// One line of input, sorted.
pub enum Incoming {
    /// A message for rmcp.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Not for rmcp: this answer goes back to the client (one JSON text).
    Reply(String),
    /// Nothing to do (an empty line, a notification nobody handles).
    Ignore,
}

/// A JSON-RPC error response.
pub fn error_reply(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// `reply` as JSON text, with its `id` written as `raw` (a number's JSON
/// text from the request) when there is one.
fn reply_text(reply: Value, raw: Option<&str>) -> String {
    match (raw, reply) {
        (Some(raw), Value::Object(mut obj)) => {
            // `id` goes where the reply's other fields are not: rebuild it
            // by hand around the raw text.
            obj.remove("id");
            let rest = Value::Object(obj).to_string();
            let rest = rest.strip_prefix('{').unwrap_or(&rest);
            if rest == "}" {
                format!("{{\"id\":{raw}}}")
            } else {
                format!("{{\"id\":{raw},{rest}")
            }
        }
        (_, reply) => reply.to_string(),
    }
}

/// The answer to a line over [`MAX_MESSAGE_BYTES`] (its id is never read).
pub fn too_long() -> String {
    reply_text(too_long_reply(), None)
}

fn too_long_reply() -> Value {
    error_reply(
        Value::Null,
        PARSE_ERROR,
        format!(
            "parse error: the message is over {MAX_MESSAGE_BYTES} bytes (16 MiB), the most one line may carry; it was not read"
        ),
    )
}

/// Sorts one line (without its newline).
pub fn classify(line: &[u8]) -> Incoming {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Ignore;
    }
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => {
            return reply(
                error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    format!(
                        "parse error: the message is not UTF-8 (invalid byte at offset {})",
                        e.valid_up_to()
                    ),
                ),
                None,
            );
        }
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return reply(error_reply(Value::Null, PARSE_ERROR, not_json(&e)), None),
    };
    let why = match value {
        Value::Object(obj) => return classify_object(obj, text),
        Value::Array(_) => "batches are not supported: send one JSON-RPC object per line",
        _ => "a JSON-RPC message is an object",
    };
    reply(
        error_reply(
            Value::Null,
            INVALID_REQUEST,
            format!("invalid request: {why}"),
        ),
        None,
    )
}

fn reply(value: Value, raw_id: Option<&str>) -> Incoming {
    Incoming::Reply(reply_text(value, raw_id))
}

fn not_json(e: &serde_json::Error) -> String {
    if e.to_string().contains("recursion limit") {
        format!(
            "parse error: the message is nested more than 128 levels deep (at column {})",
            e.column()
        )
    } else {
        format!("parse error: the message is not JSON: {e}")
    }
}

/// A request id as JSON-RPC allows it (string or number), else null.
fn id_of(obj: &Map<String, Value>) -> Option<Value> {
    obj.get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned()
}

fn classify_object(obj: Map<String, Value>, text: &str) -> Incoming {
    let id = id_of(&obj);
    // A numeric id as written (serde_json rounds big integers to floats).
    let raw = match &id {
        Some(Value::Number(_)) => raw_member(text, "id"),
        _ => None,
    };
    if obj.get("method").is_some()
        && obj
            .get("id")
            .is_some_and(|id| !(id.is_string() || id.is_number() || id.is_null()))
    {
        return reply(
            error_reply(
                Value::Null,
                INVALID_REQUEST,
                format!(
                    "invalid request: id must be a string, a number or null, not {}",
                    obj["id"]
                ),
            ),
            None,
        );
    }
    let method = obj.get("method").and_then(Value::as_str).map(str::to_owned);
    let is_response = obj.contains_key("result") || obj.contains_key("error");
    if let (Some(method), Some(params)) = (&method, obj.get("params"))
        && !params.is_object()
        && !params.is_array()
    {
        return match id {
            Some(id) => reply(
                error_reply(
                    id,
                    INVALID_PARAMS,
                    format!(
                        "invalid params for {method}: params must be an object (or be left out), not {params}"
                    ),
                ),
                raw,
            ),
            None => Incoming::Ignore,
        };
    }
    let value = Value::Object(obj);
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        Ok(JsonRpcMessage::Request(req)) => match (&req.request, params_error(&value)) {
            // A known method whose params do not fit its schema is read as
            // a custom request: answer what is wrong with them instead.
            (ClientRequest::CustomRequest(custom), Some(why)) => reply(
                error_reply(
                    json!(req.id),
                    INVALID_PARAMS,
                    format!("invalid params for {}: {why}", custom.method),
                ),
                raw,
            ),
            _ => Incoming::Message(Box::new(JsonRpcMessage::Request(req))),
        },
        Ok(msg) => Incoming::Message(Box::new(msg)),
        // Notifications are never answered; nor are responses (this server
        // sends no requests that a malformed one could belong to).
        Err(_) if method.is_some() && id.is_none() => Incoming::Ignore,
        Err(_) if is_response && method.is_none() => Incoming::Ignore,
        Err(e) => reply(
            error_reply(
                id.unwrap_or(Value::Null),
                INVALID_REQUEST,
                format!("invalid request: {e}"),
            ),
            raw,
        ),
    }
}

/// The JSON text of member `key` of the object `text` (valid JSON, already
/// parsed), the last one if it repeats, as serde_json keeps the last.
fn raw_member<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let mut found = None;
    loop {
        i = skip_ws(b, i);
        match b.get(i)? {
            b'}' => return found,
            b',' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let key_end = skip_value(b, i)?;
        let name: String = serde_json::from_str(&text[i..key_end]).ok()?;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let end = skip_value(b, start)?;
        if name == key {
            found = Some(&text[start..end]);
        }
        i = end;
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

/// The end of the JSON value starting at `i` (valid JSON).
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    loop {
        match *b.get(j)? {
            b'"' => {
                j += 1;
                loop {
                    match *b.get(j)? {
                        b'\\' => j += 2,
                        b'"' => break,
                        _ => j += 1,
                    }
                }
                j += 1;
            }
            b'{' | b'[' => {
                depth += 1;
                j += 1;
            }
            b'}' | b']' if depth > 0 => {
                depth -= 1;
                j += 1;
            }
            b',' | b'}' | b']' if depth == 0 => return Some(j),
            c if depth == 0 && c.is_ascii_whitespace() => return Some(j),
            _ => j += 1,
        }
        if depth == 0 && j > i && matches!(b[j - 1], b'"' | b'}' | b']') {
            return Some(j);
        }
    }
}

fn check<T: DeserializeOwned>(request: &Value) -> Option<String> {
    serde_json::from_value::<T>(request.clone())
        .err()
        .map(|e| e.to_string())
}

/// Why `request` (a known MCP method) does not parse as that method, or
/// `None` if it does or the method is not one this server serves (the
/// logging and subscription methods are left to rmcp: it deprecates them).
fn params_error(request: &Value) -> Option<String> {
    use rmcp::model::{
        CallToolRequest, CompleteRequest, GetPromptRequest, InitializeRequest, ListPromptsRequest,
        ListResourceTemplatesRequest, ListResourcesRequest, ListToolsRequest, PingRequest,
        ReadResourceRequest,
    };
    match request.get("method")?.as_str()? {
        "initialize" => check::<InitializeRequest>(request),
        "ping" => check::<PingRequest>(request),
        "completion/complete" => check::<CompleteRequest>(request),
        "prompts/get" => check::<GetPromptRequest>(request),
        "prompts/list" => check::<ListPromptsRequest>(request),
        "resources/list" => check::<ListResourcesRequest>(request),
        "resources/templates/list" => check::<ListResourceTemplatesRequest>(request),
        "resources/read" => check::<ReadResourceRequest>(request),
        "tools/call" => check::<CallToolRequest>(request),
        "tools/list" => check::<ListToolsRequest>(request),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &[u8]) -> Value {
        match classify(line) {
            Incoming::Reply(v) => serde_json::from_str(&v).unwrap(),
            Incoming::Message(m) => panic!("passed on: {m:?}"),
            Incoming::Ignore => panic!("ignored"),
        }
    }

    fn code_and_id(v: &Value) -> (i64, Value) {
        (v["error"]["code"].as_i64().unwrap(), v["id"].clone())
    }

    #[test]
    fn what_is_not_json_is_a_parse_error_with_a_null_id() {
        for line in [
            &b"this is not json {"[..],
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\"}",
            &"[".repeat(100_000).into_bytes(),
        ] {
            let v = reply(line);
            assert_eq!(code_and_id(&v), (PARSE_ERROR, Value::Null), "{v}");
            assert_eq!(v["jsonrpc"], "2.0");
        }
        assert!(reply(b"\xff\xfe").to_string().contains("not UTF-8"));
        let deep = reply(&"[".repeat(100_000).into_bytes());
        assert!(deep.to_string().contains("128 levels"), "{deep}");
        assert!(too_long().contains("16 MiB"));
    }

    #[test]
    fn a_known_method_with_bad_params_is_invalid_params() {
        let v = reply(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":null}"#);
        assert_eq!(code_and_id(&v), (INVALID_PARAMS, json!(7)), "{v}");
        let v =
            reply(br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"arguments":{}}}"#);
        assert_eq!(code_and_id(&v), (INVALID_PARAMS, json!("a")), "{v}");
        assert!(v.to_string().contains("name"), "{v}");
    }

    #[test]
    fn json_that_is_no_request_is_an_invalid_request() {
        for line in [&b"[1,2]"[..], b"42", br#"{"jsonrpc":"2.0","id":3}"#] {
            let v = reply(line);
            assert_eq!(v["error"]["code"], INVALID_REQUEST, "{v}");
        }
    }

    #[test]
    fn good_messages_pass_and_notifications_are_never_answered() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#[..],
            br#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
        ] {
            assert!(matches!(classify(line), Incoming::Message(_)));
        }
        for line in [
            &br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}"#[..],
            b"   ",
        ] {
            assert!(matches!(classify(line), Incoming::Ignore));
        }
    }

    #[test]
    fn an_id_of_another_type_is_an_invalid_request_with_a_null_id() {
        for id in ["{}", "[1]", "true", r#"{"a":[1,"]"]}"#] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
            let v = reply(line.as_bytes());
            assert_eq!(code_and_id(&v), (INVALID_REQUEST, Value::Null), "{v}");
        }
    }

    #[test]
    fn a_numeric_id_is_echoed_as_written() {
        for id in [
            "123456789012345678901234567890",
            "18446744073709551615",
            "-98765432109876543210",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
            let Incoming::Reply(text) = classify(line.as_bytes()) else {
                panic!("{line} was not answered here");
            };
            assert!(text.starts_with(&format!(r#"{{"id":{id},"#)), "{text}");
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["error"]["code"], INVALID_REQUEST, "{v}");
        }
        let line = br#"{ "jsonrpc":"2.0", "params" : [ 1, "}" ], "id" : 98765432109876543210123 , "method":"ping"}"#;
        assert_eq!(
            raw_member(std::str::from_utf8(line).unwrap(), "id"),
            Some("98765432109876543210123")
        );
    }
}
