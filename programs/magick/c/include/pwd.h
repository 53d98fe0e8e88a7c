/*
 * Stand-in for <pwd.h>, which WASI lacks: ImageMagick's studio.h includes
 * it on every POSIX system, and it looks up a home directory with
 * getpwnam. There is no user database: the lookups (compat.c) find no one.
 * Our own code (MIT).
 */
#ifndef COMPUTER_PWD_H
#define COMPUTER_PWD_H
#include <sys/types.h>
struct passwd {
	char *pw_name;
	char *pw_passwd;
	uid_t pw_uid;
	gid_t pw_gid;
	char *pw_gecos;
	char *pw_dir;
	char *pw_shell;
};
struct passwd *getpwnam(const char *name);
struct passwd *getpwuid(uid_t uid);
#endif
