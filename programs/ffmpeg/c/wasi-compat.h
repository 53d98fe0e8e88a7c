/*
 * Force-included (-include) into every FFmpeg unit: the declarations of
 * our stand-ins in compat.c, which Debian 12's wasi-libc headers do not
 * declare.
 */
#ifndef COMPUTER_FFMPEG_WASI_COMPAT_H
#define COMPUTER_FFMPEG_WASI_COMPAT_H
/* Without a prototype on purpose: configure's own check declares
 * `extern int mkstemp();` and calls it with no arguments, which a prototype
 * here would turn into an error, hiding the function from configure. */
int mkstemp();
#endif
