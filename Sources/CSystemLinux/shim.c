#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <errno.h>
#include <malloc.h>
#include "CSystemLinux.h"

int CSystemLinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

int CSystemLinux_limit_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

int CSystemLinux_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int CSystemLinux_epoll_add(int poller, int fd, uint64_t token) {
    struct epoll_event event = {0};
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    event.data.u64 = token;
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}

int CSystemLinux_epoll_remove(int poller, int fd) {
    struct epoll_event event = {0};
    return epoll_ctl(poller, EPOLL_CTL_DEL, fd, &event);
}

int CSystemLinux_epoll_wait(int poller, uint64_t *tokens, uint8_t *readiness, int max, int timeout) {
    struct epoll_event events[128];
    if (max > 128) max = 128;
    int count;
    do {
        count = epoll_wait(poller, events, max, timeout);
    } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) {
        uint32_t e = events[i].events;
        tokens[i] = events[i].data.u64;
        readiness[i] = ((e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ? CSYSTEMLINUX_READABLE : 0)
            | ((e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) ? CSYSTEMLINUX_WRITABLE : 0)
            | ((e & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ? CSYSTEMLINUX_PEER_CLOSED : 0);
    }
    return count;
}

int CSystemLinux_epoll_take(int poller, uint64_t *tokens, uint8_t *readiness, int max) {
    return CSystemLinux_epoll_wait(poller, tokens, readiness, max, 0);
}

int CSystemLinux_epoll_add_interrupt(int poller, uint64_t token) {
    int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (fd < 0) return -1;
    struct epoll_event event = {0};
    event.events = EPOLLIN | EPOLLET;
    event.data.u64 = token;
    if (epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int CSystemLinux_eventfd_signal(int fd) {
    return eventfd_write(fd, 1);
}
#endif
