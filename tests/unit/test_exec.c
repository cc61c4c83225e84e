/*
 * test_exec.c - the executor against tests/programs/faults.c: each fault
 * class of issue 2 is classified, the executor survives every one of them
 * and keeps running further inputs, the fork server is restarted when it
 * dies, and binaries that do not speak the protocol are refused with a
 * one-line error.
 */
#include <signal.h>
#include <sys/stat.h>

#include "exec_fixture.h"
#undef test_free /* cmocka's allocation-checking macro; ours is a function */
#include "suite/test.h"
#include "host_skip.h"

#define TIMEOUT_MS 1000u /* generous: a loaded CI machine delays children */

enum {
    F_EXIT3, F_SEGV, F_ABORT, F_LOOP, F_RECURSE, F_MALLOC_100G, F_FORK_LOOP, F_STDOUT_1G,
    F_STDIN, F_ERROR, F_ASSUME, F_KILL_SERVER, F_STDERR_1G, F_PPID, F_VERIFIER_ERROR,
    F_CALLOC_HUGE, F_NULL_WRITE
};

static exec_result run_sel(exec_t *x, uint8_t sel)
{
    return fx_run(x, &sel, 1, 0, 0);
}

/* A normal run right after a fault: the executor is still healthy. */
static void assert_healthy(exec_t *x)
{
    exec_result r = run_sel(x, F_EXIT3);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 3);
    assert_int_equal(exec_cov(x)[0], 1);
    assert_int_equal(exec_cov(x)[1 + F_EXIT3], 1);
}

static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(exec_kind_name(EXEC_NORMAL), "normal");
    assert_string_equal(exec_kind_name(EXEC_TIMEOUT), "timeout");
    assert_string_equal(exec_kind_name(EXEC_OOM), "oom");
    assert_string_equal(exec_kind_name((exec_kind)99), "?");
}

static void test_fault_classes(void **state)
{
    (void)state;
    exec_t *x = fx_exec("faults64", 64, 0, TIMEOUT_MS);
    assert_healthy(x);

    exec_result r = run_sel(x, F_SEGV);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_int_equal(r.signal, SIGSEGV);
    assert_false(r.stack_overflow);
    assert_true(r.status & CTG_ST_STARTED);
    assert_healthy(x);

    r = run_sel(x, F_NULL_WRITE);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_false(r.stack_overflow);

    r = run_sel(x, F_ABORT);
    assert_int_equal(r.kind, EXEC_ABORT);
    assert_int_equal(r.signal, SIGABRT);
    assert_healthy(x);

    r = run_sel(x, F_LOOP);
    assert_int_equal(r.kind, EXEC_TIMEOUT);
    assert_int_equal(r.signal, SIGKILL);
    assert_int_equal(exec_cov(x)[1 + F_LOOP], 1); /* coverage of a timed-out run stays */
    assert_healthy(x);

    r = run_sel(x, F_RECURSE);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_int_equal(r.signal, SIGSEGV);
    assert_true(r.stack_overflow);
    assert_healthy(x);

    r = run_sel(x, F_MALLOC_100G);
    assert_int_equal(r.kind, EXEC_OOM);
    assert_true(r.status & CTG_ST_OOM);
    assert_int_equal(r.exit_code, CTG_EXIT_OOM);
    assert_healthy(x);

    r = run_sel(x, F_CALLOC_HUGE);
    assert_int_equal(r.kind, EXEC_OOM);

    r = run_sel(x, F_FORK_LOOP);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 5); /* every fork failed */
    assert_healthy(x);

    r = run_sel(x, F_STDOUT_1G);
    assert_true(r.kind == EXEC_NORMAL || r.kind == EXEC_TIMEOUT);
    if (r.kind == EXEC_NORMAL)
        assert_int_equal(r.exit_code, 0);
    assert_healthy(x);

    r = run_sel(x, F_STDIN);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 4); /* read() saw end of file */

    r = run_sel(x, F_ERROR);
    assert_int_equal(r.kind, EXEC_ERROR);
    assert_int_equal(r.error_site, 1);
    assert_int_equal(r.exit_code, CTG_EXIT_ERROR);

    r = run_sel(x, F_VERIFIER_ERROR);
    assert_int_equal(r.kind, EXEC_ERROR);
    assert_int_equal(r.error_site, 0xffffffffu);

    r = run_sel(x, F_ASSUME);
    assert_int_equal(r.kind, EXEC_ASSUME);
    assert_healthy(x);

    r = run_sel(x, 200); /* unknown selector: exits 100 */
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 100);

    assert_int_equal(exec_restarts(x), 0);
    assert_int_equal(exec_count(x), 23);
    exec_free(x);
}

/* The 32-bit runtime (--arch 32): the same classes where they differ. */
static void test_fault_classes_32(void **state)
{
    (void)state;
    if (access(fx_prog("faults32"), X_OK) != 0)
        skip(); /* no 32-bit libc on this machine */
    SKIP_UNLESS_EXEC32();
    exec_t *x = fx_exec("faults32", 64, 0, TIMEOUT_MS);
    assert_healthy(x);
    exec_result r = run_sel(x, F_RECURSE);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_true(r.stack_overflow);
    r = run_sel(x, F_SEGV);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_false(r.stack_overflow);
    r = run_sel(x, F_MALLOC_100G);
    assert_int_equal(r.kind, EXEC_OOM);
    r = run_sel(x, F_ERROR);
    assert_int_equal(r.kind, EXEC_ERROR);
    assert_int_equal(r.error_site, 1);
    r = run_sel(x, F_LOOP);
    assert_int_equal(r.kind, EXEC_TIMEOUT);
    assert_healthy(x);
    exec_free(x);
}

static void test_cov_reset_between_runs(void **state)
{
    (void)state;
    exec_t *x = fx_exec("faults64", 64, 0, TIMEOUT_MS);
    for (int i = 0; i < 100; i++) {
        exec_result r = run_sel(x, (uint8_t)(i % 2 ? F_EXIT3 : F_FORK_LOOP));
        assert_int_equal(r.kind, EXEC_NORMAL);
        const uint8_t *cov = exec_cov(x);
        assert_int_equal(cov[0], 1);
        assert_int_equal(cov[1 + F_EXIT3], i % 2 ? 1 : 0);
        assert_int_equal(cov[1 + F_FORK_LOOP], i % 2 ? 0 : 1);
    }
    assert_int_equal(exec_count(x), 100);
    exec_free(x);
}

static void test_stderr_log_capped(void **state)
{
    (void)state;
    char log[128];
    snprintf(log, sizeof log, "/tmp/ctg-test-stderr-%ld.log", (long)getpid());
    exec_config c = {fx_prog("faults64"), 64, 0, 2000, 0, log, NULL, 0, NULL, 0, false};
    ctg_err e = {{0}};
    exec_t *x = exec_new(&c, &e);
    assert_non_null(x);
    exec_result r = run_sel(x, F_STDERR_1G);
    assert_true(r.kind == EXEC_NORMAL || r.kind == EXEC_TIMEOUT);
    struct stat st;
    assert_int_equal(stat(log, &st), 0);
    assert_true(st.st_size > 0);
    assert_true(st.st_size <= (1 << 20));
    assert_healthy(x);
    exec_free(x);
    unlink(log);
}

static void test_restart_after_server_killed(void **state)
{
    (void)state;
    exec_t *x = fx_exec("faults64", 64, 0, TIMEOUT_MS);
    fx_out_clear();
    exec_result r = run_sel(x, F_PPID);
    assert_int_equal(r.kind, EXEC_NORMAL);
    long server = atol(fx_out_read());
    assert_true(server > 1);
    assert_int_equal(kill((pid_t)server, SIGKILL), 0);
    usleep(20000);
    assert_healthy(x);
    assert_int_equal(exec_restarts(x), 1);
    fx_out_clear();
    run_sel(x, F_PPID);
    assert_true(atol(fx_out_read()) != server);
    exec_free(x);
}

static void test_input_that_kills_server(void **state)
{
    (void)state;
    exec_t *x = fx_exec("faults64", 64, 0, TIMEOUT_MS);
    exec_result r = run_sel(x, F_KILL_SERVER);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_int_equal(r.signal, SIGKILL);
    assert_healthy(x);
    assert_true(exec_restarts(x) >= 2);
    exec_free(x);
}

/* Starts an executor that must fail and returns its message. */
static const char *start_error(const char *binary, uint32_t edges, uint32_t cmps)
{
    static ctg_err e;
    err_clear(&e);
    exec_config c = {binary, edges, cmps, TIMEOUT_MS, 0, NULL, NULL, 0, NULL, 0, false};
    exec_t *x = exec_new(&c, &e);
    assert_null(x);
    assert_true(err_is_set(&e));
    assert_null(strchr(e.msg, '\n'));
    return e.msg;
}

static void test_bad_binaries(void **state)
{
    (void)state;
    const char *m = start_error("/nonexistent/prog.cov", 1, 0);
    assert_non_null(strstr(m, "/nonexistent/prog.cov: cannot execute"));
    m = start_error("/bin/true", 1, 0);
    assert_non_null(strstr(m, "/bin/true: not built by this ctestgen"));
    m = start_error(fx_prog("nomain64"), 1, 0);
    assert_non_null(strstr(m, "not built by this ctestgen"));
    m = start_error(fx_prog("faults64"), 63, 0);
    assert_non_null(strstr(m, "not built by this ctestgen (protocol mismatch); rebuild"));
    m = start_error(fx_prog("faults64"), 64, 1);
    assert_non_null(strstr(m, "protocol mismatch"));

    /* the shared memory (over 150 MiB: the 16 MiB input area and its
     * value log) does not count against the program's memory limit: the
     * smallest limit --mem-limit takes still starts the server */
    ctg_err e = {{0}};
    exec_config c = {fx_prog("faults64"), 64, 0, TIMEOUT_MS, 16, NULL, NULL, 0, NULL, 0, false};
    exec_t *x = exec_new(&c, &e);
    assert_non_null(x);
    assert_int_equal(fx_run(x, (const uint8_t[]){F_EXIT3}, 1, 0, 0).exit_code, 3);
    exec_free(x);
    c.binary = NULL;
    assert_null(exec_new(&c, &e));
    assert_true(err_is_set(&e));
}

/* A program that writes over the value log (a wild write, as a buggy
 * program may do): the test made of its run keeps the values the runtime
 * logged, not the damage. */
static void test_scribbled_value_log(void **state)
{
    (void)state;
    exec_t *x = fx_exec("scribble64", 4, 0, TIMEOUT_MS);
    int32_t in[2] = {3, 4};
    exec_result r = fx_run(x, in, sizeof in, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    size_t n = 0;
    (void)exec_values(x, &n);
    assert_int_equal(n, 7); /* the damage is there: 5 records nobody wrote */
    test_t *t = test_from_exec(x, &r);
    assert_non_null(t);
    assert_int_equal(t->n_vals, 2);
    assert_int_equal(t->len, sizeof in);
    test_free(t);
    exec_free(x);
}

static void test_input_too_long_is_truncated(void **state)
{
    (void)state;
    exec_t *x = fx_exec("faults64", 64, 0, TIMEOUT_MS);
    size_t n = CTG_MAX_INPUT + 100u;
    uint8_t *big = ctg_calloc(1, n);
    assert_non_null(big);
    big[0] = F_EXIT3;
    exec_result r = fx_run(x, big, n, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    size_t len;
    exec_input(x, &len);
    assert_int_equal(len, CTG_MAX_INPUT);
    assert_int_equal(exec_consumed(x), 1);
    ctg_free(big);
    exec_free(x);
}

/* ==== crash sites (tests/programs/sites.c) ================================== */

enum {
    S_EXIT, S_SEGV_A, S_SEGV_B, S_ASSERT, S_FPE, S_ILL, S_BUS, S_STRLEN, S_ABORT, S_RAISE,
    S_RECURSE, S_OWN_HANDLER, S_SEGV_A2, S_HANG_UNLESS, S_FPE_BAD_FP, S__COUNT
};

/* Runs sites.c with selector sel after `rounds` loop rounds. */
static exec_result run_site(exec_t *x, uint8_t sel, uint8_t rounds)
{
    uint8_t in[2] = {sel, rounds};
    return fx_run(x, in, sizeof in, 0, 0);
}

/* Runs sel and checks kind and signal; returns the (non-zero) site. */
static uint64_t site_of(exec_t *x, uint8_t sel, exec_kind kind, int sig)
{
    exec_result r = run_site(x, sel, 3);
    if (r.kind != kind || r.signal != sig || r.crash_site == 0)
        fail_msg("selector %u: kind %s signal %d site %llx", sel, exec_kind_name(r.kind),
                 r.signal, (unsigned long long)r.crash_site);
    return r.crash_site;
}

/* Every fatal signal of sites.c gets a site of its own; the same place
 * reached by other inputs, or in another fork server (another address-space
 * layout), gets the same site; a normal run has none. */
static void check_sites(const char *prog)
{
    exec_t *x = fx_exec(prog, 4, 0, TIMEOUT_MS);
    exec_result r = run_site(x, S_EXIT, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.crash_site, 0);

    uint64_t s[S__COUNT] = {0};
    s[S_SEGV_A] = site_of(x, S_SEGV_A, EXEC_CRASH, SIGSEGV);
    s[S_SEGV_B] = site_of(x, S_SEGV_B, EXEC_CRASH, SIGSEGV);
    s[S_SEGV_A2] = site_of(x, S_SEGV_A2, EXEC_CRASH, SIGSEGV);
    s[S_ASSERT] = site_of(x, S_ASSERT, EXEC_ABORT, SIGABRT);
    s[S_ABORT] = site_of(x, S_ABORT, EXEC_ABORT, SIGABRT);
    s[S_FPE] = site_of(x, S_FPE, EXEC_CRASH, SIGFPE);
    s[S_ILL] = site_of(x, S_ILL, EXEC_CRASH, SIGILL);
    s[S_BUS] = site_of(x, S_BUS, EXEC_CRASH, SIGBUS);
    s[S_STRLEN] = site_of(x, S_STRLEN, EXEC_CRASH, SIGSEGV);
    s[S_RAISE] = site_of(x, S_RAISE, EXEC_CRASH, SIGSEGV);
    for (int i = 0; i < S__COUNT; i++)
        for (int j = i + 1; j < S__COUNT; j++)
            if (s[i] && s[i] == s[j])
                fail_msg("selectors %d and %d share the site %llx", i, j,
                         (unsigned long long)s[i]);

    /* the same site through other inputs */
    for (unsigned rounds = 0; rounds < 256; rounds += 51) {
        r = run_site(x, S_SEGV_A, (uint8_t)rounds);
        assert_int_equal(r.crash_site, s[S_SEGV_A]);
        r = run_site(x, S_ASSERT, (uint8_t)rounds);
        assert_int_equal(r.kind, EXEC_ABORT);
        assert_int_equal(r.crash_site, s[S_ASSERT]);
    }
    r = run_site(x, S_RECURSE, 0);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_true(r.stack_overflow);
    assert_true(r.crash_site == CTG_CRASH_SITE_STACK_OVF);
    /* the handler's unwinder faults on a smashed frame pointer: the process
     * still dies of the original signal */
    r = run_site(x, S_FPE_BAD_FP, 0);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_int_equal(r.signal, SIGFPE);
    /* the program's own handler replaces ours */
    r = run_site(x, S_OWN_HANDLER, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 42);
    /* a stale site is not reported by the next run */
    r = run_site(x, S_EXIT, 0);
    assert_int_equal(r.crash_site, 0);
    exec_free(x);

    /* a new fork server: another load address, the same sites */
    x = fx_exec(prog, 4, 0, TIMEOUT_MS);
    assert_true(site_of(x, S_SEGV_A, EXEC_CRASH, SIGSEGV) == s[S_SEGV_A]);
    assert_true(site_of(x, S_STRLEN, EXEC_CRASH, SIGSEGV) == s[S_STRLEN]);
    assert_true(site_of(x, S_ASSERT, EXEC_ABORT, SIGABRT) == s[S_ASSERT]);
    exec_free(x);
}

static void test_crash_sites(void **state)
{
    (void)state;
    check_sites("sites64");
}

static void test_crash_sites_32(void **state)
{
    (void)state;
    if (access(fx_prog("sites32"), X_OK) != 0)
        skip(); /* no 32-bit libc on this machine */
    SKIP_UNLESS_EXEC32();
    check_sites("sites32");
}

/* Persistent mode (libFuzzer targets): every kind of ending is reported
 * for the right run, normal runs after the first share a process, a child
 * is replaced after CTG_PERSIST_MAX runs or when it leaks, and the channel
 * never falls out of step. */
static void test_persistent(void **state)
{
    (void)state;
    exec_t *x = fx_exec("persist64", 4, 0, 1000); /* generous: only H hangs */
    static const char script[] = "nnCnAnnXnEnHnn";
    for (int round = 0; round < 3; round++)
        for (const char *p = script; *p; p++) {
            uint8_t in = (uint8_t)*p;
            exec_result r = fx_run(x, &in, 1, 0, 0);
            const uint8_t *cov = exec_cov(x);
            assert_int_equal(cov[0], 1);
            switch (*p) {
            case 'n':
                if (r.kind != EXEC_NORMAL)
                    fail_msg("round %d, run %d ('%c' after '%c'): %s, signal %d", round,
                             (int)(p - script), *p, p > script ? p[-1] : '-',
                             exec_kind_name(r.kind), r.signal);
                assert_int_equal(r.exit_code, 0);
                if (p > script && p[-1] == 'n')
                    assert_int_equal(cov[1], 1); /* same process as the last run */
                break;
            case 'C': assert_int_equal(r.kind, EXEC_CRASH); break;
            case 'A': assert_int_equal(r.kind, EXEC_ABORT); break;
            case 'H': assert_int_equal(r.kind, EXEC_TIMEOUT); break;
            case 'E': assert_int_equal(r.kind, EXEC_ERROR); break;
            case 'X':
                assert_int_equal(r.kind, EXEC_NORMAL);
                assert_int_equal(r.exit_code, 7);
                break;
            }
            if (*p != 'n')
                assert_int_equal(exec_restarts(x), 0); /* the server survives */
        }
    /* CTG_PERSIST_MAX runs per process, then a fresh one: the process of
     * the script's last two runs goes on, ends at its CTG_PERSIST_MAX-th
     * run, and its successor at its own */
    uint8_t in = 'n';
    int last = 0, fresh = 0;
    for (uint32_t i = 0; i < 2 * CTG_PERSIST_MAX + 100; i++) {
        exec_result r = fx_run(x, &in, 1, 0, 0);
        assert_int_equal(r.kind, EXEC_NORMAL);
        last += exec_cov(x)[2];
        fresh += !exec_cov(x)[1];
    }
    assert_int_equal(last, 2);
    assert_int_equal(fresh, 2);
    /* a leak wears a child out: it is replaced at the first check
     * (every CTG_PERSIST_CHECK runs) after it grew too much */
    static const uint8_t leaks[] = {'F', 'M'};
    static const uint32_t enough[] = {CTG_PERSIST_GROW_FDS + 8, CTG_PERSIST_GROW_MB + 16};
    for (int k = 0; k < 2; k++) {
        in = 'X'; /* a fresh process */
        fx_run(x, &in, 1, 0, 0);
        fresh = 0;
        for (uint32_t i = 0; i < 2 * CTG_PERSIST_CHECK + enough[k]; i++) {
            in = i < enough[k] ? leaks[k] : 'n';
            exec_result r = fx_run(x, &in, 1, 0, 0);
            assert_int_equal(r.kind, EXEC_NORMAL);
            fresh += !exec_cov(x)[1];
        }
        if (fresh != 2) /* the one after 'X', and its replacement */
            fail_msg("leak '%c': %d fresh processes in 2 checks, expected 2", leaks[k], fresh);
    }
    /* without a leak, a check keeps the child */
    in = 'X';
    fx_run(x, &in, 1, 0, 0);
    fresh = 0;
    in = 'n';
    for (uint32_t i = 0; i < 3 * CTG_PERSIST_CHECK; i++) {
        fx_run(x, &in, 1, 0, 0);
        fresh += !exec_cov(x)[1];
    }
    assert_int_equal(fresh, 1); /* the one after 'X' */
    exec_free(x);
}

/* ==== batches ================================================================ */

#define BATCH_EDGES 4
#define BATCH_CMPS 3
#define BATCH_KNOWN (BATCH_EDGES + 1 + BATCH_CMPS) /* ctg_cov_len */
#define BATCH_N 300

/* Whether the counters of a run hold a bucket known lacks; merges them. */
static bool news(uint8_t *known, const uint8_t *cov)
{
    bool n = false;
    for (int j = 0; j < BATCH_EDGES; j++) {
        n |= (ctg_bucket(cov[j]) & ~known[j]) != 0;
        known[j] |= ctg_bucket(cov[j]);
    }
    return n;
}

/* BATCH_N inputs over "abcx", 0 to 40 bytes (a fixed generator). */
static void batch_inputs(uint8_t in[BATCH_N][40], size_t len[BATCH_N])
{
    uint64_t s = 7;
    for (int i = 0; i < BATCH_N; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        len[i] = (size_t)(s >> 33) % 41;
        for (size_t k = 0; k < len[i]; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            in[i][k] = (uint8_t)"abcx"[(s >> 40) % 4];
        }
    }
}

/* exec_set_overlap hooks: count the calls; the slow one also takes 250 ms,
 * longer than the runs' 200 ms timeout. */
static void count_call(void *arg) { ++*(int *)arg; }
static void slow_call(void *arg)
{
    ++*(int *)arg;
    usleep(250 * 1000);
}

/* Inputs run in batches are classified exactly as run one by one: the
 * same inputs are news, with the same counters, and the rest are plain. */
static void test_batch_classifies_as_single_runs(void **state)
{
    (void)state;
    static uint8_t in[BATCH_N][40];
    static size_t len[BATCH_N];
    static uint8_t ref_cov[BATCH_N][BATCH_EDGES];
    bool ref_news[BATCH_N] = {0};
    batch_inputs(in, len);
    exec_t *x = fx_exec("batch64", BATCH_EDGES, BATCH_CMPS, 1000);
    uint8_t known[BATCH_KNOWN] = {0};
    int n_news = 0;
    for (int i = 0; i < BATCH_N; i++) {
        exec_result r = fx_run(x, in[i], len[i], 0, 0);
        assert_int_equal(r.kind, EXEC_NORMAL);
        memcpy(ref_cov[i], exec_cov(x), BATCH_EDGES);
        ref_news[i] = news(known, ref_cov[i]);
        n_news += ref_news[i];
    }
    assert_true(n_news >= 5 && n_news < BATCH_N / 4); /* the test means something */
    assert_true(exec_can_batch(x));
    const uint8_t *ptrs[BATCH_N];
    for (int i = 0; i < BATCH_N; i++)
        ptrs[i] = in[i];
    memset(known, 0, sizeof known);
    uint64_t runs0 = exec_count(x);
    int i = 0, batches = 0, overlaps = 0;
    exec_set_overlap(x, count_call, &overlaps);
    while (i < BATCH_N) {
        exec_batch b;
        exec_result r;
        ctg_err e = {{0}};
        if (!exec_run_batch(x, ptrs + i, len + i, (uint32_t)(BATCH_N - i), known, 0, &b, &r, &e))
            fail_msg("exec_run_batch: %s", e.msg);
        assert_true(b.ran >= 1);
        batches++;
        for (uint32_t k = 0; k + (b.stopped ? 1u : 0u) < b.ran; k++)
            if (ref_news[i + (int)k])
                fail_msg("input %d is news but ran as plain in a batch", i + (int)k);
        i += (int)b.ran;
        if (!b.stopped)
            continue;
        int s = i - 1;
        if (!ref_news[s])
            fail_msg("input %d stopped the batch but is not news", s);
        assert_int_equal(r.kind, EXEC_NORMAL);
        assert_memory_equal(exec_cov(x), ref_cov[s], BATCH_EDGES);
        size_t l;
        const uint8_t *got = exec_input(x, &l);
        assert_int_equal(l, len[s]);
        assert_memory_equal(got, in[s], len[s]);
        assert_true(news(known, exec_cov(x)));
    }
    assert_int_equal(exec_count(x) - runs0, BATCH_N);
    assert_true(batches < BATCH_N / 2); /* plain inputs shared batches */
    assert_int_equal(overlaps, batches); /* once per batch */
    exec_free(x);
}

/* A crash and a hang inside a batch are each the result of the input that
 * caused them; the batch goes on after them with a fresh child.  The
 * caller's overlap work may take longer than the timeout: a run that ends
 * meanwhile is no hang, a hang still is one. */
static void test_batch_crash_and_timeout(void **state)
{
    (void)state;
    exec_t *x = fx_exec("batch64", BATCH_EDGES, BATCH_CMPS, 200);
    int overlaps = 0;
    exec_set_overlap(x, slow_call, &overlaps);
    uint8_t known[BATCH_KNOWN];
    memset(known, 0xff, sizeof known); /* every normal run is plain */
    static const char *const in[] = {"a", "x", "C", "xc", "H", "b", "ccc"};
    const uint8_t *ptrs[7];
    size_t len[7];
    for (int i = 0; i < 7; i++)
        ptrs[i] = (const uint8_t *)in[i], len[i] = strlen(in[i]);
    static const struct {
        uint32_t ran;
        bool stopped;
        exec_kind kind;
    } want[] = {{3, true, EXEC_CRASH}, {2, true, EXEC_TIMEOUT}, {2, false, EXEC_NORMAL}};
    int at = 0;
    for (int k = 0; k < 3; k++) {
        exec_batch b;
        exec_result r;
        ctg_err e = {{0}};
        if (!exec_run_batch(x, ptrs + at, len + at, (uint32_t)(7 - at), known, 0, &b, &r, &e))
            fail_msg("exec_run_batch: %s", e.msg);
        assert_int_equal(b.ran, want[k].ran);
        assert_int_equal(b.stopped, want[k].stopped);
        if (b.stopped) {
            assert_int_equal(r.kind, want[k].kind);
            size_t l;
            const uint8_t *got = exec_input(x, &l);
            assert_int_equal(l, 1);
            assert_int_equal(got[0], in[at + (int)b.ran - 1][0]);
        }
        at += (int)b.ran;
    }
    assert_int_equal(exec_count(x), 7);
    assert_int_equal(exec_restarts(x), 0); /* the server survives both */
    assert_int_equal(overlaps, 3);
    exec_free(x);
}

/* The watched comparisons of a batch's logged inputs are what a run of
 * the same input alone with comparison logging records at those sites
 * (the ones whose operands differ, in the order of the watch list); an
 * input that was not logged has none to read. */
static void test_batch_watch(void **state)
{
    (void)state;
    exec_t *x = fx_exec("batch64", BATCH_EDGES, BATCH_CMPS, 1000);
    static const char *const in[] = {"ak", "abc", "", "xkx", "q", "zz", "abk", "xk"};
    enum { N = sizeof in / sizeof *in };
    const uint8_t *ptrs[N];
    size_t len[N];
    uint8_t log[N];
    for (int i = 0; i < N; i++)
        ptrs[i] = (const uint8_t *)in[i], len[i] = strlen(in[i]), log[i] = i != 5;
    static const uint32_t sites[] = {1, 0}; /* the length first */
    uint8_t known[BATCH_KNOWN];
    memset(known, 0xff, sizeof known); /* every normal run is plain */
    exec_set_watch(x, sites, 2, log);
    exec_batch b;
    exec_result r;
    ctg_err e = {{0}};
    if (!exec_run_batch(x, ptrs, len, N, known, 0, &b, &r, &e))
        fail_msg("exec_run_batch: %s", e.msg);
    exec_set_watch(x, NULL, 0, NULL);
    assert_int_equal(b.ran, N);
    assert_false(b.stopped);
    ctg_cmp_rec got[N][CTG_WATCH_REC];
    uint32_t n_got[N];
    for (int i = 0; i < N; i++) {
        const ctg_cmp_rec *rec;
        n_got[i] = exec_batch_broken(x, (uint32_t)i, &rec);
        if (n_got[i] != UINT32_MAX)
            memcpy(got[i], rec, n_got[i] * sizeof *rec);
    }
    assert_int_equal(n_got[5], UINT32_MAX);
    assert_int_equal(n_got[0], 1); /* "ak": length 2 != 3; 'k' == 'k' */
    assert_int_equal(n_got[1], 1); /* "abc": 'b' != 'k'; length 3 */
    assert_int_equal(n_got[4], 2); /* "q": both, the length first */
    for (int i = 0; i < N; i++) {
        if (i == 5)
            continue;
        fx_run(x, ptrs[i], len[i], CTG_FL_CMPLOG, 0);
        const ctg_cmp_rec *c = exec_cmp(x);
        uint32_t want = 0;
        for (int k = 0; k < 2; k++) {
            const ctg_cmp_rec *w = &c[sites[k]];
            if (!w->hits || w->a == w->b)
                continue;
            assert_true(want < n_got[i]);
            assert_memory_equal(&got[i][want], w, sizeof *w);
            want++;
        }
        assert_int_equal(want, n_got[i]);
    }
    exec_free(x);
}

/* A run whose string compare had two non-empty operands sets the site's
 * feature, after the edges and the spare counter; in a batch it is news
 * until the known map has the feature's bucket. */
static void test_batch_feature(void **state)
{
    (void)state;
    exec_t *x = fx_exec("batch64", BATCH_EDGES, BATCH_CMPS, 1000);
    const uint64_t feat = CTG_FEAT_AT(BATCH_EDGES, 2);
    assert_int_equal(ctg_cov_len(BATCH_EDGES, BATCH_CMPS), BATCH_KNOWN);
    fx_run(x, "=", 1, 0, 0);
    assert_int_equal(exec_cov(x)[feat], 0);
    fx_run(x, "=ke", 3, 0, 0);
    assert_int_equal(exec_cov(x)[feat], 1);
    for (uint64_t j = BATCH_EDGES + 1; j < BATCH_KNOWN; j++)
        assert_int_equal(exec_cov(x)[j], j == feat);

    static const char *const in[] = {"a", "=", "b", "=x", "c"};
    const uint8_t *ptrs[5];
    size_t len[5];
    for (int i = 0; i < 5; i++)
        ptrs[i] = (const uint8_t *)in[i], len[i] = strlen(in[i]);
    uint8_t known[BATCH_KNOWN];
    memset(known, 0xff, BATCH_EDGES + 1); /* every edge is known */
    memset(known + BATCH_EDGES + 1, 0, BATCH_CMPS);
    exec_batch b;
    exec_result r;
    ctg_err e = {{0}};
    if (!exec_run_batch(x, ptrs, len, 5, known, 0, &b, &r, &e))
        fail_msg("exec_run_batch: %s", e.msg);
    assert_true(b.stopped);
    assert_int_equal(b.ran, 4); /* "=x" */
    assert_int_equal(exec_cov(x)[feat], 1);
    known[feat] = ctg_bucket(1);
    if (!exec_run_batch(x, ptrs, len, 5, known, 0, &b, &r, &e))
        fail_msg("exec_run_batch: %s", e.msg);
    assert_false(b.stopped);
    assert_int_equal(b.ran, 5);
    exec_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_fault_classes),
        cmocka_unit_test(test_fault_classes_32),
        cmocka_unit_test(test_cov_reset_between_runs),
        cmocka_unit_test(test_stderr_log_capped),
        cmocka_unit_test(test_restart_after_server_killed),
        cmocka_unit_test(test_input_that_kills_server),
        cmocka_unit_test(test_bad_binaries),
        cmocka_unit_test(test_input_too_long_is_truncated),
        cmocka_unit_test(test_scribbled_value_log),
        cmocka_unit_test(test_crash_sites),
        cmocka_unit_test(test_crash_sites_32),
        cmocka_unit_test(test_persistent),
        cmocka_unit_test(test_batch_classifies_as_single_runs),
        cmocka_unit_test(test_batch_crash_and_timeout),
        cmocka_unit_test(test_batch_watch),
        cmocka_unit_test(test_batch_feature),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fx_out_clear();
    return rc;
}
