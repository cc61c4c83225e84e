/*
 * engine_errcheck.c - the check of error tests during a run (engine.h,
 * engine_set_error_check): a test that reaches an error in the engine's
 * build but not in the validator's (gcc -O0: an uninitialised local, say,
 * holds something else there) does not score, so the search goes on until
 * a test of that error site replays to it.
 */
#include <stdio.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "engine_int.h"

static engine_error_check check_fn;
static void *check_arg;

void engine_set_error_check(engine_error_check fn, void *arg)
{
    check_fn = fn;
    check_arg = arg;
}

/* The slot of r's error site: numbered sites by number, the rest last. */
static uint32_t slot(const search_ctx *c, const exec_result *r)
{
    return r->error_site < c->db->n_errors ? r->error_site : c->db->n_errors;
}

void eng_errcheck_start(search_ctx *c)
{
    size_t n = (size_t)c->db->n_errors + 1;
    /* the command line sets a check for a run in one process only */
    c->echk.on = check_fn && (c->echk.tries = ctg_calloc(n, 1)) &&
                 (c->echk.done = ctg_calloc(n, sizeof(bool)));
}

void eng_errcheck_free(search_ctx *c)
{
    ctg_free(c->echk.tries);
    ctg_free(c->echk.done);
    c->echk.tries = NULL, c->echk.done = NULL;
}

bool eng_errcheck_wanted(const search_ctx *c, const exec_result *r)
{
    return c->echk.on && r->kind == EXEC_ERROR && !c->echk.done[slot(c, r)];
}

void eng_errcheck_test(search_ctx *c, const test_t *t, const exec_result *r)
{
    if (!eng_errcheck_wanted(c, r))
        return;
    uint32_t s = slot(c, r);
    unsigned id = suite_next_test_id(c->out.suite) - 1;
    char how[32] = "";
    ctg_err e = {{0}};
    double t0 = fs_now();
    int v = check_fn(check_arg, t, how, sizeof how, &e);
    c->echk.secs += fs_now() - t0;
    if (v < 0) {
        ctx_log(c, "warning: error tests are not checked under gcc from here on: %s", e.msg);
        c->echk.on = false;
        return;
    }
    c->echk.tries[s]++;
    if (v > 0) {
        c->echk.done[s] = true;
        c->echk.n_done++, c->echk.n_confirmed++;
        if (c->echk.tries[s] > 1)
            ctx_log(c, "test-%05u.xml reaches the error under gcc -O0 too (%u earlier did not)", id,
                    c->echk.tries[s] - 1u);
        return;
    }
    c->echk.failed++;
    /* the testcase claims what the validator will see */
    if (!suite_set_covers_error(c->out.suite, id, t, false, &e))
        ctx_log(c, "warning: %s", e.msg);
    if (c->echk.tries[s] == 1)
        ctx_log(c, "test-%05u.xml reaches an error in the engine's build, but under gcc -O0 (the "
                   "validator's build) it ends %s: searching on for a test that reaches it there "
                   "too",
                id, how[0] ? how : "elsewhere");
    if (c->echk.tries[s] >= ENG_ERRCHECK_MAX) {
        c->echk.done[s] = true;
        c->echk.n_done++;
        ctx_log(c, "warning: none of %d tests that reach this error in the engine's build reaches "
                   "it under gcc -O0; stopped checking them (the program may depend on the "
                   "compiler)",
                ENG_ERRCHECK_MAX);
    }
}

uint32_t eng_errors_done(const search_ctx *c)
{
    /* unchecked (or the check switched off): what the engine reached */
    return c->echk.on ? c->echk.n_done : archive_reached_errors(c->archive);
}
