//! `ws:github`: a module component that posts a comment on a GitHub issue,
//! but only after the application approved it.
//!
//! `post-comment(issue, body)`:
//! 1. asks for approval with `interrupt({"issue": .., "body": ..})`: the run
//!    parks until the application answers (`computer respond`);
//! 2. on `{"approved": true}`, marks the call `unsafe-to-repeat` and sends
//!    `POST {base_url}/repos/{repo}/issues/{issue}/comments` over `wasi:http`
//!    with the header `Idempotency-Key: <call-id>`;
//! 3. returns the comment's URL (`html_url` of the response).
//!
//! Configuration (`computer modules add --config K=V`): `base_url` (e.g.
//! `https://api.github.com`), `repo` (`owner/name`) and, optionally, `token`
//! (sent as `Authorization: Bearer ..`).

mod bindings {
    wit_bindgen::generate!({
        // Our package, and the `computer:workspace` package it includes
        // (with its WASI dependencies). Out of this repository, copy the
        // latter into `wit/deps/` instead and use `path: "wit"`.
        path: ["../../wit", "wit"],
        world: "acme:github/github-module",
        generate_all,
    });
}

mod http;

use bindings::computer::workspace::{call_context, interrupt};
use bindings::exports::acme::github::github::Guest;
use serde_json::{Value, json};

struct Github;

/// The module's settings, from `call-context.config`.
struct Config {
    base_url: String,
    repo: String,
    token: Option<String>,
}

impl Config {
    fn load() -> Result<Config, String> {
        let pairs = call_context::config();
        let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let base_url = get("base_url").unwrap_or_else(|| "https://api.github.com".to_owned());
        let repo = get("repo").ok_or(
            "ws:github is not configured: add it with --config repo=OWNER/NAME".to_owned(),
        )?;
        Ok(Config {
            base_url: base_url.trim_end_matches('/').to_owned(),
            repo,
            token: get("token"),
        })
    }
}

impl Guest for Github {
    fn post_comment(issue: u32, body: String) -> Result<String, String> {
        let config = Config::load()?;

        // Ask first. The run parks here until the application answers; on
        // resume the call runs again from the start and this returns.
        let question = json!({"issue": issue, "body": body});
        let answer = interrupt::interrupt(&question.to_string()).map_err(|r| r.reason)?;
        let approved = serde_json::from_str::<Value>(&answer)
            .ok()
            .and_then(|v| v.get("approved").and_then(Value::as_bool))
            .unwrap_or(false);
        if !approved {
            return Err(format!("the comment was not approved (answer: {answer})"));
        }

        // Then act, once: the call id is the same in every replay of this
        // call, so GitHub (or a proxy) can drop a duplicate.
        let key = call_context::call_id();
        let url = format!(
            "{}/repos/{}/issues/{issue}/comments",
            config.base_url, config.repo
        );
        let mut headers = vec![
            ("idempotency-key".to_owned(), key),
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "accept".to_owned(),
                "application/vnd.github+json".to_owned(),
            ),
            ("user-agent".to_owned(), "computer-ws-github".to_owned()),
        ];
        if let Some(token) = &config.token {
            headers.push(("authorization".to_owned(), format!("Bearer {token}")));
        }
        let payload = json!({"body": body}).to_string();
        call_context::unsafe_to_repeat();
        let response = http::post(&url, &headers, payload.as_bytes())?;

        let text = String::from_utf8_lossy(&response.body);
        if !(200..300).contains(&response.status) {
            let snippet: String = text.chars().take(200).collect();
            return Err(format!("{url} answered {}: {snippet}", response.status));
        }
        serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("html_url").and_then(Value::as_str).map(str::to_owned))
            .ok_or_else(|| format!("{url} answered {} without an html_url", response.status))
    }
}

bindings::export!(Github with_types_in bindings);
