/*
 * libc calls wrapped at link time (build.rs passes --wrap=SYMBOL), for what
 * WASI's answers lack:
 *  - exit codes: wasi-libc's _Exit can only say 0 or 1; git says 128 and 129;
 *  - permission bits: wasi:filesystem has none, the workspace has them
 *    (computer:workspace/fs), and git stages `+x` files as 100755;
 *  - the pipes to children and the in-memory pipes (vfd.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <pwd.h>

#include "vfd.h"

/* src/main.rs and src/files.rs */
_Noreturn void computer_git_exit(int code);
int computer_git_mode(const char *path, int follow, unsigned *mode);
int computer_git_chmod(const char *path, unsigned mode);
mode_t computer_git_umask_value(void);

int __real_lstat(const char *path, struct stat *st);
int __real_stat(const char *path, struct stat *st);
int __real_fstat(int fd, struct stat *st);
int __real_open(const char *path, int flags, ...);
int __real_fcntl(int fd, int cmd, ...);
ssize_t __real_readv(int fd, const struct iovec *iov, int n);
ssize_t __real_writev(int fd, const struct iovec *iov, int n);
int __real_chmod(const char *path, mode_t mode);
int __real_fchmod(int fd, mode_t mode);

_Noreturn void __wrap__Exit(int code)
{
	computer_git_exit(code);
}

/* The permission bits of a regular file, from the workspace. */
static void add_mode(const char *path, int follow, struct stat *st)
{
	unsigned mode;
	/* The workspace's one user owns every file (computer:workspace/process). */
	st->st_uid = getuid();
	st->st_gid = getgid();
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		return;
	if (computer_git_mode(path, follow, &mode))
		mode = S_ISDIR(st->st_mode) ? 0755 : 0644;
	st->st_mode = (st->st_mode & S_IFMT) | (mode & 07777);
}

int __wrap_lstat(const char *path, struct stat *st)
{
	int r = __real_lstat(path, st);
	if (!r)
		add_mode(path, 0, st);
	return r;
}

int __wrap_stat(const char *path, struct stat *st)
{
	int r = __real_stat(path, st);
	if (!r)
		add_mode(path, 1, st);
	return r;
}

int __wrap_fstat(int fd, struct stat *st)
{
	int r;
	if (is_vfd(fd)) {
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFIFO | 0600;
		return 0;
	}
	r = __real_fstat(fd, st);
	if (!r) {
		st->st_uid = getuid();
		st->st_gid = getgid();
	}
	/* No path to ask for: what a new file would have. */
	if (!r && S_ISREG(st->st_mode) && !(st->st_mode & 0777))
		st->st_mode |= 0644;
	return r;
}

void computer_git_forget(const char *path);
int __real_unlink(const char *path);
int __real_rename(const char *from, const char *to);
int __real_mkdir(const char *path, mode_t mode);
int __real_rmdir(const char *path);
int __real_symlink(const char *target, const char *path);
int __real_link(const char *from, const char *to);

/* Calls that change a directory's entries: their names leave the mode
 * cache (files.rs). */
int __wrap_unlink(const char *path)
{
	computer_git_forget(path);
	return __real_unlink(path);
}

int __wrap_rename(const char *from, const char *to)
{
	computer_git_forget(from);
	computer_git_forget(to);
	return __real_rename(from, to);
}

int __wrap_mkdir(const char *path, mode_t mode)
{
	computer_git_forget(path);
	return __real_mkdir(path, mode);
}

int __wrap_rmdir(const char *path)
{
	computer_git_forget(path);
	return __real_rmdir(path);
}

int __wrap_symlink(const char *target, const char *path)
{
	computer_git_forget(path);
	return __real_symlink(target, path);
}

int __wrap_link(const char *from, const char *to)
{
	computer_git_forget(to);
	return __real_link(from, to);
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;
	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	if (flags & O_CREAT)
		computer_git_forget(path);
	fd = __real_open(path, flags, mode);
	/* WASI ignores the mode of a new file; the workspace keeps one. */
	if (fd >= 0 && (flags & O_CREAT) && (mode & 0111))
		computer_git_chmod(path, mode & ~computer_git_umask_value());
	return fd;
}

int __wrap_chmod(const char *path, mode_t mode)
{
	if (computer_git_chmod(path, mode)) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int __wrap_fchmod(int fd, mode_t mode)
{
	(void)fd;
	(void)mode;
	return 0;
}

int __wrap_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;
	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	if (is_vfd(fd)) {
		if (cmd == F_GETFL)
			return vfd_flags(fd);
		return 0;
	}
	return __real_fcntl(fd, cmd, arg);
}

ssize_t __wrap_read(int fd, void *buf, size_t len)
{
	if (is_vfd(fd))
		return vfd_read(fd, buf, len);
	return __real_read(fd, buf, len);
}

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	if (is_vfd(fd))
		return vfd_write(fd, buf, len);
	return __real_write(fd, buf, len);
}

ssize_t __wrap_readv(int fd, const struct iovec *iov, int n)
{
	ssize_t total = 0;
	if (!is_vfd(fd))
		return __real_readv(fd, iov, n);
	/* stdio reads into its buffer through readv: fill the first non-empty
	 * part only, as a short read may. */
	for (int i = 0; i < n; i++) {
		ssize_t got;
		if (!iov[i].iov_len)
			continue;
		got = vfd_read(fd, iov[i].iov_base, iov[i].iov_len);
		if (got < 0)
			return total ? total : got;
		total += got;
		break;
	}
	return total;
}

ssize_t __wrap_writev(int fd, const struct iovec *iov, int n)
{
	ssize_t total = 0;
	if (!is_vfd(fd))
		return __real_writev(fd, iov, n);
	for (int i = 0; i < n; i++) {
		ssize_t put = vfd_write(fd, iov[i].iov_base, iov[i].iov_len);
		if (put < 0)
			return total ? total : put;
		total += put;
	}
	return total;
}

int __wrap_close(int fd)
{
	if (is_vfd(fd))
		return vfd_close(fd);
	return __real_close(fd);
}

int __real_poll(struct pollfd *fds, nfds_t n, int timeout);

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	for (nfds_t i = 0; i < n; i++)
		if (is_vfd(fds[i].fd))
			return vfd_poll(fds, n);
	return __real_poll(fds, n, timeout);
}
