//! Tool arguments as models send them (camelCase), checked strictly so a
//! misspelled field gets an error naming it instead of being ignored.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Read {
    pub path: String,
    pub offset: Option<u64>,
    pub limit: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Write {
    pub path: String,
    pub content: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditItem {
    pub old_text: String,
    pub new_text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Edit {
    pub path: String,
    pub edits: Option<Vec<EditItem>>,
    pub old_text: Option<String>,
    pub new_text: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ls {
    pub path: String,
    pub limit: Option<u64>,
    pub offset: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Find {
    pub path: Option<String>,
    pub pattern: String,
    pub limit: Option<u64>,
    pub offset: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Grep {
    pub path: Option<String>,
    pub query: String,
    #[serde(default)]
    pub regex: bool,
    #[serde(default)]
    pub ignore_case: bool,
    pub include: Option<String>,
    pub context: Option<u32>,
    pub limit: Option<u64>,
    pub offset: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delete {
    pub path: String,
    #[serde(default)]
    pub recursive: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Exec {
    pub command: String,
    pub backend: Option<String>,
    pub cwd: Option<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    pub input: Option<Value>,
    pub timeout_ms: Option<u64>,
    pub memory_mb: Option<u64>,
    /// `false`: a read-only run (changes fail with EROFS).
    pub writable: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    pub action: String,
    pub name: Option<String>,
    #[serde(default)]
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Diff {
    pub from: Option<String>,
    pub to: Option<String>,
    pub run: Option<String>,
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub name_only: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    pub run: String,
    #[serde(default)]
    pub force: bool,
}
