/*
 * Stand-in for <sys/wait.h>, which WASI lacks (there are no child
 * processes): ImageMagick's studio.h includes it on every POSIX system.
 * waitpid (compat.c) always fails with ECHILD. Our own code (MIT).
 */
#ifndef COMPUTER_SYS_WAIT_H
#define COMPUTER_SYS_WAIT_H
#include <sys/types.h>
#define WNOHANG 1
#define WEXITSTATUS(s) (((s) & 0xff00) >> 8)
#define WTERMSIG(s) ((s) & 0x7f)
#define WIFEXITED(s) (WTERMSIG(s) == 0)
#define WIFSIGNALED(s) (((s) & 0xffff) - 1U < 0xffu)
pid_t waitpid(pid_t pid, int *status, int options);
#endif
