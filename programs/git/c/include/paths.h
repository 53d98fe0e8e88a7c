/* Stand-in for <paths.h>. */
#ifndef COMPUTER_PATHS_H
#define COMPUTER_PATHS_H
#define _PATH_DEVNULL "/dev/null"
#define _PATH_DEFPATH "/usr/bin:/bin"
#endif
