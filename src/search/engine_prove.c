/*
 * engine_prove.c - proofs of unreachable goals in a run (issue 58): the
 * prover (prove/prove.h) starts with the search; what it proves becomes the
 * status of goals: a branch edge of a function no execution reaches, an
 * error site in such a function or calling such an error function, is
 * `unreachable`.  The run stops once every other goal is covered, and with
 * coverage-error-call once every error site is unreachable.  With a time
 * budget the result is used when it comes (a result after the search ended
 * is not waited for); with --time 0 it is waited for at the end, so that an
 * execution budget's run stays reproducible.  A claim that a test
 * contradicts (it covers the goal) voids every claim, with a warning.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../compile/build.h"
#include "engine_int.h"
#include "prove/bmc.h"
#include "prove/prove.h"

#define PROVE_POLL_S 0.05
#define PROVE_AUTO_MIN_S 2.0
#define PROVE_AUTO_MAX_S 30.0
#define PROVE_AUTO_WAIT_S 5.0 /* --time 0: the run ends when the prover does */
#define PROVE_METHOD "abstract interpretation (Frama-C Eva), every input"
#define PROVE_NO_CALL "no call of an error function in the program, nor its address taken"
#define PROVE_BMC "bounded symbolic reachability: every execution ends within the bound, and no " \
                  "path reaches it; every input"

/* Whether the run asks for proofs of some kind and can have them. */
static bool any_wanted(search_ctx *c)
{
    const ctg_options *o = c->opts;
    return strcmp(o->search.prove, "none") && !o->search.merge_dir &&
           !(o->search.sync_dir && o->search.worker != 0) && /* --jobs: worker 0 proves */
           c->db->harness == CTG_HARNESS_TESTCOMP && c->build && c->build->opts;
}

/* Whether the run asks for Eva's proofs and can have them. */
static bool wanted(search_ctx *c)
{
    const ctg_options *o = c->opts;
    if (!any_wanted(c) || !strcmp(o->search.prove, "bmc"))
        return false;
    if (prove_available())
        return true;
    if (!strcmp(o->search.prove, "eva"))
        ctx_summary_line(c, "  proofs            none: frama-c is not installed (apt-get install "
                            "frama-c-base)");
    return false;
}

/* The cheapest proof: a Test-Comp program with no call of an error
 * function, whose address is never taken, cannot reach one. */
static void no_error_call(search_ctx *c)
{
    const progdb *db = c->db;
    if (strcmp(c->opts->search.prove, "none") && db->harness == CTG_HARNESS_TESTCOMP &&
        !db->n_errors && !db->error_escapes)
        c->prv.no_error_call = true;
}

/* A prover's CPU seconds: --prove-time, or (auto) a quarter of --time
 * between PROVE_AUTO_MIN_S and PROVE_AUTO_MAX_S, so that on a program too
 * large to prove it takes at most a quarter of the second core; with
 * --time 0, when the run waits for it, wait_s. */
double eng_prove_budget(const ctg_options *o, double wait_s)
{
    if (o->search.prove_s > 0)
        return o->search.prove_s;
    if (o->search.time_s <= 0)
        return wait_s;
    double s = o->search.time_s / 4;
    return s < PROVE_AUTO_MIN_S ? PROVE_AUTO_MIN_S : s > PROVE_AUTO_MAX_S ? PROVE_AUTO_MAX_S : s;
}

/* Words of the edge bitmap. */
static size_t edge_words(const progdb *db) { return db->n_edges / 64 + 1; }

/* The marks of proven goals, all clear (once); false on oom. */
bool eng_prove_alloc(search_ctx *c)
{
    if (c->prv.edge)
        return true;
    c->prv.edge = ctg_calloc(edge_words(c->db), sizeof *c->prv.edge);
    c->prv.error = ctg_calloc(c->db->n_errors + 1, sizeof *c->prv.error);
    c->prv.by = ctg_calloc(c->db->n_edges + c->db->n_errors + 1, 1);
    return c->prv.edge && c->prv.error && c->prv.by;
}

/* Starts Eva (it clears dir of an earlier run's files first). */
static void eva_start(search_ctx *c, const char *dir)
{
    const build_opts *bo = c->build->opts;
    /* with --time 0 the run waits for the result: one analysis, briefly */
    prove_input in = {bo->sources, bo->n_sources, bo->cflags, bo->n_cflags, bo->arch_bits, dir,
                      eng_prove_budget(c->opts, PROVE_AUTO_WAIT_S), c->opts->search.time_s > 0};
    ctg_err e = {{0}};
    if (eng_prove_alloc(c) && dir)
        c->prv.job = prove_start(&in, &e);
    if (!c->prv.job)
        ctx_summary_line(c, "  proofs            none: %s", e.msg[0] ? e.msg : "out of memory");
}

void eng_prove_start(search_ctx *c)
{
    no_error_call(c);
    c->prv.polling = c->opts->search.time_s > 0;
    char *dir = any_wanted(c) ? fs_join(c->opts->out.out_dir, "prove") : NULL;
    if (!strcmp(c->opts->search.prove, "bmc") && c->db->harness != CTG_HARNESS_TESTCOMP)
        snprintf(c->prv.bmc_note, sizeof c->prv.bmc_note, "bounded checker: none, it needs a "
                 "Test-Comp harness (__VERIFIER_nondet_*)");
    if (wanted(c))
        eva_start(c, dir);
    if (dir) /* after Eva's start, which clears the directory */
        eng_bmc_start(c, dir);
    ctg_free(dir);
}

/* Whether name (NULL: none) is among names[0 .. n). */
static bool in_names(const char *name, const char *const *names, int n)
{
    for (int i = 0; name && i < n; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* Whether function f's name is in names[0 .. n) and no other function of
 * the program has it (Eva names by source name). */
static bool named(const progdb *db, uint32_t f, const char *const *names, int n)
{
    const char *name = db->funcs[f].name;
    for (uint32_t g = 0; g < db->n_funcs; g++)
        if (g != f && !strcmp(db->funcs[g].name, name))
            return false;
    return in_names(name, names, n);
}

void eng_prove_mark_edge(search_ctx *c, uint32_t edge)
{
    if (eng_edge_unreachable(c, edge))
        return;
    c->prv.edge[edge / 64] |= 1ull << (edge % 64);
    c->prv.by[edge] = c->prv.marking;
    c->prv.n_edges++;
}

void eng_prove_mark_error(search_ctx *c, uint32_t site)
{
    if (c->prv.error[site])
        return;
    c->prv.error[site] = true;
    c->prv.by[c->db->n_edges + site] = c->prv.marking;
    c->prv.n_errors++;
}

/* Every edge into block `block` of function `func` (an execution taking
 * one would make an unreachable call that leads the block). */
static void mark_into_block(search_ctx *c, uint32_t func, uint32_t block)
{
    const progdb *db = c->db;
    for (uint32_t i = 0; i < db->n_edges; i++)
        if (db->edges[i].target == block && db->branches[db->edges[i].branch].func == func)
            eng_prove_mark_edge(c, i);
}

/* An unreachable error call that leads its block. */
static void mark_into(search_ctx *c, const pdb_error *er)
{
    if (er->leads)
        mark_into_block(c, er->func, er->block);
}

/* The blocks whose leading call is of unreachable function f. */
static void mark_calls_of(search_ctx *c, uint32_t f)
{
    const progdb *db = c->db;
    for (uint32_t g = 0; g < db->n_funcs; g++) {
        const pdb_func *fn = &db->funcs[g];
        for (uint32_t b = 0; fn->call_leads && b < fn->n_blocks; b++)
            if (fn->call_leads[b] && fn->calls[fn->call_start[b]] == f)
                mark_into_block(c, g, b);
    }
}

/* Marks the goals of the functions in names[0 .. n) unreachable. */
static void mark(search_ctx *c, const char *const *names, int n)
{
    const progdb *db = c->db;
    for (uint32_t f = 0; f < db->n_funcs; f++)
        if (named(db, f, names, n))
            mark_calls_of(c, f);
    for (uint32_t b = 0; b < db->n_branches; b++) {
        const pdb_branch *br = &db->branches[b];
        if (!named(db, br->func, names, n))
            continue;
        for (uint32_t k = 0; k < br->n_edges; k++)
            eng_prove_mark_edge(c, br->first_edge + k);
    }
    for (uint32_t s = 0; s < db->n_errors; s++)
        if (named(db, db->errors[s].func, names, n) ||
            in_names(db->errors[s].callee, names, n)) {
            eng_prove_mark_error(c, s);
            mark_into(c, &db->errors[s]);
        }
}

bool eng_edge_unreachable(const search_ctx *c, uint32_t edge)
{
    return c->prv.edge && edge < c->db->n_edges && (c->prv.edge[edge / 64] >> (edge % 64) & 1);
}

static bool error_unreachable(const search_ctx *c, uint32_t site)
{
    return c->prv.error && site < c->db->n_errors && c->prv.error[site];
}

bool ctx_goal_unreachable(const search_ctx *c, uint32_t goal)
{
    return goal < c->db->n_edges ? eng_edge_unreachable(c, goal)
                                 : error_unreachable(c, goal - c->db->n_edges);
}

/* A goal claimed unreachable that a test covers: every claim is void. */
bool eng_prove_contradicted(search_ctx *c)
{
    for (uint32_t i = 0; i < c->db->n_edges; i++)
        if (eng_edge_unreachable(c, i) && archive_edge_covered(c->archive, i)) {
            ctx_log(c, "warning: the prover called %s (%s) unreachable, but a test covers it: "
                       "its claims are dropped (please report this)",
                    progdb_edge_name(c->db, i), progdb_edge_loc(c->db, i));
            return true;
        }
    for (uint32_t s = 0; s < c->db->n_errors; s++)
        if (error_unreachable(c, s) && archive_error_reached(c->archive, s)) {
            ctx_log(c, "warning: the prover called an error call unreachable that a test "
                       "reaches: its claims are dropped (please report this)");
            return true;
        }
    return false;
}

/* Voids every claim, noting why. */
static void drop_claims(search_ctx *c, const char *why)
{
    memset(c->prv.edge, 0, edge_words(c->db) * sizeof *c->prv.edge);
    memset(c->prv.error, 0, (c->db->n_errors + 1) * sizeof *c->prv.error);
    memset(c->prv.by, 0, c->db->n_edges + c->db->n_errors + 1);
    c->prv.n_edges = c->prv.n_errors = 0;
    snprintf(c->prv.note, sizeof c->prv.note, "%s", why);
}

/* Takes the prover's result: marks goals, or notes why it proved nothing. */
static void apply(search_ctx *c)
{
    const char *const *names;
    const char *why;
    int n;
    c->prv.done = true;
    double secs = prove_cpu_seconds(c->prv.job);
    if (!prove_result(c->prv.job, &names, &n, &why)) {
        snprintf(c->prv.note, sizeof c->prv.note, "Frama-C Eva (%.1fs CPU) claims nothing: %s", secs,
                 why);
        return;
    }
    c->prv.marking = PRV_BY_EVA;
    mark(c, names, n);
    if (eng_prove_contradicted(c)) {
        drop_claims(c, "Frama-C Eva's claims were contradicted by a test and dropped");
        return;
    }
    snprintf(c->prv.note, sizeof c->prv.note, "Frama-C Eva (%.1fs CPU): %u edge%s and %u error "
             "call%s unreachable for every input", secs, c->prv.n_edges,
             c->prv.n_edges == 1 ? "" : "s", c->prv.n_errors, c->prv.n_errors == 1 ? "" : "s");
    if (c->prv.n_edges || c->prv.n_errors)
        ctx_log(c, "proof: %s", c->prv.note);
}

/* The goal of final.goals entry g: an edge id, or n_edges + an error
 * site (by file and line); UINT32_MAX when the program has none such. */
static uint32_t goal_of(const progdb *db, json_object *g)
{
    json_object *v;
    const char *kind = json_object_object_get_ex(g, "kind", &v) ? json_object_get_string(v) : "";
    const char *name = json_object_object_get_ex(g, "goal", &v) ? json_object_get_string(v) : "";
    const char *file = json_object_object_get_ex(g, "file", &v) ? json_object_get_string(v) : "";
    int line = json_object_object_get_ex(g, "line", &v) ? json_object_get_int(v) : 0;
    if (!strcmp(kind, "branch")) {
        for (uint32_t i = 0; i < db->n_edges; i++)
            if (!strcmp(progdb_edge_name(db, i), name))
                return i;
    } else if (!strcmp(kind, "error")) {
        for (uint32_t s = 0; s < db->n_errors; s++)
            if (db->errors[s].loc.line == line && !strcmp(db->errors[s].loc.file, file))
                return db->n_edges + s;
    }
    return UINT32_MAX;
}

void eng_prove_import(search_ctx *c, const char *stats_path)
{
    ctg_err e = {{0}};
    stats_t *w = stats_load(stats_path, &e);
    const json_object *goals = w ? stats_goals(w) : NULL;
    if (!goals || !eng_prove_alloc(c)) {
        stats_free(w);
        return;
    }
    for (size_t i = 0; i < json_object_array_length(goals); i++) {
        json_object *g = json_object_array_get_idx(goals, i), *v;
        uint32_t id = json_object_object_get_ex(g, "status", &v) &&
                              !strcmp(json_object_get_string(v), "unreachable")
                          ? goal_of(c->db, g) : UINT32_MAX;
        c->prv.marking = json_object_object_get_ex(g, "method", &v) &&
                                 !strncmp(json_object_get_string(v), "bounded", 7)
                             ? PRV_BY_BMC : PRV_BY_EVA;
        if (id < c->db->n_edges)
            eng_prove_mark_edge(c, id);
        else if (id != UINT32_MAX)
            eng_prove_mark_error(c, id - c->db->n_edges);
    }
    const char *note = stats_get_info(w, "prove");
    if (note)
        snprintf(c->prv.note, sizeof c->prv.note, "%s, in worker 0", note);
    c->prv.done = true;
    stats_free(w);
}

void eng_prove_poll(search_ctx *c)
{
    eng_bmc_poll(c);
    if (!c->prv.job || c->prv.done || !c->prv.polling || fs_now() < c->prv.next_poll)
        return;
    c->prv.next_poll = fs_now() + PROVE_POLL_S;
    if (prove_poll(c->prv.job, false))
        apply(c);
}

const char *eng_prove_stop(const search_ctx *c)
{
    const ctg_options *o = c->opts;
    bool error_prop = o->search.property && !strcmp(o->search.property, PROP_ERROR_CALL);
    if (error_prop && c->prv.no_error_call && !o->search.keep_going)
        return "the program calls no error function (coverage-error-call)";
    if ((!c->prv.done && !c->prv.bmc_done) || o->search.keep_going ||
        (!c->prv.n_edges && !c->prv.n_errors))
        return NULL;
    if (error_prop && c->db->n_errors && c->prv.n_errors == c->db->n_errors)
        return "the error call is proven unreachable (coverage-error-call)";
    uint32_t edges = archive_covered_edges(c->archive) + c->prv.n_edges;
    if (!c->build->san_bin && edges == archive_n_edges(c->archive) &&
        eng_errors_done(c) + c->prv.n_errors == archive_n_errors(c->archive))
        return "every reachable goal covered (the rest is proven unreachable)";
    return NULL;
}

/* One goal of final.goals; m: why it was not reached (NULL: unknown). */
static json_object *goal_json(const char *kind, const pdb_loc *loc, const char *name,
                              bool covered, const char *method, const eng_miss *m)
{
    bool unreachable = method != NULL;
    json_object *g = json_object_new_object();
    if (!g)
        return NULL;
    json_object_object_add(g, "kind", json_object_new_string(kind));
    json_object_object_add(g, "file", json_object_new_string(loc->file ? loc->file : ""));
    json_object_object_add(g, "line", json_object_new_int(loc->line));
    json_object_object_add(g, "goal", json_object_new_string(name));
    json_object_object_add(g, "status", json_object_new_string(
                                            covered ? "covered" : unreachable ? "unreachable"
                                                                              : "not-reached"));
    if (unreachable) {
        json_object_object_add(g, "method", json_object_new_string(method));
        json_object_object_add(g, "bound", NULL); /* for every input */
    } else if (!covered && m) {
        char why[320];
        eng_miss_why(m, why, sizeof why);
        json_object_object_add(g, "why", json_object_new_string(why));
        static const char *const answers[] = {"sat", "unsat", "unknown"}; /* CTX_FLIP_* */
        json_object *sv = m->flips[0] + m->flips[1] + m->flips[2] ? json_object_new_object() : NULL;
        for (int k = 0; sv && k < 3; k++)
            json_object_object_add(sv, answers[k], json_object_new_int64(m->flips[k]));
        if (sv)
            json_object_object_add(g, "solver", sv);
        if (m->test >= 0) {
            json_object_object_add(g, "closest_test", json_object_new_int(m->test));
            json_object_object_add(g, "distance", json_object_new_double(m->dist));
        }
    }
    return g;
}

/* Why error site s was not reached: the closest of the edges into its
 * block (m of them), or its block's branch never ran; into *out. */
static bool error_miss(const progdb *db, const eng_miss *m, uint32_t s, eng_miss *out)
{
    const pdb_error *er = &db->errors[s];
    bool any = false;
    *out = (eng_miss){.test = -1};
    for (uint32_t i = 0; m && i < db->n_edges; i++) {
        const pdb_branch *br = &db->branches[db->edges[i].branch];
        if (br->func != er->func || db->edges[i].target != er->block)
            continue;
        any = true;
        out->branch_ran |= m[i].branch_ran;
        for (int k = 0; k < 3; k++)
            out->flips[k] += m[i].flips[k];
        if (m[i].test >= 0 && (out->test < 0 || m[i].dist < out->dist)) {
            out->test = m[i].test;
            out->dist = m[i].dist;
        }
    }
    return any;
}

/* The method that proved goal g unreachable, NULL when none did. */
static const char *method_of(const search_ctx *c, uint32_t g)
{
    if (!ctx_goal_unreachable(c, g))
        return NULL;
    return c->prv.by && c->prv.by[g] == PRV_BY_BMC ? PROVE_BMC : PROVE_METHOD;
}

/* A goal not reached that the bounded checker answered: what it said, in
 * its entry g (why, and bound when no path within it reaches the goal). */
static void note_bmc(const search_ctx *c, uint32_t goal, json_object *g)
{
    unsigned steps;
    int a = eng_bmc_answer(c, goal, &steps);
    json_object *st, *why;
    if (!g || a == BMC_NONE || !json_object_object_get_ex(g, "status", &st) ||
        strcmp(json_object_get_string(st), "not-reached"))
        return;
    char said[160];
    if (a == BMC_UNSAT)
        snprintf(said, sizeof said, "no path of at most %u blocks reaches it", steps);
    else if (a == BMC_UNKNOWN)
        snprintf(said, sizeof said, "the solver gave no answer for paths of at most %u blocks",
                 steps);
    else
        snprintf(said, sizeof said, "its input for a path into it did not take it on replay");
    if (a == BMC_UNSAT)
        json_object_object_add(g, "bound", json_object_new_int((int)steps));
    bool had = json_object_object_get_ex(g, "why", &why);
    char buf[480];
    snprintf(buf, sizeof buf, "%s%sbounded symbolic reachability: %s", had ?
             json_object_get_string(why) : "", had ? "; " : "", said);
    json_object_object_add(g, "why", json_object_new_string(buf));
}

/* final.goals and final.unreachable of stats.json. */
static void record_goals(search_ctx *c)
{
    const progdb *db = c->db;
    eng_miss *m = eng_explain_misses(c), em;
    json_object *goals = json_object_new_array();
    for (uint32_t i = 0; goals && i < db->n_edges; i++) {
        const pdb_branch *br = &db->branches[db->edges[i].branch];
        json_object *g = goal_json("branch", &br->loc, progdb_edge_name(db, i),
                                   archive_edge_covered(c->archive, i), method_of(c, i),
                                   m ? &m[i] : NULL);
        note_bmc(c, i, g);
        json_object_array_add(goals, g);
    }
    for (uint32_t s = 0; goals && s < db->n_errors; s++) {
        char name[96];
        snprintf(name, sizeof name, "%s()", db->errors[s].callee ? db->errors[s].callee : "error");
        bool known = error_miss(db, m, s, &em);
        json_object *g = goal_json("error", &db->errors[s].loc, name,
                                   archive_error_reached(c->archive, s),
                                   method_of(c, db->n_edges + s), known ? &em : NULL);
        note_bmc(c, db->n_edges + s, g);
        json_object_array_add(goals, g);
    }
    if (goals && c->prv.no_error_call) { /* Test-Comp's error goal, with no call site */
        json_object_array_add(goals, goal_json("error", &(pdb_loc){"", 0, 0}, "reach_error()",
                                               false, PROVE_NO_CALL, NULL));
    }
    eng_miss_summary(c, m);
    ctg_free(m);
    stats_set_goals(c->out.stats, goals,
                    c->prv.n_edges + c->prv.n_errors + (c->prv.no_error_call ? 1u : 0u));
}

void eng_prove_finish(search_ctx *c)
{
    eng_bmc_finish(c);
    if (c->prv.job && !c->prv.done) {
        bool wait = !c->prv.polling && !interrupt_requested();
        if (prove_poll(c->prv.job, wait))
            apply(c);
        else
            snprintf(c->prv.note, sizeof c->prv.note, "Frama-C Eva had not finished when the "
                     "search ended (%.1fs; --prove-time, --time)", prove_seconds(c->prv.job));
    }
    if ((c->prv.n_edges || c->prv.n_errors) && eng_prove_contradicted(c)) /* a later test
                                                       covered a claimed goal */
        drop_claims(c, "the provers' claims were contradicted by a test and dropped");
    if (c->prv.note[0] && c->prv.job)
        ctx_summary_line(c, "  proofs            %s (log: %s)", c->prv.note, prove_log(c->prv.job));
    else if (c->prv.note[0])
        ctx_summary_line(c, "  proofs            %s", c->prv.note);
    if (c->prv.bmc_note[0])
        ctx_summary_line(c, "  proofs            %s", c->prv.bmc_note);
    if (c->prv.no_error_call)
        ctx_summary_line(c, "  proofs            reach_error() is unreachable: %s", PROVE_NO_CALL);
    stats_set(c->out.stats, "prove.edges", c->prv.n_edges);
    stats_set(c->out.stats, "prove.errors", c->prv.n_errors);
    if (c->prv.job)
        stats_set(c->out.stats, "prove.cpu_s", prove_cpu_seconds(c->prv.job));
    if (c->prv.note[0])
        stats_set_info(c->out.stats, "prove", c->prv.note);
    record_goals(c);
}

void eng_prove_free(search_ctx *c)
{
    eng_bmc_free(c);
    ctg_free(c->prv.by);
    c->prv.by = NULL;
    prove_free(c->prv.job);
    c->prv.job = NULL;
    ctg_free(c->prv.edge);
    ctg_free(c->prv.error);
    c->prv.edge = NULL;
    c->prv.error = NULL;
}
