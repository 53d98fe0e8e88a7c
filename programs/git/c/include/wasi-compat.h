/*
 * Included before every git source file (clang -include): what POSIX has and
 * WASI's libc does not declare. The functions are answered by compat.c.
 * There are no signals, timers, terminals or name service in the sandbox, so
 * the answers are the ones a process without them would get.
 */
#ifndef COMPUTER_WASI_COMPAT_H
#define COMPUTER_WASI_COMPAT_H
#include <signal.h>
#include <sys/types.h>
#include <sys/socket.h>

#ifndef SIG_SETMASK
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#endif
#ifndef SA_RESTART
#define SA_RESTART 0x10000000
#endif
#ifndef ITIMER_REAL
#define ITIMER_REAL 0
#endif
#ifndef SO_KEEPALIVE
#define SO_KEEPALIVE 9
#endif

struct sigaction {
	void (*sa_handler)(int);
	sigset_t sa_mask;
	int sa_flags;
};
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int kill(pid_t pid, int sig);
unsigned int alarm(unsigned int seconds);

struct servent {
	char *s_name;
	char **s_aliases;
	int s_port;
	char *s_proto;
};
struct servent *getservbyname(const char *name, const char *proto);
extern int h_errno;
const char *hstrerror(int err);

char *getpass(const char *prompt);

/* One thread: stdio needs no locks (compat.c). */
#include <stdio.h>
void flockfile(FILE *f);
void funlockfile(FILE *f);

int mkstemp(char *pattern);
int pipe(int fds[2]);
int execve(const char *path, char *const argv[], char *const envp[]);
int execvp(const char *file, char *const argv[]);
pid_t getppid(void);
int getpagesize(void);
int socket(int domain, int type, int protocol);
int connect(int fd, const struct sockaddr *addr, socklen_t len);
int setsockopt(int fd, int level, int name, const void *value, socklen_t len);
struct in_addr;
char *inet_ntoa(struct in_addr in);
int chmod(const char *path, mode_t mode);
int fchmod(int fd, mode_t mode);
mode_t umask(mode_t mask);
int dup(int fd);
int dup2(int fd, int to);
pid_t fork(void);
pid_t getpgid(pid_t pid);
pid_t tcgetpgrp(int fd);
int execl(const char *path, const char *arg, ...);
int execlp(const char *file, const char *arg, ...);
char *mkdtemp(char *pattern);
#endif
