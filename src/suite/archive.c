/*
 * archive.c - the shared record of covered goals (see archive.h): a bitmap
 * of covered branch edges and one of reached error sites.
 *
 * A run whose __VERIFIER_assume failed (EXEC_ASSUME) counts for nothing: its
 * inputs are outside the program's precondition.  Error sites at or beyond
 * the count given at creation (the runtime reports 0xffffffff for an error
 * call the instrumenter did not number) share one extra goal, which counts
 * in archive_n_errors once it is reached.
 */
#include "archive.h"

#include <string.h>

#include "../base/mem.h"

struct archive {
    uint32_t n_edges;
    uint32_t n_errors; /* numbered error sites */
    uint32_t covered, reached;
    bool unnumbered;   /* an unnumbered error site was reached */
    uint64_t *edges;
    uint64_t *errors;
};

static bool bit_get(const uint64_t *b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
static void bit_set(uint64_t *b, uint32_t i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static size_t words(uint32_t bits) { return ((size_t)bits + 63) / 64; }

archive_t *archive_new(uint32_t n_edges, uint32_t n_errors)
{
    archive_t *a = ctg_calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->n_edges = n_edges;
    a->n_errors = n_errors;
    a->edges = ctg_calloc(words(n_edges) + 1, sizeof(uint64_t));
    a->errors = ctg_calloc(words(n_errors) + 1, sizeof(uint64_t));
    if (!a->edges || !a->errors) {
        archive_free(a);
        return NULL;
    }
    return a;
}

void archive_free(archive_t *a)
{
    if (!a)
        return;
    ctg_free(a->edges);
    ctg_free(a->errors);
    ctg_free(a);
}

/* The error site a run reached, or -1 when it reached none. */
static int64_t reached_site(const exec_result *r)
{
    return r && r->kind == EXEC_ERROR ? (int64_t)r->error_site : -1;
}

/* True when the site's goal is already covered. */
static bool site_done(const archive_t *a, int64_t site)
{
    return site < a->n_errors ? bit_get(a->errors, (uint32_t)site) : a->unnumbered;
}

/* Counts edges hit in cov but not set in bits; sets them in `record`
 * (the same bitmap, or NULL to only count).  Zero words of cov are skipped. */
static uint32_t scan_edges(const uint64_t *bits, uint32_t n_edges, const uint8_t *cov,
                           uint64_t *record)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_edges; i++) {
        if ((i & 7) == 0 && i + 8 <= n_edges) {
            uint64_t w;
            memcpy(&w, cov + i, 8);
            if (!w) {
                i += 7;
                continue;
            }
        }
        if (cov[i] && !bit_get(bits, i)) {
            n++;
            if (record)
                bit_set(record, i);
        }
    }
    return n;
}

uint32_t archive_update(archive_t *a, const uint8_t *cov, const exec_result *r)
{
    if (r && r->kind == EXEC_ASSUME)
        return 0;
    uint32_t n = cov ? scan_edges(a->edges, a->n_edges, cov, a->edges) : 0;
    a->covered += n;
    int64_t site = reached_site(r);
    if (site >= 0 && !site_done(a, site)) {
        if (site < a->n_errors)
            bit_set(a->errors, (uint32_t)site);
        else
            a->unnumbered = true;
        a->reached++;
        n++;
    }
    return n;
}

uint32_t archive_would_add(const archive_t *a, const uint8_t *cov, const exec_result *r)
{
    if (r && r->kind == EXEC_ASSUME)
        return 0;
    uint32_t n = cov ? scan_edges(a->edges, a->n_edges, cov, NULL) : 0;
    int64_t site = reached_site(r);
    if (site >= 0 && !site_done(a, site))
        n++;
    return n;
}

bool archive_edge_covered(const archive_t *a, uint32_t edge)
{
    return edge < a->n_edges && bit_get(a->edges, edge);
}

bool archive_error_reached(const archive_t *a, uint32_t site) { return site_done(a, site); }

uint32_t archive_n_edges(const archive_t *a) { return a->n_edges; }
uint32_t archive_n_errors(const archive_t *a) { return a->n_errors + a->unnumbered; }
uint32_t archive_covered_edges(const archive_t *a) { return a->covered; }
uint32_t archive_reached_errors(const archive_t *a) { return a->reached; }
const uint64_t *archive_edge_bits(const archive_t *a) { return a->edges; }
