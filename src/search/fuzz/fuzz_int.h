/*
 * fuzz_int.h - what the fuzz strategy's files share (internal to
 * src/search/fuzz): its constants, the seed and strategy state, and the
 * steps fuzz.c (rounds, seeds, novelty) and fuzz_batch.c (mutants run
 * ahead in executor batches, and the repair of derived values) call across.
 */
#ifndef CTG_FUZZ_INT_H
#define CTG_FUZZ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine.h"
#include "mcts.h"
#include "mutate.h"

#define FUZZ_MAX_CORPUS 4096  /* files of -i DIR used as seeds                */
#define FUZZ_MAX_CMPS 256     /* comparison operand pairs kept per seed       */
#define FUZZ_DICT_CAP 1024    /* dictionary tokens                            */
#define FUZZ_STEP_RUNS 16     /* executions per step()                        */
#define FUZZ_EXTEND_P 0.125   /* share of Test-Comp mutants extended randomly */
#define FUZZ_SPLICE_P 0.1     /* share of mutants spliced with another seed   */
#define FUZZ_I2S_P 0.15       /* share of mutants that are one I2S replacement */
#define FUZZ_REPAIR_P 0.1     /* share of fruitless mutants tried for repair  */
#define FUZZ_REPAIR_I2S_P 0.5 /* the same for input-to-state's: a constant put
                                 in behind a checksum breaks the checksum
                                 ("PK" LEN SUM payload: type 7 needs both),
                                 and they are few */
#define FUZZ_MAX_EQ 64        /* equal comparisons remembered per seed        */
#define FUZZ_AHEAD 64         /* libFuzzer targets: mutants made ahead and run
                                 as one batch of the executor              */
#define FUZZ_TRIM_MIN 4       /* smallest chunk trimming removes (AFL's)     */
#define FUZZ_BATCHED_ROUND 256 /* --fuzz-batch's default when mutants run in
                                 batches: a selection there (tree walk,
                                 comparison-logging run) cost as much as the
                                 64 runs of a batch (ini: 60 of ~200 us a
                                 batch); 256 is 1.2-1.9x faster at equal
                                 executions on ini, json and crcpkt with as
                                 many edges */
#define FUZZ_FIRST_ROUND 32   /* ... reached from this many mutants: a round
                                 is at most 1/16 of the executions so far
                                 (256 from 4,096 on), so the schedule learns
                                 from many selections early (lzdec at 20,000
                                 executions: 78 selections with 256 from the
                                 start, A12 over the queue 0.35 -> 0.63) */

/* One input of the tree (or queue). */
typedef struct fz_seed {
    uint8_t *data;
    size_t len;
    ctg_value_rec *vals; /* value log of the run that made it (Test-Comp) */
    size_t n_vals;
    mcts_node *node;
    mut_cmp *cmps;       /* operands of its comparisons, after its cmplog run */
    size_t n_cmps;
    uint32_t *eq;        /* comparison sites whose operands were equal      */
    size_t n_eq;
    bool cmplog_done;
} fz_seed;

typedef struct fuzz {
    search_ctx *ctx;
    mcts_tree *tree;
    fz_seed *seeds;
    size_t n_seeds, cap_seeds;
    uint32_t n_edges;
    uint32_t cov_len;    /* the map: edges, spare, features (ctg_cov_len)   */
    uint8_t *virgin;     /* AFL bucket bits seen per edge and feature       */
    uint32_t *trace;     /* scratch: edges of the last run                 */
    mut_dict *dict;
    uint8_t *buf;        /* the mutant                                     */
    uint8_t *tbuf;       /* trimming: the input being trimmed (max_len)     */
    /* mutants made ahead (libFuzzer targets), run by ctx_exec_batch: the
     * set being run, and the next one, made while a batch runs */
    struct fz_ahead {
        struct fz_pend {
            size_t off, len;
            bool i2s, repair; /* repair: tried for repair if it finds nothing */
        } v[FUZZ_AHEAD];
        uint8_t *buf;    /* their bytes (pend_cap)                         */
        size_t n, at;    /* made; run so far                               */
    } ahead[2];
    unsigned cur_ahead;  /* the set being run                              */
    /* repairs of a batch's logged mutants, run as batches (run_repairs) */
    struct fz_rep {
        uint8_t *buf;    /* their bytes (pend_cap)                         */
        uint8_t *work;   /* the fixes of one mutant so far (max_len)       */
        size_t used;
        uint32_t n;
        const uint8_t *in[CTG_BATCH_MAX];
        size_t len[CTG_BATCH_MAX];
        uint32_t of[CTG_BATCH_MAX]; /* the mutant each repairs            */
    } rep;
    size_t pend_cap;
    size_t max_len;
    bool bytes; /* a test is a byte string (target.h), else values */
    bool mcts, trim, frontier;
    mcts_policy policy;
    long batch, n_random;
    bool grow;           /* rounds grow to batch (FUZZ_FIRST_ROUND)        */
    /* the round in progress */
    size_t cur;          /* seed being mutated; SIZE_MAX: none             */
    long left, extended;
    size_t queue_pos;
    size_t imported;     /* tests of ctx_kept() already seen               */
    /* statistics */
    uint64_t selections, finds, i2s_finds, repairs, repair_tries;
    uint64_t repair_in_batch; /* tries whose comparisons a batch logged   */
    uint64_t trims, trim_runs, trimmed_bytes;
} fuzz;

#define NO_SEED ((size_t)-1)

/* Collects the edges of the last run (coverage cov, result r) into
 * F->trace; the number of edges, *fresh when something was never seen. */
size_t fz_scan_run(fuzz *F, const uint8_t *cov, const exec_result *r, bool *fresh);
/* One run of data with flags through the engine (r: its result). */
bool fz_fuzz_exec(fuzz *F, const uint8_t *data, size_t len, uint32_t flags, ctx_run *r);
/* The flags of a run (may_extend: a mutant, which may grow). */
uint32_t fz_run_flags(fuzz *F, bool may_extend);
/* Whether a run of kind k may become a seed. */
bool fz_seedable(exec_kind k);
/* The last run found something: trim it, add it as a child of the seed,
 * give the round more mutants. */
void fz_found(fuzz *F, size_t n_trace, bool i2s);
/* A mutant of seed s in F->buf; its length (*i2s_only: one input-to-state
 * replacement). */
size_t fz_make_mutant(fuzz *F, const fz_seed *s, bool *i2s_only);
/* A comparison record as a mutator's operand pair. */
mut_cmp fz_cmp_of(const ctg_cmp_rec *c, bool exact);

/* fuzz_batch.c: the repair of a fruitless mutant (in, len as it ran) by
 * its seed's broken equal comparisons; the mutants of the round made
 * ahead and run as executor batches.  False when no run happened. */
bool fz_repair(fuzz *F, const uint8_t *in, size_t len);
bool fz_run_ahead(fuzz *F);

#endif
