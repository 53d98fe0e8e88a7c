/*
 * POSIX calls ImageMagick refers to that WASI lacks: there are no child
 * processes and no user database in the sandbox. Our own code (MIT).
 */
#include <errno.h>
#include <pwd.h>
#include <sys/wait.h>

pid_t waitpid(pid_t pid, int *status, int options)
{
	(void)pid;
	(void)status;
	(void)options;
	errno = ECHILD;
	return -1;
}

struct passwd *getpwnam(const char *name)
{
	(void)name;
	return 0;
}

struct passwd *getpwuid(uid_t uid)
{
	(void)uid;
	return 0;
}

#include <stdio.h>

FILE *popen(const char *command, const char *mode)
{
	(void)command;
	(void)mode;
	errno = ENOSYS;
	return 0;
}

int pclose(FILE *stream)
{
	(void)stream;
	errno = ECHILD;
	return -1;
}

/* No shell to run delegates in: system(NULL) says so, any command fails. */
int system(const char *command)
{
	if (!command)
		return 0;
	errno = ENOSYS;
	return -1;
}

/*
 * Process clocks: there is no per-process CPU clock in WASI, so the time
 * since the program started stands in for it (identify's "0.010u"), as in
 * programs/ffmpeg. Defined here so that wasi-libc's emulation (a clock
 * since boot) is not linked.
 */
#include <sys/times.h>
#include <time.h>

static long long elapsed_us(void)
{
	static struct timespec start;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (start.tv_sec == 0 && start.tv_nsec == 0)
		start = now;
	return (now.tv_sec - start.tv_sec) * 1000000LL + (now.tv_nsec - start.tv_nsec) / 1000;
}

clock_t clock(void)
{
	return (clock_t)(elapsed_us() * (CLOCKS_PER_SEC / 1000000));
}

clock_t times(struct tms *buf)
{
	clock_t t = (clock_t)(elapsed_us() / (1000000 / 100)); /* sysconf(_SC_CLK_TCK) is 100 */
	buf->tms_utime = t;
	buf->tms_stime = buf->tms_cutime = buf->tms_cstime = 0;
	return t;
}
