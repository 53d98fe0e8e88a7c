//! `git` for the workspace: a `wasi:cli/command` that works on repositories
//! in git's own on-disk format, so real git (the container's, or a user's
//! after `computer export`) reads what it writes and the other way round.
//! Output is git 2.39's, byte for byte, for what it implements; a command
//! or option it lacks exits 127 before changing anything, so the `auto`
//! backend hands the script to a container's git.

mod blame;
mod checkout;
mod cmd;
mod color;
mod combined;
mod config;
mod diff;
mod error;
mod ident;
mod ignored;
mod index;
mod merge3;
mod meta;
mod objects;
mod odb;
mod pack;
mod reflog;
mod repo;
mod status;
mod verify_path;
mod worktree;

use std::io::Write;

use error::Error;

wit_bindgen::generate!({
    inline: "
        package computer:git;
        world git {
            import wasi:cli/exit@0.2.12;
            import computer:workspace/fs@0.1.0;
        }
    ",
    path: "../../wit",
    world: "computer:git/git",
    generate_all,
});

pub const VERSION: &str = "2.39.5";

/// What every command gets: its arguments and the `-c` overrides.
pub struct Invocation {
    pub args: Vec<String>,
    pub overrides: Vec<(String, String)>,
    pub out: std::io::BufWriter<std::io::Stdout>,
}

impl Invocation {
    pub fn repo(&self) -> error::Result<repo::Repo> {
        let repo = repo::Repo::discover(&self.overrides)?;
        if repo.config.get_bool("core.quotepath") == Some(false) {
            worktree::QUOTE_HIGH.with(|q| q.set(false));
        }
        Ok(repo)
    }
}

fn main() {
    let code = match run() {
        Ok(code) => code,
        Err(e) => {
            if !matches!(e, Error::Exit(_)) {
                eprintln!("{e}");
            }
            e.code()
        }
    };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    if code == 0 {
        std::process::exit(0);
    }
    wasi::cli::exit::exit_with_code(code.clamp(0, 255) as u8);
    unreachable!("exit-with-code returned");
}

fn run() -> error::Result<i32> {
    // wasi-libc starts every program in `/`; the caller's directory comes
    // as $PWD (the host sets it for commands).
    if let Some(pwd) = std::env::var_os("PWD") {
        let _ = std::env::set_current_dir(pwd);
    }
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut overrides = Vec::new();
    while let Some(first) = args.first().cloned() {
        match first.as_str() {
            "-C" if args.len() > 1 => {
                let dir = args[1].clone();
                if let Err(e) = std::env::set_current_dir(&dir) {
                    return error::fatal(format!("cannot change to '{dir}': {e}"));
                }
                args.drain(..2);
            }
            "-c" if args.len() > 1 => {
                let kv = args[1].clone();
                let (k, v) = kv.split_once('=').unwrap_or((&kv, "true"));
                overrides.push((k.to_owned(), v.to_owned()));
                args.drain(..2);
            }
            "--no-pager" | "-P" | "--no-replace-objects" => {
                args.remove(0);
            }
            "--version" | "version" => {
                println!("git version {VERSION}");
                return Ok(0);
            }
            _ => break,
        }
    }
    let Some(name) = args.first().cloned() else {
        println!("usage: git [--version] [-C <path>] [-c <name>=<value>] <command> [<args>]");
        return Ok(1);
    };
    let mut inv = Invocation {
        args: args[1..].to_vec(),
        overrides,
        out: std::io::BufWriter::new(std::io::stdout()),
    };
    let result = cmd::dispatch(&name, &mut inv);
    let _ = inv.out.flush();
    result
}
