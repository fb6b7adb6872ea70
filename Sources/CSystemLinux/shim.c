#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>
#include "CSystemLinux.h"

int CSystemLinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}
#endif
