/*
 * Preloaded into the embedded nginx-rtmp (LD_PRELOAD): every connection nginx accepts gets
 * TCP_NODELAY.
 *
 * Why: nginx-rtmp writes to its players with Nagle's algorithm on and has no directive to turn it
 * off (nginx's tcp_nodelay belongs to its http and stream modules). On loopback every write is
 * smaller than the MSS (64 KiB), so with Nagle each frame waited for the player's delayed ACK:
 * frames reached a local player at intervals of up to 44 ms instead of 33, and a change on air
 * showed up to 40 ms late (media-worker/bench/pipeline-bench.ts, patch: p95 114 ms with Nagle,
 * 70 ms without). The local destination of the one-machine stack and the RTMP server of the
 * tests and benchmarks are both this nginx.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static int no_delay(int fd) {
  if (fd >= 0) {
    int one = 1;
    /* Fails harmlessly on sockets that are not TCP. */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

int accept(int socket, struct sockaddr *address, socklen_t *length) {
  static int (*real)(int, struct sockaddr *, socklen_t *);
  if (!real) real = (int (*)(int, struct sockaddr *, socklen_t *))dlsym(RTLD_NEXT, "accept");
  return no_delay(real(socket, address, length));
}

int accept4(int socket, struct sockaddr *address, socklen_t *length, int flags) {
  static int (*real)(int, struct sockaddr *, socklen_t *, int);
  if (!real) real = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(RTLD_NEXT, "accept4");
  return no_delay(real(socket, address, length, flags));
}
