/*
 * sbst_fixture.h - hand-built program databases for the unit tests of the
 * search-based strategies (src/search/sbst): a function is described block by
 * block (return, jump, two-way branch, switch) and the builder numbers its
 * branch edges the way the instrumenter does (true edge first, switch cases in
 * order, default last).
 */
#ifndef CTG_SBST_FIXTURE_H
#define CTG_SBST_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "instrument/progdb.h"

enum { FX_RET, FX_JMP, FX_BR, FX_SW };

typedef struct fx_block {
    int kind;   /* FX_*                                               */
    int n;      /* targets: FX_JMP 1, FX_BR 2 (true, false), FX_SW n   */
    int tgt[8]; /* successor blocks; for FX_SW the default comes last */
} fx_block;

#define FX_R {FX_RET, 0, {0}}
#define FX_J(t) {FX_JMP, 1, {t}}
#define FX_B(t, f) {FX_BR, 2, {t, f}}

/* Appends a function to db; returns its index. */
static inline uint32_t fx_add_func(progdb *db, const char *name, const fx_block *bl, int nb)
{
    db->funcs = realloc(db->funcs, (db->n_funcs + 1) * sizeof *db->funcs);
    pdb_func *f = &db->funcs[db->n_funcs];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->n_blocks = (uint32_t)nb;
    f->succ_start = calloc((size_t)nb + 1, sizeof *f->succ_start);
    f->block_branch = malloc((size_t)nb * sizeof *f->block_branch);
    int total = 0;
    for (int b = 0; b < nb; b++)
        total += bl[b].n;
    f->succ = calloc((size_t)total + 1, sizeof *f->succ);
    int k = 0;
    for (int b = 0; b < nb; b++) {
        f->succ_start[b] = (uint32_t)k;
        for (int i = 0; i < bl[b].n; i++)
            f->succ[k++] = (uint32_t)bl[b].tgt[i];
        f->block_branch[b] = -1;
        if (bl[b].kind == FX_BR || bl[b].kind == FX_SW) {
            db->branches = realloc(db->branches, (db->n_branches + 1) * sizeof *db->branches);
            pdb_branch *br = &db->branches[db->n_branches];
            memset(br, 0, sizeof *br);
            br->func = db->n_funcs;
            br->block = (uint32_t)b;
            br->kind = bl[b].kind == FX_BR ? PDB_BR : PDB_SWITCH;
            br->first_edge = db->n_edges;
            br->n_edges = (uint32_t)bl[b].n;
            br->cmp_site = -1;
            br->cond = bl[b].kind == FX_BR ? "icmp" : "switch";
            db->edges = realloc(db->edges, (db->n_edges + (uint32_t)bl[b].n) * sizeof *db->edges);
            for (int i = 0; i < bl[b].n; i++) {
                pdb_edge *ed = &db->edges[db->n_edges++];
                ed->branch = db->n_branches;
                ed->target = (uint32_t)bl[b].tgt[i];
                ed->label = i == 0 ? "true" : "false";
            }
            f->block_branch[b] = (int32_t)db->n_branches++;
        }
    }
    f->succ_start[nb] = (uint32_t)k;
    return db->n_funcs++;
}

/* Adds an error site (a reach_error call) in block `block` of `func`. */
static inline uint32_t fx_add_error(progdb *db, uint32_t func, uint32_t block)
{
    db->errors = realloc(db->errors, (db->n_errors + 1) * sizeof *db->errors);
    db->errors[db->n_errors].func = func;
    db->errors[db->n_errors].block = block;
    db->errors[db->n_errors].loc.file = "";
    return db->n_errors++;
}

/* Releases what the fx_add_* calls allocated (db itself is the caller's). */
static inline void fx_release(progdb *db)
{
    for (uint32_t i = 0; i < db->n_funcs; i++) {
        free(db->funcs[i].succ_start);
        free(db->funcs[i].succ);
        free(db->funcs[i].block_branch);
    }
    free(db->funcs);
    free(db->branches);
    free(db->edges);
    free(db->errors);
    memset(db, 0, sizeof *db);
}

#endif
