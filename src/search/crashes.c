/*
 * crashes.c - one crash file per signature, smallest input first (see
 * crashes.h).
 *
 * The table is an array searched linearly: a run has few distinct crashes
 * (one per crash site), and only crashing runs look it up.
 *
 * Minimisation follows afl-tmin's block deletion (AFL, Zalewski): remove
 * blocks of len/2, len/4, ... 1 bytes at every position, then, for Test-Comp
 * inputs, every whole value of the value log from the last to the first;
 * repeat while a round removed something.  A candidate is kept when its run
 * has the crash's signature and its test (the consumed bytes) is strictly
 * shorter, so every kept candidate shrinks the input and the loop ends; the
 * run budget bounds it as well, and a crash whose candidates time out
 * MIN_MAX_HANGS times is left as it is (each costs a whole timeout).
 */
#include "crashes.h"

#include <stdio.h>
#include <string.h>

#include "../base/mem.h"

#define MIN_MAX_HANGS 3 /* timed-out candidates that end a minimisation */

typedef struct crash_entry {
    crash_sig sig;
    uint64_t bug;        /* triage's key, 0: not triaged                  */
    char *bug_line;      /* "KIND in FUNC at FILE:LINE" (owned), or NULL   */
    char *bug_kind;      /* KIND (owned), or NULL                          */
    char *report;        /* its report (owned), or NULL                   */
    unsigned num;        /* crashes/<kind>-NNNNN                          */
    size_t len;          /* bytes of the input on disk                     */
    uint64_t found_exec; /* when the signature was first seen              */
    double found_s;
    test_t *pending;     /* input waiting for minimisation (owned), or NULL */
    exec_result pending_r;
} crash_entry;

#define CRASH_NS 4 /* namespaces with a binary of their own */

/* A signature that triage found to be entry `entry`'s bug. */
typedef struct crash_alias {
    crash_sig sig;
    size_t entry;
} crash_alias;

struct crashes {
    suite_t *suite;
    char *repro[CRASH_NS];
    uint64_t min_execs;
    crash_entry *v;
    size_t n, cap;
    crash_alias *alias;
    size_t n_alias, cap_alias;
    crash_triage_fn triage;
    void *triage_arg;
};

/* ==== signatures ============================================================= */

bool crash_is_kind(exec_kind k)
{
    return k == EXEC_ERROR || k == EXEC_ABORT || k == EXEC_CRASH || k == EXEC_TIMEOUT ||
           k == EXEC_OOM || k == EXEC_SANITIZER;
}

crash_sig crash_signature(const exec_result *r, unsigned ns)
{
    crash_sig s = {r->kind, 0, 0, 0};
    switch (r->kind) {
    case EXEC_ERROR:
        s.site = r->error_site;
        break;
    case EXEC_SANITIZER: /* the report's kind and place (rt_signal.c) */
        s.site = r->crash_site;
        s.ns = ns;
        break;
    case EXEC_ABORT:
    case EXEC_CRASH:
        s.signal = r->signal;
        if (r->stack_overflow) {
            s.site = CTG_CRASH_SITE_STACK_OVF;
        } else {
            s.site = r->crash_site;
            s.ns = ns;
        }
        break;
    default: /* timeout, oom: the kind alone */
        break;
    }
    return s;
}

bool crash_sig_equal(const crash_sig *a, const crash_sig *b)
{
    return a->kind == b->kind && a->signal == b->signal && a->site == b->site && a->ns == b->ns;
}

/* ==== the table ============================================================== */

crashes_t *crashes_new(suite_t *s, const char *repro_binary, uint64_t min_execs)
{
    crashes_t *cs = ctg_calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    cs->suite = s;
    cs->min_execs = min_execs;
    if (!crashes_set_binary(cs, 0, repro_binary)) {
        ctg_free(cs);
        return NULL;
    }
    return cs;
}

bool crashes_set_binary(crashes_t *cs, unsigned ns, const char *binary)
{
    if (ns >= CRASH_NS)
        return true;
    ctg_free(cs->repro[ns]);
    cs->repro[ns] = binary ? ctg_strdup(binary) : NULL;
    return !binary || cs->repro[ns];
}

void crashes_set_triage(crashes_t *cs, crash_triage_fn fn, void *arg)
{
    cs->triage = fn;
    cs->triage_arg = arg;
}

const char *crashes_bug(const crashes_t *cs, size_t i, unsigned *num, exec_kind *kind,
                        const char **bug_kind)
{
    *num = cs->v[i].num;
    *kind = cs->v[i].sig.kind;
    *bug_kind = cs->v[i].bug_kind;
    return cs->v[i].bug_line;
}

size_t crashes_aliases(const crashes_t *cs) { return cs->n_alias; }

/* What suite.h writes of entry ce beyond its run. */
static suite_crash_info entry_info(const crashes_t *cs, const crash_entry *ce)
{
    unsigned ns = ce->sig.ns < CRASH_NS ? ce->sig.ns : 0;
    suite_crash_info ci = {cs->repro[ns] ? cs->repro[ns] : cs->repro[0], ce->bug_line,
                           ce->report};
    return ci;
}

void crashes_free(crashes_t *cs)
{
    if (!cs)
        return;
    for (size_t i = 0; i < cs->n; i++) {
        test_free(cs->v[i].pending);
        ctg_free(cs->v[i].bug_line);
        ctg_free(cs->v[i].bug_kind);
        ctg_free(cs->v[i].report);
    }
    ctg_free(cs->v);
    ctg_free(cs->alias);
    for (unsigned k = 0; k < CRASH_NS; k++)
        ctg_free(cs->repro[k]);
    ctg_free(cs);
}

size_t crashes_count(const crashes_t *cs) { return cs->n; }

bool crashes_pending(const crashes_t *cs, unsigned ns)
{
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].pending && cs->v[i].sig.ns == ns)
            return true;
    return false;
}

/* The entry of signature s (*aliased: through another name), or NULL. */
static crash_entry *find(crashes_t *cs, const crash_sig *s, bool *aliased)
{
    *aliased = false;
    for (size_t i = 0; i < cs->n; i++)
        if (crash_sig_equal(&cs->v[i].sig, s))
            return &cs->v[i];
    for (size_t i = 0; i < cs->n_alias; i++)
        if (crash_sig_equal(&cs->alias[i].sig, s)) {
            *aliased = true;
            return &cs->v[cs->alias[i].entry];
        }
    return NULL;
}

/* Rewrites the files of entry ce with t (result r), keeping the first
 * finding time in the description. */
static bool rewrite(crashes_t *cs, crash_entry *ce, test_t *t, const exec_result *r, ctg_err *e)
{
    t->found_at_exec = ce->found_exec;
    t->found_at_s = ce->found_s;
    suite_crash_info ci = entry_info(cs, ce);
    if (!suite_replace_crash(cs->suite, ce->num, t, r, &ci, e))
        return false;
    ce->len = t->len;
    return true;
}

/* Triage of a new signature s (input t, result r) into ce: its bug key,
 * line and report.  When the bug is one recorded already, s becomes an
 * alias of it: true, and *known says so. */
static bool triage_new(crashes_t *cs, crash_entry *ce, const test_t *t, const exec_result *r,
                       bool *known)
{
    *known = false;
    triage_info ti;
    if (!cs->triage || !cs->triage(cs->triage_arg, ce->sig.ns, r, t, &ti))
        return true;
    for (size_t i = 0; ti.key && i < cs->n; i++)
        if (cs->v[i].bug == ti.key) {
            triage_release(&ti);
            if (ctg_grow((void **)&cs->alias, &cs->cap_alias, cs->n_alias + 1,
                         sizeof *cs->alias) != 0)
                return false;
            cs->alias[cs->n_alias++] = (crash_alias){ce->sig, i};
            *known = true;
            return true;
        }
    if (ti.key) {
        char where[800], line[900];
        triage_where(&ti, where, sizeof where);
        snprintf(line, sizeof line, "%s in %s", ti.kind, where);
        ce->bug = ti.key;
        ce->bug_line = ctg_strdup(line);
        ce->bug_kind = ctg_strdup(ti.kind);
        ce->report = ti.report;
        ti.report = NULL;
    }
    triage_release(&ti);
    return true;
}

/* Adds a new signature: writes its files and queues it for minimisation
 * (or, when triage finds its bug recorded, remembers it as that bug).
 * Takes t. */
static bool add_new(crashes_t *cs, const crash_sig *s, test_t *t, const exec_result *r,
                    ctg_err *e)
{
    if (ctg_grow((void **)&cs->v, &cs->cap, cs->n + 1, sizeof *cs->v) != 0) {
        test_free(t);
        return err_set(e, "out of memory while saving a crash");
    }
    crash_entry *ce = &cs->v[cs->n];
    memset(ce, 0, sizeof *ce);
    ce->sig = *s;
    ce->found_exec = t->found_at_exec;
    ce->found_s = t->found_at_s;
    ce->len = t->len;
    bool known;
    if (!triage_new(cs, ce, t, r, &known) || known) {
        test_free(t);
        return known || err_set(e, "out of memory while saving a crash");
    }
    suite_crash_info ci = entry_info(cs, ce);
    if (!suite_add_crash(cs->suite, t, r, &ci, &ce->num, e)) {
        ctg_free(ce->bug_line), ctg_free(ce->bug_kind), ctg_free(ce->report);
        test_free(t);
        return false;
    }
    cs->n++;
    if (cs->min_execs > 0 && r->kind != EXEC_TIMEOUT && t->len > 0) {
        ce->pending = t;
        ce->pending_r = *r;
    } else {
        test_free(t);
    }
    return true;
}

bool crashes_record(crashes_t *cs, const exec_t *x, const exec_result *r, unsigned ns,
                    uint64_t found_exec, double found_s, ctg_err *e)
{
    if (!crash_is_kind(r->kind))
        return true;
    crash_sig s = crash_signature(r, ns);
    bool aliased;
    crash_entry *ce = find(cs, &s, &aliased);
    if (aliased || (ce && exec_consumed(x) >= ce->len))
        return true; /* cheap test first: the test is at least as long */
    test_t *t = test_from_exec(x, r);
    if (!t)
        return err_set(e, "out of memory while saving a crash");
    t->found_at_exec = found_exec;
    t->found_at_s = found_s;
    if (!ce)
        return add_new(cs, &s, t, r, e);
    if (t->len >= ce->len) {
        test_free(t);
        return true;
    }
    bool ok = rewrite(cs, ce, t, r, e);
    if (ce->pending) { /* minimise from the smaller input */
        test_free(ce->pending);
        ce->pending = t;
        ce->pending_r = *r;
    } else {
        test_free(t);
    }
    return ok;
}

/* ==== minimisation =========================================================== */

typedef struct tmin {
    const crash_runner *rn;
    crash_sig sig;
    test_t *best; /* owned */
    exec_result best_r;
    uint8_t *buf; /* candidate, best->len bytes */
    uint64_t left;
    unsigned hangs; /* candidates that timed out */
    bool stop, oom;
} tmin;

/* Runs best minus `n` bytes at `off`; keeps the result when it is the same
 * crash with a shorter test.  True when kept. */
static bool try_cut(tmin *m, size_t off, size_t n)
{
    const test_t *b = m->best;
    if (m->stop || m->left == 0) {
        m->stop = true;
        return false;
    }
    memcpy(m->buf, b->data, off);
    memcpy(m->buf + off, b->data + off + n, b->len - off - n);
    exec_result r;
    m->left--;
    if (!m->rn->run(m->rn->arg, m->buf, b->len - n, &r)) {
        m->stop = true;
        return false;
    }
    if (r.kind == EXEC_TIMEOUT && ++m->hangs >= MIN_MAX_HANGS)
        m->stop = true;
    crash_sig s = crash_signature(&r, m->sig.ns);
    if (!crash_sig_equal(&s, &m->sig) || exec_consumed(m->rn->x) >= b->len)
        return false;
    test_t *t = test_from_exec(m->rn->x, &r);
    if (!t) {
        m->stop = m->oom = true;
        return false;
    }
    if (t->len >= b->len) {
        test_free(t);
        return false;
    }
    test_free(m->best);
    m->best = t;
    m->best_r = r;
    return true;
}

/* Block deletion, blocks of len/2 down to 1 byte.  True when it removed
 * something. */
static bool pass_blocks(tmin *m)
{
    bool cut = false;
    size_t block = m->best->len / 2 ? m->best->len / 2 : 1;
    for (; block > 0 && !m->stop; block /= 2) {
        size_t off = 0;
        while (off < m->best->len && !m->stop) {
            size_t n = m->best->len - off < block ? m->best->len - off : block;
            if (try_cut(m, off, n))
                cut = true; /* the bytes after moved to off: try there again */
            else
                off += block;
        }
    }
    return cut;
}

/* Removes whole values of a Test-Comp input, the last first.  True when it
 * removed something. */
static bool pass_values(tmin *m)
{
    bool cut = false;
    for (size_t k = 0; k < m->best->n_vals; k++)
        if (m->best->vals[k].type == CTG_T_BYTES)
            return false; /* libFuzzer: one value, the blocks did it */
    size_t i = m->best->n_vals;
    while (i > 0 && !m->stop) {
        i--;
        const ctg_value_rec *v = &m->best->vals[i];
        if ((size_t)v->offset + v->size > m->best->len || v->size == 0)
            continue;
        if (try_cut(m, v->offset, v->size)) {
            cut = true;
            if (i > m->best->n_vals)
                i = m->best->n_vals;
        }
    }
    return cut;
}

/* Minimises the pending input of ce and rewrites its files when it shrank. */
static bool minimise_one(crashes_t *cs, crash_entry *ce, const crash_runner *rn, ctg_err *e)
{
    tmin m = {rn, ce->sig, ce->pending, ce->pending_r, NULL, cs->min_execs, 0, false, false};
    ce->pending = NULL;
    size_t start = m.best->len;
    m.buf = ctg_malloc(start ? start : 1);
    if (!m.buf)
        m.stop = m.oom = true;
    while (!m.stop && m.best->len > 0) {
        bool cut = pass_blocks(&m);
        cut = pass_values(&m) || cut;
        if (!cut)
            break;
    }
    bool ok = true;
    if (m.best->len < ce->len)
        ok = rewrite(cs, ce, m.best, &m.best_r, e);
    if (ok && m.oom)
        ok = err_set(e, "out of memory while minimising a crash");
    test_free(m.best);
    ctg_free(m.buf);
    return ok;
}

bool crashes_minimise(crashes_t *cs, unsigned ns, const crash_runner *rn, ctg_err *e)
{
    bool ok = true;
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].pending && cs->v[i].sig.ns == ns && !minimise_one(cs, &cs->v[i], rn, e))
            ok = false;
    return ok;
}

bool crashes_adopt(crashes_t *cs, const exec_result *r, unsigned ns, unsigned num, size_t len)
{
    if (!crash_is_kind(r->kind))
        return true;
    crash_sig sig = crash_signature(r, ns);
    bool aliased;
    if (find(cs, &sig, &aliased))
        return true;
    if (ctg_grow((void **)&cs->v, &cs->cap, cs->n + 1, sizeof *cs->v) != 0)
        return false;
    cs->v[cs->n++] = (crash_entry){.sig = sig, .num = num, .len = len};
    return true;
}
