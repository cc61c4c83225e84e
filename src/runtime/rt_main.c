/*
 * rt_main.c - the runtime's entry point: main(), the fork server and the
 * harness dispatch (DESIGN.md section 5, rt_protocol.h).
 *
 * The instrumenter renames the program's main to __ctg_user_main.  Our main:
 *   1. installs the stack-overflow handler;
 *   2. with CTESTGEN_FORKSRV=1: maps the executor's shared memory (fd 222),
 *      says hello on fd 221 and serves CTG_CMD_RUN commands from fd 220: each
 *      forks a child that leaves the loop and runs the harness in its own
 *      process group, while the server reports the child's pid and wait
 *      status.  The server exits when the control channel closes.
 *   3. without it (reproduce mode): maps a private region and loads the input
 *      from the file named by CTESTGEN_INPUT (empty input when unset);
 *   4. runs __ctg_user_main(argc, argv, envp), or LLVMFuzzerTestOneInput on a
 *      malloc'ed copy of the input for a libFuzzer target; a stdin target
 *      gets the input as its stdin, an argument "@@" becomes the path of a
 *      file holding it (rt_feed_input).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_guard.h"
#include "rt_procscan.h"
#include "rt_spin.h"
#include "rt_state.h"

_Static_assert(sizeof(ctg_shm_hdr) == 72, "header layout must agree between -m32 and -m64");
_Static_assert(sizeof(ctg_cmp_rec) == 24, "cmp record layout must agree between -m32 and -m64");
_Static_assert(sizeof(ctg_value_rec) == 8, "value record layout");
_Static_assert(offsetof(rt_state, flags) == 0,
               "the guarded hooks read the flags at CTG_SYM_RUN_FLAGS");
_Static_assert(sizeof(ctg_hello) == 24, "hello layout");
_Static_assert(sizeof(ctg_batch_hdr) == 1072 + 8 + 4 * CTG_WATCH_MAX + 2 * CTG_BATCH_MAX +
                   24 * CTG_BATCH_MAX * CTG_WATCH_REC,
               "batch layout must agree between -m32 and -m64");

/* Edge map used before the shared memory is mapped (constructors); larger
 * programs get an anonymous mapping in rt_early_init. */
#define RT_DUMMY_EDGES 65536u
static uint8_t rt_dummy_cov[RT_DUMMY_EDGES];
static ctg_shm_hdr rt_dummy_hdr;

uint8_t *__ctg_cov_ptr = rt_dummy_cov;
rt_state rt_g = {.hdr = &rt_dummy_hdr};

/* Persistent mode: a libFuzzer target of prog.cov runs up to
 * RT_PERSIST_RUNS inputs in one forked child, as libFuzzer runs all inputs
 * in one process and AFL++'s driver in a persistent loop.  The child keeps
 * the command and status channels: after an input it reports exit status
 * 0 for it itself, reads the next command and reports its own pid, so a
 * run costs two messages and no signal, while the fork server sleeps in
 * waitpid.  When the child dies (crash, timeout kill, reach_error, exit)
 * the server reports the status of the run it was in, unless the child had
 * reported that run already; the counters in rt_pst (shared between server
 * and child) tell.  The child also reports its own pid for its first run,
 * so nothing it writes can overtake what the server writes.  prog.sym (which defines __ctg_sym_live) keeps one
 * process per run: its shadow state is per run.  A child is replaced when
 * worn (rt_persist_worn; CTG_PERSIST_* in rt_protocol.h): a fork and an
 * exit cost as much as a few hundred runs of a small target, so a child
 * that leaks nothing runs many inputs. */
extern uint32_t __ctg_sym_live __attribute__((weak));
typedef struct rt_persist {
    volatile uint32_t started;  /* runs whose command was read   */
    volatile uint32_t reported; /* runs whose status was written */
} rt_persist;
static rt_persist *rt_pst; /* NULL: one process per run */
static uint32_t rt_cmd;    /* the command the child was forked for */
static uint8_t *rt_known;  /* known bucket bits (CTG_CMD_BATCH)     */
static uint8_t rt_buckets[256]; /* ctg_bucket of every count, for
                                   rt_interesting (persistent mode)    */
static ctg_batch_hdr *rt_batch;

/* Harness entry points, whichever the program defines. */
extern int __ctg_user_main(int argc, char **argv, char **envp) __attribute__((weak));
extern int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) __attribute__((weak));
extern int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Runs before the program's own constructors: makes sure the dummy edge map
 * is large enough for every edge id of the binary.  No allocation unless the
 * binary has more than RT_DUMMY_EDGES edges. */
__attribute__((constructor(101))) static void rt_early_init(void)
{
    uint64_t len = ctg_cov_len(__ctg_n_edges, __ctg_n_cmp);
    if (len <= RT_DUMMY_EDGES)
        return;
    void *m = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED)
        __ctg_cov_ptr = m;
}

/* Writes a message to stderr without stdio. */
static void rt_say(const char *msg)
{
    size_t n = strlen(msg);
    while (n > 0) {
        ssize_t w = write(2, msg, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        msg += w;
        n -= (size_t)w;
    }
}

/* Writes all of buf to fd, retrying after EINTR.  Returns 0 on failure. */
static int rt_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* Whether receives spin before they sleep (rt_spin.h); decided once at the
 * start of the fork server and inherited by its children. */
static int rt_spin;

/* Reads exactly n bytes, retrying after EINTR (a channel: spinning first
 * when rt_spin).  Returns 0 on EOF or error. */
static int rt_read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    if (rt_spin) {
        size_t got = ctg_spin_recv(fd, p, n, CTG_SPIN_US);
        p += got;
        n -= got;
    }
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        p += r;
        n -= (size_t)r;
    }
    return 1;
}

/* Points the runtime's maps into a region laid out as in rt_protocol.h. */
static void rt_bind(uint8_t *base, const ctg_shm_layout *l)
{
    rt_g.hdr = (ctg_shm_hdr *)base;
    rt_g.input = base + l->input;
    rt_g.values = (ctg_value_rec *)(base + l->values);
    rt_g.dist = (double *)(base + l->dist);
    rt_g.cmp = (ctg_cmp_rec *)(base + l->cmp);
    rt_g.n_edges = __ctg_n_edges;
    rt_g.n_cmp = __ctg_n_cmp;
    __ctg_cov_ptr = base + l->cov;
    rt_known = base + l->known;
    rt_batch = (ctg_batch_hdr *)(base + l->batch);
}

/* Results of rt_attach_shm. */
enum { RT_ATTACH_OK, RT_ATTACH_MISMATCH, RT_ATTACH_FAILED };

/* Maps the executor's shared memory.  RT_ATTACH_MISMATCH: the region is laid
 * out for other counts or another protocol version (the hello tells the
 * executor); RT_ATTACH_FAILED: it cannot be mapped (memory limit). */
static int rt_attach_shm(void)
{
    ctg_shm_layout l = ctg_shm_layout_for(__ctg_n_edges, __ctg_n_cmp);
    struct stat st;
    if (fstat(CTG_FD_SHM, &st) != 0)
        return RT_ATTACH_FAILED;
    if ((uint64_t)st.st_size < l.size)
        return RT_ATTACH_MISMATCH;
    void *m = ctg_map_guarded((size_t)l.size, MAP_SHARED, CTG_FD_SHM);
    if (m == MAP_FAILED)
        return RT_ATTACH_FAILED;
    close(CTG_FD_SHM);
    const ctg_shm_hdr *h = m;
    if (h->magic != CTG_SHM_MAGIC || h->version != CTG_PROTOCOL_VERSION ||
        h->n_edges != __ctg_n_edges || h->n_cmp != __ctg_n_cmp) {
        munmap(m, (size_t)l.size);
        return RT_ATTACH_MISMATCH;
    }
    rt_bind(m, &l);
    return RT_ATTACH_OK;
}

/* Forks a child, retrying a few times when the system is short of
 * processes.  The server is single-threaded, so glibc's _Fork (2.34+: no
 * atfork handlers, no lock juggling) is safe and saves the child a few
 * page faults per run. */
static pid_t rt_fork_retry(void)
{
    for (int i = 0; i < 50; i++) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
        pid_t p = _Fork();
#else
        pid_t p = fork();
#endif
        if (p >= 0 || errno != EAGAIN)
            return p;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

/* The server's start: the hello (after which a failed attach ends it, so
 * the executor reports from the hello), subreaper, persistent mode. */
static void rt_server_hello(int attach)
{
    if (attach == RT_ATTACH_FAILED) {
        rt_say("ctestgen runtime: cannot map the shared memory (memory limit too low?)\n");
        _exit(2);
    }
    ctg_hello h = {CTG_HELLO_MAGIC, CTG_PROTOCOL_VERSION, __ctg_n_edges, __ctg_n_cmp,
                   __ctg_n_errors,
                   __ctg_user_main ? (uint32_t)CTG_HARNESS_TESTCOMP : (uint32_t)CTG_HARNESS_LIBFUZZER};
    fflush(NULL); /* nothing buffered may be flushed once per child */
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans of runs come to the server */
    rt_spin = ctg_spin_allowed();
    if (!rt_write_all(CTG_FD_ST, &h, sizeof h) || attach != RT_ATTACH_OK)
        _exit(2); /* after a mismatch the executor reports from the hello */
    if (!__ctg_user_main && &__ctg_sym_live == NULL) {
        void *m = mmap(NULL, sizeof *rt_pst, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                       -1, 0);
        rt_pst = m == MAP_FAILED ? NULL : m;
        for (int c = 0; c < 256; c++) /* once, for every child's batches */
            rt_buckets[c] = ctg_bucket((uint8_t)c);
    }
}

/* In the child of a run, before it returns to run the harness. */
static void rt_enter_child(void)
{
    /* dies with the server (which dies with ctestgen): no run outlives a
     * killed tool */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!rt_pst) {
        close(CTG_FD_CTL);
        close(CTG_FD_ST);
        return;
    }
    /* a persistent child reports its pid itself, so that its status can
     * never overtake the pid on the channel */
    setpgid(0, 0);
    int32_t me = (int32_t)getpid();
    if (!rt_write_all(CTG_FD_ST, &me, sizeof me))
        _exit(0);
}

/* The server's wait for the run in child pid: its wait status, once
 * whatever it left in its process group is killed and reaped. */
static int rt_wait_run(pid_t pid)
{
    int ws;
    siginfo_t si;
    /* the exited child still holds its group id: kill what it left in its
     * group before reaping it (no pid reuse can intervene) */
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
        if (errno != EINTR)
            _exit(5);
    kill(-pid, SIGKILL);
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR)
            _exit(5);
    ctg_reap_children(NULL); /* what the run left behind */
    return ws;
}

/* The fork-server loop (attach: result of rt_attach_shm).  Returns only in
 * a child, which then runs the harness; the server itself ends when the
 * executor closes the control channel. */
static void rt_fork_server(int attach)
{
    rt_server_hello(attach);
    for (;;) {
        uint32_t cmd;
        if (!rt_read_all(CTG_FD_CTL, &cmd, sizeof cmd))
            _exit(0);
        if (cmd != CTG_CMD_RUN && !(cmd == CTG_CMD_BATCH && rt_pst))
            _exit(3);
        rt_cmd = cmd;
        if (rt_pst) { /* this run is started and not reported yet */
            rt_pst->started = 1;
            rt_pst->reported = 0;
        }
        pid_t pid = rt_fork_retry();
        if (pid < 0)
            _exit(4);
        if (pid == 0) {
            rt_enter_child();
            return;
        }
        /* the child's own process group, set before the executor learns the
         * pid and may signal the group */
        setpgid(pid, pid);
        int32_t p32 = (int32_t)pid;
        if (!rt_pst && !rt_write_all(CTG_FD_ST, &p32, sizeof p32))
            _exit(0);
        int32_t w32 = (int32_t)rt_wait_run(pid);
        if (rt_pst && rt_pst->reported == rt_pst->started)
            continue; /* a persistent child that reported its last run */
        if (!rt_write_all(CTG_FD_ST, &w32, sizeof w32))
            _exit(0);
    }
}

/* Reproduce mode: a private region holding the input of CTESTGEN_INPUT. */
static void rt_standalone(void)
{
    ctg_shm_layout l = ctg_shm_layout_for(__ctg_n_edges, __ctg_n_cmp);
    void *m = ctg_map_guarded((size_t)l.size, MAP_PRIVATE | MAP_ANONYMOUS, -1);
    if (m == MAP_FAILED) {
        rt_say("ctestgen runtime: cannot map the input area (memory limit too low?)\n");
        _exit(2);
    }
    rt_bind(m, &l);
    rt_g.standalone = 1;
    ctg_shm_hdr *h = rt_g.hdr;
    h->magic = CTG_SHM_MAGIC;
    h->version = CTG_PROTOCOL_VERSION;
    h->n_edges = __ctg_n_edges;
    h->n_cmp = __ctg_n_cmp;
    const char *path = getenv(CTG_ENV_INPUT);
    if (!path || !*path)
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rt_say("ctestgen runtime: cannot open the input file named by " CTG_ENV_INPUT "\n");
        _exit(2);
    }
    for (;;) {
        ssize_t r = read(fd, rt_g.input + h->input_len, CTG_MAX_INPUT - h->input_len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        h->input_len += (uint32_t)r;
    }
    close(fd);
}

_Noreturn void rt_end_run(int code)
{
    if (rt_g.standalone && (rt_g.hdr->status & CTG_ST_ERROR)) {
        char msg[64] = "ctestgen: error reached (site ";
        char num[12];
        int k = 0;
        uint32_t s = rt_g.hdr->error_site;
        do {
            num[k++] = (char)('0' + s % 10u);
            s /= 10u;
        } while (s);
        size_t n = strlen(msg);
        while (k > 0)
            msg[n++] = num[--k];
        memcpy(msg + n, ")\n", 3);
        rt_say(msg);
    }
    _exit(code);
}

/* The start of a run: the request flags and random seed the executor put
 * in the header, and the status bit that says the harness was entered. */
static void rt_begin_run(void)
{
    ctg_vg_seed(&rt_g.rng, rt_g.hdr->rng_state);
    rt_g.flags = rt_g.hdr->flags;
    uint64_t end = (uint64_t)rt_g.hdr->input_len + rt_g.hdr->extend_max;
    rt_g.extend_end = !rt_g.hdr->extend_max || end > CTG_MAX_INPUT ? CTG_MAX_INPUT : (uint32_t)end;
    rt_g.zero_budget = rt_g.hdr->extend_max;
    rt_status(CTG_ST_STARTED);
}

/* Runs the libFuzzer target once on a malloc'ed copy of the input. */
static int rt_run_libfuzzer(void)
{
    const uint8_t *data;
    size_t n = rt_take_all(&data);
    uint8_t *copy = malloc(n ? n : 1u);
    if (!copy)
        return 1;
    memcpy(copy, data, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    return 0;
}

static uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether the run just ended is news for CTG_CMD_BATCH: a status bit other
 * than STARTED, or an edge or feature in a bucket the known map lacks.
 * Eight counters at a time (most words of a small run are zero): their
 * buckets from the table, tested against the known word at once, with no
 * branch per counter (a run of json hits a hundred edges). */
static int rt_interesting(void)
{
    if (rt_g.hdr->status & ~CTG_ST_STARTED)
        return 1;
    const uint8_t *cov = __ctg_cov_ptr;
    uint64_t n = ctg_cov_len(__ctg_n_edges, __ctg_n_cmp), i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w, k, b;
        memcpy(&w, cov + i, 8);
        if (!w)
            continue;
        uint8_t bk[8]; /* in memory order, as the known word is read */
        for (unsigned j = 0; j < 8; j++)
            bk[j] = rt_buckets[cov[i + j]];
        memcpy(&b, bk, 8);
        memcpy(&k, rt_known + i, 8);
        if (b & ~k)
            return 1;
    }
    for (; i < n; i++)
        if (rt_buckets[cov[i]] & ~rt_known[i])
            return 1;
    return 0;
}

/* Before a logged input of a batch: comparison logging on, and the watched
 * sites' records cleared (the others are nobody's business in a batch). */
static void rt_watch_begin(const ctg_batch_hdr *b)
{
    rt_g.flags |= CTG_FL_CMPLOG;
    uint32_t n = b->n_watch > CTG_WATCH_MAX ? CTG_WATCH_MAX : b->n_watch;
    for (uint32_t k = 0; k < n; k++)
        if (b->watch[k] < rt_g.n_cmp)
            memset(&rt_g.cmp[b->watch[k]], 0, sizeof *rt_g.cmp);
}

/* After a logged input i: the watched sites it ran whose last operands
 * differ, in watch[] order, into broken[i]. */
static void rt_watch_end(ctg_batch_hdr *b, uint32_t i)
{
    uint32_t n = b->n_watch > CTG_WATCH_MAX ? CTG_WATCH_MAX : b->n_watch, got = 0;
    for (uint32_t k = 0; k < n && got < CTG_WATCH_REC; k++) {
        const ctg_cmp_rec *c = b->watch[k] < rt_g.n_cmp ? &rt_g.cmp[b->watch[k]] : NULL;
        if (c && c->hits && c->a != c->b)
            b->broken[i][got++] = *c;
    }
    b->n_broken[i] = (uint8_t)got;
}

/* Runs the batch of CTG_CMD_BATCH (rt_protocol.h): each input as the
 * executor would prepare it alone, until one is interesting.  Returns the
 * number of inputs run. */
static uint32_t rt_run_batch(void)
{
    ctg_batch_hdr *b = rt_batch;
    ctg_shm_hdr *h = rt_g.hdr;
    const uint8_t *data = (const uint8_t *)(b + 1);
    uint32_t n = b->n > CTG_BATCH_MAX ? CTG_BATCH_MAX : b->n, i;
    b->stop = n;
    b->max_ns = b->last_ns = 0;
    uint64_t now = rt_now_ns(); /* one clock read per input: an end is the next start */
    for (i = 0; i < n; i++) {
        uint32_t lo = b->off[i], hi = b->off[i + 1];
        if (hi > CTG_BATCH_BYTES)
            hi = CTG_BATCH_BYTES;
        if (lo > hi)
            lo = hi;
        uint32_t len = hi - lo > CTG_MAX_INPUT ? CTG_MAX_INPUT : hi - lo;
        memcpy(rt_g.input, data + lo, len);
        h->input_len = len;
        ctg_hdr_clear_run(h);
        memset(__ctg_cov_ptr, 0, (size_t)ctg_cov_len(__ctg_n_edges, __ctg_n_cmp));
        b->start_ns = now;
        b->pos = i;
        rt_begin_run();
        uint8_t log = b->log[i] && b->n_watch;
        if (log)
            rt_watch_begin(b);
        rt_run_libfuzzer();
        now = rt_now_ns();
        uint64_t t = now - b->start_ns;
        if (log)
            rt_watch_end(b, i);
        if (rt_interesting()) {
            b->stop = i;
            b->last_ns = t;
            b->done = 1;
            return i + 1;
        }
        b->max_ns = t > b->max_ns ? t : b->max_ns;
    }
    b->done = 1;
    return n;
}

/* What wears a persistent child: its resident pages (-1: unknown) and its
 * lowest free descriptor (-1: unknown). */
static void rt_wear(long *pages, long *fd)
{
    *pages = -1;
    *fd = fcntl(CTG_FD_CTL, F_DUPFD, 0);
    if (*fd >= 0)
        close((int)*fd);
    int f = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return;
    char buf[128];
    ssize_t n = read(f, buf, sizeof buf - 1);
    close(f);
    if (n <= 0)
        return;
    buf[n] = 0;
    long size, res;
    if (sscanf(buf, "%ld %ld", &size, &res) == 2)
        *pages = res;
}

/* Whether a persistent child that has run `ran` inputs makes way for a
 * fresh one (CTG_PERSIST_* in rt_protocol.h).  The first call, after its
 * first input or batch, takes the measures the later checks compare with;
 * when they cannot be taken, the child ends at the first check. */
static int rt_persist_worn(uint32_t ran)
{
    static long base_pages = -2, base_fd = -2;
    static uint32_t next_check = CTG_PERSIST_CHECK;
    if (base_pages == -2) {
        rt_wear(&base_pages, &base_fd);
        return 0;
    }
    if (ran >= CTG_PERSIST_MAX)
        return 1;
    if (ran < next_check)
        return 0;
    next_check = ran + CTG_PERSIST_CHECK;
    long pages, fd, page = sysconf(_SC_PAGESIZE);
    rt_wear(&pages, &fd);
    if (pages < 0 || base_pages < 0 || fd < 0 || base_fd < 0 || page <= 0)
        return 1;
    return (pages - base_pages) * page > (long)CTG_PERSIST_GROW_MB << 20 ||
           fd - base_fd > (long)CTG_PERSIST_GROW_FDS;
}

/* The rest of a persistent child's life (see rt_persist): reports the run
 * (or batch) that just ended, then runs what the executor sends, until it
 * is worn (rt_persist_worn) and makes way for a fresh child. */
_Noreturn static void rt_persist_loop(uint32_t ran)
{
    for (;;) {
        rt_g.flags = 0;
        int32_t ok = 0; /* exit status 0 */
        rt_pst->reported = rt_pst->started; /* first: a death after it is no desync */
        if (!rt_write_all(CTG_FD_ST, &ok, sizeof ok) || rt_persist_worn(ran))
            _exit(0);
        uint32_t cmd;
        if (!rt_read_all(CTG_FD_CTL, &cmd, sizeof cmd) ||
            (cmd != CTG_CMD_RUN && cmd != CTG_CMD_BATCH))
            _exit(0);
        rt_pst->started++;
        int32_t p32 = (int32_t)getpid();
        if (!rt_write_all(CTG_FD_ST, &p32, sizeof p32))
            _exit(0);
        if (cmd == CTG_CMD_BATCH) {
            ran += rt_run_batch();
        } else {
            rt_begin_run();
            rt_run_libfuzzer();
            ran++;
        }
    }
}

/* ==== stdin and @@ targets ================================================= */

extern const uint32_t __ctg_harness __attribute__((weak));

/* The test's bytes (one CTG_T_BYTES value) as a file at offset 0: a memfd,
 * else an unlinked temporary file; -1 when neither can be made. */
static int rt_input_fd(void)
{
    const uint8_t *data;
    size_t n = rt_take_all(&data);
    int fd = memfd_create("ctestgen-input", 0);
    if (fd < 0) {
        char path[] = "/tmp/ctestgen-input-XXXXXX";
        fd = mkstemp(path);
        if (fd >= 0)
            unlink(path);
    }
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, data + done, n - done);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

/* A stdin target reads the test from stdin; an argument "@@" (as AFL++
 * writes it) is replaced by the path of a file holding the test, and stdin
 * stays as it was.  Typed (Test-Comp) programs without @@ are left alone. */
static void rt_feed_input(char **argv)
{
    int at = 0;
    for (char **a = argv; *a; a++)
        at |= !strcmp(*a, "@@");
    if (!at && !(&__ctg_harness && __ctg_harness == CTG_HARNESS_STDIN))
        return;
    int fd = rt_input_fd();
    if (fd < 0)
        return; /* the program sees an empty or closed input */
    if (at) {
        static char path[32];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        for (char **a = argv; *a; a++)
            if (!strcmp(*a, "@@"))
                *a = path;
    } else {
        dup2(fd, 0);
        close(fd);
    }
}

int main(int argc, char **argv, char **envp)
{
    if (!__ctg_user_main && !LLVMFuzzerTestOneInput) {
        rt_say("ctestgen runtime: the program defines neither main nor LLVMFuzzerTestOneInput\n");
        return 2;
    }
    rt_signal_init();
    if (!__ctg_user_main && LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    const char *fs = getenv(CTG_ENV_FORKSRV);
    if (fs && strcmp(fs, "1") == 0)
        rt_fork_server(rt_attach_shm());
    else
        rt_standalone();
    /* one run of the harness, in a fork-server child or stand-alone */
    if (rt_cmd == CTG_CMD_BATCH) /* rt_pst is set: the server took it */
        rt_persist_loop(rt_run_batch());
    rt_begin_run();
    if (__ctg_user_main) {
        rt_feed_input(argv);
        rt_return_from_main(__ctg_user_main(argc, argv, envp));
    }
    int rc = rt_run_libfuzzer();
    if (rt_g.standalone)
        return rc;
    if (rt_pst)
        rt_persist_loop(1);
    _exit(rc); /* libFuzzer runs no exit handlers between inputs either */
}
