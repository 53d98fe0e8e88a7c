/*
 * Descriptors that are not WASI's: the ends of pipes to children (which run
 * through computer:workspace/commands, src/children.rs) and in-memory pipes
 * between git and an async procedure. wrap.c routes read, write, close and
 * fcntl on them here; run_command.c makes them.
 *
 * Their numbers start at VFD_BASE, far above what wasi-libc hands out.
 */
#ifndef COMPUTER_GIT_VFD_H
#define COMPUTER_GIT_VFD_H

#include <stddef.h>
#include <sys/types.h>

#define VFD_BASE 4096
#define VFD_MAX 256

/* Where one standard stream of a child goes (or comes from). */
enum stream_kind {
	STREAM_NULL,	/* /dev/null */
	STREAM_INHERIT, /* git's own descriptor 0, 1 or 2 */
	STREAM_FD,	/* a descriptor of git's (possibly a vfd) */
	STREAM_PIPE,	/* a vfd git reads or writes */
};

struct buffer {
	unsigned char *data;
	size_t len, off, cap;
};

struct vchild {
	int id;		/* src/children.rs's handle */
	int exited;
	int code;
	int refs;	/* vfds and the child_process still holding it */
	int in_eof_sent;
	int wants_input;
	enum stream_kind in_kind, out_kind, err_kind;
	int in_fd, out_fd, err_fd;	/* for STREAM_FD and STREAM_INHERIT */
	int close_out, close_err;	/* given to the child: closed at its end */
	struct buffer out, err;		/* for STREAM_PIPE, not yet read */
	int out_open, err_open;		/* git still holds the pipe's read end */
};

/* Runs the child until its next event and handles it. */
void vchild_step(struct vchild *c);
/* Runs the child to its end; returns its exit code. */
int vchild_wait(struct vchild *c);
void vchild_release(struct vchild *c);
/* Ends the child's input (as closing a pipe's write end would). */
void vchild_close_input(struct vchild *c);

/* Memory pipes (start_async): one buffer, a read end and a write end. */
struct mempipe {
	struct buffer buf;
	int readers, writers;
	/* Produces what is written: run at the first read that finds the
	 * pipe empty (an async procedure started lazily). */
	void (*produce)(void *data);
	void *produce_data;
};

/* A vfd for one end of a child's pipes, or of a memory pipe. */
int vfd_child(struct vchild *c, int which /* 0 in, 1 out, 2 err */);
int vfd_mempipe(int fds[2]);
void vfd_mempipe_producer(int read_fd, void (*produce)(void *), void *data);
/* dup(real): a second number for a WASI descriptor; -1 if fd is no alias. */
int vfd_alias(int real, int has_target, long long target);
/* Where a dup of 0-2 pointed when it was made (compat.c's dup2); 0 if none. */
int vfd_alias_target(int fd, long long *target);
int vfd_alias_of(int fd);
int is_vfd(int fd);

ssize_t vfd_read(int fd, void *buf, size_t len);
ssize_t vfd_write(int fd, const void *buf, size_t len);
int vfd_close(int fd);
int vfd_flags(int fd);

#include <poll.h>
/* poll over a set holding vfds: runs their children until one is ready. */
int vfd_poll(struct pollfd *fds, nfds_t n);

/* The real libc calls (wrap.c's --wrap targets). */
ssize_t __real_read(int fd, void *buf, size_t len);
ssize_t __real_write(int fd, const void *buf, size_t len);
int __real_close(int fd);

/* Writes all of buf to fd, which may be a vfd. */
void write_all(int fd, const void *buf, size_t len);

/* src/children.rs */
int computer_git_spawn(const char *name, const char *const *argv, size_t argc,
		       const char *const *env, size_t envc, const char *cwd,
		       const char **why);
int computer_git_next(int id, const unsigned char **data, size_t *len);
void computer_git_feed(int id, const unsigned char *data, size_t len);
void computer_git_drop(int id);
int computer_git_has_command(const char *name);

#endif
