//! The tool definitions and their rendering per format.

use crate::support::*;

// ------------------------------------------------------------- definitions

#[test]
fn definitions_cover_every_tool_with_object_schemas() {
    let (_ws, tools) = exec_tools();
    let defs = tools.definitions();
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "read", "ls", "find", "grep", "diff", "write", "edit", "delete", "snapshot", "undo",
            "exec"
        ]
    );
    for d in &defs {
        assert_eq!(d.input_schema["type"], "object", "{}", d.name);
        assert_eq!(d.input_schema["additionalProperties"], false, "{}", d.name);
        assert!(d.input_schema["properties"].is_object(), "{}", d.name);
        assert!(!d.description.is_empty());
    }
    let exec = defs.iter().find(|d| d.name == "exec").unwrap();
    assert!(exec.description.contains("`js`"), "{}", exec.description);
    assert!(exec.description.contains("command not found"));
    assert_eq!(
        exec.input_schema["properties"]["backend"]["enum"],
        json!(["js"])
    );
}

#[test]
fn definitions_for_matches_a_real_tool_set() {
    use computer_tools::definitions_for;
    let available = runtime().backend_infos();
    for options in [
        ToolOptions::default(),
        ToolOptions {
            readonly: true,
            backends: vec![],
            ..Default::default()
        },
        ToolOptions {
            readonly: false,
            backends: vec!["shell".into(), "js".into()],
            ..Default::default()
        },
        ToolOptions {
            readonly: false,
            backends: vec!["shell".into()],
            ..Default::default()
        },
    ] {
        let real = Tools::new(workspace(), Some(runtime()), options.clone());
        assert_eq!(
            definitions_for(options, available.clone()),
            real.definitions()
        );
    }
    // Backends in the order asked for; the first is the default.
    let defs = definitions_for(
        ToolOptions {
            readonly: false,
            backends: vec!["shell".into(), "js".into()],
            ..Default::default()
        },
        // What the built-in guests say of themselves (loaded lazily: no compile).
        Runtime::with_builtin_guests(RuntimeConfig::default())
            .unwrap()
            .backend_infos(),
    );
    let exec = defs.iter().find(|d| d.name == "exec").unwrap();
    assert_eq!(
        exec.input_schema["properties"]["backend"]["enum"],
        json!(["shell", "js"])
    );
    assert!(exec.description.contains("The default is `shell`"));
}

#[test]
fn render_shapes_per_format() {
    let (_ws, tools) = fs_tools();
    let defs = tools.definitions();
    let openai = render(&defs, Format::OpenAi);
    assert_eq!(openai[0]["type"], "function");
    assert_eq!(openai[0]["function"]["name"], "read");
    assert_eq!(openai[0]["function"]["parameters"]["type"], "object");
    let anthropic = render(&defs, Format::Anthropic);
    assert_eq!(anthropic[0]["name"], "read");
    assert_eq!(anthropic[0]["input_schema"]["type"], "object");
    let mcp = render(&defs, Format::Mcp);
    assert_eq!(mcp[0]["inputSchema"]["type"], "object");
    assert_eq!(mcp[0]["annotations"]["readOnlyHint"], true);
    let delete = mcp
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "delete")
        .unwrap();
    assert_eq!(delete["annotations"]["readOnlyHint"], false);
    assert_eq!(delete["annotations"]["destructiveHint"], true);
    assert_eq!("mcp".parse::<Format>(), Ok(Format::Mcp));
    assert!("yaml".parse::<Format>().unwrap_err().contains("openai"));
}

#[test]
fn no_runtime_means_no_exec() {
    let (_ws, tools) = fs_tools();
    assert!(!tools.definitions().iter().any(|d| d.name == "exec"));
    let msg = err(&tools, "exec", json!({"command": "1"}));
    assert!(msg.contains("unknown tool \"exec\""), "{msg}");
}
