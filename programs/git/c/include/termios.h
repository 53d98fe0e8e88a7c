/* Stand-in for <termios.h>: no terminal in the sandbox. */
#ifndef COMPUTER_TERMIOS_H
#define COMPUTER_TERMIOS_H
typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
struct termios {
	tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
	cc_t c_cc[32];
};
#define ECHO 8
#define ICANON 2
#define VMIN 6
#define VTIME 5
#define TCSANOW 0
#define TCSAFLUSH 2
int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int act, const struct termios *t);
#endif
