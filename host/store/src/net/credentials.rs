//! Credentials the host attaches to requests for one allow-list entry
//! (`computer net allow HOST --header 'Authorization: Bearer {secret:T}'`,
//! `--query 'key={secret:K}'`, `--basic 'user:{secret:P}'`). A rule holds
//! `{secret:NAME}` placeholders, never values; the runtime renders it with
//! [`render`] when a request to that host leaves, outside the sandbox.

use serde::Serialize;
use zeroize::Zeroizing;

/// Where a credential goes in the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CredentialKind {
    /// A header, replacing any the guest set.
    Header,
    /// A query parameter, replacing any of the same key.
    Query,
    /// `Authorization: Basic`, from `user:password`.
    Basic,
}

impl CredentialKind {
    /// `header`, `query` or `basic`.
    pub fn as_str(self) -> &'static str {
        match self {
            CredentialKind::Header => "header",
            CredentialKind::Query => "query",
            CredentialKind::Basic => "basic",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "header" => CredentialKind::Header,
            "query" => CredentialKind::Query,
            "basic" => CredentialKind::Basic,
            _ => return None,
        })
    }
}

/// One rule: for requests to `entry`, set `name` (header name, query key;
/// empty for basic) to `template` rendered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Credential {
    /// The allow-list entry (a named host, maybe a port).
    pub entry: String,
    /// Where it goes.
    pub kind: CredentialKind,
    /// The header name (lowercase) or query key; empty for basic.
    pub name: String,
    /// The value with `{secret:NAME}` placeholders.
    pub template: String,
}

impl Credential {
    /// `Name: value` (the value a template).
    pub fn header(spec: &str) -> Result<(String, String), String> {
        let Some((name, value)) = spec.split_once(':') else {
            return Err(format!(
                "invalid --header {spec:?}: write 'Name: value', e.g. 'Authorization: Bearer {{secret:TOKEN}}'"
            ));
        };
        let name = name.trim().to_ascii_lowercase();
        if http_token(&name).is_err() {
            return Err(format!(
                "invalid --header {spec:?}: {name:?} is not a header name"
            ));
        }
        if matches!(
            name.as_str(),
            "host" | "connection" | "content-length" | "transfer-encoding" | "upgrade" | "te"
        ) {
            return Err(format!(
                "--header cannot set {name}: the HTTP client owns it"
            ));
        }
        let value = value.trim().to_owned();
        secret_names(&value)?;
        Ok((name, value))
    }

    /// `key=value` (the value a template).
    pub fn query(spec: &str) -> Result<(String, String), String> {
        match spec.split_once('=') {
            Some((k, v)) if !k.is_empty() && !k.contains(['&', '#', ' ']) => {
                secret_names(v)?;
                Ok((k.to_owned(), v.to_owned()))
            }
            _ => Err(format!(
                "invalid --query {spec:?}: write 'key=value', e.g. 'api_key={{secret:KEY}}'"
            )),
        }
    }

    /// `user:password` (a template).
    pub fn basic(spec: &str) -> Result<(String, String), String> {
        if !spec.contains(':') {
            return Err(format!(
                "invalid --basic {spec:?}: write 'user:password', e.g. 'me:{{secret:PASSWORD}}'"
            ));
        }
        secret_names(spec)?;
        Ok((String::new(), spec.to_owned()))
    }

    /// The secrets the template names.
    pub fn secrets(&self) -> Vec<String> {
        secret_names(&self.template).unwrap_or_default()
    }
}

fn http_token(name: &str) -> Result<(), ()> {
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if ok { Ok(()) } else { Err(()) }
}

const OPEN: &str = "{secret:";

/// The secret names a template's `{secret:NAME}` placeholders give, in
/// order; `Err` for a malformed placeholder.
pub fn secret_names(template: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        let Some(end) = after.find('}') else {
            return Err(format!("unclosed {{secret:...}} in {template:?}"));
        };
        let name = &after[..end];
        crate::secrets::validate_secret_name(name)?;
        names.push(name.to_owned());
        rest = &after[end + 1..];
    }
    Ok(names)
}

/// The template with each placeholder replaced by `value(NAME)`; the
/// result is wiped from memory when dropped.
pub fn render<E>(
    template: &str,
    mut value: impl FnMut(&str) -> Result<Zeroizing<Vec<u8>>, E>,
) -> Result<Zeroizing<Vec<u8>>, E> {
    let mut out = Zeroizing::new(Vec::with_capacity(template.len() + 64));
    let mut rest = template;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        let Some(end) = after.find('}') else { break };
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let v = value(&after[..end])?;
        out.extend_from_slice(&v);
        rest = &after[end + 1..];
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_and_templates() {
        let (n, t) = Credential::header("Authorization: Bearer {secret:GH_TOKEN}").unwrap();
        assert_eq!(
            (n.as_str(), t.as_str()),
            ("authorization", "Bearer {secret:GH_TOKEN}")
        );
        assert!(Credential::header("no colon").is_err());
        assert!(Credential::header("Host: x").is_err());
        assert!(Credential::header("X: {secret:bad-name}").is_err());
        assert!(Credential::header("X: {secret:OPEN").is_err());
        assert_eq!(
            Credential::query("api_key={secret:K}").unwrap(),
            ("api_key".into(), "{secret:K}".into())
        );
        assert!(Credential::query("=x").is_err());
        assert!(Credential::basic("nopass").is_err());
        assert_eq!(secret_names("{secret:A}-{secret:B}").unwrap(), ["A", "B"]);
        let out = render("a {secret:A} b {secret:B}", |n: &str| {
            Ok::<_, ()>(Zeroizing::new(n.to_lowercase().into_bytes()))
        })
        .unwrap();
        assert_eq!(out.as_slice(), b"a a b b");
    }
}
