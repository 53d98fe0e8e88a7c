/* Stand-in for <grp.h>, which WASI's libc lacks. */
#ifndef COMPUTER_GRP_H
#define COMPUTER_GRP_H
#include <sys/types.h>
struct group {
	char *gr_name;
	char *gr_passwd;
	gid_t gr_gid;
	char **gr_mem;
};
struct group *getgrgid(gid_t gid);
struct group *getgrnam(const char *name);
#endif
