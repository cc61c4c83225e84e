/*
 * test_protocol.c - the three-process contract (rt_protocol.h) tested on
 * its own: this test plays the executor by hand, without src/exec, against
 * the runtime linked into tests/programs (faults.c: a Test-Comp stand-in,
 * persist.c: a libFuzzer target):
 *   - hello: magic, version, counts and harness before any command;
 *   - run: the pid, then the wait status; the maps hold the run (edge
 *     counters, value log, status bits);
 *   - crash: the status is the signal, crash_site is set;
 *   - timeout: the executor kills the pid it was given, the server reports
 *     the kill and serves the next run;
 *   - persistent runs (libFuzzer): two runs in one child, one pid each,
 *     status 0 reported by the child itself;
 *   - server death: closing the command channel ends the server.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec_fixture.h"
#include "runtime/rt_protocol.h"

typedef struct srv {
    pid_t pid;
    int ctl, st; /* our ends */
    int shm_fd;
    uint8_t *shm;
    ctg_shm_layout lay;
    ctg_shm_hdr *h;
    ctg_hello hello;
} srv;

/* Starts program `name` as a fork server with the descriptors and
 * environment of the contract; reads its hello. */
static void srv_start(srv *s, const char *name, uint32_t edges, uint32_t cmps)
{
    memset(s, 0, sizeof *s);
    s->lay = ctg_shm_layout_for(edges, cmps);
    s->shm_fd = memfd_create("ctg-test-shm", MFD_CLOEXEC);
    assert_true(s->shm_fd >= 0);
    assert_int_equal(ftruncate(s->shm_fd, (off_t)s->lay.size), 0);
    s->shm = mmap(NULL, s->lay.size, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm_fd, 0);
    assert_true(s->shm != MAP_FAILED);
    s->h = (ctg_shm_hdr *)s->shm;
    s->h->magic = CTG_SHM_MAGIC;
    s->h->version = CTG_PROTOCOL_VERSION;
    s->h->n_edges = edges;
    s->h->n_cmp = cmps;
    int ctl[2], st[2];
    /* close-on-exec: the server must hold only the ends dup2 gives it, or
     * it never sees the command channel close */
    assert_int_equal(pipe2(ctl, O_CLOEXEC), 0);
    assert_int_equal(pipe2(st, O_CLOEXEC), 0);
    const char *bin = fx_prog(name);
    s->pid = fork();
    assert_true(s->pid >= 0);
    if (s->pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0), dup2(null, 1), dup2(null, 2);
        dup2(ctl[0], CTG_FD_CTL);
        dup2(st[1], CTG_FD_ST);
        dup2(s->shm_fd, CTG_FD_SHM);
        setenv(CTG_ENV_FORKSRV, "1", 1);
        execl(bin, bin, (char *)NULL);
        _exit(127);
    }
    close(ctl[0]);
    close(st[1]);
    s->ctl = ctl[1];
    s->st = st[0];
    assert_int_equal(read(s->st, &s->hello, sizeof s->hello), (ssize_t)sizeof s->hello);
}

static void srv_stop(srv *s)
{
    close(s->ctl);
    close(s->st);
    int ws;
    waitpid(s->pid, &ws, 0);
    munmap(s->shm, s->lay.size);
    close(s->shm_fd);
}

/* Writes the input and clears the run's fields, as an executor does. */
static void prepare(srv *s, const uint8_t *in, size_t n)
{
    memcpy(s->shm + s->lay.input, in, n);
    s->h->input_len = (uint32_t)n;
    s->h->flags = 0;
    ctg_hdr_clear_run(s->h);
    memset(s->shm + s->lay.cov, 0, s->h->n_edges);
}

/* Sends one command; returns the pid the server (or child) reports. */
static int32_t send_cmd(srv *s, uint32_t cmd)
{
    assert_int_equal(write(s->ctl, &cmd, sizeof cmd), (ssize_t)sizeof cmd);
    int32_t pid = 0;
    assert_int_equal(read(s->st, &pid, sizeof pid), (ssize_t)sizeof pid);
    assert_true(pid > 0);
    return pid;
}

static int32_t read_status(srv *s)
{
    int32_t ws = -1;
    assert_int_equal(read(s->st, &ws, sizeof ws), (ssize_t)sizeof ws);
    return ws;
}

/* One run of faults64 with selector sel: its wait status. */
static int32_t run_sel(srv *s, uint8_t sel, int32_t *pid)
{
    prepare(s, &sel, 1);
    *pid = send_cmd(s, CTG_CMD_RUN);
    return read_status(s);
}

static void test_hello_and_run(void **state)
{
    (void)state;
    srv s;
    srv_start(&s, "faults64", 64, 0);
    assert_int_equal(s.hello.magic, CTG_HELLO_MAGIC);
    assert_int_equal(s.hello.version, CTG_PROTOCOL_VERSION);
    assert_int_equal(s.hello.n_edges, 64);
    assert_int_equal(s.hello.n_errors, 2);
    assert_int_equal(s.hello.harness, CTG_HARNESS_TESTCOMP);
    int32_t pid;
    int32_t ws = run_sel(&s, 0 /* F_EXIT3 */, &pid);
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 3);
    assert_true(pid != s.pid);
    const uint8_t *cov = s.shm + s.lay.cov;
    assert_int_equal(cov[0], 1);
    assert_int_equal(cov[1], 1);
    assert_true(s.h->status & CTG_ST_STARTED);
    assert_int_equal(s.h->n_values, 1);
    const ctg_value_rec *v = (const ctg_value_rec *)(s.shm + s.lay.values);
    assert_int_equal(v[0].type, CTG_T_UCHAR);
    assert_int_equal(s.h->input_pos, 1);
    srv_stop(&s);
}

static void test_crash_and_timeout(void **state)
{
    (void)state;
    srv s;
    srv_start(&s, "faults64", 64, 0);
    int32_t pid;
    int32_t ws = run_sel(&s, 1 /* F_SEGV */, &pid);
    assert_true(WIFSIGNALED(ws));
    assert_int_equal(WTERMSIG(ws), SIGSEGV);
    assert_true(s.h->crash_site != 0);
    /* a hang: the executor's timer kills the pid it was told */
    uint8_t loop = 3; /* F_LOOP */
    prepare(&s, &loop, 1);
    pid = send_cmd(&s, CTG_CMD_RUN);
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    assert_int_equal(kill(pid, SIGKILL), 0);
    ws = read_status(&s);
    assert_true(WIFSIGNALED(ws));
    assert_int_equal(WTERMSIG(ws), SIGKILL);
    /* and the server goes on */
    ws = run_sel(&s, 0, &pid);
    assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 3);
    srv_stop(&s);
}

static void test_persistent(void **state)
{
    (void)state;
    srv s;
    srv_start(&s, "persist64", 4, 0);
    assert_int_equal(s.hello.harness, CTG_HARNESS_LIBFUZZER);
    uint8_t in = 'r';
    prepare(&s, &in, 1);
    int32_t p1 = send_cmd(&s, CTG_CMD_RUN);
    assert_int_equal(read_status(&s), 0);
    prepare(&s, &in, 1);
    int32_t p2 = send_cmd(&s, CTG_CMD_RUN);
    assert_int_equal(read_status(&s), 0);
    assert_int_equal(p1, p2);                  /* the same child ran both */
    assert_int_equal((s.shm + s.lay.cov)[1], 1); /* "not the first run of its process" */
    /* a crash in the persistent child: the server reports the signal */
    in = 'C';
    prepare(&s, &in, 1);
    send_cmd(&s, CTG_CMD_RUN);
    int32_t ws = read_status(&s);
    assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGSEGV);
    srv_stop(&s);
}

static void test_server_death(void **state)
{
    (void)state;
    srv s;
    srv_start(&s, "faults64", 64, 0);
    close(s.ctl);
    int ws = 0;
    for (int i = 0; i < 200 && waitpid(s.pid, &ws, WNOHANG) == 0; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 0);
    close(s.st);
    munmap(s.shm, s.lay.size);
    close(s.shm_fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hello_and_run),
        cmocka_unit_test(test_crash_and_timeout),
        cmocka_unit_test(test_persistent),
        cmocka_unit_test(test_server_death),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
