/*
 * codewhale-spawn: posix_spawn for the supervisor's spawner (Linux; glibc or musl).
 *
 * A fork copies the page tables of the whole spawning process and write-protects its memory
 * until the child calls exec; glibc's posix_spawn clones with CLONE_VM | CLONE_VFORK instead,
 * so the child runs in the parent's memory on a stack of its own until its exec, and nothing
 * is copied. See docs/design-notes.md, D30 and D33.
 *
 * Two functions, through Node-API (no V8 or libuv ABI):
 *
 *   spawnAsync(file, args, env, cwd, stdinFd, pipes, input) -> Promise<[pid, outFd, errFd, inFd, written] | [-errno]>
 *     file: an absolute path; args: the argument vector (argv[0] included) and env: the
 *     "K=V" entries, each joined with NUL; cwd: a directory or "" for this process's own;
 *     stdinFd: a descriptor to give the child as its stdin, or -1 for /dev/null; pipes: bit 0
 *     a socket pair for stdout, bit 1 one for stderr (otherwise /dev/null), bit 2 one for stdin
 *     (then stdinFd is not used). The child gets a session of its own (so its pid is its
 *     process group's id), an empty signal mask, and signals 1-31 (and glibc's internal 32 and
 *     33) at their default action; every other descriptor of this process is close-on-exec.
 *     outFd, errFd and inFd are the caller's ends (close-on-exec), or -1. input (a Buffer, or
 *     undefined) is what the child reads on its stdin pipe: before the child starts, as much of
 *     it as the pipe takes without waiting is written into it (`written` bytes); when that is
 *     all of it, the caller's end is closed (inFd is -1: the child reads the input, then end of
 *     file), otherwise the caller writes the rest to inFd. The start runs on a thread of
 *     libuv's pool: posix_spawn returns only once the child has called exec.
 *
 *   reap(pid) -> -1 while it runs, its raw wait status once it has exited (reaped then),
 *     -2 when it is not a child (already reaped).
 *
 * This is what libuv's uv_spawn does for child_process.spawn with detached: true and the same
 * stdio, minus the fork.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A JavaScript string as a NUL-terminated UTF-8 copy (free it), its length in *len. */
static char *utf8(napi_env env, napi_value v, size_t *len) {
  size_t n = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok) return NULL;
  char *s = malloc(n + 1);
  if (s == NULL) return NULL;
  if (napi_get_value_string_utf8(env, v, s, n + 1, &n) != napi_ok) { free(s); return NULL; }
  if (len) *len = n;
  return s;
}

/* Splits a NUL-joined list in place into a NULL-terminated vector (free it). */
static char **split(char *s, size_t len) {
  size_t count = 1;
  for (size_t i = 0; i < len; i++) if (s[i] == '\0') count++;
  char **v = malloc((count + 1) * sizeof(char *));
  if (v == NULL) return NULL;
  size_t k = 0;
  v[k++] = s;
  for (size_t i = 0; i < len; i++) if (s[i] == '\0') v[k++] = s + i + 1;
  v[k] = NULL;
  return v;
}

static napi_value numbers(napi_env env, const int *values, int count) {
  napi_value array, n;
  napi_create_array_with_length(env, (size_t)count, &array);
  for (int i = 0; i < count; i++) {
    napi_create_int32(env, values[i], &n);
    napi_set_element(env, array, (uint32_t)i, n);
  }
  return array;
}

/* A socket pair whose two ends are at 3 or above (so that no dup2 onto 0-2 is a no-op that
 * would leave an end close-on-exec in the child), both close-on-exec. */
static int pair(int fds[2]) {
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return -errno;
  for (int i = 0; i < 2; i++) {
    if (fds[i] > 2) continue;
    int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
    int e = errno;
    close(fds[i]);
    fds[i] = moved;
    if (moved < 0) { close(fds[1 - i]); return -e; }
  }
  return 0;
}

/* Adds signal `sig` to `set` as glibc lays a sigset_t out (bit sig - 1), for the signals its
 * sigaddset refuses. */
static void addRaw(sigset_t *set, int sig) {
  unsigned long *words = (unsigned long *)set;
  const size_t bits = 8 * sizeof(unsigned long);
  words[(size_t)(sig - 1) / bits] |= 1UL << ((size_t)(sig - 1) % bits);
}

/* Writes as much of `input` into the socket `fd` as it takes without waiting (the child is not
 * started yet, so nothing reads it), counting the bytes in *written; closes `fd` (and sets it
 * to -1) when that was all of it. On an error the rest is left to the caller, which meets the
 * same error on its first write. */
static void prefill(int *fd, const char *input, size_t len, int *written) {
  int flags = fcntl(*fd, F_GETFL);
  if (flags < 0 || fcntl(*fd, F_SETFL, flags | O_NONBLOCK) != 0) return;
  size_t done = 0;
  while (done < len) {
    ssize_t n = send(*fd, input + done, len - done, MSG_NOSIGNAL);
    if (n > 0) done += (size_t)n;
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  *written = (int)done;
  if (done == len) { close(*fd); *fd = -1; }
}

/* One start: the arguments copied out of JavaScript, and the result. */
struct job {
  char *file, *args, *envs, *cwd, *input;
  char **av, **ev;
  size_t cwdLen, inputLen;
  int32_t stdinFd, pipes;
  int result[5];
  int count;
  napi_deferred deferred;
  napi_async_work work;
};

static void freeJob(struct job *j) {
  free(j->file); free(j->args); free(j->envs); free(j->cwd); free(j->input); free(j->av); free(j->ev);
  free(j);
}

/* The arguments of spawnAsync() as a job, or NULL (a TypeError is then pending). */
static struct job *parse(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6) {
    napi_throw_type_error(env, NULL, "spawnAsync(file, args, env, cwd, stdinFd, pipes, input)");
    return NULL;
  }
  struct job *j = calloc(1, sizeof *j);
  if (j == NULL) { napi_throw_error(env, NULL, "out of memory"); return NULL; }
  j->stdinFd = -1;
  napi_get_value_int32(env, argv[4], &j->stdinFd);
  napi_get_value_int32(env, argv[5], &j->pipes);
  size_t argsLen = 0, envLen = 0;
  j->file = utf8(env, argv[0], NULL);
  j->args = utf8(env, argv[1], &argsLen);
  j->envs = utf8(env, argv[2], &envLen);
  j->cwd = utf8(env, argv[3], &j->cwdLen);
  j->av = j->args ? split(j->args, argsLen) : NULL;
  j->ev = j->envs ? (envLen == 0 ? calloc(1, sizeof(char *)) : split(j->envs, envLen)) : NULL;
  bool isBuffer = false;
  if (argc >= 7 && napi_is_buffer(env, argv[6], &isBuffer) == napi_ok && isBuffer) {
    void *data = NULL;
    napi_get_buffer_info(env, argv[6], &data, &j->inputLen);
    /* A copy: the pool thread must not read memory that JavaScript owns. */
    j->input = malloc(j->inputLen > 0 ? j->inputLen : 1);
    if (j->input != NULL && j->inputLen > 0) memcpy(j->input, data, j->inputLen);
  }
  j->result[0] = -ENOMEM;
  j->result[1] = j->result[2] = j->result[3] = -1;
  j->result[4] = 0;
  j->count = 1;
  return j;
}

/* The start itself: no JavaScript, so it may run on a thread of libuv's pool. */
static void run(struct job *j) {
  int out[2] = { -1, -1 }, err[2] = { -1, -1 }, in[2] = { -1, -1 };
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  int faReady = 0, attrReady = 0;
  int *result = j->result;
  if (j->file == NULL || j->av == NULL || j->ev == NULL || j->cwd == NULL) goto done;
  if (j->inputLen > 0 && j->input == NULL) goto done;
  if ((j->pipes & 1) && (result[0] = pair(out)) != 0) goto done;
  if ((j->pipes & 2) && (result[0] = pair(err)) != 0) goto done;
  if ((j->pipes & 4) && (result[0] = pair(in)) != 0) goto done;
  if ((j->pipes & 4) && j->input != NULL) prefill(&in[0], j->input, j->inputLen, &result[4]);
  if ((result[0] = -posix_spawn_file_actions_init(&fa)) != 0) goto done;
  faReady = 1;
  if ((result[0] = -posix_spawnattr_init(&attr)) != 0) goto done;
  attrReady = 1;
  int rc = 0;
  if (j->pipes & 4) rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, in[1], 0);
  else if (j->stdinFd >= 0) rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, j->stdinFd, 0);
  else rc = rc ? rc : posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (j->pipes & 1) rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  else rc = rc ? rc : posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_RDWR, 0);
  if (j->pipes & 2) rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  else rc = rc ? rc : posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_RDWR, 0);
  if (j->cwdLen > 0) rc = rc ? rc : posix_spawn_file_actions_addchdir_np(&fa, j->cwd);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s = 1; s < 32; s++) if (s != SIGKILL && s != SIGSTOP) sigaddset(&defaults, s);
  /* glibc's child sets its two internal signals (32 and 33, which sigaddset refuses) to
   * SIG_IGN unless they are in this set, and an ignored signal stays ignored across exec: a
   * child would start with them ignored, which no fork-and-exec gives it. Bit n - 1 is signal
   * n in glibc's sigset_t. */
  addRaw(&defaults, 32);
  addRaw(&defaults, 33);
  rc = rc ? rc : posix_spawnattr_setsigmask(&attr, &none);
  rc = rc ? rc : posix_spawnattr_setsigdefault(&attr, &defaults);
  rc = rc ? rc : posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (rc != 0) { result[0] = -rc; goto done; }
  pid_t pid;
  rc = posix_spawn(&pid, j->file, &fa, &attr, j->av, j->ev);
  if (rc != 0) { result[0] = -rc; goto done; }
  result[0] = pid;
  result[1] = out[0];
  result[2] = err[0];
  result[3] = in[0];
  out[0] = err[0] = in[0] = -1; /* the caller's now */
  j->count = 5;
done:
  for (int i = 0; i < 2; i++) {
    if (out[i] >= 0) close(out[i]);
    if (err[i] >= 0) close(err[i]);
    if (in[i] >= 0) close(in[i]);
  }
  if (faReady) posix_spawn_file_actions_destroy(&fa);
  if (attrReady) posix_spawnattr_destroy(&attr);
}

static void execute(napi_env env, void *data) {
  (void)env;
  run((struct job *)data);
}

static void complete(napi_env env, napi_status status, void *data) {
  struct job *j = data;
  (void)status;
  napi_resolve_deferred(env, j->deferred, numbers(env, j->result, j->count));
  napi_delete_async_work(env, j->work);
  freeJob(j);
}

/* spawnAsync(...): the same start on a thread of libuv's pool, so that this thread does not
 * wait for the child's exec (posix_spawn returns only once the child has called it). */
static napi_value SpawnAsync(napi_env env, napi_callback_info info) {
  struct job *j = parse(env, info);
  if (j == NULL) return NULL;
  napi_value promise, name;
  if (napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "codewhale-spawn", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, execute, complete, j, &j->work) != napi_ok ||
      napi_queue_async_work(env, j->work) != napi_ok) {
    freeJob(j);
    napi_throw_error(env, NULL, "spawnAsync: could not queue the start");
    return NULL;
  }
  return promise;
}

static napi_value Reap(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t pid = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || napi_get_value_int32(env, argv[0], &pid) != napi_ok || pid <= 0) {
    napi_throw_type_error(env, NULL, "reap(pid)");
    return NULL;
  }
  int status = 0;
  pid_t r;
  do r = waitpid(pid, &status, WNOHANG); while (r < 0 && errno == EINTR);
  napi_value v;
  napi_create_int32(env, r == 0 ? -1 : r < 0 ? -2 : status, &v);
  return v;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
  napi_value fn;
  napi_create_function(env, "spawnAsync", NAPI_AUTO_LENGTH, SpawnAsync, NULL, &fn);
  napi_set_named_property(env, exports, "spawnAsync", fn);
  napi_create_function(env, "reap", NAPI_AUTO_LENGTH, Reap, NULL, &fn);
  napi_set_named_property(env, exports, "reap", fn);
  return exports;
}
