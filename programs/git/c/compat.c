/*
 * The POSIX calls git makes that WASI's libc lacks, answered as a process
 * in the sandbox would see them: one user (computer:workspace/process), no
 * signals, no timers, no terminal, no name service (HTTP goes through
 * git-remote-http over wasi:http), no other processes to wait for.
 */
#include <errno.h>
#include <pwd.h>
#include <grp.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <syslog.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <sys/stat.h>

#include "vfd.h"

#include "include/wasi-compat.h"

struct identity {
	int pid, ppid;
	unsigned uid, gid;
	const char *user, *group;
};
const struct identity *computer_git_identity(void);
unsigned computer_git_umask(unsigned mask);

uid_t getuid(void) { return computer_git_identity()->uid; }
uid_t geteuid(void) { return computer_git_identity()->uid; }
gid_t getgid(void) { return computer_git_identity()->gid; }
gid_t getegid(void) { return computer_git_identity()->gid; }
pid_t getpid(void) { return computer_git_identity()->pid; }
pid_t getppid(void) { return computer_git_identity()->ppid; }

mode_t umask(mode_t mask)
{
	return computer_git_umask(mask);
}

static struct passwd the_user;

struct passwd *getpwuid(uid_t uid)
{
	const struct identity *id = computer_git_identity();
	const char *home = getenv("HOME");
	if (uid != id->uid) {
		errno = ENOENT;
		return NULL;
	}
	the_user.pw_name = (char *)id->user;
	the_user.pw_passwd = "x";
	the_user.pw_uid = id->uid;
	the_user.pw_gid = id->gid;
	the_user.pw_gecos = "";
	the_user.pw_dir = (char *)(home && *home ? home : "/");
	the_user.pw_shell = "/bin/sh";
	return &the_user;
}

struct passwd *getpwnam(const char *name)
{
	const struct identity *id = computer_git_identity();
	if (strcmp(name, id->user)) {
		errno = ENOENT;
		return NULL;
	}
	return getpwuid(id->uid);
}

static struct group the_group;
static char *no_members[] = { NULL };

struct group *getgrgid(gid_t gid)
{
	const struct identity *id = computer_git_identity();
	if (gid != id->gid)
		return NULL;
	the_group.gr_name = (char *)id->group;
	the_group.gr_passwd = "x";
	the_group.gr_gid = id->gid;
	the_group.gr_mem = no_members;
	return &the_group;
}

struct group *getgrnam(const char *name)
{
	const struct identity *id = computer_git_identity();
	return strcmp(name, id->group) ? NULL : getgrgid(id->gid);
}

/* Children are waited for through run_command.c, never by pid. */
pid_t waitpid(pid_t pid, int *status, int options)
{
	(void)pid;
	(void)status;
	(void)options;
	errno = ECHILD;
	return -1;
}

pid_t wait(int *status)
{
	return waitpid(-1, status, 0);
}

int kill(pid_t pid, int sig)
{
	(void)sig;
	if (pid == getpid())
		return 0;
	errno = ESRCH;
	return -1;
}

/* No signals arrive in the sandbox: handlers are remembered, never run. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	(void)sig;
	(void)act;
	if (old)
		memset(old, 0, sizeof(*old));
	return 0;
}

int sigemptyset(sigset_t *set) { memset(set, 0, sizeof(*set)); return 0; }
int sigfillset(sigset_t *set) { memset(set, 0xff, sizeof(*set)); return 0; }
int sigaddset(sigset_t *set, int sig) { (void)set; (void)sig; return 0; }

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	(void)how;
	(void)set;
	if (old)
		memset(old, 0, sizeof(*old));
	return 0;
}

void (*signal(int sig, void (*handler)(int)))(int)
{
	(void)sig;
	(void)handler;
	return SIG_DFL;
}

int raise(int sig)
{
	/* What the default action of the signals git raises would do. */
	exit(128 + sig);
}

unsigned int alarm(unsigned int seconds)
{
	(void)seconds;
	return 0;
}

clock_t clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (clock_t)(ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}

int h_errno;

const char *hstrerror(int err)
{
	(void)err;
	return "host lookup is not available in the sandbox";
}

struct hostent *gethostbyname(const char *name)
{
	(void)name;
	h_errno = 1;
	return NULL;
}

struct servent *getservbyname(const char *name, const char *proto)
{
	(void)name;
	(void)proto;
	return NULL;
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		struct addrinfo **res)
{
	(void)node;
	(void)service;
	(void)hints;
	*res = NULL;
	return EAI_FAIL;
}

void freeaddrinfo(struct addrinfo *res)
{
	(void)res;
}

const char *gai_strerror(int code)
{
	(void)code;
	return "host lookup is not available in the sandbox";
}

int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen,
		char *serv, socklen_t servlen, int flags)
{
	(void)sa;
	(void)salen;
	(void)host;
	(void)hostlen;
	(void)serv;
	(void)servlen;
	(void)flags;
	return EAI_FAIL;
}

int tcgetattr(int fd, struct termios *t)
{
	(void)fd;
	(void)t;
	errno = ENOTTY;
	return -1;
}

int tcsetattr(int fd, int act, const struct termios *t)
{
	(void)fd;
	(void)act;
	(void)t;
	errno = ENOTTY;
	return -1;
}

char *getpass(const char *prompt)
{
	(void)prompt;
	errno = ENOTTY;
	return NULL;
}

void openlog(const char *ident, int option, int facility)
{
	(void)ident;
	(void)option;
	(void)facility;
}

void syslog(int priority, const char *fmt, ...)
{
	(void)priority;
	(void)fmt;
}

void __SIG_IGN(int sig) { (void)sig; }
void __SIG_ERR(int sig) { (void)sig; }

void flockfile(FILE *f) { (void)f; }
void funlockfile(FILE *f) { (void)f; }

/* Job control and new processes: not here (children go through
 * run_command.c). */
pid_t fork(void) { errno = ENOSYS; return -1; }
pid_t getpgid(pid_t pid) { (void)pid; return computer_git_identity()->pid; }
pid_t tcgetpgrp(int fd) { (void)fd; errno = ENOTTY; return -1; }
int pipe(int fds[2]) { (void)fds; errno = ENOSYS; return -1; }
int execve(const char *path, char *const argv[], char *const envp[]) { (void)path; (void)argv; (void)envp; errno = ENOSYS; return -1; }
int execvp(const char *file, char *const argv[]) { (void)file; (void)argv; errno = ENOSYS; return -1; }
int execl(const char *path, const char *arg, ...) { (void)path; (void)arg; errno = ENOSYS; return -1; }
int execlp(const char *file, const char *arg, ...) { (void)file; (void)arg; errno = ENOSYS; return -1; }

int git_mkstemp_mode(char *pattern, int mode);
int mkstemp(char *pattern)
{
	return git_mkstemp_mode(pattern, 0600);
}

char *mkdtemp(char *pattern)
{
	size_t len = strlen(pattern);
	struct timespec ts;
	if (len < 6 || strcmp(pattern + len - 6, "XXXXXX")) {
		errno = EINVAL;
		return NULL;
	}
	for (int tries = 0; tries < 100; tries++) {
		unsigned long v;
		clock_gettime(CLOCK_REALTIME, &ts);
		v = (unsigned long)ts.tv_nsec * 2654435761u + tries;
		for (int i = 0; i < 6; i++, v /= 36)
			pattern[len - 6 + i] = "abcdefghijklmnopqrstuvwxyz0123456789"[v % 36];
		if (!mkdir(pattern, 0700))
			return pattern;
		if (errno != EEXIST)
			return NULL;
	}
	return NULL;
}

/*
 * Where standard descriptors 0-2 point now: < 0 is standard stream
 * -(t + 1) (as the process started: t = -(fd + 1)), >= 0 an open file's
 * inode (process.redirect-stdio). A dup of 0-2 remembers where it pointed
 * (vfd.c), so `saved = dup(1); dup2(file, 1); ...; dup2(saved, 1)` points
 * 1 back.
 */
static long long stdio_now[3] = { -1, -2, -3 };

/* dup: a second number for the same descriptor. */
int dup(int fd)
{
	int real = vfd_alias_of(fd);
	long long target;
	int has = vfd_alias_target(fd, &target);
	/* A vfd's alias reads and writes through it (transport-helper's
	 * fdopen(dup(helper->out))). */
	if (real < 0)
		real = fd;
	if (!has && real <= 2) {
		target = stdio_now[real];
		has = 1;
	}
	return vfd_alias(real, has, target);
}

/* src/files.rs: computer:workspace/process.redirect-stdio */
int computer_git_redirect(int fd, int stdio, unsigned long long ino);

/* dup2 onto 0, 1 or 2, as `git archive -o` and `bisect run` do: the
 * process's standard stream is pointed at the file, or back. */
int dup2(int fd, int to)
{
	int real = vfd_alias_of(fd);
	long long target;
	int has = vfd_alias_target(fd, &target);
	struct stat st;
	if (real < 0)
		real = fd;
	if (to < 0 || to > 2 || (is_vfd(real) && !has)) {
		if (real == to)
			return to;
		errno = ENOTSUP;
		return -1;
	}
	if (!has) {
		if (real <= 2) {
			target = stdio_now[real];
		} else {
			if (fstat(real, &st))
				return -1;
			target = (long long)st.st_ino;
		}
	}
	if (target == stdio_now[to])
		return to;
	if (target < 0 ? computer_git_redirect(to, (int)(-target - 1), 0)
		       : computer_git_redirect(to, -1, (unsigned long long)target)) {
		errno = EBADF;
		return -1;
	}
	stdio_now[to] = target;
	return to;
}
