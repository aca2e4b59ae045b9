/*
 * The lower bound of a hook's start, for bench/hooks-e2e.bench.mjs: `sh -c true` started N
 * times from a small C program, as codewhale-spawn starts it (posix_spawn, a new session,
 * socket pairs for stdin, stdout and stderr), each read to its end and reaped before the
 * next. Prints the median milliseconds of one run. No event loop, no threads, no runtime:
 * what is left of a gate's cost in Node above this is Node's.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int byValue(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40;
  if (n < 1) n = 1;
  double *ms = malloc((size_t)n * sizeof *ms);
  char *av[] = { "/bin/sh", "-c", "true", NULL };
  signal(SIGPIPE, SIG_IGN);
  for (int i = 0; i < n; i++) {
    double t = now();
    int in[2], out[2], err[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out) ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, err))
      return 1;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[1], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
    pid_t pid;
    if (posix_spawn(&pid, av[0], &fa, &attr, av, environ) != 0) return 1;
    close(in[1]);
    close(out[1]);
    close(err[1]);
    close(in[0]);
    char buf[4096];
    while (read(out[0], buf, sizeof buf) > 0) {}
    while (read(err[0], buf, sizeof buf) > 0) {}
    int status;
    waitpid(pid, &status, 0);
    close(out[0]);
    close(err[0]);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ms[i] = now() - t;
  }
  qsort(ms, (size_t)n, sizeof *ms, byValue);
  printf("%.4f\n", ms[n / 2]);
  return 0;
}
