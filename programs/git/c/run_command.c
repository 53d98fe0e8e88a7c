/*
 * git's run-command API (run-command.h), written for the sandbox: this unit
 * replaces git's run-command.c, which forks and execs. Here a child is a
 * workspace command started through computer:workspace/commands (git
 * itself for `git_cmd`, the shell for scripts and `use_shell`), and its
 * pipes are vfds (vfd.c). There is one thread, so an async procedure runs
 * to its end at once when only its output is piped, and at finish_async
 * when its input is.
 */
#include "cache.h"
#include "run-command.h"
#include "strvec.h"
#include "object-store.h"
#include "packfile.h"
#include "config.h"
#include "trace2.h"
#include "alias.h"
#include "exec-cmd.h"

#include "vfd.h"

extern char **environ;

void computer_git_forget_all(void);

/* git's atexit (git-compat-util.h, NO_PTHREADS): run-command.c keeps a list
 * a forked child can clear; nothing forks here. */
#undef atexit
int git_atexit(void (*handler)(void))
{
	return atexit(handler);
}

void child_process_init(struct child_process *child)
{
	struct child_process blank = CHILD_PROCESS_INIT;
	memcpy(child, &blank, sizeof(*child));
}

void child_process_clear(struct child_process *child)
{
	strvec_clear(&child->args);
	strvec_clear(&child->env);
}

int is_executable(const char *name)
{
	struct stat st;
	if (stat(name, &st) || !S_ISREG(st.st_mode))
		return 0;
	return st.st_mode & S_IXUSR;
}

int exists_in_PATH(const char *command)
{
	if (strchr(command, '/'))
		return is_executable(command);
	return computer_git_has_command(command);
}

int sane_execvp(const char *file, char * const argv[])
{
	(void)file;
	(void)argv;
	errno = ENOSYS;
	return -1;
}

/* What a child's argv[0] names, as a workspace command. */
struct target {
	struct strvec argv;
	const char *name;
};

/* git's rule for `use_shell`: a command with shell syntax runs as `sh -c`. */
static void shell_argv(struct strvec *out, const char **argv)
{
	if (strcspn(argv[0], "|&;<>()$`\\\"' \t\n*?[#~=%") != strlen(argv[0])) {
		strvec_push(out, "sh");
		strvec_push(out, "-c");
		if (!argv[1])
			strvec_push(out, argv[0]);
		else
			strvec_pushf(out, "%s \"$@\"", argv[0]);
	}
	strvec_pushv(out, argv);
}

/*
 * A path names a script (hooks, `core.editor=./ed.sh`): its interpreter is
 * the command that runs it, as the kernel's #! does; without a #! line it is
 * a shell script, as execvp's fallback treats it.
 */
static void resolve_path(struct strvec *argv)
{
	char line[256];
	int fd, n;
	const char *interp = "sh";
	struct strbuf word = STRBUF_INIT;
	fd = open(argv->v[0], O_RDONLY);
	if (fd >= 0) {
		n = read(fd, line, sizeof(line) - 1);
		close(fd);
		if (n > 2 && line[0] == '#' && line[1] == '!') {
			char *p, *end;
			line[n] = 0;
			end = strchr(line, '\n');
			if (end)
				*end = 0;
			p = line + 2;
			while (*p == ' ' || *p == '\t')
				p++;
			end = p + strcspn(p, " \t");
			strbuf_add(&word, p, end - p);
			if (ends_with(word.buf, "/env") || !strcmp(word.buf, "env")) {
				p = end + strspn(end, " \t");
				end = p + strcspn(p, " \t");
				strbuf_reset(&word);
				strbuf_add(&word, p, end - p);
			}
			if (word.len)
				interp = strrchr(word.buf, '/') ? strrchr(word.buf, '/') + 1 : word.buf;
		}
	}
	{
		struct strvec with = STRVEC_INIT;
		strvec_push(&with, interp);
		strvec_pushv(&with, argv->v);
		strvec_clear(argv);
		*argv = with;
	}
	strbuf_release(&word);
}

/*
 * The transport runs the other side as `git-upload-pack '<dir>'` through
 * the shell, as programs on git's exec path; here the dashed names are
 * git's own subcommands.
 */
static const char *undash(const char *command, struct strbuf *buf)
{
	static const char *const dashed[] = {
		"git-upload-pack", "git-receive-pack", "git-upload-archive",
	};
	for (size_t i = 0; i < ARRAY_SIZE(dashed); i++) {
		const char *rest;
		if (skip_prefix(command, dashed[i], &rest) && (!*rest || *rest == ' ')) {
			strbuf_reset(buf);
			strbuf_addf(buf, "git %s%s", dashed[i] + 4, rest);
			return buf->buf;
		}
	}
	return command;
}

/*
 * git's shell scripts live in its exec path, a directory only git sees (a
 * mount of its own); the shell that runs them reads the workspace. So the
 * script goes to `sh -c` as text, with the libraries it sources from the
 * exec path (`. git-sh-setup`, `. "$(git --exec-path)/git-sh-i18n"`) put
 * in place of the lines that source them.
 */
static int inline_script(const char *name, struct strbuf *out, int depth)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p, *end;
	strbuf_addf(&path, "%s/%s", git_exec_path(), name);
	if (depth > 4 || strbuf_read_file(&text, path.buf, 0) < 0) {
		strbuf_release(&path);
		strbuf_release(&text);
		return -1;
	}
	for (p = text.buf; *p; p = end) {
		const char *line = p, *rest, *word;
		struct strbuf lib = STRBUF_INIT;
		end = strchrnul(p, '\n');
		if (*end)
			end++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (skip_prefix(line, ". ", &rest)) {
			if (skip_prefix(rest, "\"$(git --exec-path)/", &word)) {
				strbuf_add(&lib, word, strcspn(word, "\"\n"));
			} else if (starts_with(rest, "git-")) {
				strbuf_add(&lib, rest, strcspn(rest, " \t\n;"));
			}
		}
		if (lib.len && !inline_script(lib.buf, out, depth + 1)) {
			strbuf_addch(out, '\n');
		} else {
			strbuf_add(out, p, end - p);
		}
		strbuf_release(&lib);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return 0;
}

static void make_argv(struct child_process *cmd, struct strvec *out)
{
	struct strbuf buf = STRBUF_INIT;
	if (cmd->git_cmd) {
		strvec_push(out, "git");
		strvec_pushv(out, cmd->args.v);
	} else if (cmd->use_shell) {
		const char *first = undash(cmd->args.v[0], &buf);
		const char **words;
		char *line = xstrdup(first);
		int n;
		/* Straight to git, not through the shell: the two ends talk
		 * back and forth over the pipes. The path is sq-quoted. */
		if (first != cmd->args.v[0] && !cmd->args.v[1] &&
		    (n = split_cmdline(line, &words)) > 0) {
			for (int i = 0; i < n; i++)
				strvec_push(out, words[i]);
			free(words);
		} else {
			shell_argv(out, cmd->args.v);
		}
		free(line);
	} else if (undash(cmd->args.v[0], &buf) != cmd->args.v[0]) {
		strvec_split(out, buf.buf);
		strvec_pushv(out, cmd->args.v + 1);
	} else {
		strvec_pushv(out, cmd->args.v);
	}
	if (!strchr(out->v[0], '/') && starts_with(out->v[0], "git-")) {
		/* A dashed command (`git bisect` runs git-bisect): one of git's
		 * shell scripts in its exec path. */
		struct strbuf script = STRBUF_INIT;
		if (!inline_script(out->v[0], &script, 0)) {
			struct strvec with = STRVEC_INIT;
			strvec_pushl(&with, "sh", "-c", script.buf, NULL);
			strvec_pushv(&with, out->v);
			strvec_clear(out);
			*out = with;
		}
		strbuf_release(&script);
	}
	if (strchr(out->v[0], '/'))
		resolve_path(out);
	strbuf_release(&buf);
}

/* git's environment with the child's changes ("VAR=value", or "VAR" to unset). */
static void make_env(struct child_process *cmd, const char *cwd, struct strvec *out)
{
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
		int changed = len == 3 && !strncmp(*e, "PWD", 3);
		for (size_t i = 0; i < cmd->env.nr; i++) {
			const char *c = cmd->env.v[i];
			if (!strncmp(c, *e, len) && (c[len] == '=' || !c[len])) {
				changed = 1;
				break;
			}
		}
		if (!changed)
			strvec_push(out, *e);
	}
	for (size_t i = 0; i < cmd->env.nr; i++)
		if (strchr(cmd->env.v[i], '=') && !starts_with(cmd->env.v[i], "PWD="))
			strvec_push(out, cmd->env.v[i]);
	/* Commands start in $PWD: the directory git is in now (chdir does not
	 * change the variable), or the child's own. */
	strvec_pushf(out, "PWD=%s", cwd);
}

static enum stream_kind kind_of(int fd, int none, int *keep)
{
	if (none)
		return STREAM_NULL;
	if (fd < 0)
		return STREAM_PIPE;
	if (fd == 0)
		return STREAM_INHERIT;
	*keep = fd;
	return STREAM_FD;
}

/* git's programs that are not builtins but are in this one (main.rs). */
static int linked_program(const char *name)
{
	return !strcmp(name, "git-sh-i18n--envsubst") || !strcmp(name, "git-remote-http") ||
	       !strcmp(name, "git-remote-https");
}

/* Whether the shell has a utility `name` (`command -v`). */
static int shell_knows(const char *name, struct strvec *env, const char *cwd)
{
	const char *argv[] = { "sh", "-c", "command -v \"$0\" >/dev/null", name, NULL };
	const char *why = NULL;
	struct vchild c = { 0 };
	if (strchr(name, '/') || !strcmp(name, "sh") || !strcmp(name, "git"))
		return 0;
	c.id = computer_git_spawn("sh", argv, 4, env->v, env->nr, cwd, &why);
	if (c.id < 0)
		return 0;
	c.refs = 1;
	c.in_kind = c.out_kind = c.err_kind = STREAM_NULL;
	c.in_fd = c.out_fd = c.err_fd = -1;
	if (vchild_wait(&c) != 0) {
		computer_git_drop(c.id);
		return 0;
	}
	computer_git_drop(c.id);
	return 1;
}

int start_command(struct child_process *cmd)
{
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT;
	struct strbuf cwd = STRBUF_INIT;
	const char *why = NULL;
	struct vchild *c;
	int id, need_in = cmd->in < 0 && !cmd->no_stdin;
	int need_out = cmd->out < 0 && !cmd->no_stdout;
	int need_err = cmd->err < 0 && !cmd->no_stderr;

	if (cmd->close_object_store)
		close_object_store(the_repository->objects);
	make_argv(cmd, &argv);
	if (strbuf_getcwd(&cwd))
		strbuf_addstr(&cwd, "/");
	if (cmd->dir) {
		if (is_absolute_path(cmd->dir)) {
			strbuf_reset(&cwd);
		} else {
			strbuf_addch(&cwd, '/');
		}
		strbuf_addstr(&cwd, cmd->dir);
	}
	make_env(cmd, cwd.buf, &env);
	trace_argv_printf(argv.v, "trace: run_command:");
	/* git's programs that are not builtins are linked into this one
	 * program too, which looks at the name it is called by (main.rs). */
	id = computer_git_spawn(linked_program(argv.v[0]) ? "git" : argv.v[0],
				argv.v, argv.nr, env.v, env.nr, cwd.buf, &why);
	if (id == -1 && shell_knows(argv.v[0], &env, cwd.buf)) {
		/* `true`, `cat`, `sed`: the shell's own utilities are no
		 * commands of their own here; the shell runs them. */
		struct strvec via = STRVEC_INIT;
		strvec_pushl(&via, "sh", "-c", "\"$0\" \"$@\"", NULL);
		strvec_pushv(&via, argv.v);
		strvec_clear(&argv);
		argv = via;
		id = computer_git_spawn(argv.v[0], argv.v, argv.nr, env.v, env.nr, cwd.buf, &why);
	}
	if (id < 0) {
		int failed_errno = id == -1 ? ENOENT : EACCES;
		if (!cmd->silent_exec_failure || failed_errno != ENOENT) {
			if (why) {
				error("cannot run %s: %s", cmd->args.v[0], why);
			} else {
				errno = failed_errno;
				error_errno("cannot run %s", cmd->args.v[0]);
			}
		}
		strvec_clear(&argv);
		strvec_clear(&env);
		strbuf_release(&cwd);
		if (cmd->in > 0)
			close(cmd->in);
		if (cmd->out > 0)
			close(cmd->out);
		if (need_in)
			cmd->in = -1;
		child_process_clear(cmd);
		errno = failed_errno;
		return -1;
	}
	strvec_clear(&argv);
	strvec_clear(&env);
	strbuf_release(&cwd);

	c = xcalloc(1, sizeof(*c));
	c->id = id;
	c->refs = 1;
	c->in_fd = c->out_fd = c->err_fd = -1;
	c->in_kind = kind_of(cmd->in, cmd->no_stdin, &c->in_fd);
	if (cmd->stdout_to_stderr && !cmd->no_stdout) {
		/* stdout joins stderr: wherever stderr goes. */
		c->out_kind = kind_of(cmd->err, cmd->no_stderr, &c->out_fd);
		if (c->out_kind == STREAM_INHERIT)
			c->out_fd = 2;
	} else {
		c->out_kind = kind_of(cmd->out, cmd->no_stdout, &c->out_fd);
	}
	c->err_kind = kind_of(cmd->err, cmd->no_stderr, &c->err_fd);
	/* A descriptor given to the child (not a standard one, not a pipe
	 * made here) is the child's: closed at its end. */
	c->close_out = c->out_kind == STREAM_FD && cmd->out > 2 && !cmd->stdout_to_stderr;
	c->close_err = c->err_kind == STREAM_FD && cmd->err > 2;
	if (need_in)
		cmd->in = vfd_child(c, 0);
	if (need_out)
		cmd->out = vfd_child(c, 1);
	if (need_err)
		cmd->err = vfd_child(c, 2);
	if (c->out_kind == STREAM_PIPE && cmd->stdout_to_stderr) {
		/* Both go to the err pipe. */
		c->out_kind = STREAM_FD;
		c->out_fd = cmd->err;
	}
	cmd->pid = (pid_t)(intptr_t)c;
	return 0;
}

static int finish(struct child_process *cmd)
{
	struct vchild *c = (struct vchild *)(intptr_t)cmd->pid;
	int code;
	if (!c) {
		child_process_clear(cmd);
		return -1;
	}
	code = vchild_wait(c);
	/* It may have changed files' modes behind the cache (files.rs). */
	computer_git_forget_all();
	vchild_release(c);
	cmd->pid = 0;
	child_process_clear(cmd);
	/* The host already says 128 + N for a child ended by signal N, as
	 * wait_or_whine does. */
	return code;
}

int finish_command(struct child_process *cmd)
{
	return finish(cmd);
}

int finish_command_in_signal(struct child_process *cmd)
{
	return finish(cmd);
}

int run_command(struct child_process *cmd)
{
	int code;
	if (cmd->out < 0 || cmd->err < 0)
		BUG("run_command with a pipe can cause deadlock");
	code = start_command(cmd);
	if (code)
		return code;
	return finish_command(cmd);
}

int pipe_command(struct child_process *cmd, const char *in, size_t in_len,
		 struct strbuf *out, size_t out_hint, struct strbuf *err,
		 size_t err_hint)
{
	int code;
	if (out_hint)
		strbuf_grow(out, out_hint);
	if (err_hint)
		strbuf_grow(err, err_hint);
	if (in)
		cmd->in = -1;
	if (out)
		cmd->out = -1;
	if (err)
		cmd->err = -1;
	if (start_command(cmd) < 0)
		return -1;
	if (in) {
		if (in_len)
			write_all(cmd->in, in, in_len);
		close(cmd->in);
	}
	if (out) {
		if (strbuf_read(out, cmd->out, 0) < 0)
			error_errno("unable to read from child");
		close(cmd->out);
	}
	if (err) {
		if (strbuf_read(err, cmd->err, 0) < 0)
			error_errno("unable to read from child");
		close(cmd->err);
	}
	return finish_command(cmd);
}

int run_auto_maintenance(int quiet)
{
	int enabled;
	struct child_process maint = CHILD_PROCESS_INIT;
	if (!git_config_get_bool("maintenance.auto", &enabled) && !enabled)
		return 0;
	maint.git_cmd = 1;
	maint.close_object_store = 1;
	strvec_pushl(&maint.args, "maintenance", "run", "--auto", NULL);
	strvec_push(&maint.args, quiet ? "--quiet" : "--no-quiet");
	return run_command(&maint);
}

void prepare_other_repo_env(struct strvec *env, const char *new_git_dir)
{
	for (const char *const *var = local_repo_env; *var; var++)
		if (strcmp(*var, CONFIG_DATA_ENVIRONMENT) && strcmp(*var, CONFIG_COUNT_ENVIRONMENT))
			strvec_push(env, *var);
	strvec_pushf(env, "%s=%s", GIT_DIR_ENVIRONMENT, new_git_dir);
}

/* Async procedures: one thread, so they run whole, at the point where all
 * their input exists. */
static int async_depth;

int in_async(void)
{
	return async_depth > 0;
}

int async_with_fork(void)
{
	return 0;
}

/* What git's struct async (with NO_PTHREADS) has no room for. */
struct pending {
	struct async *async;
	int in, out;	/* the procedure's descriptors, when it runs later */
	int later;
	int result;
};
static struct pending pendings[16];

static struct pending *pending_of(struct async *async, int make)
{
	struct pending *free_slot = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(pendings); i++) {
		if (pendings[i].async == async)
			return &pendings[i];
		if (!pendings[i].async && !free_slot)
			free_slot = &pendings[i];
	}
	if (!make)
		return NULL;
	if (!free_slot)
		die("too many async procedures at once");
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->async = async;
	return free_slot;
}

static int run_proc(struct async *async, int in, int out)
{
	int code;
	async_depth++;
	code = async->proc(in, out, async->data);
	async_depth--;
	return code;
}

static void run_pending(void *data)
{
	struct pending *p = data;
	if (!p->later)
		return;
	p->later = 0;
	p->result = run_proc(p->async, p->in, p->out);
}

int start_async(struct async *async)
{
	int in_pipe[2] = { -1, -1 }, out_pipe[2] = { -1, -1 };
	int proc_in, proc_out;
	int need_in = async->in < 0, need_out = async->out < 0;
	struct pending *p;

	if (need_in && need_out)
		return error("an async procedure with both input and output piped cannot run here");
	if (need_in) {
		if (vfd_mempipe(in_pipe) < 0)
			return error_errno("cannot create pipe");
		async->in = in_pipe[1];
		proc_in = in_pipe[0];
	} else {
		proc_in = async->in;
	}
	if (need_out) {
		if (vfd_mempipe(out_pipe) < 0)
			return error_errno("cannot create pipe");
		async->out = out_pipe[0];
		proc_out = out_pipe[1];
	} else {
		proc_out = async->out;
	}
	p = pending_of(async, 1);
	async->pid = 1;
	/* It runs when its input is all there (finish_async, after the
	 * caller wrote and closed it), or when the caller first reads its
	 * output, or at finish_async: by then what it reads (a child's
	 * answer, usually) exists. The procedure closes what it is given. */
	p->later = 1;
	p->in = proc_in;
	p->out = proc_out;
	if (need_out)
		vfd_mempipe_producer(async->out, run_pending, p);
	return 0;
}

int finish_async(struct async *async)
{
	struct pending *p = pending_of(async, 0);
	int result;
	if (!p)
		return -1;
	run_pending(p);
	result = p->result;
	memset(p, 0, sizeof(*p));
	async->pid = 0;
	return result;
}

void check_pipe(int err)
{
	if (err == EPIPE) {
		if (in_async())
			return;
		exit(141);
	}
}

/*
 * Children in parallel (hooks, fetch --multiple, submodules): one at a time,
 * in the order get_next_task gives them, each one's output straight through.
 */
void run_processes_parallel(const struct run_process_parallel_opts *opts)
{
	for (;;) {
		struct child_process cp = CHILD_PROCESS_INIT;
		struct strbuf out = STRBUF_INIT;
		void *task_cb = NULL;
		int code;
		if (!opts->get_next_task(&cp, &out, opts->data, &task_cb)) {
			fputs(out.buf, stderr);
			strbuf_release(&out);
			child_process_clear(&cp);
			break;
		}
		cp.no_stdin = 1;
		if (!opts->ungroup) {
			cp.err = 0;
			cp.stdout_to_stderr = 1;
		}
		fputs(out.buf, stderr);
		strbuf_reset(&out);
		if (start_command(&cp)) {
			code = opts->start_failure ?
				opts->start_failure(&out, opts->data, task_cb) : 0;
			fputs(out.buf, stderr);
			strbuf_release(&out);
			if (code)
				break;
			continue;
		}
		code = finish_command(&cp);
		code = opts->task_finished ?
			opts->task_finished(code, &out, opts->data, task_cb) : 0;
		fputs(out.buf, stderr);
		strbuf_release(&out);
		if (code)
			break;
	}
}

enum start_bg_result start_bg_command(struct child_process *cmd,
				      start_bg_wait_cb *wait_cb, void *cb_data,
				      unsigned int timeout_sec)
{
	(void)wait_cb;
	(void)cb_data;
	(void)timeout_sec;
	child_process_clear(cmd);
	error("background daemons cannot run in the sandbox");
	return SBGR_ERROR;
}
