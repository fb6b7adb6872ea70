#ifndef C_SYSTEM_LINUX_H
#define C_SYSTEM_LINUX_H
// Linux calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module is built
// without (swift-nio's CNIOLinux does the same). Empty on other platforms.
#ifdef __linux__
#include <sys/socket.h>

int CSystemLinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif
#endif
