/*
 * Pipes to children and memory pipes: see vfd.h. Children run only while
 * git waits on them (computer:workspace/commands hands over at each event),
 * so every read of a child's output runs the child until it has some.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>

#include "vfd.h"

enum vfd_kind { VFD_FREE, VFD_CHILD_IN, VFD_CHILD_OUT, VFD_CHILD_ERR, VFD_MEM_R, VFD_MEM_W, VFD_ALIAS };

struct vfd {
	enum vfd_kind kind;
	struct vchild *child;
	struct mempipe *pipe;
	int real;	/* VFD_ALIAS: the descriptor it stands for */
	int has_target;	/* and, for a dup of 0-2, where that pointed then */
	long long target;
};

static struct vfd table[VFD_MAX];

static void die_plain(const char *msg)
{
	__real_write(2, "fatal: ", 7);
	__real_write(2, msg, strlen(msg));
	__real_write(2, "\n", 1);
	exit(128);
}

static void buffer_add(struct buffer *b, const unsigned char *data, size_t len)
{
	if (b->off && b->off == b->len) {
		b->off = b->len = 0;
	}
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->len + len)
			cap *= 2;
		b->data = realloc(b->data, cap);
		if (!b->data)
			die_plain("out of memory for a child's output");
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

static size_t buffer_take(struct buffer *b, void *dst, size_t len)
{
	size_t have = b->len - b->off;
	if (len > have)
		len = have;
	memcpy(dst, b->data + b->off, len);
	b->off += len;
	return len;
}

static void buffer_free(struct buffer *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return; /* as a child writing to a closed pipe: dropped */
		}
		p += n;
		len -= n;
	}
}

static void deliver(enum stream_kind kind, int fd, struct buffer *pipe, int open, int std,
		    const unsigned char *data, size_t len)
{
	switch (kind) {
	case STREAM_NULL:
		break;
	case STREAM_INHERIT:
		write_all(fd >= 0 ? fd : std, data, len);
		break;
	case STREAM_FD:
		write_all(fd, data, len);
		break;
	case STREAM_PIPE:
		if (open)
			buffer_add(pipe, data, len);
		break;
	}
}

static void feed_input(struct vchild *c)
{
	unsigned char buf[65536];
	ssize_t n;
	switch (c->in_kind) {
	case STREAM_NULL:
		vchild_close_input(c);
		break;
	case STREAM_INHERIT:
	case STREAM_FD:
		n = read(c->in_kind == STREAM_INHERIT ? 0 : c->in_fd, buf, sizeof(buf));
		if (n <= 0)
			vchild_close_input(c);
		else
			computer_git_feed(c->id, buf, n);
		break;
	case STREAM_PIPE:
		/* git writes as it goes (vfd_write feeds at once); the child
		 * waits for more than git wrote so far. */
		c->wants_input = 1;
		break;
	}
}

void vchild_step(struct vchild *c)
{
	const unsigned char *data;
	size_t len;
	int kind;
	if (c->exited)
		return;
	kind = computer_git_next(c->id, &data, &len);
	switch (kind) {
	case 0:
		deliver(c->out_kind, c->out_fd, &c->out, c->out_open, 1, data, len);
		break;
	case 1:
		deliver(c->err_kind, c->err_fd, &c->err, c->err_open, 2, data, len);
		break;
	case 2:
		feed_input(c);
		break;
	default:
		c->exited = 1;
		c->code = (int)len;
		break;
	}
}

void vchild_close_input(struct vchild *c)
{
	if (c->in_eof_sent)
		return;
	c->in_eof_sent = 1;
	c->wants_input = 0;
	computer_git_feed(c->id, (const unsigned char *)"", 0);
}

int vchild_wait(struct vchild *c)
{
	while (!c->exited) {
		if (c->wants_input) {
			/* Nobody will write more: git waits for the child. */
			vchild_close_input(c);
		}
		vchild_step(c);
	}
	return c->code;
}

void vchild_release(struct vchild *c)
{
	if (--c->refs > 0)
		return;
	computer_git_drop(c->id);
	/* What the child was given is closed in git, as at a real child's
	 * start; here it is at the child's end, having been written through. */
	if (c->in_kind == STREAM_FD)
		close(c->in_fd);
	if (c->close_out)
		close(c->out_fd);
	if (c->close_err)
		close(c->err_fd);
	buffer_free(&c->out);
	buffer_free(&c->err);
	free(c);
}

static int vfd_alloc(void)
{
	for (int i = 0; i < VFD_MAX; i++)
		if (table[i].kind == VFD_FREE)
			return i;
	errno = EMFILE;
	return -1;
}

int is_vfd(int fd)
{
	return fd >= VFD_BASE && fd < VFD_BASE + VFD_MAX && table[fd - VFD_BASE].kind != VFD_FREE;
}

int vfd_child(struct vchild *c, int which)
{
	int i = vfd_alloc();
	if (i < 0)
		return -1;
	table[i].kind = which == 0 ? VFD_CHILD_IN : which == 1 ? VFD_CHILD_OUT : VFD_CHILD_ERR;
	table[i].child = c;
	c->refs++;
	if (which == 1)
		c->out_open = 1;
	if (which == 2)
		c->err_open = 1;
	return VFD_BASE + i;
}

int vfd_alias(int real, int has_target, long long target)
{
	int i = vfd_alloc();
	if (i < 0)
		return -1;
	table[i].kind = VFD_ALIAS;
	table[i].real = real;
	table[i].has_target = has_target;
	table[i].target = target;
	return VFD_BASE + i;
}

int vfd_alias_target(int fd, long long *target)
{
	if (vfd_alias_of(fd) < 0 || !table[fd - VFD_BASE].has_target)
		return 0;
	*target = table[fd - VFD_BASE].target;
	return 1;
}

int vfd_alias_of(int fd)
{
	if (!is_vfd(fd) || table[fd - VFD_BASE].kind != VFD_ALIAS)
		return -1;
	return table[fd - VFD_BASE].real;
}

void vfd_mempipe_producer(int read_fd, void (*produce)(void *), void *data)
{
	struct mempipe *p = table[read_fd - VFD_BASE].pipe;
	p->produce = produce;
	p->produce_data = data;
}

int vfd_mempipe(int fds[2])
{
	struct mempipe *p;
	int r = vfd_alloc(), w;
	if (r < 0)
		return -1;
	table[r].kind = VFD_MEM_R; /* reserved before looking for the second */
	w = vfd_alloc();
	if (w < 0) {
		table[r].kind = VFD_FREE;
		return -1;
	}
	p = calloc(1, sizeof(*p));
	p->readers = p->writers = 1;
	table[r].pipe = p;
	table[w].kind = VFD_MEM_W;
	table[w].pipe = p;
	fds[0] = VFD_BASE + r;
	fds[1] = VFD_BASE + w;
	return 0;
}

ssize_t vfd_read(int fd, void *buf, size_t len)
{
	struct vfd *v = &table[fd - VFD_BASE];
	struct vchild *c = v->child;
	struct buffer *b;
	switch (v->kind) {
	case VFD_ALIAS:
		return read(v->real, buf, len); /* the wrapped read: real may be a vfd */
	case VFD_MEM_R:
		if (v->pipe->buf.len == v->pipe->buf.off && v->pipe->produce) {
			void (*produce)(void *) = v->pipe->produce;
			v->pipe->produce = NULL;
			produce(v->pipe->produce_data);
		}
		if (v->pipe->buf.len > v->pipe->buf.off || !len)
			return buffer_take(&v->pipe->buf, buf, len);
		if (v->pipe->writers)
			die_plain("an in-process pipe was read before anything wrote to it");
		return 0;
	case VFD_CHILD_OUT:
	case VFD_CHILD_ERR:
		b = v->kind == VFD_CHILD_OUT ? &c->out : &c->err;
		for (;;) {
			if (b->len > b->off || !len)
				return buffer_take(b, buf, len);
			if (c->exited)
				return 0;
			if (c->wants_input && c->in_kind == STREAM_PIPE) {
				/* git reads while the child waits for git's
				 * input: a real pipe would block forever too,
				 * unless git wrote from elsewhere. */
				vchild_close_input(c);
			}
			vchild_step(c);
		}
	default:
		errno = EBADF;
		return -1;
	}
}

ssize_t vfd_write(int fd, const void *buf, size_t len)
{
	struct vfd *v = &table[fd - VFD_BASE];
	switch (v->kind) {
	case VFD_ALIAS:
		return write(v->real, buf, len);
	case VFD_MEM_W:
		if (!v->pipe->readers) {
			errno = EPIPE;
			return -1;
		}
		buffer_add(&v->pipe->buf, buf, len);
		return len;
	case VFD_CHILD_IN:
		if (v->child->exited || v->child->in_eof_sent) {
			errno = EPIPE;
			return -1;
		}
		if (len)
			computer_git_feed(v->child->id, buf, len);
		v->child->wants_input = 0;
		return len;
	default:
		errno = EBADF;
		return -1;
	}
}

int vfd_close(int fd)
{
	struct vfd *v = &table[fd - VFD_BASE];
	switch (v->kind) {
	case VFD_ALIAS:
		/* The descriptor it stands for stays open: this was never a
		 * second open file (wasi-libc has no dup). */
		break;
	case VFD_MEM_R:
		if (!--v->pipe->readers && !v->pipe->writers) {
			buffer_free(&v->pipe->buf);
			free(v->pipe);
		}
		break;
	case VFD_MEM_W:
		if (!--v->pipe->writers && !v->pipe->readers) {
			buffer_free(&v->pipe->buf);
			free(v->pipe);
		}
		break;
	case VFD_CHILD_IN:
		vchild_close_input(v->child);
		vchild_release(v->child);
		break;
	case VFD_CHILD_OUT:
		v->child->out_open = 0;
		vchild_release(v->child);
		break;
	case VFD_CHILD_ERR:
		v->child->err_open = 0;
		vchild_release(v->child);
		break;
	default:
		errno = EBADF;
		return -1;
	}
	memset(v, 0, sizeof(*v));
	return 0;
}

int vfd_flags(int fd)
{
	switch (table[fd - VFD_BASE].kind) {
	case VFD_CHILD_IN:
	case VFD_MEM_W:
		return O_WRONLY;
	default:
		return O_RDONLY;
	}
}

/* What poll reports for a vfd now, without running anything. */
static short vfd_ready(int fd, short events)
{
	struct vfd *v = &table[fd - VFD_BASE];
	struct buffer *b;
	switch (v->kind) {
	case VFD_CHILD_OUT:
	case VFD_CHILD_ERR:
		b = v->kind == VFD_CHILD_OUT ? &v->child->out : &v->child->err;
		if (b->len > b->off)
			return events & POLLIN;
		return v->child->exited ? POLLHUP : 0;
	case VFD_MEM_R:
		if (v->pipe->buf.len > v->pipe->buf.off || v->pipe->produce)
			return events & POLLIN;
		return v->pipe->writers ? 0 : POLLHUP;
	case VFD_CHILD_IN:
		return v->child->exited ? POLLERR : (events & POLLOUT);
	case VFD_MEM_W:
		return v->pipe->readers ? (events & POLLOUT) : POLLERR;
	case VFD_ALIAS:
		return events & (POLLIN | POLLOUT);
	default:
		return POLLNVAL;
	}
}

int vfd_poll(struct pollfd *fds, nfds_t n)
{
	for (;;) {
		int ready = 0;
		struct vchild *runnable = NULL;
		for (nfds_t i = 0; i < n; i++) {
			if (fds[i].fd < 0) {
				fds[i].revents = 0;
				continue;
			}
			if (is_vfd(fds[i].fd)) {
				struct vfd *v = &table[fds[i].fd - VFD_BASE];
				fds[i].revents = vfd_ready(fds[i].fd, fds[i].events);
				if (!fds[i].revents && v->child && !v->child->exited && !runnable)
					runnable = v->child;
			} else {
				/* A WASI descriptor: files and the standard streams
				 * are always ready. */
				fds[i].revents = fds[i].events & (POLLIN | POLLOUT);
			}
			if (fds[i].revents)
				ready++;
		}
		if (ready || !runnable)
			return ready;
		if (runnable->wants_input && runnable->in_kind == STREAM_PIPE)
			return 0; /* it waits for git, and git for it */
		vchild_step(runnable);
	}
}
