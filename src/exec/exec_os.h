/*
 * exec_os.h - the executor's operating-system calls (Linux), in one place:
 * the shared-memory region, the two control channels, spawning the fork
 * server with its descriptors and limits, and deadline-bound I/O.
 *
 * Channels are AF_UNIX stream socket pairs rather than pipes so that a
 * write to a dead fork server fails with EPIPE (MSG_NOSIGNAL) instead of
 * killing the tool with SIGPIPE, and so that a receive timeout can be set
 * once (SO_RCVTIMEO) instead of a poll(2) per run.
 */
#ifndef CTG_EXEC_OS_H
#define CTG_EXEC_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../base/err.h"

/* Creates an anonymous shared-memory file of `size` bytes and maps it. */
bool exec_os_shm_new(size_t size, int *fd, uint8_t **map, ctg_err *e);
void exec_os_shm_free(int fd, uint8_t *map, size_t size);

/* A connected socket pair, both ends close-on-exec. */
bool exec_os_channel(int fds[2], ctg_err *e);

typedef struct exec_os_spawn {
    const char *binary;
    char *const *argv;
    char *const *envp;
    int ctl_fd;            /* becomes descriptor 220 in the server          */
    int st_fd;             /* becomes 221                                    */
    int shm_fd;            /* becomes 222                                    */
    int stderr_fd;         /* becomes 2; -1: /dev/null                       */
    uint64_t mem_limit_mb; /* RLIMIT_AS; 0: none                              */
    uint64_t fsize_limit;  /* RLIMIT_FSIZE in bytes (SIGXFSZ ignored); 0: none */
    int trace_fd;          /* becomes 223 (CTG_FD_TRACE); -1: none           */
    const char *work_dir;  /* working directory of the server and its runs;
                              NULL: the tool's (binary must then be absolute
                              or relative to it)                             */
} exec_os_spawn;

/* Forks and executes the fork server: descriptors as above (223 only with a
 * trace region), stdin and stdout on /dev/null, no core dumps, an 8 MiB
 * stack when it would be unlimited, its own process group, every other
 * descriptor closed.  Returns false with e set when the binary cannot be
 * executed (the exec error is reported back through a close-on-exec pipe). */
bool exec_os_spawn_server(const exec_os_spawn *s, pid_t *pid, ctg_err *e);

/* Sets the receive timeout of a channel (0: block forever). */
bool exec_os_set_timeout(int fd, uint32_t ms);

/* Sends all of buf; false when the peer is gone.  Never raises SIGPIPE. */
bool exec_os_send(int fd, const void *buf, size_t n);

/* Receives exactly n bytes in one wait.  Returns 1 on success, 0 on end of
 * file or error, -1 when the wait ended early: the channel's receive
 * timeout expired or a signal interrupted it.  *got (may be NULL) counts the
 * bytes received either way. */
int exec_os_recv(int fd, void *buf, size_t n, size_t *got);

/* SIGKILLs the process group `pid` leads (and pid itself). */
void exec_os_kill_group(pid_t pid);

/* Kills process `pid` and reaps it. */
void exec_os_reap(pid_t pid);

/* Microseconds on a monotonic clock (vDSO, no system call). */
double exec_os_now_us(void);

#endif
