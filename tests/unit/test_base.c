/*
 * test_base.c - the small modules of src/base/ that had no test of their
 * own: err (the first report wins, err_sys appends strerror, long messages
 * are cut, not overrun), sbuf (growth, printf, take, a failed allocation
 * makes the buffer not ok and later appends harmless), rng (a seed gives
 * one stream, bounds hold, below() is not biased to a bucket),
 * interrupt (a signal is a request; hold forgets and restores it) and proc
 * (exit codes, captured output, stdin from a file, a timeout that kills,
 * the shell quoting of reproduce commands, a missing program).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "base/fsutil.h"
#include "base/interrupt.h"
#include "base/mem.h"
#include "base/proc.h"
#include "base/rng.h"
#include "base/sbuf.h"

static void test_err_first_wins(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    assert_false(err_is_set(&e));
    assert_false(err_set(&e, "%s: bad line %d; fix it", "a.c", 3));
    assert_false(err_set(&e, "later"));
    assert_string_equal(e.msg, "a.c: bad line 3; fix it");
    err_clear(&e);
    assert_false(err_is_set(&e));
    errno = ENOENT;
    assert_false(err_sys(&e, "%s: cannot open", "x"));
    assert_string_equal(e.msg, "x: cannot open: No such file or directory");
    assert_false(err_set(NULL, "no target")); /* NULL is allowed */
    err_clear(&e);
    char big[3000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    err_set(&e, "%s", big);
    assert_int_equal(strlen(e.msg), sizeof e.msg - 1); /* cut, terminated */
}

static void test_sbuf(void **state)
{
    (void)state;
    sbuf b = SBUF_INIT;
    assert_string_equal(sbuf_str(&b), "");
    for (int i = 0; i < 1000; i++)
        sbuf_printf(&b, "%d,", i);
    sbuf_putc(&b, '!');
    sbuf_append(&b, "ab", 2);
    assert_true(sbuf_ok(&b));
    assert_int_equal(b.len, strlen(sbuf_str(&b)));
    assert_memory_equal(b.data, "0,1,2,", 6);
    assert_string_equal(b.data + b.len - 8, "998,999,!ab" + 3);
    char *s = sbuf_take(&b);
    assert_non_null(s);
    assert_int_equal(b.len, 0); /* taken: the buffer is empty again */
    ctg_free(s);
    sbuf_puts(&b, "x");
    mem_fail_after(0); /* the next allocation fails */
    char chunk[4096];
    memset(chunk, 'z', sizeof chunk - 1);
    chunk[sizeof chunk - 1] = '\0';
    sbuf_puts(&b, chunk);
    mem_fail_reset();
    assert_false(sbuf_ok(&b));
    sbuf_puts(&b, "more"); /* harmless after a failure */
    assert_false(sbuf_ok(&b));
    sbuf_release(&b);
    sbuf_reset(&b);
    sbuf_puts(&b, "again");
    assert_true(sbuf_ok(&b));
    assert_string_equal(sbuf_str(&b), "again");
    sbuf_release(&b);
}

static void test_rng(void **state)
{
    (void)state;
    rng a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    bool differ = false;
    for (int i = 0; i < 100; i++) {
        uint64_t x = rng_next(&a);
        assert_int_equal(x, rng_next(&b));
        differ |= x != rng_next(&c);
    }
    assert_true(differ);
    unsigned bucket[10] = {0};
    for (int i = 0; i < 100000; i++) {
        uint64_t v = rng_below(&a, 10);
        assert_true(v < 10);
        bucket[v]++;
        int64_t r = rng_range(&a, -3, 3);
        assert_true(r >= -3 && r <= 3);
        double d = rng_double(&a);
        assert_true(d >= 0.0 && d < 1.0);
    }
    for (int k = 0; k < 10; k++) /* 10,000 expected; 5 standard deviations is 474 */
        assert_true(bucket[k] > 9500 && bucket[k] < 10500);
    assert_false(rng_chance(&a, 0.0));
    assert_true(rng_chance(&a, 1.0));
}

static void test_interrupt(void **state)
{
    (void)state;
    interrupt_install();
    assert_false(interrupt_requested());
    raise(SIGTERM); /* the first one only asks */
    assert_true(interrupt_requested());
    assert_true(interrupt_hold(true)); /* there was one; forgotten for now */
    assert_false(interrupt_requested());
    interrupt_hold(false); /* restored */
    assert_true(interrupt_requested());
}

static void test_proc(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    proc_result r;
    sbuf out = SBUF_INIT, err = SBUF_INIT;
    proc_opts o = {.out = &out, .err = &err};
    char *const echo[] = {"sh", "-c", "echo hello; echo oops >&2; exit 3", NULL};
    assert_true(proc_run(echo, &o, &r, &e));
    assert_true(r.exited);
    assert_int_equal(r.code, 3);
    assert_string_equal(sbuf_str(&out), "hello\n");
    assert_string_equal(sbuf_str(&err), "oops\n");
    sbuf_reset(&out);
    char *dir = fs_mkdtemp("ctg-test-base-", "a test directory", &e);
    assert_non_null(dir);
    char *in = fs_join(dir, "in.txt");
    assert_true(fs_write_atomic(in, "from a file\n", 12, &e));
    proc_opts oi = {.out = &out, .stdin_path = in};
    char *const cat[] = {"cat", NULL};
    assert_true(proc_run(cat, &oi, &r, &e));
    assert_string_equal(sbuf_str(&out), "from a file\n");
    proc_opts ot = {.timeout_s = 0.2};
    char *const sleeper[] = {"sleep", "30", NULL};
    assert_true(proc_run(sleeper, &ot, &r, &e));
    assert_true(r.timed_out);
    assert_false(r.exited);
    char *const missing[] = {"ctg-no-such-program-here", NULL};
    proc_result rm;
    bool started = proc_run(missing, &o, &rm, &e);
    assert_true(!started || (rm.exited && rm.code == 127)); /* either way: not a success */
    char *const odd[] = {"prog", "a b", "it's", "$HOME", NULL};
    char *cmd = proc_cmdline(odd);
    assert_string_equal(cmd, "prog 'a b' 'it'\\''s' '$HOME'");
    ctg_free(cmd);
    fs_rm_rf(dir, NULL);
    ctg_free(in), ctg_free(dir);
    sbuf_release(&out), sbuf_release(&err);
}

/* contain_group: what the run left in its process group dies with it, and
 * the caller's other children (a search's fork servers) live on; contain
 * reaps every child, those too. */
static void test_proc_contain(void **state)
{
    (void)state;
    pid_t other = fork(); /* a child of ours that is not the tool's */
    assert_true(other >= 0);
    if (other == 0) { /* holds no pipe of the test runner, dies with us */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1), dup2(null, 2);
        alarm(60);
        pause();
        _exit(0);
    }
    ctg_err e = {{0}};
    proc_result r;
    sbuf out = SBUF_INIT;
    /* leaves a sleeper in its group and prints its pid */
    char *const left[] = {"sh", "-c", "sleep 30 >/dev/null & echo $!", NULL};
    proc_opts og = {.out = &out, .contain_group = true};
    assert_true(proc_run(left, &og, &r, &e));
    assert_true(r.exited);
    pid_t sleeper = (pid_t)atoi(sbuf_str(&out));
    assert_true(sleeper > 0);
    /* the sleeper (reparented to init or a subreaper) was killed: gone or a zombie */
    bool dead = false;
    for (int i = 0; i < 200 && !dead; i++) {
        char path[64], st[512] = "";
        snprintf(path, sizeof path, "/proc/%d/stat", (int)sleeper);
        FILE *f = fopen(path, "r");
        dead = !f || !fgets(st, sizeof st, f) || strstr(st, ") Z ") != NULL;
        if (f)
            fclose(f);
        if (!dead)
            usleep(10000);
    }
    bool other_lives = waitpid(other, NULL, WNOHANG) == 0;
    kill(sleeper, SIGKILL);
    kill(other, SIGKILL);
    waitpid(other, NULL, 0);
    sbuf_release(&out);
    assert_true(dead);
    assert_true(other_lives);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_err_first_wins), cmocka_unit_test(test_sbuf),
        cmocka_unit_test(test_rng),            cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_proc),           cmocka_unit_test(test_proc_contain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
