/* Stand-in for <sys/wait.h>: children run through computer:workspace/commands
 * (run_command.c); a status is the exit code shifted as POSIX encodes it. */
#ifndef COMPUTER_SYS_WAIT_H
#define COMPUTER_SYS_WAIT_H
#include <sys/types.h>
#define WNOHANG 1
#define WUNTRACED 2
#define WIFEXITED(s) (((s) & 0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((s) & 0x7f) != 0 && ((s) & 0x7f) != 0x7f)
#define WTERMSIG(s) ((s) & 0x7f)
#define WIFSTOPPED(s) (((s) & 0xff) == 0x7f)
#define WSTOPSIG(s) WEXITSTATUS(s)
pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait(int *status);
#endif
