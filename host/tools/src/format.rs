//! Tool definitions in the shapes different model APIs expect.

use serde_json::{Value, json};

use crate::definitions::ToolDef;

/// A model API's shape of a tool list, for [`render`]. Parses from
/// `openai`, `anthropic` or `mcp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// OpenAI function calling: `{"type": "function", "function": {...}}`.
    OpenAi,
    /// Anthropic: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// MCP `tools/list`: `{"name", "description", "inputSchema", "annotations"}`.
    Mcp,
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "openai" => Ok(Format::OpenAi),
            "anthropic" => Ok(Format::Anthropic),
            "mcp" => Ok(Format::Mcp),
            other => Err(format!(
                "unknown format {other:?}: use openai, anthropic or mcp"
            )),
        }
    }
}

/// `defs` as the JSON array `format`'s API takes in its request.
pub fn render(defs: &[ToolDef], format: Format) -> Value {
    let tools: Vec<Value> = defs
        .iter()
        .map(|d| match format {
            Format::OpenAi => json!({
                "type": "function",
                "function": {"name": d.name, "description": d.description, "parameters": d.input_schema},
            }),
            Format::Anthropic => json!({
                "name": d.name, "description": d.description, "input_schema": d.input_schema,
            }),
            Format::Mcp => json!({
                "name": d.name,
                "description": d.description,
                "inputSchema": d.input_schema,
                "annotations": {"readOnlyHint": d.read_only, "destructiveHint": d.name == "delete"},
            }),
        })
        .collect();
    Value::Array(tools)
}
