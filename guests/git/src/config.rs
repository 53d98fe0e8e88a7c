//! git's config files: `.git/config` and `~/.gitconfig` (`--global`), as
//! git reads them (sections, `[section "sub"]`, `key = value`, quotes,
//! comments) and as git writes a new key: `\tkey = value` at the end of its
//! section, or a new `[section]` at the end of the file.

use std::path::{Path, PathBuf};

use crate::error::Result;

/// One file's text and where it lives.
pub struct ConfigFile {
    pub path: PathBuf,
    pub text: String,
}

/// `section.sub.key` → (section, sub, key), lower-casing what git folds.
pub fn split_key(key: &str) -> Option<(String, Option<String>, String)> {
    let first = key.find('.')?;
    let last = key.rfind('.')?;
    let section = key[..first].to_ascii_lowercase();
    let name = key[last + 1..].to_ascii_lowercase();
    if section.is_empty() || name.is_empty() {
        return None;
    }
    let sub = (last > first).then(|| key[first + 1..last].to_owned());
    Some((section, sub, name))
}

fn parse_header(line: &str) -> Option<(String, Option<String>)> {
    let inner = line.trim().strip_prefix('[')?.split(']').next()?;
    match inner.find(|c: char| c.is_whitespace()) {
        None => {
            // `[branch.main]`, the old form.
            let (s, sub) = match inner.find('.') {
                Some(i) => (&inner[..i], Some(inner[i + 1..].to_owned())),
                None => (inner, None),
            };
            Some((s.to_ascii_lowercase(), sub))
        }
        Some(i) => {
            let sub = inner[i..].trim().trim_matches('"').replace("\\\"", "\"");
            Some((inner[..i].to_ascii_lowercase(), Some(sub)))
        }
    }
}

fn parse_value(raw: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = raw.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            '#' | ';' if !quoted => break,
            c => out.push(c),
        }
    }
    if !quoted {
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
    }
    out
}

impl ConfigFile {
    pub fn load(path: &Path) -> ConfigFile {
        ConfigFile {
            path: path.to_owned(),
            text: std::fs::read_to_string(path).unwrap_or_default(),
        }
    }

    /// Every `(section, sub, key, value)` in file order.
    pub fn entries(&self) -> Vec<(String, Option<String>, String, String)> {
        let mut out = Vec::new();
        let mut section: Option<(String, Option<String>)> = None;
        for line in self.text.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
                continue;
            }
            if t.starts_with('[') {
                section = parse_header(t);
                continue;
            }
            let Some((s, sub)) = &section else { continue };
            let (key, value) = match t.find('=') {
                Some(i) => (t[..i].trim(), parse_value(&t[i + 1..])),
                // A bare key is boolean true.
                None => (t, "true".to_owned()),
            };
            out.push((s.clone(), sub.clone(), key.to_ascii_lowercase(), value));
        }
        out
    }

    pub fn get(&self, key: &str) -> Option<String> {
        let (s, sub, k) = split_key(key)?;
        self.entries()
            .into_iter()
            .rev()
            .find(|(es, esub, ek, _)| *es == s && *esub == sub && *ek == k)
            .map(|e| e.3)
    }

    /// Sets `key`, replacing its last occurrence or adding it as git does.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let Some((s, sub, k)) = split_key(key) else {
            return crate::error::fatal(format!("invalid key: {key}"));
        };
        let rendered = format!(
            "\t{} = {}",
            key.rsplit('.').next().unwrap_or(&k),
            quote(value)
        );
        let lines: Vec<&str> = self.text.lines().collect();
        let mut section: Option<(String, Option<String>)> = None;
        let mut last_in_section = None;
        let mut replace = None;
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim();
            if t.starts_with('[') {
                section = parse_header(t);
                if section.as_ref() == Some(&(s.clone(), sub.clone())) {
                    last_in_section = Some(i);
                }
                continue;
            }
            if section.as_ref() == Some(&(s.clone(), sub.clone())) {
                last_in_section = Some(i);
                let name = t
                    .split('=')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                if !t.is_empty() && !t.starts_with('#') && name == k {
                    replace = Some(i);
                }
            }
        }
        let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        if let Some(i) = replace {
            out[i] = rendered;
        } else if let Some(i) = last_in_section {
            out.insert(i + 1, rendered);
        } else {
            out.push(match &sub {
                None => format!("[{s}]"),
                Some(sub) => format!("[{s} \"{}\"]", sub.replace('"', "\\\"")),
            });
            out.push(rendered);
        }
        self.text = out.join("\n") + "\n";
        self.save()
    }

    /// Removes `key`; false if it was not set.
    pub fn unset(&mut self, key: &str) -> Result<bool> {
        let Some((s, sub, k)) = split_key(key) else {
            return Ok(false);
        };
        let mut section: Option<(String, Option<String>)> = None;
        let mut removed = false;
        let mut out = Vec::new();
        for line in self.text.lines() {
            let t = line.trim();
            if t.starts_with('[') {
                section = parse_header(t);
            } else if section.as_ref() == Some(&(s.clone(), sub.clone()))
                && t.split('=')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
                    == k
            {
                removed = true;
                continue;
            }
            out.push(line);
        }
        if removed {
            // git drops the section's header once nothing is left under it.
            let target = Some((s.clone(), sub.clone()));
            let mut kept: Vec<&str> = Vec::new();
            for (i, line) in out.iter().enumerate() {
                let t = line.trim();
                let empty_after = out[i + 1..]
                    .iter()
                    .take_while(|l| !l.trim().starts_with('['))
                    .all(|l| l.trim().is_empty());
                if t.starts_with('[') && parse_header(t) == target && empty_after {
                    continue;
                }
                kept.push(line);
            }
            let text = if kept.is_empty() {
                String::new()
            } else {
                kept.join("\n") + "\n"
            };
            self.text = text;
            self.save()?;
        }
        Ok(removed)
    }

    fn save(&self) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = self.path.with_extension("lock");
        std::fs::write(&tmp, &self.text)?;
        std::fs::rename(&tmp, &self.path)?;
        Ok(())
    }
}

fn quote(value: &str) -> String {
    let needs = value.starts_with(' ')
        || value.ends_with(' ')
        || value.contains(['#', ';', '"', '\\', '\n', '\t']);
    if !needs {
        return value.to_owned();
    }
    let escaped = value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
        .replace('\t', "\\t");
    format!("\"{escaped}\"")
}

/// The files a repository's settings come from, lowest priority first.
pub struct Config {
    pub files: Vec<ConfigFile>,
    /// `-c key=value` of this invocation: above every file.
    pub overrides: Vec<(String, String)>,
}

impl Config {
    pub fn load(git_dir: Option<&Path>, overrides: &[(String, String)]) -> Config {
        let mut files = Vec::new();
        if let Some(path) = global_path() {
            files.push(ConfigFile::load(&path));
        }
        if let Some(dir) = git_dir {
            files.push(ConfigFile::load(&dir.join("config")));
        }
        Config {
            files,
            overrides: overrides.to_vec(),
        }
    }

    pub fn get(&self, key: &str) -> Option<String> {
        let wanted = split_key(key)?;
        if let Some((_, v)) = self
            .overrides
            .iter()
            .rev()
            .find(|(k, _)| split_key(k).as_ref() == Some(&wanted))
        {
            return Some(v.clone());
        }
        self.files.iter().rev().find_map(|f| f.get(key))
    }

    pub fn get_bool(&self, key: &str) -> Option<bool> {
        self.get(key)
            .map(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1"))
    }
}

pub fn global_path() -> Option<PathBuf> {
    std::env::var_os("GIT_CONFIG_GLOBAL")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".gitconfig")))
}
