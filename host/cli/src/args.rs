//! Command-line grammar.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "computer",
    version,
    about = "A computer for AI agents: a durable SQLite workspace filesystem and ways to run code against it"
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
        host_dir: PathBuf,
        /// Destination in the workspace
        #[arg(default_value = "/")]
        ws_dir: String,
    },
    /// Write a workspace directory out to the host
    Export { ws_dir: String, host_dir: PathBuf },
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
        run: String,
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
            args: Vec::new(),
            dash_c: false,
            words: vec![shell_words::join(words)],
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum RunsCommand {
    /// Show one run with its output
    Show { id: String },
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
    Append { path: String },
    /// Cut or zero-extend a file to SIZE bytes
    Truncate { path: String, size: u64 },
    /// List a directory
    Ls {
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
        path: String,
        /// Describe a symlink itself rather than its target
        #[arg(long)]
        no_follow: bool,
    },
    /// Create a directory
    Mkdir {
        path: String,
        /// Create parents; succeed if it exists
        #[arg(short = 'p', long)]
        parents: bool,
        #[arg(long)]
        mode: Option<String>,
    },
    /// Remove paths
    Rm {
        #[arg(required = true)]
        paths: Vec<String>,
        #[arg(short = 'r', long)]
        recursive: bool,
        /// Ignore missing paths
        #[arg(short = 'f', long)]
        force: bool,
    },
    /// Rename or move (into TO if TO is a directory)
    Mv { from: String, to: String },
    /// Copy (into TO if TO is a directory); shares content, copies no bytes
    Cp {
        from: String,
        to: String,
        #[arg(short = 'r', long)]
        recursive: bool,
    },
    /// Make a symbolic link: ln -s TARGET PATH
    Ln {
        /// Symbolic (the only kind supported)
        #[arg(short = 's', long)]
        symbolic: bool,
        target: String,
        path: String,
    },
    /// Print a symlink's target
    Readlink { path: String },
    /// Change permission bits: chmod MODE PATH
    Chmod { mode: String, path: String },
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
        path: String,
        #[arg(long, requires = "new", conflicts_with = "edits")]
        old: Option<String>,
        #[arg(long, requires = "old")]
        new: Option<String>,
        /// A JSON array of {"old": ..., "new": ...} (or oldText/newText)
        #[arg(long)]
        edits: Option<String>,
    },
    /// Declare a subtree read-only (or writable again with --off)
    Readonly {
        path: Option<String>,
        #[arg(long, requires = "path")]
        off: bool,
    },
}
