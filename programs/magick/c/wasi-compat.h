/*
 * Force-included (-include) into every ImageMagick unit: declarations of
 * our stand-ins in compat.c for POSIX calls WASI lacks, which Debian 12's
 * wasi-libc headers do not declare. Our own code (MIT).
 */
#ifndef COMPUTER_MAGICK_WASI_COMPAT_H
#define COMPUTER_MAGICK_WASI_COMPAT_H
#include <stdio.h>
/* There are no child processes: delegates that are programs fail. */
FILE *popen(const char *command, const char *mode);
int pclose(FILE *stream);
#endif
