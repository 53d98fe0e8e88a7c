//! curl's command line: the options agents use, parsed as curl parses them
//! (bundled short flags `-sSL`, values attached `-ofile` or apart,
//! `--opt=value` is not curl's syntax), into a [`Config`].

use std::time::Duration;

use crate::errors::{self, CurlError};
use crate::transfer;

/// Where one URL's body goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    Stdout,
    File(String),
    /// `-O`: the URL's last path segment.
    RemoteName,
}

/// Everything the options say.
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub silent: bool,
    pub show_error: bool,
    pub fail: bool,
    pub fail_with_body: bool,
    pub location: bool,
    pub max_redirs: u32,
    pub include: bool,
    pub head: bool,
    pub verbose: bool,
    pub get: bool,
    pub method: Option<String>,
    pub headers: Vec<String>,
    /// `-d`-like pieces, joined with `&`.
    pub data: Vec<Vec<u8>>,
    pub json: bool,
    pub user: Option<String>,
    pub user_agent: Option<String>,
    pub referer: Option<String>,
    pub write_out: Option<String>,
    pub max_time: Option<Duration>,
    pub connect_timeout: Option<Duration>,
    pub dump_header: Option<String>,
    pub create_dirs: bool,
    pub urls: Vec<String>,
    pub outputs: Vec<Output>,
    /// Printed unless `-s`.
    pub warnings: Vec<String>,
}

fn usage(msg: String) -> CurlError {
    CurlError::new(errors::USAGE, msg)
}

fn seconds(opt: &str, v: &str) -> Result<Duration, CurlError> {
    match v.parse::<f64>() {
        Ok(s) if s >= 0.0 && s.is_finite() => Ok(Duration::from_secs_f64(s)),
        _ => Err(usage(format!(
            "option {opt}: expected a proper numerical parameter"
        ))),
    }
}

/// The options that take a value, short and long.
const WITH_VALUE: &[&str] = &[
    "-o",
    "--output",
    "-X",
    "--request",
    "-H",
    "--header",
    "-d",
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-ascii",
    "--data-urlencode",
    "--json",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-w",
    "--write-out",
    "-m",
    "--max-time",
    "--connect-timeout",
    "--max-redirs",
    "-D",
    "--dump-header",
    "--url",
    "-b",
    "--cookie",
    "--retry",
    "--cacert",
    "-E",
    "--cert",
];

/// Options curl knows that change nothing here (TLS and terminal details).
const IGNORED: &[&str] = &[
    "-k",
    "--insecure",
    "--compressed",
    "-#",
    "--progress-bar",
    "--no-progress-meter",
    "-N",
    "--no-buffer",
    "--http1.1",
    "-q",
    "--disable",
    "--location-trusted",
    "--globoff",
    "-g",
];

fn long_name(short: char) -> Option<&'static str> {
    Some(match short {
        's' => "--silent",
        'S' => "--show-error",
        'f' => "--fail",
        'L' => "--location",
        'i' => "--include",
        'I' => "--head",
        'v' => "--verbose",
        'G' => "--get",
        'O' => "--remote-name",
        'o' => "-o",
        'X' => "-X",
        'H' => "-H",
        'd' => "-d",
        'u' => "-u",
        'A' => "-A",
        'e' => "-e",
        'w' => "-w",
        'm' => "-m",
        'D' => "-D",
        'b' => "-b",
        'k' => "-k",
        '#' => "-#",
        'N' => "-N",
        'q' => "-q",
        'g' => "-g",
        'E' => "-E",
        _ => return None,
    })
}

/// Splits bundled short options (`-sSLo file`) into single ones.
fn expand(args: &[String]) -> Result<Vec<String>, CurlError> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a.starts_with("--") || !a.starts_with('-') || a == "-" {
            out.push(a.clone());
            if WITH_VALUE.contains(&a.as_str()) {
                out.extend(it.next().cloned());
            }
            continue;
        }
        let chars: Vec<char> = a[1..].chars().collect();
        for (i, c) in chars.iter().enumerate() {
            let name = long_name(*c).ok_or_else(|| usage(format!("option -{c}: is unknown")))?;
            out.push(name.to_owned());
            if WITH_VALUE.contains(&name) {
                let attached: String = chars[i + 1..].iter().collect();
                if attached.is_empty() {
                    out.extend(it.next().cloned());
                } else {
                    out.push(attached);
                }
                break;
            }
        }
    }
    Ok(out)
}

/// Reads `@file` (`@-` is stdin); `strip` drops CR and LF as `-d` does. A
/// file that cannot be read is an empty body and a warning, as in curl.
fn data_arg(cfg: &mut Config, v: &str, at: bool, strip: bool) -> Vec<u8> {
    let mut bytes = match v.strip_prefix('@') {
        Some(path) if at => {
            let read = if path == "-" {
                let mut b = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
            } else {
                std::fs::read(path)
            };
            read.unwrap_or_else(|_| {
                cfg.warnings.push(format!(
                    "Warning: Couldn't read data from file \"{path}\", this makes an empty POST."
                ));
                Vec::new()
            })
        }
        _ => v.as_bytes().to_vec(),
    };
    if strip && at && v.starts_with('@') {
        bytes.retain(|b| *b != b'\r' && *b != b'\n');
    }
    bytes
}

fn set(cfg: &mut Config, opt: &str, v: &str) -> Result<(), CurlError> {
    match opt {
        "-o" | "--output" => cfg.outputs.push(Output::File(v.to_owned())),
        "-X" | "--request" => cfg.method = Some(v.to_owned()),
        "-H" | "--header" => cfg.headers.push(v.to_owned()),
        "-d" | "--data" | "--data-ascii" => {
            let d = data_arg(cfg, v, true, true);
            cfg.data.push(d)
        }
        "--data-binary" => {
            let d = data_arg(cfg, v, true, false);
            cfg.data.push(d)
        }
        "--data-raw" => cfg.data.push(v.as_bytes().to_vec()),
        "--data-urlencode" => cfg.data.push(crate::request::urlencode_arg(v)),
        "--json" => {
            cfg.json = true;
            {
                let d = data_arg(cfg, v, true, false);
                cfg.data.push(d)
            };
        }
        "-u" | "--user" => cfg.user = Some(v.to_owned()),
        "-A" | "--user-agent" => cfg.user_agent = Some(v.to_owned()),
        "-e" | "--referer" => cfg.referer = Some(v.to_owned()),
        "-w" | "--write-out" => {
            cfg.write_out = Some(match v.strip_prefix('@') {
                Some(path) => std::fs::read_to_string(path).unwrap_or_default(),
                None => v.to_owned(),
            })
        }
        "-m" | "--max-time" => cfg.max_time = Some(seconds(opt, v)?),
        "--connect-timeout" => cfg.connect_timeout = Some(seconds(opt, v)?),
        "--max-redirs" => {
            cfg.max_redirs = v.parse().map_err(|_| {
                usage(format!(
                    "option {opt}: expected a proper numerical parameter"
                ))
            })?
        }
        "-D" | "--dump-header" => cfg.dump_header = Some(v.to_owned()),
        "--url" => cfg.urls.push(v.to_owned()),
        // Cookies, retries and certificates take a value we do not use.
        _ => {}
    }
    Ok(())
}

fn flag(cfg: &mut Config, opt: &str) -> bool {
    match opt {
        "-s" | "--silent" => cfg.silent = true,
        "-S" | "--show-error" => cfg.show_error = true,
        "-f" | "--fail" => cfg.fail = true,
        "--fail-with-body" => cfg.fail_with_body = true,
        "-L" | "--location" => cfg.location = true,
        "-i" | "--include" => cfg.include = true,
        "-I" | "--head" => cfg.head = true,
        "-v" | "--verbose" => cfg.verbose = true,
        "-G" | "--get" => cfg.get = true,
        "-O" | "--remote-name" => cfg.outputs.push(Output::RemoteName),
        "--create-dirs" => cfg.create_dirs = true,
        o if IGNORED.contains(&o) => {}
        _ => return false,
    }
    true
}

/// Parses curl's arguments.
pub fn parse(args: &[String]) -> Result<Config, CurlError> {
    let mut cfg = Config {
        max_redirs: 50,
        ..Config::default()
    };
    let args = expand(args)?;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !a.starts_with('-') || a == "-" {
            cfg.urls.push(a.clone());
        } else if WITH_VALUE.contains(&a.as_str()) {
            let v = it
                .next()
                .ok_or_else(|| usage(format!("option {a}: requires parameter")))?;
            set(&mut cfg, a, v)?;
        } else if !flag(&mut cfg, a) {
            return Err(usage(format!("option {a}: is unknown")));
        }
    }
    Ok(cfg)
}

/// `curl ARGS...`: the exit code.
pub fn main(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-V" || a == "--version") {
        println!(
            "curl {} (wasm32-wasip2) libcurl/{} (computer: wasi:http)\nProtocols: http https\nFeatures: IPv6",
            crate::CURL_VERSION,
            crate::CURL_VERSION
        );
        return 0;
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{}", crate::help::HELP);
        return 0;
    }
    let cfg = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("curl: {}", e.message);
            eprintln!("curl: try 'curl --help' or 'curl --manual' for more information");
            return e.code;
        }
    };
    if !cfg.silent {
        for w in &cfg.warnings {
            eprintln!("{w}");
        }
    }
    if cfg.urls.is_empty() {
        eprintln!("curl: no URL specified!");
        eprintln!("curl: try 'curl --help' or 'curl --manual' for more information");
        return errors::USAGE;
    }
    transfer::run_all(&cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Config {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn bundled_and_attached() {
        let c = p(&["-sSLo", "out.txt", "-XPOST", "-H", "A: b", "http://x/"]);
        assert!(c.silent && c.show_error && c.location);
        assert_eq!(c.outputs, [Output::File("out.txt".into())]);
        assert_eq!(c.method.as_deref(), Some("POST"));
        assert_eq!(c.headers, ["A: b"]);
        assert_eq!(c.urls, ["http://x/"]);
        let c = p(&["-w", "%{http_code}", "-sfO", "http://x/a"]);
        assert_eq!(c.outputs, [Output::RemoteName]);
        assert!(c.fail);
    }

    #[test]
    fn unknown_options() {
        let e = parse(&["--frobnicate".to_string()]).unwrap_err();
        assert_eq!(e.code, errors::USAGE);
        assert_eq!(e.message, "option --frobnicate: is unknown");
        let e = parse(&["-o".to_string()]).unwrap_err();
        assert_eq!(e.message, "option -o: requires parameter");
    }
}
