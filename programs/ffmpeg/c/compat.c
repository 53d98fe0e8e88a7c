/*
 * POSIX calls FFmpeg's configure looks for that Debian 12's wasi-libc does
 * not have. This library is on configure's --extra-libs, so configure finds
 * them and FFmpeg uses them instead of its fallbacks (av_tempfile would
 * otherwise call tempnam, which WASI lacks altogether).
 *
 * Our own code (MIT), linked into the GPL programs ffmpeg and ffprobe.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* getentropy is wasi's random_get. */
int getentropy(void *buffer, size_t length);

/* mkstemp(3): the last six characters of PATTERN, which must be "XXXXXX",
 * become random ones naming a file this call creates (O_EXCL). */
int mkstemp(char *pattern)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t len = strlen(pattern);
	if (len < 6 || strcmp(pattern + len - 6, "XXXXXX") != 0) {
		errno = EINVAL;
		return -1;
	}
	for (int tries = 0; tries < 100; tries++) {
		unsigned char bytes[6];
		if (getentropy(bytes, sizeof bytes) != 0)
			return -1;
		for (int i = 0; i < 6; i++)
			pattern[len - 6 + i] = letters[bytes[i] % 36];
		int fd = open(pattern, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/*
 * The calls of wasi-libc's emulation libraries (signal, process clocks),
 * which Rust's wasm32-wasip2 libc, the one the programs link with, does not
 * ship.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>

/* wasi-libc's SIG_ERR and SIG_IGN are the addresses of these (1 is a
 * valid function pointer on wasm). */
void __SIG_ERR(int sig)
{
	(void)sig;
}

void __SIG_IGN(int sig)
{
	(void)sig;
}

/* No signal is ever delivered in the sandbox (a run that must stop is
 * interrupted by the host), so a handler is accepted and never runs. */
void (*signal(int sig, void (*handler)(int)))(int)
{
	(void)handler;
	if (sig <= 0 || sig >= _NSIG) {
		errno = EINVAL;
		return SIG_ERR;
	}
	return SIG_DFL;
}

/* There is no per-process CPU clock in WASI: the time since the program
 * started stands in for it (ffmpeg's -benchmark reports it as utime). */
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

int getrusage(int who, struct rusage *usage)
{
	long long us = elapsed_us();
	(void)who;
	memset(usage, 0, sizeof *usage);
	usage->ru_utime.tv_sec = us / 1000000;
	usage->ru_utime.tv_usec = us % 1000000;
	return 0;
}

clock_t times(struct tms *buf)
{
	clock_t t = clock();
	buf->tms_utime = t;
	buf->tms_stime = buf->tms_cutime = buf->tms_cstime = 0;
	return t;
}
