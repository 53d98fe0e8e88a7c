/* Stand-in for <syslog.h>: no system log in the sandbox. */
#ifndef COMPUTER_SYSLOG_H
#define COMPUTER_SYSLOG_H
#define LOG_PID 1
#define LOG_DAEMON (3 << 3)
#define LOG_ERR 3
#define LOG_INFO 6
void openlog(const char *ident, int option, int facility);
void syslog(int priority, const char *fmt, ...);
#endif
