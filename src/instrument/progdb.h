/*
 * progdb.h - the program database: what the instrumenter learned about the
 * program (functions, their CFGs, branches and their edge ids with source
 * locations, comparison sites, error call sites), stored as JSON (json-c)
 * next to the binaries and loaded by the strategies.
 *
 * Ids: branch i owns edges [first_edge, first_edge + n_edges); for a `br` edge
 * 0 is the true side and edge 1 the false side; for a `switch` the cases come
 * in IR order and the default edge is last.  Ids are stable for a given
 * program: they follow the module's function, block and instruction order.
 * Blocks are numbered per function in layout order, entry = 0.
 *
 * Call sites: the direct calls of every block to functions defined in the
 * program (indices into funcs), so that analyses can walk the call graph
 * (CFDS distances, error reachability).  Indirect calls are not recorded.
 *
 * Comparison sites (n_cmp) number the integer/float comparisons that feed a
 * branch and the strcmp/strncmp/memcmp call sites, in one id space, in
 * instruction order (rt_protocol.h: cmp_site and str_site).
 *
 * The function of the user's main is recorded under its source name "main";
 * in the bitcode it is CTG_SYM_USER_MAIN.
 *
 * Extension points: every function, branch and the db itself carry an
 * optional json-c object `extra` (NULL when absent) that is saved and loaded
 * verbatim under the key "extra".  Later analyses (control dependence,
 * approach levels, static branch features) store their results there without
 * changing the format; the db owns the objects (json_object_put on free).
 */
#ifndef CTG_PROGDB_H
#define CTG_PROGDB_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/err.h"
#include "../base/hmap.h"

struct json_object;

#define PROGDB_FORMAT 1 /* "format" key of progdb.json */

typedef enum pdb_branch_kind { PDB_BR = 0, PDB_SWITCH = 1 } pdb_branch_kind;

typedef struct pdb_loc {
    const char *file; /* interned in the db; "" when unknown */
    int line, col;    /* 0 when unknown */
} pdb_loc;

typedef struct pdb_edge {
    uint32_t branch;      /* owning branch                         */
    uint32_t target;      /* successor block in the branch's function */
    const char *label;    /* "true", "false", "case 3", "default"  */
} pdb_edge;

typedef struct pdb_branch {
    uint32_t func;        /* index in funcs                         */
    uint32_t block;       /* block holding the terminator           */
    pdb_branch_kind kind;
    uint32_t first_edge, n_edges;
    int32_t cmp_site;     /* comparison site feeding it, -1 if none */
    const char *cond;     /* e.g. "icmp sle", "fcmp olt", "switch", "bool",
                             "strcmp eq" (result of a string compare) */
    pdb_loc loc;
    struct json_object *extra; /* optional analysis data, owned, or NULL */
} pdb_branch;

typedef struct pdb_func {
    const char *name;
    pdb_loc loc;
    uint32_t n_blocks;
    uint32_t *succ_start; /* n_blocks + 1 offsets into succ (CSR)   */
    uint32_t *succ;       /* successor block indices                */
    int32_t *block_branch;/* branch terminating each block, -1 none */
    uint32_t *call_start; /* n_blocks + 1 offsets into calls (CSR)  */
    uint32_t *calls;      /* functions of the db each block calls
                             directly, in order, duplicates removed */
    uint8_t *call_leads;  /* per block (or NULL): 1 when every execution
                             entering it makes its first call: only
                             instructions that always complete precede */
    struct json_object *extra; /* optional analysis data, owned, or NULL */
} pdb_func;

typedef struct pdb_error {
    uint32_t func, block;
    pdb_loc loc;
    const char *callee;   /* "reach_error" or "__VERIFIER_error"    */
    bool leads;           /* the call is its block's first instruction
                             (phis and debug intrinsics aside): every
                             execution entering the block makes it     */
} pdb_error;

typedef struct pdb_cmp {
    int32_t branch;       /* branch the comparison feeds, -1 none   */
    const char *kind;     /* "icmp", "fcmp", "strcmp", "strncmp", "memcmp" */
    pdb_loc loc;
    bool konst;           /* an operand is a constant (a literal, a
                             global such as a string constant)       */
    const char *token;    /* a string compare's constant operand, its
                             compared bytes (at most PDB_TOKEN_MAX) in
                             hex digit pairs; NULL when none          */
} pdb_cmp;

#define PDB_TOKEN_MAX 32 /* bytes of a string compare's constant kept */

typedef struct progdb {
    int harness;          /* enum ctg_harness (its kind: target.h)  */
    int arch_bits;
    uint32_t n_edges, n_cmp, n_errors;
    uint32_t n_funcs, n_branches;
    pdb_func *funcs;
    pdb_branch *branches;
    pdb_edge *edges;      /* n_edges                                 */
    pdb_error *errors;    /* n_errors                                */
    pdb_cmp *cmps;        /* n_cmp                                   */
    uint32_t n_inline_asm;/* inline assembly statements left alone   */
    bool stdin_mixed;     /* reads stdin and calls __VERIFIER_nondet_*:
                             a Test-Comp harness whose stdin is empty */
    bool error_escapes;   /* an error function's address is used other
                             than in a direct call: errors[] may miss a
                             call of it                                */
    struct json_object *extra; /* optional analysis data, owned, or NULL */
    /* private: string pool */
    char **strings;
    uint32_t n_strings, cap_strings;
    hmap index;           /* string hash -> string id                */
} progdb;

progdb *progdb_new(void);
void progdb_free(progdb *db);
/* Interns a string in the db; returns the stable copy or NULL on oom. */
const char *progdb_intern(progdb *db, const char *s);
/* Allocates zeroed arrays for the given counts (funcs, branches, edges,
 * errors, cmps) and sets the n_* fields; false on oom (db unchanged). */
bool progdb_alloc(progdb *db, uint32_t n_funcs, uint32_t n_branches, uint32_t n_edges,
                  uint32_t n_errors, uint32_t n_cmp);

bool progdb_save(const progdb *db, const char *path, ctg_err *e);
progdb *progdb_load(const char *path, ctg_err *e);

/* "main:3:T" style key of an edge for messages and reports: function, block,
 * then T / F for a br, cK for switch case K, D for the default
 * (thread-local static buffer, valid until the next call). */
const char *progdb_edge_name(const progdb *db, uint32_t edge);
/* "prog.c:12:5" of an edge's branch, "?" when unknown (static buffer). */
const char *progdb_edge_loc(const progdb *db, uint32_t edge);

#endif
