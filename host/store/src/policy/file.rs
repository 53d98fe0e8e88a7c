//! Policy files (`computer policy set FILE`): TOML with path rules, command
//! rules, per-backend limits and network rules, made into a [`Gate`].
//!
//! ```toml
//! [[paths]]
//! glob = "/secrets/**"   # globs match canonical workspace paths
//! access = "deny"        # or "read-only"; reason = "..." optional
//!
//! [[commands]]
//! name = "shutdown"      # deny a command by name
//! [[commands]]
//! pattern = "rm -rf /"   # deny a command with these flags and arguments
//!
//! [limits.shell]         # per backend ("*" for every one): only lowers
//! timeout_ms = 10000
//! memory_mb = 512
//! read_only = true
//!
//! [network]
//! deny = ["evil.example.com"]   # never reached, even when allowed
//! ```

use std::collections::BTreeMap;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use super::gate::{Action, Decision, ExecAction, Gate, Narrowing};
use super::script::{basename, simple_commands};

/// A policy as written.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySpec {
    /// Path rules.
    #[serde(default)]
    pub paths: Vec<PathRule>,
    /// Command rules.
    #[serde(default)]
    pub commands: Vec<CommandRule>,
    /// Limits by backend name (`*`: every backend).
    #[serde(default)]
    pub limits: BTreeMap<String, BackendLimits>,
    /// Network rules.
    #[serde(default)]
    pub network: NetworkRules,
}

/// Changes under `glob` are denied (`EPERM`) or read-only (`EROFS`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PathRule {
    /// A glob over canonical workspace paths (`/secrets/**`, `**/*.pem`).
    pub glob: String,
    /// `deny` or `read-only`.
    pub access: PathAccess,
    /// Said with the refusal.
    #[serde(default)]
    pub reason: Option<String>,
}

/// What a path rule allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathAccess {
    /// No change (`EPERM`).
    Deny,
    /// No change (`EROFS`).
    ReadOnly,
}

/// A denied command: by `name`, or by a `pattern` (name, flags, arguments).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRule {
    /// The command's name (`rm`, `/bin/rm` is the same).
    #[serde(default)]
    pub name: Option<String>,
    /// `rm -rf /`: the command, each flag letter (in any grouping and
    /// order) and each argument must all be there.
    #[serde(default)]
    pub pattern: Option<String>,
    /// Said with the refusal.
    #[serde(default)]
    pub reason: Option<String>,
}

/// The most a run of one backend may have.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BackendLimits {
    /// At most this long.
    pub timeout_ms: Option<u64>,
    /// At most this much memory.
    pub memory_mb: Option<u64>,
    /// Always read-only.
    #[serde(default)]
    pub read_only: bool,
}

/// Hosts never reached, whatever the allow-list says.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkRules {
    /// Allow-list-style entries (`host`, `host:port`, `*.domain`).
    #[serde(default)]
    pub deny: Vec<String>,
}

struct Paths {
    /// The glob's literal start (`/secrets/` of `/secrets/**`): removing or
    /// moving an ancestor of it takes what the rule protects.
    prefix: String,
    rule: PathRule,
}

/// A parsed policy: the gate it makes.
pub struct Policy {
    spec: PolicySpec,
    paths: Vec<Paths>,
    /// All path globs as one matcher (index = rule).
    globs: GlobSet,
    patterns: Vec<(Pattern, CommandRule)>,
    network_deny: crate::AllowList,
    unreadable: Option<String>,
}

struct Pattern {
    name: String,
    letters: Vec<char>,
    long: Vec<String>,
    args: Vec<String>,
}

impl Pattern {
    fn parse(text: &str) -> Option<Pattern> {
        let mut words = shell_words(text).into_iter();
        let name = words.next()?;
        let mut p = Pattern {
            name: basename(&name).to_owned(),
            letters: Vec::new(),
            long: Vec::new(),
            args: Vec::new(),
        };
        for w in words {
            if let Some(l) = w.strip_prefix("--") {
                p.long.push(l.to_owned());
            } else if let Some(s) = w.strip_prefix('-').filter(|s| !s.is_empty()) {
                p.letters.extend(s.chars());
            } else {
                p.args.push(w);
            }
        }
        Some(p)
    }

    fn matches(&self, words: &[String]) -> bool {
        if basename(&words[0]) != self.name {
            return false;
        }
        let mut letters = Vec::new();
        let mut long = Vec::new();
        let mut args = Vec::new();
        for w in &words[1..] {
            if let Some(l) = w.strip_prefix("--") {
                long.push(l.split('=').next().unwrap_or(l).to_owned());
            } else if let Some(s) = w.strip_prefix('-').filter(|s| !s.is_empty()) {
                letters.extend(s.chars());
            } else {
                args.push(w.trim_end_matches('/').to_owned());
            }
        }
        // `--recursive` is `-r`, `--force` is `-f`: the long forms of the
        // letters most rules name.
        for (l, c) in [("recursive", 'r'), ("force", 'f')] {
            if long.iter().any(|x| x == l) {
                letters.push(c);
            }
        }
        self.letters
            .iter()
            .all(|c| letters.contains(c) || letters.contains(&c.to_ascii_uppercase()) && *c == 'r')
            && self.long.iter().all(|l| long.contains(l))
            && self.args.iter().all(|a| {
                let a = a.trim_end_matches('/');
                args.iter().any(|x| {
                    x == a || (a.is_empty() && x.is_empty()) || (a.is_empty() && x == "/*")
                })
            })
    }
}

/// Words as the shell splits them (quotes, backslashes).
fn shell_words(text: &str) -> Vec<String> {
    simple_commands(text).into_iter().flatten().collect()
}

impl Policy {
    /// Parses a policy file; `Err` says what is wrong and where.
    pub fn parse(toml_text: &str) -> Result<Policy, String> {
        let spec: PolicySpec = toml::from_str(toml_text).map_err(|e| {
            let line = e.span().map(|s| {
                toml_text[..s.start.min(toml_text.len())]
                    .matches('\n')
                    .count()
                    + 1
            });
            match line {
                Some(l) => format!("invalid policy: line {l}: {}", e.message().trim()),
                None => format!("invalid policy: {}", e.message().trim()),
            }
        })?;
        Policy::from_spec(spec)
    }

    /// The policy of `spec`.
    pub fn from_spec(spec: PolicySpec) -> Result<Policy, String> {
        let mut paths = Vec::new();
        let mut globs = GlobSetBuilder::new();
        for rule in &spec.paths {
            if !rule.glob.starts_with('/') && !rule.glob.starts_with("**") {
                return Err(format!(
                    "invalid policy: path glob {:?} must start with / (or **)",
                    rule.glob
                ));
            }
            globs.add(
                Glob::new(&rule.glob)
                    .map_err(|e| format!("invalid policy: path glob {:?}: {e}", rule.glob))?,
            );
            let end = rule
                .glob
                .find(['*', '?', '[', '{'])
                .unwrap_or(rule.glob.len());
            paths.push(Paths {
                prefix: rule.glob[..end].to_owned(),
                rule: rule.clone(),
            });
        }
        let mut patterns = Vec::new();
        for rule in &spec.commands {
            match (&rule.name, &rule.pattern) {
                (Some(n), None) => patterns.push((
                    Pattern {
                        name: basename(n).to_owned(),
                        letters: vec![],
                        long: vec![],
                        args: vec![],
                    },
                    rule.clone(),
                )),
                (None, Some(p)) => patterns.push((
                    Pattern::parse(p)
                        .ok_or_else(|| "invalid policy: an empty command pattern".to_owned())?,
                    rule.clone(),
                )),
                _ => {
                    return Err(
                        "invalid policy: a [[commands]] rule has either name or pattern".to_owned(),
                    );
                }
            }
        }
        let network_deny = crate::AllowList::parse(&spec.network.deny)
            .map_err(|e| format!("invalid policy: network.deny: {e}"))?;
        let globs = globs
            .build()
            .map_err(|e| format!("invalid policy: path globs: {e}"))?;
        Ok(Policy {
            spec,
            paths,
            globs,
            patterns,
            network_deny,
            unreadable: None,
        })
    }

    /// A stand-in for a stored policy that does not parse: it denies
    /// every exec and change, saying why.
    pub(crate) fn unreadable(why: String) -> Policy {
        Policy {
            spec: PolicySpec::default(),
            paths: Vec::new(),
            globs: GlobSet::empty(),
            patterns: Vec::new(),
            network_deny: crate::AllowList::default(),
            unreadable: Some(why),
        }
    }

    /// The policy as written (normalized).
    pub fn spec(&self) -> &PolicySpec {
        &self.spec
    }

    /// Whether the network rules forbid `host` (as in a URI) on `port`.
    pub fn denies_host(&self, host: &str, port: u16) -> bool {
        self.network_deny.allows(host, port)
    }

    /// What the command rules deny in `script` (run by a shell): each
    /// denied command's words with the reason.
    pub fn check_script(&self, script: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for words in simple_commands(script) {
            for (pattern, rule) in &self.patterns {
                if pattern.matches(&words) {
                    let what = match (&rule.name, &rule.pattern) {
                        (Some(n), _) => format!("the command {n} is denied by the policy"),
                        (_, Some(p)) => format!("{p:?} is denied by the policy"),
                        _ => "denied by the policy".to_owned(),
                    };
                    let why = match &rule.reason {
                        Some(r) => format!("{what}: {r}"),
                        None => what,
                    };
                    out.push((words.join(" "), why));
                    break;
                }
            }
        }
        out
    }

    fn check_exec(&self, e: &ExecAction) -> Decision {
        let scripted = matches!(
            e.backend.as_str(),
            "shell" | "auto" | "container" | "command"
        );
        if scripted && let Some((cmd, why)) = self.check_script(&e.source).into_iter().next() {
            return Decision::Deny(format!("{cmd}: {why}"));
        }
        let mut narrow = Narrowing::default();
        for key in ["*", e.backend.as_str()] {
            let Some(l) = self.spec.limits.get(key) else {
                continue;
            };
            let mut n = Narrowing {
                reason: format!("the policy's limits for {key}"),
                ..Default::default()
            };
            if l.read_only && !e.read_only {
                n.read_only = true;
            }
            if let Some(t) = l.timeout_ms.filter(|t| *t < e.timeout_ms) {
                n.timeout_ms = Some(t);
            }
            if let Some(m) = l.memory_mb.map(|m| m << 20).filter(|m| *m < e.memory_bytes) {
                n.memory_bytes = Some(m);
            }
            if n.read_only || n.timeout_ms.is_some() || n.memory_bytes.is_some() {
                narrow = narrow.and(n);
            }
        }
        if narrow == Narrowing::default() {
            Decision::Allow
        } else {
            Decision::Narrow(narrow)
        }
    }

    fn check_change(&self, path: &str, subtree: bool) -> Decision {
        if self.paths.is_empty() {
            return Decision::Allow;
        }
        // The first rule whose glob matches, else (for a change that takes
        // a subtree) the first whose literal start lies below the path.
        let below = |p: &Paths| {
            path == "/"
                || (p.prefix.len() > path.len()
                    && p.prefix.starts_with(path)
                    && p.prefix.as_bytes()[path.len()] == b'/')
        };
        let hit = self.globs.matches(path).into_iter().min().or_else(|| {
            if subtree {
                self.paths.iter().position(below)
            } else {
                None
            }
        });
        if let Some(i) = hit {
            let p = &self.paths[i];
            let why = p.rule.reason.clone().unwrap_or_else(|| {
                format!(
                    "the policy makes {} {}",
                    p.rule.glob,
                    match p.rule.access {
                        PathAccess::Deny => "off limits",
                        PathAccess::ReadOnly => "read-only",
                    }
                )
            });
            return match p.rule.access {
                PathAccess::Deny => Decision::Deny(why),
                PathAccess::ReadOnly => Decision::Narrow(Narrowing {
                    read_only: true,
                    reason: why,
                    ..Default::default()
                }),
            };
        }
        Decision::Allow
    }
}

impl Gate for Policy {
    fn check(&self, action: &Action<'_>) -> Decision {
        if let Some(why) = &self.unreadable {
            return Decision::Deny(format!("the workspace's policy cannot be read: {why}"));
        }
        match action {
            Action::Exec(e) => self.check_exec(e),
            Action::Change { path, subtree, .. } => self.check_change(path, *subtree),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: &str = r#"
[[paths]]
glob = "/secrets/**"
access = "deny"
[[paths]]
glob = "/etc/**"
access = "read-only"
[[commands]]
name = "shutdown"
[[commands]]
pattern = "rm -rf /"
reason = "no"
[limits.shell]
timeout_ms = 1000
memory_mb = 64
[limits."*"]
read_only = false
[network]
deny = ["evil.example.com"]
"#;

    #[test]
    fn rules_decide() {
        let p = Policy::parse(POLICY).unwrap();
        assert!(matches!(
            p.check_change("/secrets/k", false),
            Decision::Deny(_)
        ));
        assert!(matches!(p.check_change("/", true), Decision::Deny(_)));
        assert!(matches!(p.check_change("/", false), Decision::Allow));
        assert!(matches!(p.check_change("/etc/x", false), Decision::Narrow(ref n) if n.read_only));
        assert_eq!(p.check_change("/work/a", true), Decision::Allow);
        for denied in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "sudo rm --recursive --force /",
            "/bin/shutdown now",
            "bash -c 'rm -rf /'",
        ] {
            assert_eq!(p.check_script(denied).len(), 1, "{denied}");
        }
        for allowed in ["rm -rf /tmp/x", "rm -f /", "echo rm -rf /", "ls"] {
            assert!(p.check_script(allowed).is_empty(), "{allowed}");
        }
        let e = ExecAction {
            backend: "shell".into(),
            source: "ls".into(),
            timeout_ms: 60_000,
            memory_bytes: 1 << 30,
            ..Default::default()
        };
        match p.check_exec(&e) {
            Decision::Narrow(n) => {
                assert_eq!(n.timeout_ms, Some(1000));
                assert_eq!(n.memory_bytes, Some(64 << 20));
            }
            d => panic!("{d:?}"),
        }
        let js = ExecAction {
            backend: "js".into(),
            ..e.clone()
        };
        assert_eq!(p.check_exec(&js), Decision::Allow);
        assert!(p.denies_host("evil.example.com", 443));
        assert!(Policy::parse("[[paths]]\nglob = 'x'\naccess = 'deny'").is_err());
        assert!(Policy::parse("[nope]").is_err());
    }
}
