/*
 * instrument.h - the LLVM-C passes of ctestgen.
 *
 * inst_prepare() normalises a linked module (mem2reg, main renamed, harness
 * detected); inst_number() assigns branch/edge/cmp/error ids and fills the
 * program database; inst_cov() adds the coverage and branch-distance hooks of
 * rt_protocol.h to a module numbered the same way; inst_sym() adds the
 * symbolic shadow code of prog.sym (run it before inst_cov on the same
 * module).  Every pass reuses the numbering so ids agree across binaries:
 * they start from the prepared module build_program() writes as prog.bc
 * (do not prepare it again: main is already renamed) and take every id from
 * inst_walk_module() (inst_sites.h), the one walk inst_number() and
 * inst_cov() use.
 */
#ifndef CTG_INSTRUMENT_H
#define CTG_INSTRUMENT_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "../base/err.h"
#include "progdb.h"

typedef struct inst_stats {
    unsigned branches, switches, cmp_hooks, str_hooks, error_sites;
    unsigned inline_asm; /* inline assembly left uninstrumented */
    unsigned lean_functions; /* functions over INST_LEAN_FUNCTION            */
    unsigned loop_counters;  /* branches counted in registers (inst_loops.h) */
} inst_stats;

/* Instructions of a function (before instrumentation) above which inst_cov
 * leaves out the inline counter of a branch whose hook can count it
 * (CTG_CMP_COUNT): such functions are generated state machines, built at
 * -O0 (BUILD_HUGE_FUNCTION), where code generation time grows with every
 * instruction and a call per branch costs little more than the counter. */
#define INST_LEAN_FUNCTION 4000u

/* Instructions of function f, counted until they pass `stop` (a count over
 * stop means "more than stop"); UINT_MAX counts them all. */
unsigned inst_fn_size(LLVMValueRef f, unsigned stop);

/* Runs mem2reg, detects the harness (main or LLVMFuzzerTestOneInput) and
 * renames main to CTG_SYM_USER_MAIN.  False with e set when the module has
 * neither entry point. */
bool inst_prepare(LLVMModuleRef m, int *harness, ctg_err *e);

/* Numbers branches, edges, comparison sites and error sites of a prepared
 * module and records them (with CFGs and debug locations) in db. */
bool inst_number(LLVMModuleRef m, progdb *db, ctg_err *e);

/* Metadata kind of the tags inst_tag_sites() puts on a prepared module. */
#define INST_SITE_MD "ctg.site"

/* Tags every numbered site of a prepared module (inst_tag.c): a
 * conditional br or a switch with its first edge id, an error call with
 * the number of edges plus its error site id.  A copy transformed further
 * (inlined) keeps the tag on each clone, so it still names its goals. */
bool inst_tag_sites(LLVMModuleRef m, ctg_err *e);
/* The tag of inst into *id; false when it has none. */
bool inst_site_tag(LLVMValueRef inst, uint32_t *id);
/* The function a call instruction calls, looking through pointer casts;
 * NULL for indirect calls and inline assembly (inst_sites.c). */
LLVMValueRef inst_callee(LLVMValueRef call);

/* Inserts coverage, distance, string-compare, error and fork/malloc hooks into
 * a prepared module (ids as inst_number assigns them) and defines the
 * __ctg_n_* constants.  Warnings (inline assembly) go to *st. */
bool inst_cov(LLVMModuleRef m, const progdb *db, inst_stats *st, ctg_err *e);

/* For code generation at -O2 on x86-64, after inst_cov: the guarded calls
 * (inst_hook_call_guarded) in functions that are optimised (not optnone)
 * go to wrappers that call the hook's preserve_most entry point
 * (CTG_HOOK_PM_SUFFIX, rt_hooks.c), so the code around such a call, a
 * loop that holds its counters in registers, keeps them there across it.
 * Optnone functions keep the plain call: the -O0 instruction selector has
 * no fast path for that convention.  Returns how many calls moved; 0 on
 * other targets (inst_hooks.c). */
unsigned inst_hooks_fast_guards(LLVMModuleRef m);

/* Keeps the faults gcc -O0 shows in an optimised build: the divisor of
 * each division or remainder that could trap is hidden from the optimiser
 * (inst_faults.c), so a division by zero traps as it does at -O0.  Run it
 * last, after the symbolic and coverage passes.  The divisions changed. */
unsigned inst_keep_faults(LLVMModuleRef m);

typedef struct inst_sym_stats {
    unsigned functions;   /* functions instrumented                         */
    unsigned shadowed;    /* instructions that got shadow code              */
    unsigned loads, stores, calls, branches, switches;
    unsigned unsupported; /* instructions whose symbolic operands are
                             concretised at run time (CTG_STF_CONCRETIZED) */
} inst_sym_stats;

/* Inserts the symbolic shadow code (rt_symabi.h) into a prepared module
 * numbered as db says: every conditional branch and switch reports its
 * decision with its edge base id, so the path constraint of prog.sym names
 * the same edges as prog.cov.  Floating point stays symbolic (IEEE bits,
 * the trace's FP operations); long double, vectors, aggregates and integers
 * wider than 64 bits are concretised.  Run inst_cov on the module afterwards
 * (coverage, counts, error hooks).  False with e set when the module and db
 * disagree or the program uses a reserved name. */
bool inst_sym(LLVMModuleRef m, const progdb *db, inst_sym_stats *st, ctg_err *e);

#endif
