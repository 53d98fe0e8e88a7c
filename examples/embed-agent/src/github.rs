//! `ws:github`, a module the application writes in Rust: agent code calls
//! `postComment(issue, body)`, and nothing is posted until the application
//! approves that comment.

use std::path::PathBuf;

use computer_runtime::{CallContext, FunctionInfo, HostModule, ModuleCallError, ParamInfo};
use serde_json::{Value, json};

/// The exit code of the crash that `--crash-after-post` simulates.
pub const CRASH_EXIT: i32 = 99;

/// Stands in for GitHub: its comments live in a JSON file beside the
/// workspace, so they outlive the process as real ones would. As GitHub
/// behind an idempotency-keyed proxy does, a post with a key it has seen
/// returns the first comment instead of adding a second one.
pub struct FakeGitHub {
    /// `[{"key", "issue", "body", "url"}]`
    pub file: PathBuf,
}

impl FakeGitHub {
    /// Every comment posted so far.
    pub fn comments(&self) -> Result<Vec<Value>, String> {
        match std::fs::read(&self.file) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| format!("{} is not a comment list: {e}", self.file.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(format!("cannot read {}: {e}", self.file.display())),
        }
    }

    /// Posts `body` on `issue` once per `key`; the comment's URL.
    fn post(&self, key: &str, issue: u64, body: &str) -> Result<String, String> {
        let mut comments = self.comments()?;
        if let Some(seen) = comments.iter().find(|c| c["key"] == key) {
            return Ok(seen["url"].as_str().unwrap_or_default().to_owned());
        }
        let url = format!(
            "https://github.example/acme/app/issues/{issue}#comment-{}",
            comments.len() + 1
        );
        comments.push(json!({"key": key, "issue": issue, "body": body, "url": url}));
        std::fs::write(
            &self.file,
            serde_json::to_vec_pretty(&comments).unwrap_or_default(),
        )
        .map_err(|e| format!("cannot write {}: {e}", self.file.display()))?;
        Ok(url)
    }
}

/// The `ws:github` module.
pub struct GitHub {
    /// Where comments go.
    pub remote: FakeGitHub,
    /// Kill the process right after posting, before the run can record
    /// that the call returned: the moment a crash hurts most.
    pub crash_after_post: bool,
}

impl HostModule for GitHub {
    fn functions(&self) -> Vec<FunctionInfo> {
        let param = |name: &str, type_desc: &str| ParamInfo {
            name: name.into(),
            type_desc: type_desc.into(),
        };
        vec![FunctionInfo {
            name: "post-comment".into(),
            params: vec![param("issue", "u32"), param("body", "string")],
            result: Some("string: the comment's URL".into()),
            docs: "Posts a comment on an issue once the application approves it.".into(),
        }]
    }

    // The registry only calls functions listed above: this is post-comment.
    fn call(
        &self,
        _function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        let (Some(issue), Some(body)) = (args[0].as_u64(), args[1].as_str()) else {
            return Err(ModuleCallError::BadArguments(
                "postComment(issue: number, body: string)".into(),
            ));
        };
        // The first time, this parks the run (`?` hands `Parked` back) and
        // the application sees the payload in `pending()`. Once answered,
        // the run starts again from the top and this returns the approval,
        // or `Rejected`, which agent code sees as a thrown Error.
        ctx.interrupt(json!({"issue": issue, "body": body}))?;
        // `call_id` is the same in every replay of this call, so a repeat
        // after a crash posts nothing twice. (An effect with no such key
        // would call `ctx.unsafe_to_repeat()` here instead, and a replay
        // would fail the call rather than repeat it.)
        let url = self
            .remote
            .post(ctx.call_id(), issue, body)
            .map_err(ModuleCallError::Failed)?;
        if self.crash_after_post {
            eprintln!("simulated crash: the comment is posted, the run has not recorded it");
            std::process::exit(CRASH_EXIT);
        }
        Ok(json!(url))
    }
}
