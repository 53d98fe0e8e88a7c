//! MCP's side of the JSON vocabulary: every key camelCase, as MCP's own
//! schema and the tools' results are. Records that come from the store
//! (runs, approvals) serialize snake_case for the CLI's `--json`; the MCP
//! resources pass them through here.

use serde_json::{Map, Value};

/// A store record (a run, an interrupt) for MCP: its keys, and those of
/// its `options` (parsed from the JSON text the store keeps), in camelCase.
/// Only those: values that carry a program's own data (a payload, a value,
/// an environment variable's name) keep their keys and text.
pub fn mcp_record(record: impl serde::Serialize) -> Value {
    let mut doc = serde_json::to_value(record).unwrap_or(Value::Null);
    if let Some(Value::String(text)) = doc.get("options")
        && let Ok(parsed) = serde_json::from_str::<Value>(text)
    {
        doc["options"] = camel_case_keys(parsed);
    }
    camel_case_keys(doc)
}

/// `value`'s own keys in camelCase (one level: not those of its values).
fn camel_case_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (camel_case(&k), v))
                .collect::<Map<_, _>>(),
        ),
        other => other,
    }
}

fn camel_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn record_keys_and_options_become_camel_case_and_data_stays() {
        let record = json!({
            "run_id": "r_1", "exit_code": 0, "started_ns": 5,
            "options": "{\"timeout_ms\":10,\"env\":[\"MY_VAR\"]}",
            "payload": "{\"snake_key\":1}",
            "value": {"kept_as_is": true},
            "_private": 1,
        });
        assert_eq!(
            mcp_record(record),
            json!({
                "runId": "r_1", "exitCode": 0, "startedNs": 5,
                "options": {"timeoutMs": 10, "env": ["MY_VAR"]},
                "payload": "{\"snake_key\":1}",
                "value": {"kept_as_is": true},
                "_private": 1,
            })
        );
    }
}
