/*
 * archive.h - the goals and what covers them: branch edges and error sites.
 *
 * The archive decides which runs are worth keeping (DESIGN.md section 6):
 * a run is kept when it covers an edge no earlier kept test covered, or
 * reaches an error site not reached before.  Strategies with richer notions of
 * progress (hit-count buckets, per-goal fitness) keep their own state and use
 * the archive as the shared record of coverage.
 */
#ifndef CTG_ARCHIVE_H
#define CTG_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "../exec/exec.h"

typedef struct archive archive_t;

archive_t *archive_new(uint32_t n_edges, uint32_t n_errors);
void archive_free(archive_t *a);

/* Records the coverage of a run (edge hit counters) and its result.  Returns
 * how many goals (edges + error sites) the run covered for the first time. */
uint32_t archive_update(archive_t *a, const uint8_t *cov, const exec_result *r);
/* Same test without recording: how many goals the run would add. */
uint32_t archive_would_add(const archive_t *a, const uint8_t *cov, const exec_result *r);

/* Error sites >= n_errors (0xffffffff: an error call the instrumenter did
 * not number) all count as one goal; archive_n_errors includes it once it
 * is reached.  A run that failed an assumption (EXEC_ASSUME) adds nothing. */
bool archive_edge_covered(const archive_t *a, uint32_t edge);
bool archive_error_reached(const archive_t *a, uint32_t site);
uint32_t archive_n_edges(const archive_t *a);
uint32_t archive_n_errors(const archive_t *a);
uint32_t archive_covered_edges(const archive_t *a);
uint32_t archive_reached_errors(const archive_t *a);
/* Covered edges as a bitmap of n_edges bits (read-only view). */
const uint64_t *archive_edge_bits(const archive_t *a);

#endif
