/*
 * bounded_int.h - private state of the `bounded` strategy shared by its
 * three modes: bounded.c (options, dispatch, small scope), bounded_grammar.c
 * (grammar producer + filter) and bounded_korat.c (Korat).
 */
#ifndef CTG_BOUNDED_INT_H
#define CTG_BOUNDED_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"
#include "../../base/hmap.h"
#include "../../base/sbuf.h"
#include "../engine.h"
#include "bhelper.h"
#include "gprod.h"
#include "kspec.h"
#include "korat.h"
#include "scope.h"

typedef enum bnd_mode { BND_SCALAR, BND_GRAMMAR, BND_KORAT } bnd_mode;

/* Small scope: scalar values from domains, or (libFuzzer) byte strings. */
typedef struct bnd_scalar {
    scope *sc;
    size_t blen, max_blen; /* libFuzzer: current length, --scope-max-len */
    uint32_t *bidx;        /* libFuzzer: odometer over the char domain  */
    bool bdone;
} bnd_scalar;

/* Grammar: the strings of a grammar in order of length. */
typedef struct bnd_grammar {
    grammar *g;
    gprod *gp;
    bhelper *filter;
    uint64_t rejected, filter_failures, strings_run;
} bnd_grammar;

/* Korat: the valid structures of a finitisation, then the function under
 * test on each. */
typedef struct bnd_korat {
    kspec *ks;
    korat *k;
    bhelper *rep;
    size_t n_slots;
    bool wide;             /* slots read as unsigned short                */
    uint32_t *cand;        /* the valid candidate under test              */
    uint32_t *ans;         /* helper answer buffer (2 + n_slots words)    */
    size_t *order;
    scope *args;           /* the function's scalar arguments, per structure */
    bool in_fut, korat_done;
    uint64_t structures, fut_runs, helper_failures, crashed_repok;
} bnd_korat;

/* The strategy: what the three modes share, and each mode's own state
 * (only the one of `mode` is in use). */
typedef struct bounded {
    bnd_mode mode;
    bool fuzz;             /* libFuzzer harness: one byte-string input */
    int arch;
    scope_domains dom;
    size_t max_values;     /* --scope-max-values */
    sbuf in;               /* the input being assembled */
    uint16_t *types;       /* value types of the last run */
    hmap seen;             /* consumed sequences seen (small scope)   */
    bnd_scalar scal;
    bnd_grammar gram;
    bnd_korat kor;
} bounded;

/* <out>/bounded/<name> (ctg_free); NULL on oom. */
char *bnd_path(const ctg_options *o, const char *name);
/* Writes a generated file into <out>/bounded/. */
bool bnd_write(const ctg_options *o, const char *name, const sbuf *text, ctg_err *e);
/* Compiles a helper: sources (the first is generated, more come from the
 * command line), the user's -I/-D/-l flags, -m32/-m64, plus extra flags. */
bool bnd_compile_helper(const ctg_options *o, int arch, const char *const *srcs, int n,
                        const char *const *extra, int n_extra, const char *out, ctg_err *e);

/* Appends the encoding of a scope prefix (little-endian values). */
void bnd_encode_prefix(bounded *b, const scope_val *p, size_t k);
/* Appends zero bytes for up to `values` more values (capped by the input
 * capacity), so that the runtime logs the types of the values a run reads
 * past its prefix. */
void bnd_pad(bounded *b, size_t values);
/* Copies the value types of the last run from index `skip` on into b->types;
 * returns how many, and whether the run wanted more than it could log. */
size_t bnd_run_types(bounded *b, search_ctx *ctx, const ctx_run *r, size_t skip, bool *truncated);

/* Grammar mode (bounded_grammar.c). */
bool bnd_grammar_init(bounded *b, search_ctx *ctx, ctg_err *e);
bool bnd_grammar_step(bounded *b, search_ctx *ctx);
void bnd_grammar_finish(bounded *b, search_ctx *ctx);

/* Korat mode (bounded_korat.c). */
bool bnd_korat_prepare(const ctg_options *o, char ***sources, int *n, ctg_err *e);
bool bnd_korat_init(bounded *b, search_ctx *ctx, ctg_err *e);
bool bnd_korat_step(bounded *b, search_ctx *ctx);
void bnd_korat_finish(bounded *b, search_ctx *ctx);

#endif
