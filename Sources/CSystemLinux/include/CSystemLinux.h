#ifndef C_SYSTEM_LINUX_H
#define C_SYSTEM_LINUX_H
// Linux calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module is built
// without (swift-nio's CNIOLinux does the same), and epoll. Empty on other platforms.
#ifdef __linux__
#include <sys/socket.h>

#include <stdint.h>

int CSystemLinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

// glibc's mallopt(M_ARENA_MAX, count), whose header Swift's Glibc module does not include.
int CSystemLinux_limit_malloc_arenas(int count);

// epoll, whose header Swift's Glibc module does not include. A descriptor is registered once,
// edge-triggered, for input and output; an event comes back as its token and two bits.
#define CSYSTEMLINUX_READABLE 1
#define CSYSTEMLINUX_WRITABLE 2
#define CSYSTEMLINUX_PEER_CLOSED 4
int CSystemLinux_epoll_create(void);
int CSystemLinux_epoll_add(int poller, int fd, uint64_t token);
int CSystemLinux_epoll_remove(int poller, int fd);
int CSystemLinux_epoll_take(int poller, uint64_t *tokens, uint8_t *readiness, int max);
// The same, waiting up to `timeout` milliseconds (-1: until an event comes).
int CSystemLinux_epoll_wait(int poller, uint64_t *tokens, uint8_t *readiness, int max, int timeout);
// An eventfd registered with `poller` under `token` (edge-triggered, for input): signalling it ends a
// wait. Returns the eventfd, or -1 with errno set.
int CSystemLinux_epoll_add_interrupt(int poller, uint64_t token);
int CSystemLinux_eventfd_signal(int fd);
#endif
#endif
