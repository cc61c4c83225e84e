/*
 * fuzz_batch.c - the fuzz strategy's mutants run ahead in executor batches
 * (libFuzzer targets: the next set is made while a batch runs), and the
 * repair of derived values (checksums) of fruitless mutants, alone or
 * inside the batches.  fuzz.c says what a round is.
 */
#include <string.h>

#include "../../base/mem.h"
#include "fuzz_int.h"

/* Repair (for checksums and other derived values): the seed passed some
 * equality comparisons; a mutant that found nothing is run once more with
 * comparison logging, and where one of those comparisons now fails, the
 * operand found in the input is overwritten with the other one and the
 * result runs.  A mutated payload behind a checksum thus gets its checksum
 * fixed.  in: the mutant as it ran.  False when no run happened. */
bool fz_repair(fuzz *F, const uint8_t *in, size_t len)
{
    fz_seed *s = &F->seeds[F->cur];
    const exec_t *x = ctx_executor(F->ctx);
    if (len > F->max_len)
        len = F->max_len;
    memmove(F->buf, in, len);
    F->repair_tries++;
    ctx_run r;
    if (!fz_fuzz_exec(F, F->buf, len, CTG_FL_CMPLOG | fz_run_flags(F, false), &r))
        return false;
    const ctg_cmp_rec *c = exec_cmp(x);
    mut_cmp broken[4];
    size_t nb = 0;
    for (size_t i = 0; i < s->n_eq && nb < 4; i++) {
        const ctg_cmp_rec *k = &c[s->eq[i]];
        mut_cmp m = fz_cmp_of(k, true);
        if (k->hits && k->a != k->b && m.bits)
            broken[nb++] = m;
    }
    for (size_t i = 0; i < nb; i++) { /* fixes add up: a later one keeps earlier ones */
        mut_src src = {.cmps = &broken[i], .n_cmps = 1};
        if (!mut_i2s(ctx_rng(F->ctx), F->buf, &len, F->max_len, &src))
            continue;
        if (!fz_fuzz_exec(F, F->buf, len, fz_run_flags(F, false), &r))
            return false;
        bool fresh;
        size_t n = fz_scan_run(F, exec_cov(x), &r.r, &fresh);
        if (fresh && fz_seedable(r.r.kind)) {
            F->repairs++;
            fz_found(F, n, true);
            return true;
        }
    }
    return true;
}

/* Runs the repairs queued by queue_repairs as batches.  The first that
 * finds something counts as a repair and ends its mutant's repairs (a
 * mutant's later fixes add to its earlier ones, as in repair).  False when
 * no run happened. */
static bool run_repairs(fuzz *F)
{
    struct fz_rep *q = &F->rep;
    uint32_t at = 0;
    while (at < q->n) {
        ctx_run r;
        uint32_t ran = ctx_exec_batch(F->ctx, q->in + at, q->len + at, q->n - at, 0, F->virgin, &r);
        if (!ran) {
            q->n = 0, q->used = 0;
            return false;
        }
        if (r.kept)
            F->imported++;
        at += ran;
        bool fresh;
        size_t nt = r.stopped ? fz_scan_run(F, exec_cov(ctx_executor(F->ctx)), &r.r, &fresh) : 0;
        if (r.stopped && fresh && fz_seedable(r.r.kind)) {
            F->repairs++;
            fz_found(F, nt, true);
            while (at < q->n && q->of[at] == q->of[at - 1])
                at++;
        }
    }
    q->n = 0, q->used = 0;
    return true;
}

/* Repair of a batch's mutant `in` from its broken watched comparisons
 * (recs, in the order of the seed's equal sites): the fixes of repair, one
 * on top of the other, queued to run as batches (the fixes so far are in
 * q->work, which running a full queue, and trimming what it finds, leave
 * alone).  `of` names the mutant.  False when no run happened (a full
 * queue ran and failed). */
static bool queue_repairs(fuzz *F, const uint8_t *in, size_t len, const ctg_cmp_rec *recs,
                          uint32_t n, uint32_t of)
{
    struct fz_rep *q = &F->rep;
    F->repair_tries++;
    F->repair_in_batch++;
    if (len > F->max_len)
        len = F->max_len;
    memcpy(q->work, in, len);
    for (uint32_t i = 0; i < n; i++) {
        mut_cmp m = fz_cmp_of(&recs[i], true);
        mut_src src = {.cmps = &m, .n_cmps = 1};
        if (!m.bits || !mut_i2s(ctx_rng(F->ctx), q->work, &len, F->max_len, &src))
            continue;
        if ((q->n == CTG_BATCH_MAX || q->used + len > F->pend_cap) && !run_repairs(F))
            return false;
        memcpy(q->buf + q->used, q->work, len);
        q->in[q->n] = q->buf + q->used;
        q->len[q->n] = len;
        q->of[q->n++] = of;
        q->used += len;
    }
    return true;
}

/* The repair of mutant k of the last batch that was drawn for it: from
 * the batch's records of its watched comparisons, else by repair. */
static bool repair_batched(fuzz *F, const uint8_t *in, size_t len, uint32_t k)
{
    const ctg_cmp_rec *recs;
    uint32_t n = ctx_batch_broken(F->ctx, k, &recs);
    return n == UINT32_MAX ? fz_repair(F, in, len) : queue_repairs(F, in, len, recs, n, k);
}

/* Runs one mutant of the current seed.  False when no run happened. */
/* Makes up to `want` mutants of the current seed into set a (as many as
 * FUZZ_AHEAD and the buffer allow), each with its draw for repair. */
static void make_ahead(fuzz *F, struct fz_ahead *a, long want)
{
    fz_seed *s = &F->seeds[F->cur];
    size_t used = 0;
    a->n = a->at = 0;
    while (a->n < FUZZ_AHEAD && (long)a->n < want && used + F->max_len <= F->pend_cap) {
        struct fz_pend *p = &a->v[a->n++];
        p->len = fz_make_mutant(F, s, &p->i2s);
        p->off = used;
        memcpy(a->buf + used, F->buf, p->len);
        used += p->len;
        p->repair = s->n_eq &&
                    rng_chance(ctx_rng(F->ctx), p->i2s ? FUZZ_REPAIR_I2S_P : FUZZ_REPAIR_P);
    }
}

/* ctx_set_overlap's work while a batch of the current set runs: the next
 * set, if the round needs mutants beyond the ones being run (what the
 * batch finds does not change them: they are mutants of the same seed). */
static void make_next(void *arg)
{
    fuzz *F = arg;
    const struct fz_ahead *a = &F->ahead[F->cur_ahead];
    struct fz_ahead *b = &F->ahead[F->cur_ahead ^ 1u];
    long after = F->left - (long)(a->n - a->at);
    if (b->n == 0 && after > 0)
        make_ahead(F, b, after);
}

/* Runs mutants made ahead as batches (libFuzzer targets); the next set is
 * made while one runs.  The run that stops a batch is judged as
 * run_mutant judges one; then the plain ones drawn for repair are
 * repaired, in order (a plain run found nothing, as run_mutant requires).
 * False when no run happened. */
bool fz_run_ahead(fuzz *F)
{
    struct fz_ahead *a = &F->ahead[F->cur_ahead];
    if (a->at == a->n) {
        a->n = a->at = 0;
        F->cur_ahead ^= 1u; /* the set made while the last batch ran */
        a = &F->ahead[F->cur_ahead];
        if (a->n == 0)
            make_ahead(F, a, F->left);
    }
    const uint8_t *in[FUZZ_AHEAD];
    size_t len[FUZZ_AHEAD];
    size_t at = a->at;
    uint32_t n = (uint32_t)(a->n - at);
    for (uint32_t k = 0; k < n; k++) {
        in[k] = a->buf + a->v[at + k].off;
        len[k] = a->v[at + k].len;
    }
    uint8_t log[FUZZ_AHEAD];
    for (uint32_t k = 0; k < n; k++)
        log[k] = a->v[at + k].repair;
    const fz_seed *s = &F->seeds[F->cur];
    ctx_run r;
    ctx_set_overlap(F->ctx, make_next, F);
    ctx_set_watch(F->ctx, s->eq, (uint32_t)s->n_eq, log);
    uint32_t ran = ctx_exec_batch(F->ctx, in, len, n, 0, F->virgin, &r);
    ctx_set_watch(F->ctx, NULL, 0, NULL);
    ctx_set_overlap(F->ctx, NULL, NULL);
    if (!ran)
        return false;
    if (r.kept)
        F->imported++;
    F->left -= ran;
    a->at += ran;
    uint32_t plain = ran - (r.stopped ? 1u : 0u);
    if (r.stopped) {
        const struct fz_pend *last = &a->v[at + ran - 1];
        bool fresh;
        size_t nt = fz_scan_run(F, exec_cov(ctx_executor(F->ctx)), &r.r, &fresh);
        if (fresh && fz_seedable(r.r.kind))
            fz_found(F, nt, last->i2s);
        else if (last->repair && r.r.kind == EXEC_NORMAL &&
                 !repair_batched(F, in[ran - 1], len[ran - 1], ran - 1))
            return false;
    }
    for (uint32_t k = 0; k < plain; k++)
        if (a->v[at + k].repair && !repair_batched(F, in[k], len[k], k))
            return false;
    return run_repairs(F);
}

