//! Command-line grammar.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Shown after `computer --help`: the commands a first session uses.
const EXAMPLES: &str = "\
Examples:
  computer init                                  create ./.computer/workspace.db (or --workspace PATH)
  computer import ./project /project             copy a host directory in
  computer exec 'cd /project && grep -rn TODO .' bash against the workspace (the default backend)
  computer exec --backend js 'export default 6 * 7'
  computer exec 'python3 -c \"print(42)\"; git status -s'
  computer fs edit /project/main.rs --old 'foo()' --new 'bar()'
  computer pending; computer respond RUN CALL '{\"approved\": true}'
  computer mcp                                   serve the agent tools to an MCP client
  computer audit --limit 20                      every operation: by whom, with what outcome

A command's own help: computer help exec, computer fs --help, computer fs grep --help";

#[derive(Parser, Debug)]
#[command(
    name = "computer",
    version,
    about = "A computer for AI agents: a durable SQLite workspace filesystem and ways to run code against it",
    after_help = EXAMPLES
)]
pub struct Cli {
    /// Workspace file [default: $COMPUTER_WORKSPACE, else ./.computer/workspace.db]
    #[arg(long, global = true, env = "COMPUTER_WORKSPACE", value_name = "PATH")]
    pub workspace: Option<PathBuf>,

    /// Print one JSON document on stdout (errors too)
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create the workspace file (commands that change the workspace also create it; commands that only read never do)
    Init {
        /// Byte quota of the stored file contents (K, M, G, T suffixes) [default: 10G]
        #[arg(long, value_name = "SIZE")]
        quota: Option<String>,
    },
    /// Workspace revision, location and storage usage
    Info,
    /// Show the workspace's byte quota and use, or set it: computer quota 20G
    Quota {
        /// New quota (bytes, or with K, M, G, T); writes past it fail with ENOSPC
        size: Option<String>,
    },
    /// Check the workspace file: the tree, reference counts and every chunk's sha256 (exit 1 on damage)
    Fsck,
    /// Filesystem operations on the workspace
    #[command(subcommand)]
    Fs(FsCommand),
    /// Copy a host directory into the workspace
    Import {
        /// The host directory to copy (host symlinks are not followed out of it)
        host_dir: PathBuf,
        /// Destination in the workspace
        #[arg(default_value = "/")]
        ws_dir: String,
    },
    /// Write a workspace directory out to the host
    Export {
        /// The workspace directory to write out
        ws_dir: String,
        /// Where on the host (created if missing; existing files are replaced)
        host_dir: PathBuf,
    },
    /// Run code against the workspace
    Exec(ExecArgs),
    /// Run a command component (`computer commands ls`) directly, without a shell: computer run rg -n TODO .
    Run(RunArgs),
    /// Command components (wasi:cli/command programs) the shell calls by name: add, ls, rm
    #[command(subcommand)]
    Commands(crate::commands_cmd::CommandsCommand),
    /// Read the audit log: every operation, by whom, with what outcome
    Audit {
        /// Only operations of this run
        #[arg(long)]
        run: Option<String>,
        /// Only operations whose target matches this glob (** crosses /)
        #[arg(long, value_name = "GLOB")]
        path: Option<String>,
        /// Only operations since this time: RFC 3339 (2026-11-29T10:00:00Z) or an age (10m, 2h)
        #[arg(long, value_name = "TIME")]
        since: Option<String>,
        /// Show agent tool calls instead
        #[arg(long)]
        tools: bool,
        #[command(flatten)]
        page: PageArgs,
    },
    /// List runs, or show one
    Runs {
        #[command(subcommand)]
        command: Option<RunsCommand>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// List interrupts waiting for an answer (approvals)
    Pending,
    /// Answer a pending interrupt and resume its run
    Respond {
        /// The run that waits (`computer pending` lists it)
        run: String,
        /// The call it waits on, from the same list
        call: String,
        /// The answer, as JSON (what the module's interrupt returns)
        #[arg(required_unless_present = "reject")]
        answer: Option<String>,
        /// Refuse instead, with this reason (the agent's code sees an exception)
        #[arg(long, value_name = "REASON", conflicts_with = "answer")]
        reject: Option<String>,
    },
    /// Resume runs whose process died, and parked runs that have all their answers
    Recover,
    /// Print the agent tools' definitions (name, description, JSON Schema) as one JSON document
    Tools {
        /// Shape of the definitions: openai, anthropic or mcp
        #[arg(long, default_value = "openai", value_parser = parse_format)]
        format: computer_tools::Format,
        #[command(flatten)]
        tools: ToolSetArgs,
    },
    /// The hosts curl, wget and modules may reach over HTTP (none by default): allow, ls, deny
    #[command(subcommand)]
    Net(crate::net_cmd::NetCommand),
    /// Snapshots of the whole tree and settings, O(1): create, ls, show, restore, rm, export
    #[command(subcommand)]
    Snapshot(crate::snapshot_cmd::SnapshotCommand),
    /// What differs between two trees (snapshot names, live, run:ID:before, run:ID:after, fork:NAME) or what a run changed (--run ID)
    Diff(crate::diff_cmd::DiffArgs),
    /// Revert what run RUN changed, if nothing changed the same paths since (else name them)
    Undo {
        /// The run id (computer runs lists them)
        run: String,
        /// Revert what still can be, leaving paths changed since as they are
        #[arg(long)]
        force: bool,
    },
    /// Make independent workspaces (files under forks/ beside this one) starting from this state
    Fork {
        /// The fork's name (with --count, NAME-1 ... NAME-N)
        name: String,
        /// Start from this snapshot instead of the live tree
        #[arg(long, value_name = "SNAPSHOT")]
        from: Option<String>,
        /// Make N forks
        #[arg(long, value_name = "N")]
        count: Option<u32>,
        /// Where the fork files go [default: forks/ beside the workspace file]
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// List the forks made from this workspace
    Forks,
    /// Free the content only old runs' undo trees hold (snapshots and the live tree keep theirs)
    Gc {
        /// Keep the undo trees of the newest N runs
        #[arg(long, value_name = "N", default_value_t = 0)]
        keep_runs: usize,
    },
    /// Values the host attaches to requests (net allow --header ... {secret:NAME}) that runs never see: set, ls, rm
    #[command(subcommand)]
    Secrets(crate::secrets_cmd::SecretsCommand),
    /// The workspace's policy (TOML): path, command, limit and network rules checked before every exec and change: set, show, rm, check
    #[command(subcommand)]
    Policy(crate::policy_cmd::PolicyCommand),
    /// Module components (ws:NAME) stored in the workspace: add, ls, rm
    #[command(subcommand)]
    Modules(crate::modules_cmd::ModulesCommand),
    /// The container backend's container for this workspace: stop, status
    #[command(subcommand)]
    Container(crate::container_cmd::ContainerCommand),
    /// Compile the built-in components (python3, the guests) into the component cache now, so that no first run waits for it
    Prepare,
    /// Serve the agent tools over MCP on stdin/stdout (logs go to stderr)
    Mcp {
        #[command(flatten)]
        tools: ToolSetArgs,
        /// On start-up, resume runs whose process died (as `computer recover`), in the background
        #[arg(long)]
        recover: bool,
        /// Execs that may run at once; one more is refused (not queued) with an error saying so
        #[arg(long, value_name = "N", env = "COMPUTER_MAX_RUNS",
              default_value_t = computer_runtime::DEFAULT_MAX_CONCURRENT_RUNS)]
        max_runs: usize,
        /// MiB of host memory all execs together may take (each reserves its memory limit plus 32 MiB, and as much again for a private /tmp where it has one); one that does not fit waits for others to end, up to its timeout, then is refused (default: three quarters of the machine's memory)
        #[arg(long, value_name = "MIB", env = "COMPUTER_HOST_MEMORY",
              value_parser = clap::value_parser!(u64).range(1..))]
        host_memory: Option<u64>,
    },
    /// Serve many workspaces over HTTP: a JSON API, remote MCP at /workspaces/ID/mcp, a console at /
    Serve(ServeArgs),
}

/// `computer serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    #[command(subcommand)]
    pub command: Option<ServeCommand>,
    /// Address to listen on
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Directory of the workspaces (workspaces/ID.db) and server.db (tokens, request log)
    #[arg(
        long,
        value_name = "DIR",
        env = "COMPUTER_DATA",
        default_value = ".computer/serve",
        global = true
    )]
    pub data: PathBuf,
    /// No tokens needed (refused unless the address is loopback)
    #[arg(long)]
    pub insecure_no_auth: bool,
    /// Largest request body, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_body: usize,
    /// Requests a second each token may make (bursts up to twice that); 0: no limit
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub rate_limit: u32,
    /// Execs that may run at once in each workspace; one more is refused with EAGAIN
    #[arg(long, value_name = "N", env = "COMPUTER_MAX_RUNS",
          default_value_t = computer_runtime::DEFAULT_MAX_CONCURRENT_RUNS)]
    pub max_runs: usize,
    /// Backends exec may use [default: every built-in one; container and auto only when named]
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub backends: Vec<String>,
    /// The most memory a run may ask for, in MiB
    #[arg(long, value_name = "MIB", default_value_t = computer_tools::DEFAULT_MAX_MEMORY_MB,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_memory: u64,
}

/// `computer serve token ...`: tokens, made and revoked in the data directory.
#[derive(Subcommand, Debug, Clone)]
pub enum ServeCommand {
    /// Manage the server's bearer tokens
    #[command(subcommand)]
    Token(TokenCommand),
}

/// `computer serve token`.
#[derive(Subcommand, Debug, Clone)]
pub enum TokenCommand {
    /// Make a token and print it (shown this once; only its hash is kept)
    Create {
        /// The token's name, as audit rows show it
        name: String,
        /// Scope it to this workspace (else: an admin token)
        #[arg(long, value_name = "ID")]
        workspace: Option<String>,
        /// Rights in its workspace: read, exec, approve (comma-separated)
        #[arg(long, value_name = "LIST", default_value = "read")]
        rights: String,
    },
    /// List the tokens (names, scopes, rights; never the secrets)
    Ls,
    /// Revoke a token; it stops working at once
    Revoke {
        /// The token's name
        name: String,
    },
}

fn parse_on_interrupt(s: &str) -> Result<computer_runtime::OnInterrupt, String> {
    s.parse()
        .map_err(|_| format!("{s:?} is not replay or fail"))
}

fn parse_format(s: &str) -> Result<computer_tools::Format, String> {
    s.parse()
}

/// Which agent tools are offered.
#[derive(Args, Debug, Clone)]
pub struct ToolSetArgs {
    /// Only the tools that never change the workspace: read, ls, find, grep
    #[arg(long)]
    pub readonly: bool,
    /// Backends exec may use, in order of preference [default: every built-in one]
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub backends: Vec<String>,
    /// The most memory exec's memoryMb may ask for, in MiB (a run that asks for none gets its backend's default: shell 1024, others 256)
    #[arg(long, value_name = "MIB", default_value_t = computer_tools::DEFAULT_MAX_MEMORY_MB,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_memory: u64,
}

#[derive(Args, Debug)]
pub struct ExecArgs {
    /// Backend: shell (bash), js, python (CPython 3.14), command (one command component; the source is its command line), container (sh in a Docker/Podman container), auto (shell, then container on "command not found"), or a guest registered with --guest
    #[arg(long, default_value = "shell")]
    pub backend: String,
    /// Image for the container and auto backends [default: $COMPUTER_CONTAINER_IMAGE, else localhost/computer-debian:12, built by scripts/build-image.sh]. The engine: $COMPUTER_CONTAINER_ENGINE (or none), else $DOCKER_HOST, else a Docker/Podman socket at the usual places
    #[arg(long)]
    pub image: Option<String>,
    /// Working directory in the workspace [default: /]
    #[arg(long)]
    pub cwd: Option<String>,
    /// Environment variable for the run (the host's are never passed)
    #[arg(long = "env", value_name = "K=V")]
    pub env: Vec<String>,
    /// JSON input (JS: the argument of the default export; Python: the global `input`)
    #[arg(long)]
    pub input: Option<String>,
    /// Feed this host file to the run's stdin (- for this process's stdin)
    #[arg(long, value_name = "FILE|-")]
    pub stdin: Option<PathBuf>,
    /// Wall-clock limit in seconds [default: 60]
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Memory limit in MiB [default: 256; 1024 for shell]
    #[arg(long, value_name = "MIB")]
    pub memory: Option<u64>,
    /// Run id (unique per workspace) [default: generated]
    #[arg(long)]
    pub id: Option<String>,
    /// Read the source from this host file
    #[arg(long, value_name = "PATH", conflicts_with = "words")]
    pub file: Option<PathBuf>,
    /// What an interrupted run does: replay (journalled; survives approvals and crashes) or fail
    #[arg(long, value_name = "replay|fail", value_parser = parse_on_interrupt)]
    pub on_interrupt: Option<computer_runtime::OnInterrupt>,
    /// Register a runner-world component as a backend for this command
    #[arg(long = "guest", value_name = "NAME=PATH")]
    pub guests: Vec<String>,
    /// A read-only run: every change to the workspace fails with EROFS (a private /tmp, where the backend has one, stays writable); the container backend drops its changes and reports them
    #[arg(long)]
    pub read_only: bool,
    /// Let this run reach HOST (or HOST:PORT) over HTTP besides the workspace's allow-list (repeatable; for this run only)
    #[arg(long = "allow-host", value_name = "HOST[:PORT]")]
    pub allow_hosts: Vec<String>,
    /// An argument for the program (repeatable)
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// `sh -c` habit: accepted and ignored (the source is a script already)
    #[arg(short = 'c', hide = true)]
    pub dash_c: bool,
    /// Source code, or - to read it from stdin. Several words are joined with spaces, as ssh joins a remote command: `computer exec echo hi` runs `echo hi`
    #[arg(value_name = "SOURCE", num_args = 0..)]
    pub words: Vec<String>,
}

impl ExecArgs {
    /// The source as given on the command line: its words joined with spaces.
    pub fn source(&self) -> Option<String> {
        (!self.words.is_empty()).then(|| self.words.join(" "))
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Working directory in the workspace [default: /]
    #[arg(long)]
    pub cwd: Option<String>,
    /// Environment variable for the run (the host's are never passed)
    #[arg(long = "env", value_name = "K=V")]
    pub env: Vec<String>,
    /// Feed this host file to the command's stdin (- for this process's stdin)
    #[arg(long, value_name = "FILE|-")]
    pub stdin: Option<PathBuf>,
    /// Wall-clock limit in seconds [default: 60]
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Memory limit in MiB [default: 256]
    #[arg(long, value_name = "MIB")]
    pub memory: Option<u64>,
    /// Run id (unique per workspace) [default: generated]
    #[arg(long)]
    pub id: Option<String>,
    /// What an interrupted run does: replay (journalled; survives crashes) or fail
    #[arg(long, value_name = "replay|fail", value_parser = parse_on_interrupt)]
    pub on_interrupt: Option<computer_runtime::OnInterrupt>,
    /// A read-only run: every change to the workspace fails with EROFS
    #[arg(long)]
    pub read_only: bool,
    /// Let this run reach HOST (or HOST:PORT) over HTTP besides the workspace's allow-list (repeatable)
    #[arg(long = "allow-host", value_name = "HOST[:PORT]")]
    pub allow_hosts: Vec<String>,
    /// The command's name, then its arguments, passed as they are (options included: `computer run python3 -h`)
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "NAME [ARGS]"
    )]
    pub command: Vec<String>,
}

impl RunArgs {
    /// The same run as `computer exec --backend command`.
    pub fn into_exec(self) -> ExecArgs {
        let words = self.command;
        ExecArgs {
            backend: computer_runtime::COMMAND_BACKEND.to_owned(),
            image: None,
            cwd: self.cwd,
            env: self.env,
            input: None,
            stdin: self.stdin,
            timeout: self.timeout,
            memory: self.memory,
            id: self.id,
            file: None,
            on_interrupt: self.on_interrupt,
            guests: Vec::new(),
            read_only: self.read_only,
            allow_hosts: self.allow_hosts,
            args: Vec::new(),
            dash_c: false,
            words: vec![shell_words::join(words)],
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum RunsCommand {
    /// Show one run with its output
    Show {
        /// The run's id (`computer runs` lists them)
        id: String,
    },
}

#[derive(Args, Debug, Clone, Copy)]
pub struct PageArgs {
    /// Skip this many results
    #[arg(long, default_value_t = 0)]
    pub offset: u64,
    /// Return at most this many results
    #[arg(long)]
    pub limit: Option<u64>,
}

#[derive(Subcommand, Debug)]
pub enum FsCommand {
    /// Write a file's bytes to stdout
    Read {
        /// The file to read
        path: String,
        /// Start at this byte
        #[arg(long, default_value_t = 0)]
        offset: u64,
        /// Read at most this many bytes
        #[arg(long)]
        length: Option<u64>,
    },
    /// Write stdin to a file
    Write {
        /// The file to write (replaced if it exists)
        path: String,
        /// Permission bits in octal, e.g. 644
        #[arg(long)]
        mode: Option<String>,
        /// Fail if the file exists
        #[arg(long)]
        exclusive: bool,
        /// Create missing parent directories
        #[arg(long, short = 'p')]
        parents: bool,
    },
    /// Append stdin to a file (created if missing)
    Append {
        /// The file to append to
        path: String,
    },
    /// Cut or zero-extend a file to SIZE bytes
    Truncate {
        /// The file to cut or extend
        path: String,
        /// Its new size in bytes
        size: u64,
    },
    /// List a directory
    Ls {
        /// The directory to list
        #[arg(default_value = "/")]
        path: String,
        /// Long format: mode, size, mtime, name
        #[arg(short = 'l')]
        long: bool,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Show a path's metadata
    Stat {
        /// The path to describe
        path: String,
        /// Describe a symlink itself rather than its target
        #[arg(long)]
        no_follow: bool,
    },
    /// Create a directory
    Mkdir {
        /// The directory to create
        path: String,
        /// Create parents; succeed if it exists
        #[arg(short = 'p', long)]
        parents: bool,
        /// Permission bits in octal, e.g. 755
        #[arg(long)]
        mode: Option<String>,
    },
    /// Remove paths
    Rm {
        /// The paths to remove
        #[arg(required = true)]
        paths: Vec<String>,
        /// Remove directories and what they hold
        #[arg(short = 'r', long)]
        recursive: bool,
        /// Ignore missing paths
        #[arg(short = 'f', long)]
        force: bool,
    },
    /// Rename or move (into TO if TO is a directory)
    Mv {
        /// The path to move
        from: String,
        /// Its new path, or a directory to move it into
        to: String,
    },
    /// Copy (into TO if TO is a directory); shares content, copies no bytes
    Cp {
        /// The path to copy
        from: String,
        /// The copy's path, or a directory to copy it into
        to: String,
        /// Copy a directory and what it holds
        #[arg(short = 'r', long)]
        recursive: bool,
    },
    /// Make a symbolic link: ln -s TARGET PATH
    Ln {
        /// Symbolic (the only kind supported)
        #[arg(short = 's', long)]
        symbolic: bool,
        /// What the link points to (stored as given; it need not exist)
        target: String,
        /// The link to create
        path: String,
    },
    /// Print a symlink's target
    Readlink {
        /// The symlink
        path: String,
    },
    /// Change permission bits: chmod MODE PATH
    Chmod {
        /// Permission bits in octal, e.g. 755
        mode: String,
        /// The file or directory
        path: String,
    },
    /// Glob under DIR (default /): *, **, ?, [...], {a,b}. `fs find '**/*.rs'` or `fs find /src '*.rs'`
    Find {
        /// The directory to search under, or the pattern when it is the only argument
        #[arg(value_name = "DIR")]
        dir: String,
        /// Glob matched against paths relative to DIR
        #[arg(value_name = "PATTERN")]
        pattern: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Search file contents
    Grep {
        /// Text to find: literal, or a regular expression (Rust regex syntax) with -E
        pattern: String,
        /// Directory (searched recursively) or file
        #[arg(default_value = "/")]
        path: String,
        /// Accepted for grep habits: the search is always recursive
        #[arg(short = 'r', long = "recursive", hide_short_help = true)]
        _recursive: bool,
        /// PATTERN is a regular expression (default: literal)
        #[arg(long, short = 'E')]
        regex: bool,
        /// Match case-insensitively
        #[arg(short = 'i', long)]
        ignore_case: bool,
        /// Lines of context
        #[arg(short = 'C', long, default_value_t = 0)]
        context: u32,
        /// Only files matching this glob
        #[arg(long)]
        include: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Replace unique text in a file; prints a unified diff
    Edit {
        /// The file to edit
        path: String,
        /// Text to replace; it must occur exactly once (include surrounding lines to make it unique)
        #[arg(long, requires = "new", conflicts_with = "edits")]
        old: Option<String>,
        /// What replaces it
        #[arg(long, requires = "old")]
        new: Option<String>,
        /// A JSON array of {"old": ..., "new": ...} (or oldText/newText)
        #[arg(long)]
        edits: Option<String>,
    },
    /// Declare a subtree read-only (or writable again with --off)
    Readonly {
        /// The subtree to protect; without it, list the read-only subtrees
        path: Option<String>,
        /// Make it writable again
        #[arg(long, requires = "path")]
        off: bool,
    },
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every positional argument of every subcommand, with its path, that
    /// `--help` would show without a sentence.
    fn undocumented(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for arg in cmd.get_positionals() {
            if arg.get_help().is_none() && !arg.is_hide_set() {
                out.push(format!("{path} <{}>", arg.get_id()));
            }
        }
        for sub in cmd.get_subcommands() {
            undocumented(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn every_positional_argument_says_what_it_is() {
        let mut missing = Vec::new();
        undocumented(&super::Cli::command(), "computer", &mut missing);
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }

    #[test]
    fn the_top_level_help_shows_examples() {
        let help = super::Cli::command().render_long_help().to_string();
        assert!(help.contains("Examples:"), "{help}");
        assert!(help.contains("computer exec"), "{help}");
    }
}
