/*
 * random.c - the `random` strategy: every run starts from an empty input and
 * the runtime draws each requested value on demand (CTG_FL_EXTEND_RANDOM),
 * typed by the __VERIFIER_nondet_* call that asks for it and biased to small
 * magnitudes and boundary values (src/runtime/rt_valgen.h).  The engine seeds
 * each run from --seed, so a run is reproducible.
 *
 * This is the baseline every other strategy must beat.
 */
#include "engine.h"
#include "strategy.h"

#include "../base/mem.h"

typedef struct random_state {
    int unused;
} random_state;

static void *random_init(search_ctx *ctx, ctg_err *e)
{
    (void)ctx;
    random_state *s = ctg_calloc(1, sizeof *s);
    if (!s)
        err_set(e, "out of memory");
    return s;
}

/* One run with a fresh random input. */
static bool random_step(void *state, search_ctx *ctx)
{
    (void)state;
    return ctx_exec(ctx, NULL, 0, CTG_FL_EXTEND_RANDOM, NULL);
}

static void random_finish(void *state, search_ctx *ctx)
{
    (void)ctx;
    ctg_free(state);
}

const strategy strategy_random = {
    .name = "random",
    .summary = "typed random values, biased to small magnitudes and boundary values",
    .options = NULL,
    .init = random_init,
    .step = random_step,
    .finish = random_finish,
};
