/* Stand-in for <sys/statvfs.h>. */
#ifndef COMPUTER_SYS_STATVFS_H
#define COMPUTER_SYS_STATVFS_H
struct statvfs {
	unsigned long f_bsize, f_frsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree, f_favail, f_fsid, f_flag, f_namemax;
	int __reserved[32]; /* room for the layout of the libc that answers */
};
int statvfs(const char *path, struct statvfs *buf);
#endif
