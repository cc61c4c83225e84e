/*
 * cc_stats.c - the concolic search's counters and its solver's under the
 * names of stats.json (concolic.*, solver.*), read through the search's
 * public getters.
 */
#include <stddef.h>

#include "cc_search.h"

void cc_stats_visit(const cc_search *s, void (*fn)(void *user, const char *name, double value),
                    void *user)
{
    const cc_stats *c = cc_get_stats(s);
    const solver_stats *v = cc_solver_stats(s);
    uint64_t first = c->runs - c->reruns;
    uint64_t hits = v->qcache_hits + v->cex_unsat_subset + v->cex_superset + v->cex_subset_model;
    const struct {
        const char *name;
        double value;
    } kv[] = {
        {"concolic.runs", (double)c->runs},
        {"concolic.reruns", (double)c->reruns},
        {"concolic.paths", (double)c->paths},
        {"concolic.children", (double)c->children},
        {"concolic.divergences", (double)c->divergences},
        {"concolic.skipped_seen", (double)c->skipped_seen},
        {"concolic.skipped_diverged", (double)c->skipped_diverged},
        {"concolic.skipped_duplicate", (double)c->skipped_duplicate},
        {"concolic.skipped_context", (double)c->skipped_context},
        {"concolic.cgs_k", (double)c->cgs_k},
        {"concolic.stall_restarts", (double)c->restarts},
        {"concolic.mix_handovers", (double)c->handovers},
        {"concolic.mix_last_runs", (double)c->last_runs},
        {"concolic.expanded", (double)c->expanded},
        {"concolic.dropped", (double)c->dropped},
        {"concolic.errors", (double)c->errors},
        {"concolic.edges", (double)c->edges},
        {"concolic.pc_min", (double)c->pc_min},
        {"concolic.pc_avg", first ? (double)c->pc_sum / (double)first : 0.0},
        {"concolic.pc_max", (double)c->pc_max},
        {"concolic.exec_secs", c->exec_secs},
        {"concolic.solver_secs", c->solver_secs},
        {"solver.queries", (double)v->queries},
        {"solver.backend_calls", (double)v->backend_calls},
        {"solver.sat", (double)v->sat},
        {"solver.unsat", (double)v->unsat},
        {"solver.unknown", (double)v->unknown},
        {"solver.timeout", (double)v->timeout},
        {"solver.error", (double)v->error},
        {"solver.too_large", (double)v->too_large},
        {"solver.skip", (double)v->res_skip},
        {"solver.trivial", (double)v->trivial},
        {"solver.cache_lookups", (double)v->cache_lookups},
        {"solver.cache_hits", (double)hits},
        {"solver.cache_hit_rate", v->cache_lookups ? (double)hits / (double)v->cache_lookups : 0.0},
        {"solver.qcache_hits", (double)v->qcache_hits},
        {"solver.cex_unsat_subset", (double)v->cex_unsat_subset},
        {"solver.cex_superset", (double)v->cex_superset},
        {"solver.cex_subset_model", (double)v->cex_subset_model},
        {"solver.dup_dropped", (double)v->dup_dropped},
        {"solver.sliced_away", (double)v->sliced_away},
        {"solver.subsumed", (double)v->subsumed},
        {"solver.backend_secs", v->backend_secs},
        {"solver.fp_tries", (double)v->fp_tries},
        {"solver.fp_sat", (double)v->fp_sat},
        {"solver.fp_evals", (double)v->fp_evals},
        {"solver.fp_secs", v->fp_secs},
    };
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++)
        fn(user, kv[i].name, kv[i].value);
}
