//! `computer tools` printing the definitions in each format.

use super::*;

// ------------------------------------------------------------- computer tools

fn schema_ok(schema: &Value) {
    assert_eq!(schema["type"], "object", "{schema}");
    assert!(schema["properties"].is_object(), "{schema}");
    assert!(schema["required"].is_array(), "{schema}");
    for req in schema["required"].as_array().unwrap() {
        assert!(
            schema["properties"].get(req.as_str().unwrap()).is_some(),
            "{req} is required but not a property: {schema}"
        );
    }
}

#[test]
fn tools_prints_openai_format() {
    let doc = tools_json(&["--format", "openai", "--backends", "js"]);
    let tools = doc.as_array().expect("an array");
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ALL_TOOLS);
    for t in tools {
        assert_eq!(t["type"], "function");
        let f = t["function"].as_object().unwrap();
        let mut keys: Vec<&str> = f.keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["description", "name", "parameters"]);
        schema_ok(&t["function"]["parameters"]);
    }
    // openai is the default.
    assert_eq!(tools_json(&["--backends", "js"]), doc);
}

#[test]
fn tools_prints_anthropic_format() {
    let doc = tools_json(&["--format", "anthropic", "--readonly"]);
    let tools = doc.as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, READ_TOOLS);
    for t in tools {
        let mut keys: Vec<&str> = t.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["description", "input_schema", "name"]);
        schema_ok(&t["input_schema"]);
    }
}

#[test]
fn tools_prints_mcp_format() {
    let doc = tools_json(&["--format", "mcp", "--backends", "js"]);
    let tools = doc.as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ALL_TOOLS);
    for t in tools {
        schema_ok(&t["inputSchema"]);
        assert!(t["description"].is_string());
        assert_eq!(
            t["annotations"]["readOnlyHint"],
            READ_TOOLS.contains(&t["name"].as_str().unwrap())
        );
        // Each one is a valid MCP tool.
        let _: Tool = serde_json::from_value(t.clone()).expect("an MCP Tool");
    }
}

#[test]
fn tools_rejects_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = tools_run(dir.path(), &["--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&["tools"], &out));
    assert!(
        text(&out.stderr).contains("openai"),
        "{}",
        text(&out.stderr)
    );
    let out = tools_run(dir.path(), &["--backends", "cobol"]);
    assert_eq!(out.status.code(), Some(1));
    let (code, msg) = parse_error_line(&out.stderr);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("unknown backend \"cobol\""), "{msg}");
}

#[test]
fn tools_offers_the_container_backends_only_when_named() {
    let exec_backends = |doc: &Value| -> Vec<String> {
        let tools = doc.as_array().expect("a list of tools");
        let exec = tools
            .iter()
            .find(|t| t["function"]["name"] == "exec")
            .expect("exec");
        exec["function"]["parameters"]["properties"]["backend"]["enum"]
            .as_array()
            .expect("a backend enum")
            .iter()
            .map(|b| b.as_str().unwrap().to_owned())
            .collect()
    };
    let default = exec_backends(&tools_json(&[]));
    assert!(
        !default.iter().any(|b| b == "container" || b == "auto"),
        "{default:?}"
    );
    let named = exec_backends(&tools_json(&["--backends", "shell,auto,container"]));
    assert_eq!(named, ["shell", "auto", "container"]);
}
