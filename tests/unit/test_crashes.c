/*
 * test_crashes.c - crashes/ deduplicated by signature and minimised
 * (src/search/crashes.c), on runs of tests/programs/sites.c through the
 * executor: one file per signature, a smaller input of a known crash
 * replaces its file in place, minimisation shrinks every queued crash to its
 * smallest input within its run budget, stops when the runner refuses, and
 * never loops on an input it cannot shrink.
 */
#include <signal.h>
#include <sys/stat.h>

#include "exec_fixture.h"
#undef test_free /* cmocka's allocation-checking macro; ours is a function */
#include "search/crashes.h"
#include "suite/suite.h"
#include "suite/test.h"

#define TIMEOUT_MS 1000u

enum { S_EXIT, S_SEGV_A, S_SEGV_B, S_ASSERT, S_HANG_UNLESS = 13 };

/* ==== fixture ================================================================ */

static char tmp_root[256];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ctg-test-crashes-XXXXXX");
    return mkdtemp(tmp_root) ? 0 : -1;
}

static int drop_tmp(void **state)
{
    (void)state;
    return fs_rm_rf(tmp_root, NULL) ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmp_root, name);
    return buf;
}

static const suite_meta meta = {"sites.c", "ab12", "main", 64, NULL, "ctestgen test", false, NULL, 0, false};

/* Opens a suite in tmp_root/<dir>. */
static suite_t *open_suite(const char *dir)
{
    ctg_err e = {{0}};
    suite_t *s = suite_open(tmp_path(dir), &meta, &e);
    if (!s)
        fail_msg("suite_open: %s", e.msg);
    return s;
}

/* Size of crash file `name` of tmp_root/<dir>/crashes, -1 when missing. */
static long crash_size(const char *dir, const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "%s/crashes/%s", dir, name);
    struct stat st;
    return stat(tmp_path(rel), &st) == 0 ? (long)st.st_size : -1;
}

/* Input: selector, rounds, then `rounds` filler bytes. */
static size_t make_input(uint8_t *buf, uint8_t sel, uint8_t rounds)
{
    buf[0] = sel;
    buf[1] = rounds;
    for (unsigned i = 0; i < rounds; i++)
        buf[2 + i] = (uint8_t)(i * 7u + 1u);
    return 2u + rounds;
}

/* Runs sites.c on (sel, rounds) and records the run in namespace ns. */
static exec_result record(crashes_t *cs, exec_t *x, uint8_t sel, uint8_t rounds, unsigned ns)
{
    uint8_t in[300];
    size_t n = make_input(in, sel, rounds);
    exec_result r = fx_run(x, in, n, 0, 0);
    ctg_err e = {{0}};
    if (!crashes_record(cs, x, &r, ns, 1, 0.0, &e))
        fail_msg("crashes_record: %s", e.msg);
    return r;
}

/* A runner counting its runs and refusing after `limit` (0: never). */
typedef struct counter {
    exec_t *x;
    unsigned runs, limit;
    unsigned timeouts;
} counter;

static bool count_run(void *arg, const uint8_t *in, size_t len, exec_result *r)
{
    counter *k = arg;
    if (k->limit && k->runs >= k->limit)
        return false;
    k->runs++;
    ctg_err e = {{0}};
    if (!exec_run(k->x, in, len, 0, 0, r, &e))
        fail_msg("exec_run: %s", e.msg);
    k->timeouts += r->kind == EXEC_TIMEOUT;
    return true;
}

static void minimise(crashes_t *cs, counter *k, unsigned ns)
{
    crash_runner rn = {k->x, count_run, k};
    ctg_err e = {{0}};
    if (!crashes_minimise(cs, ns, &rn, &e))
        fail_msg("crashes_minimise: %s", e.msg);
}

/* ==== tests ================================================================== */

static void test_signatures(void **state)
{
    (void)state;
    exec_result a = {0}, b = {0};
    a.kind = b.kind = EXEC_ERROR;
    a.error_site = 1;
    b.error_site = 2;
    crash_sig sa = crash_signature(&a, 0), sb = crash_signature(&b, 0);
    assert_false(crash_sig_equal(&sa, &sb));
    b.error_site = 1;
    sb = crash_signature(&b, 1); /* error sites are the program's, not a binary's */
    assert_true(crash_sig_equal(&sa, &sb));

    a.kind = b.kind = EXEC_TIMEOUT;
    a.signal = SIGKILL;
    a.crash_site = 5;
    sa = crash_signature(&a, 0), sb = crash_signature(&b, 1);
    assert_true(crash_sig_equal(&sa, &sb)); /* the kind alone */
    a.kind = b.kind = EXEC_OOM;
    sa = crash_signature(&a, 0), sb = crash_signature(&b, 0);
    assert_true(crash_sig_equal(&sa, &sb));

    memset(&a, 0, sizeof a);
    a.kind = EXEC_CRASH;
    a.signal = SIGSEGV;
    a.crash_site = 0x1234;
    b = a;
    sa = crash_signature(&a, 0), sb = crash_signature(&b, 0);
    assert_true(crash_sig_equal(&sa, &sb));
    b.crash_site = 0x1235;
    sb = crash_signature(&b, 0);
    assert_false(crash_sig_equal(&sa, &sb));
    b = a;
    b.signal = SIGBUS;
    sb = crash_signature(&b, 0);
    assert_false(crash_sig_equal(&sa, &sb));
    b = a;
    b.kind = EXEC_ABORT;
    sb = crash_signature(&b, 0);
    assert_false(crash_sig_equal(&sa, &sb));
    sb = crash_signature(&a, 1); /* prog.sym's addresses are not prog.cov's */
    assert_false(crash_sig_equal(&sa, &sb));

    /* stack overflows: kind, signal and the flag, whatever the site */
    a.stack_overflow = b.stack_overflow = true;
    b = a;
    b.crash_site = 99;
    sa = crash_signature(&a, 0), sb = crash_signature(&b, 1);
    assert_true(crash_sig_equal(&sa, &sb));
    assert_true(crash_is_kind(EXEC_CRASH) && crash_is_kind(EXEC_ERROR) &&
                crash_is_kind(EXEC_TIMEOUT));
    assert_false(crash_is_kind(EXEC_NORMAL) || crash_is_kind(EXEC_ASSUME));
}

/* One file per signature; a strictly smaller input replaces it in place. */
static void test_dedupe_and_replace(void **state)
{
    (void)state;
    suite_t *s = open_suite("dedupe");
    crashes_t *cs = crashes_new(s, "prog.cov", 0);
    exec_t *x = fx_exec("sites64", 4, 0, TIMEOUT_MS);
    assert_non_null(cs);

    record(cs, x, S_EXIT, 10, 0);
    assert_int_equal(crashes_count(cs), 0);
    exec_result r = record(cs, x, S_SEGV_A, 200, 0);
    assert_int_equal(r.kind, EXEC_CRASH);
    assert_int_equal(crashes_count(cs), 1);
    assert_int_equal(crash_size("dedupe", "crash-00000"), 202);
    record(cs, x, S_SEGV_A, 3, 0); /* same crash, smaller: replaces */
    assert_int_equal(crashes_count(cs), 1);
    assert_int_equal(crash_size("dedupe", "crash-00000"), 5);
    record(cs, x, S_SEGV_A, 100, 0); /* larger: ignored */
    record(cs, x, S_SEGV_A, 3, 0);   /* as large: ignored */
    assert_int_equal(crashes_count(cs), 1);
    assert_int_equal(crash_size("dedupe", "crash-00000"), 5);
    assert_int_equal(crash_size("dedupe", "crash-00001"), -1);

    record(cs, x, S_SEGV_B, 50, 0); /* another site: a file of its own */
    assert_int_equal(crashes_count(cs), 2);
    assert_int_equal(crash_size("dedupe", "crash-00001"), 52);
    r = record(cs, x, S_ASSERT, 7, 0);
    assert_int_equal(r.kind, EXEC_ABORT);
    record(cs, x, S_ASSERT, 70, 0);
    assert_int_equal(crashes_count(cs), 3);
    assert_int_equal(crash_size("dedupe", "abort-00002"), 9);
    record(cs, x, S_SEGV_A, 20, 1); /* prog.sym's namespace */
    assert_int_equal(crashes_count(cs), 4);
    assert_int_equal(suite_n_crashes(s), 4);
    assert_false(crashes_pending(cs, 0)); /* min_execs 0: nothing queued */

    char *text;
    assert_true(fs_read(tmp_path("dedupe/crashes/crash-00000.txt"), &text, NULL, NULL));
    assert_non_null(strstr(text, "crash: signal 11 (Segmentation fault) at site 0x"));
    assert_non_null(strstr(text, "; 5 input bytes; found at execution 1"));
    ctg_free(text);
    crashes_free(cs);
    suite_close(s);
    exec_free(x);
}

/* Minimisation shrinks each queued crash to its smallest input: the
 * selector byte (rounds and fillers run out as 0). */
static void test_minimise(void **state)
{
    (void)state;
    suite_t *s = open_suite("min");
    crashes_t *cs = crashes_new(s, NULL, 64);
    exec_t *x = fx_exec("sites64", 4, 0, TIMEOUT_MS);
    record(cs, x, S_SEGV_A, 200, 0);
    record(cs, x, S_SEGV_B, 37, 0);
    record(cs, x, S_ASSERT, 255, 0);
    assert_int_equal(crashes_count(cs), 3);
    assert_true(crashes_pending(cs, 0));
    assert_false(crashes_pending(cs, 1));
    assert_int_equal(crash_size("min", "crash-00000"), 202);

    counter k = {x, 0, 0, 0};
    minimise(cs, &k, 0);
    assert_false(crashes_pending(cs, 0));
    assert_true(k.runs > 3);
    assert_true(k.runs <= 3 * 64);
    assert_int_equal(crash_size("min", "crash-00000"), 1);
    assert_int_equal(crash_size("min", "crash-00001"), 1);
    assert_int_equal(crash_size("min", "abort-00002"), 1);
    char *data;
    size_t n;
    assert_true(fs_read(tmp_path("min/crashes/crash-00001"), &data, &n, NULL));
    assert_int_equal(data[0], S_SEGV_B);
    ctg_free(data);
    assert_true(fs_read(tmp_path("min/crashes/crash-00000.txt"), &data, NULL, NULL));
    assert_non_null(strstr(data, "; 1 input byte; found at execution 1"));
    ctg_free(data);

    /* nothing left: no runs */
    unsigned before = k.runs;
    minimise(cs, &k, 0);
    assert_int_equal(k.runs, before);
    /* a larger input of a minimised crash changes nothing */
    record(cs, x, S_SEGV_A, 9, 0);
    assert_int_equal(crash_size("min", "crash-00000"), 1);
    assert_false(crashes_pending(cs, 0));
    crashes_free(cs);
    suite_close(s);
    exec_free(x);
}

/* The run budget of each minimisation holds; a refusing runner ends it with
 * what it reached; an input that cannot shrink costs a few runs only. */
static void test_minimise_bounded(void **state)
{
    (void)state;
    suite_t *s = open_suite("bounded");
    crashes_t *cs = crashes_new(s, NULL, 5);
    exec_t *x = fx_exec("sites64", 4, 0, TIMEOUT_MS);
    record(cs, x, S_SEGV_A, 200, 0);
    counter k = {x, 0, 0, 0};
    minimise(cs, &k, 0);
    assert_int_equal(k.runs, 5);
    long size = crash_size("bounded", "crash-00000");
    assert_true(size >= 1 && size < 202); /* 5 runs: first halves kept */
    assert_false(crashes_pending(cs, 0));
    crashes_free(cs);

    cs = crashes_new(s, NULL, 1000);
    record(cs, x, S_SEGV_B, 100, 0);
    k.runs = 0;
    k.limit = 3; /* the budget of the run is spent after 3 */
    minimise(cs, &k, 0);
    assert_int_equal(k.runs, 3);
    assert_false(crashes_pending(cs, 0));
    crashes_free(cs);

    cs = crashes_new(s, NULL, 1000);
    uint8_t one = S_ASSERT;
    exec_result r = fx_run(x, &one, 1, 0, 0);
    ctg_err e = {{0}};
    assert_true(crashes_record(cs, x, &r, 0, 1, 0.0, &e));
    k.runs = 0;
    k.limit = 0;
    minimise(cs, &k, 0);
    assert_true(k.runs >= 1 && k.runs <= 2); /* the byte, then the value */
    crashes_free(cs);

    /* a timeout is recorded but not minimised (each try costs a timeout) */
    cs = crashes_new(s, NULL, 1000);
    r = fx_run(x, &one, 1, 0, 0);
    r.kind = EXEC_TIMEOUT;
    assert_true(crashes_record(cs, x, &r, 0, 1, 0.0, &e));
    assert_int_equal(crashes_count(cs), 1);
    assert_false(crashes_pending(cs, 0));
    crashes_free(cs);
    suite_close(s);
    exec_free(x);
}

/* Candidates that hang end a minimisation after 3 timeouts: each costs a
 * whole timeout. */
static void test_minimise_hangs(void **state)
{
    (void)state;
    suite_t *s = open_suite("hangs");
    crashes_t *cs = crashes_new(s, NULL, 1000);
    exec_t *x = fx_exec("sites64", 4, 0, 200);
    uint8_t in[64];
    size_t n = make_input(in, S_HANG_UNLESS, 40);
    in[n++] = 1; /* set: crash */
    exec_result r = fx_run(x, in, n, 0, 0);
    assert_int_equal(r.kind, EXEC_CRASH);
    ctg_err e = {{0}};
    assert_true(crashes_record(cs, x, &r, 0, 1, 0.0, &e));
    counter k = {x, 0, 0, 0};
    minimise(cs, &k, 0);
    assert_int_equal(k.timeouts, 3);
    assert_true(k.runs < 20);
    assert_false(crashes_pending(cs, 0));
    crashes_free(cs);
    suite_close(s);
    exec_free(x);
}

/* Out of memory while recording is reported, never a crash. */
static void test_record_oom(void **state)
{
    (void)state;
    suite_t *s = open_suite("oom");
    crashes_t *cs = crashes_new(s, NULL, 0);
    exec_t *x = fx_exec("sites64", 4, 0, TIMEOUT_MS);
    uint8_t in[2] = {S_SEGV_A, 0};
    exec_result r = fx_run(x, in, 2, 0, 0);
    for (long n = 0; n < 64; n++) {
        ctg_err e = {{0}};
        mem_fail_after(n);
        bool ok = crashes_record(cs, x, &r, 0, 1, 0.0, &e);
        mem_fail_reset();
        if (ok && crashes_count(cs) == 1)
            break;
        assert_false(ok);
        assert_true(err_is_set(&e));
    }
    assert_int_equal(crashes_count(cs), 1);
    crashes_free(cs);
    suite_close(s);
    exec_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_dedupe_and_replace),
        cmocka_unit_test(test_minimise),
        cmocka_unit_test(test_minimise_bounded),
        cmocka_unit_test(test_minimise_hangs),
        cmocka_unit_test(test_record_oom),
    };
    return cmocka_run_group_tests(tests, make_tmp, drop_tmp);
}
