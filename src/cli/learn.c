/*
 * learn.c - `ctestgen learn PROG.c [-o weights.txt]`: ParaDySE's algorithm 2
 * (seed 004, section 3.2) around concolic runs of `--search param`.
 *
 * Every evaluation is one `ctestgen run PROG --strategy concolic --search
 * param --weights W --max-execs N --seed S` in a process of its own, up to
 * --jobs at a time; its value is the branch coverage in its stats.json.
 * The sample of round r is drawn from a generator seeded by (--seed, r),
 * so it is the same after a restart: finished evaluations are read back
 * from the log (<weights>.work/learn.log, one "eval ROUND PHASE INDEX SEED
 * COVERAGE" line each) and not run again.  The first vectors of round 1
 * are given (start_vectors: --weights FILE or the built-in learned vector, then
 * the vectors that make the heuristic DFS, CFDS-like, shallow-first,
 * BFS and CFDS; --weights none draws them all): a small sample rarely
 * lands near them.
 * With --search-restart auto and --search-scope auto (the defaults) the
 * restart after a stall and the scope are parameters too: each vector
 * carries one of each (learn_restarts, learn_scopes; a vector with scope
 * gen carries restart 0, as it never restarts), the weights file gets the
 * best vector's (docs/concolic.md).
 * Ctrl-C stops launching, lets the running evaluations finish and exits
 * 130; the same command continues.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../report/stats.h"
#include "../search/concolic/cc_learn.h"
#include "commands.h"

#define LEARN_DEFAULT_EXECS 1000
#define LEARN_SEED_TRIALS 10      /* --learn-as-seed: the seed's check trials      */
#define LEARN_SEED_ROUNDS_CAP 1000 /* --learn-as-seed: rounds unless --rounds caps */
#define LEARN_MAX_LOG 100000
#define LEARN_EVAL_SECS 60.0 /* safety cap of one evaluation */

/* --search-restart auto and --search-scope auto: the restart and the
 * scope are learned with the weights, drawn from these (restarts: never,
 * the shipped weights' hand-over, param's default, CREST's CFDS) and
 * refined to the values of the two best vectors of a round */
#define LEARN_MAX_CHOICES 5
#define LEARN_N_START 7 /* start_vectors */
static const unsigned learn_restarts[] = {0, CC_RESTART_MIX, CC_RESTART_PARAM, CC_RESTART_CFDS};
static const unsigned learn_scopes[] = {CC_SCOPE_LAST, CC_SCOPE_TREE, CC_SCOPE_GEN,
                                        CC_SCOPE_LEVEL, CC_SCOPE_MIX};

/* A value learned with the weights (the restart, the scope): the values a
 * drawn vector takes one of (one: given by an option). */
typedef struct choice {
    unsigned v[LEARN_MAX_CHOICES];
    unsigned n;
} choice;

typedef struct logged {
    unsigned round, index, prog;
    char phase;
    unsigned long long seed;
    double cov;
} logged;

typedef struct learn {
    const ctg_options *o;
    const char *weights_out;
    char *work, *log_path, *exe;
    unsigned samples, top, checks, rounds, jobs;
    bool as_seed;       /* --learn-as-seed: seed 004's stop rule and trials */
    bool paper;         /* --features paper: cfds_rank (41) held at 0      */
    double t0;          /* when the command started (provenance)         */
    unsigned nprog;       /* --each: the programs (1: the sources of one) */
    uint64_t execs;
    double eval_secs;     /* safety cap of one evaluation (--time)       */
    bool restart_learned, scope_learned; /* --search-restart / -scope auto */
    choice restarts, scopes; /* what a vector draws its restart and scope from */
    logged *log;
    size_t n_log, cap_log;
    FILE *logf;
    double start_w[CC_N_FEATURES][LEARN_N_START]; /* [feature][k]: start vector k */
    unsigned start_rs[LEARN_N_START]; /* start vector k's restart          */
    cc_scope start_sc[LEARN_N_START]; /* start vector k's scope            */
    unsigned n_start;     /* evaluated first in round 1 (0: pure draw)  */
    unsigned done, total; /* for the progress line */
    bool tty;
    int rank, ranks;      /* --mpi: this rank, and how many (1: no MPI)   */
    int *busy;            /* --mpi, rank 0: the job index a rank runs, or -1 */
    unsigned remote_done; /* --mpi: evaluations the other ranks ran      */
} learn;

/* One evaluation to run: weights, restart, scope, seed and where its
 * value goes. */
typedef struct job {
    const double *w;
    unsigned restart;     /* its runs' --search-restart                   */
    cc_scope scope;       /* and --search-scope                           */
    unsigned round, index;
    char phase;
    unsigned long long seed;
    double *out;
    pid_t pid;
    char *dir;
    int remote;           /* --mpi: the rank running it, or 0            */
    unsigned prog;        /* --each: which program (positional index)    */
} job;

/* ==== the log ================================================================ */

/* The settings an evaluation's value depends on, as the log's first line
 * records them: a log of other settings is not continued. */
static char *setup_line(const learn *L)
{
    const ctg_options *o = L->o;
    sbuf b = SBUF_INIT;
    char rs[24] = "learned";
    if (!L->restart_learned)
        snprintf(rs, sizeof rs, "%u", L->restarts.v[0]);
    sbuf_printf(&b,
                "setup scope %s, restart %s, %d features, %d start vectors, %llu executions, "
                "%g s, arch %d, %s:",
                L->scope_learned ? "learned" : cc_scope_name((cc_scope)L->scopes.v[0]), rs,
                L->paper ? CC_N_FEATURES - 1 : CC_N_FEATURES, LEARN_N_START,
                (unsigned long long)L->execs,
                L->eval_secs, o->build.arch_bits, L->nprog > 1 ? "each" : "one program");
    for (int i = 0; i < o->positional.n; i++)
        sbuf_printf(&b, " %s", o->positional.items[i]);
    return sbuf_take(&b);
}

/* Reads the evaluations of an earlier learn with the same settings; a new
 * log starts with the setup line. */
static bool read_log(learn *L, ctg_err *e)
{
    char *setup = setup_line(L);
    if (!setup)
        return err_set(e, "learn: out of memory");
    if (!fs_exists(L->log_path)) {
        sbuf b = SBUF_INIT;
        sbuf_printf(&b, "%s\n", setup);
        bool ok = sbuf_ok(&b) ? fs_write_atomic(L->log_path, b.data, b.len, e)
                              : err_set(e, "learn: out of memory");
        sbuf_release(&b);
        ctg_free(setup);
        return ok;
    }
    char *text;
    if (!fs_read(L->log_path, &text, NULL, e)) {
        ctg_free(setup);
        return false;
    }
    bool ok = true;
    for (char *s = text, *nl; ok && s && *s; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        if (!strncmp(s, "setup ", 6) && strcmp(s, setup)) {
            ok = err_set(e, "%s: written by a learn with other settings ('%s'); give the same "
                            "options, or another -o", L->log_path, s + 6);
            break;
        }
        logged g = {0};
        if (sscanf(s, "eval %u %c %u %llu %lf %u", &g.round, &g.phase, &g.index, &g.seed, &g.cov,
                   &g.prog) >= 5 &&
            L->n_log < LEARN_MAX_LOG &&
            ctg_grow((void **)&L->log, &L->cap_log, L->n_log + 1, sizeof *L->log) == 0)
            L->log[L->n_log++] = g;
    }
    ctg_free(text);
    ctg_free(setup);
    return ok;
}

/* The logged value of an evaluation, or false. */
static bool logged_value(const learn *L, const job *j, double *cov)
{
    for (size_t i = 0; i < L->n_log; i++) {
        const logged *g = &L->log[i];
        if (g->round == j->round && g->phase == j->phase && g->index == j->index &&
            g->seed == j->seed && g->prog == j->prog) {
            *cov = g->cov;
            return true;
        }
    }
    return false;
}

/* ==== evaluations =============================================================== */

/* Child: writes the weights and runs ctestgen on them (exec; never returns). */
static void run_child(const learn *L, const job *j)
{
    char wpath[4096], seed[32], execs[32], secs[32], restart[16];
    snprintf(wpath, sizeof wpath, "%s.weights", j->dir);
    snprintf(restart, sizeof restart, "%u", j->restart);
    snprintf(seed, sizeof seed, "%llu", j->seed);
    snprintf(execs, sizeof execs, "%llu", (unsigned long long)L->execs);
    snprintf(secs, sizeof secs, "%g", L->eval_secs);
    if (!cc_weights_save(wpath, j->w, NULL, j->scope, j->restart, NULL))
        _exit(111);
    const ctg_options *o = L->o;
    int n = 0;
    const char **argv = ctg_calloc((size_t)(o->positional.n + o->build.cflags.n) * 2 + 32,
                                   sizeof *argv);
    if (!argv)
        _exit(111);
    argv[n++] = L->exe;
    argv[n++] = "run";
    if (L->nprog > 1)
        argv[n++] = o->positional.items[j->prog];
    for (int i = 0; L->nprog == 1 && i < o->positional.n; i++)
        argv[n++] = o->positional.items[i];
    for (int i = 0; i < o->build.cflags.n; i++) {
        argv[n++] = "--cflag";
        argv[n++] = o->build.cflags.items[i];
    }
    const char *fixed[] = {"--strategy", "concolic", "--search", "param", "--weights", wpath,
                           "--max-execs", execs, "--time", secs, "--seed", seed, "-q", "--force",
                           "--no-replay-check", /* an evaluation needs the edges only */
                           "--search-scope", cc_scope_name(j->scope),
                           "--search-restart", restart, "-o", j->dir,
                           o->build.arch_bits == 32 ? "--arch" : NULL, "32", NULL};
    for (int i = 0; fixed[i]; i++)
        argv[n++] = fixed[i];
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 1);
    execv(L->exe, (char *const *)argv);
    _exit(112);
}

/* Starts job j in a process of its own. */
static bool start_job(learn *L, job *j, ctg_err *e)
{
    sbuf d = SBUF_INIT;
    sbuf_printf(&d, "%s/r%u-%c%u-s%llu-p%u", L->work, j->round, j->phase, j->index, j->seed,
                j->prog);
    if (!sbuf_ok(&d))
        return err_set(e, "learn: out of memory");
    j->dir = sbuf_take(&d);
    fflush(NULL);
    j->pid = fork();
    if (j->pid < 0)
        return err_sys(e, "learn: cannot start an evaluation");
    if (j->pid == 0)
        run_child(L, j);
    return true;
}

static void progress(learn *L, const char *what)
{
    if (!L->tty || L->o->ui.quiet)
        return;
    fprintf(stderr, "\r\033[K[learn] %s %u/%u", what, L->done, L->total);
}

/* Removes evaluation j's output directory and weights file. */
static void drop_files(job *j)
{
    if (!j->dir)
        return;
    fs_rm_rf(j->dir, NULL);
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s.weights", j->dir);
    unlink(wpath);
    ctg_free(j->dir);
    j->dir = NULL;
}

/* The coverage of finished evaluation j (exit status ws) into *cov, its
 * files removed: covered edges, or with --each their percentage (programs
 * of different sizes weigh the same).  False with e set when the run
 * failed. */
static bool eval_coverage(const learn *L, job *j, int ws, double *cov, ctg_err *e)
{
    bool ok = true;
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 130)
        ok = err_set(e, "interrupted");
    else if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        ok = err_set(e, "learn: an evaluation run failed (exit %d); run it by hand to see why: "
                        "ctestgen run %s --strategy concolic --search param --weights %s.weights",
                     WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws),
                     L->o->positional.items[j->prog],
                     j->dir);
    char *sp = ok ? fs_join(j->dir, "stats.json") : NULL;
    stats_t *st = sp ? stats_load(sp, e) : NULL;
    ok = ok && st;
    if (ok && L->nprog > 1) {
        double total = stats_get(st, "edges.total");
        *cov = total > 0 ? 100.0 * stats_get(st, "edges.covered") / total : 0;
    } else if (ok) {
        *cov = stats_get(st, "edges.covered");
    }
    stats_free(st);
    ctg_free(sp);
    drop_files(j);
    return ok;
}

/* An evaluation's value: into its slot, the log and the progress count. */
static void record_eval(learn *L, const job *j, double cov)
{
    *j->out = cov;
    fprintf(L->logf, "eval %u %c %u %llu %.6g", j->round, j->phase, j->index, j->seed, cov);
    if (L->nprog > 1) /* --each: which program */
        fprintf(L->logf, " %u", j->prog);
    fputc('\n', L->logf);
    fflush(L->logf);
    L->done++;
}

/* Collects finished job j (exit status ws): its coverage into *j->out and
 * the log.  False with e set when the run failed. */
static bool finish_job(learn *L, job *j, int ws, ctg_err *e)
{
    double cov = 0;
    if (!eval_coverage(L, j, ws, &cov, e))
        return false;
    record_eval(L, j, cov);
    return true;
}


/* ==== --mpi: evaluations on other ranks =============================================== */

#ifdef CTG_HAVE_MPI
#include <mpi.h>

enum { LTAG_JOB = 91, LTAG_RESULT, LTAG_STOP };

/* An evaluation on the wire: the job's key, weights and result. */
typedef struct wire {
    unsigned round, index, prog;
    char phase;
    unsigned long long seed;
    double cov;
    int ok;
    unsigned restart;
    cc_scope scope;
    double w[CC_N_FEATURES];
} wire;

/* Rank 0: hands job i to an idle rank; false when none is idle. */
static bool mpi_start(learn *L, job *jobs, size_t i)
{
    for (int r = 1; r < L->ranks; r++) {
        if (L->busy[r] >= 0)
            continue;
        wire m = {jobs[i].round, jobs[i].index, jobs[i].prog, jobs[i].phase, jobs[i].seed, 0, 0,
                  jobs[i].restart, jobs[i].scope, {0}};
        memcpy(m.w, jobs[i].w, sizeof m.w);
        MPI_Send(&m, sizeof m, MPI_BYTE, r, LTAG_JOB, MPI_COMM_WORLD);
        L->busy[r] = (int)i;
        jobs[i].remote = r;
        return true;
    }
    return false;
}

/* Rank 0: takes a result that has arrived; its job index, or -1. */
static long mpi_result(learn *L, job *jobs, ctg_err *e)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, LTAG_RESULT, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return -1;
    wire m;
    MPI_Recv(&m, sizeof m, MPI_BYTE, st.MPI_SOURCE, LTAG_RESULT, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    long i = L->busy[st.MPI_SOURCE];
    L->busy[st.MPI_SOURCE] = -1;
    if (i < 0)
        return -1;
    job *j = &jobs[i];
    j->remote = 0;
    if (!m.ok) {
        err_set(e, "learn: an evaluation failed on rank %d; run it by hand there to see why",
                st.MPI_SOURCE);
        return i;
    }
    L->remote_done++;
    record_eval(L, j, m.cov);
    return i;
}

/* Ranks > 0: runs the evaluations rank 0 sends until it says stop. */
static void mpi_serve(learn *L)
{
    for (;;) {
        wire m;
        MPI_Status st;
        MPI_Recv(&m, sizeof m, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG != LTAG_JOB)
            return;
        job j = {m.w, m.restart, m.scope, m.round, m.index, m.phase, m.seed, &m.cov, 0, NULL, 0,
                 m.prog};
        ctg_err e = {{0}};
        int ws = 0;
        m.cov = 0;
        m.ok = start_job(L, &j, &e) && waitpid(j.pid, &ws, 0) == j.pid &&
               eval_coverage(L, &j, ws, &m.cov, &e);
        drop_files(&j); /* when it did not get that far */
        MPI_Send(&m, sizeof m, MPI_BYTE, 0, LTAG_RESULT, MPI_COMM_WORLD);
    }
}
#endif

/* Runs the jobs, --jobs at a time here (and, with --mpi, one on every
 * other rank); logged ones are not run again. */
static bool run_jobs(learn *L, job *jobs, size_t n, const char *what, ctg_err *e)
{
    size_t next = 0, running = 0, remote = 0;
    bool ok = true;
    while (next < n || running || remote) {
        while (ok && next < n && !interrupt_requested()) {
            job *j = &jobs[next];
            if (logged_value(L, j, j->out)) {
                L->done++, next++;
                continue;
            }
#ifdef CTG_HAVE_MPI
            if (L->ranks > 1 && mpi_start(L, jobs, next)) {
                next++, remote++;
                continue;
            }
#endif
            if (running >= L->jobs)
                break;
            ok = start_job(L, j, e);
            running += ok;
            next++;
        }
        if (!running && !remote)
            break;
        int ws;
        pid_t p = remote ? waitpid(-1, &ws, WNOHANG) : wait(&ws);
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0 && !remote)
            break;
        for (size_t i = 0; p > 0 && i < next; i++)
            if (jobs[i].pid == p && jobs[i].dir && !jobs[i].remote) {
                running--;
                ctg_err je = {{0}};
                if (!finish_job(L, &jobs[i], ws, &je) && ok)
                    ok = err_set(e, "%s", je.msg);
            }
#ifdef CTG_HAVE_MPI
        ctg_err me = {{0}};
        long got = remote ? mpi_result(L, jobs, &me) : -1;
        if (got >= 0)
            remote--;
        if (err_is_set(&me) && ok)
            ok = err_set(e, "%s", me.msg);
        if (remote && p <= 0 && got < 0)
            usleep(10000);
#endif
        progress(L, what);
        if ((!ok || interrupt_requested()) && next < n)
            next = n; /* stop launching; let the running ones finish */
    }
    if (ok && interrupt_requested())
        ok = err_set(e, "interrupted");
    return ok;
}

/* ==== algorithm 2 ================================================================= */

/* out[i] = the mean of v[i * P .. i * P + P - 1], for i < n. */
static void mean_over_programs(const double *v, size_t n, size_t P, double *out)
{
    for (size_t i = 0; v && out && i < n; i++) {
        out[i] = 0;
        for (size_t p = 0; p < P; p++)
            out[i] += v[i * P + p] / (double)P;
    }
}

/* A drawn vector's value of c: one of those left, drawn after the weights
 * from the same generator (no draw when one is left, so a learn with a
 * given --search-restart or --search-scope draws as before either was
 * learned). */
static unsigned choice_draw(const choice *c, rng *g)
{
    return c->v[c->n > 1 ? rng_below(g, c->n) : 0];
}

/* Refine of c: the values of the two best vectors (a given value stays the
 * only one). */
static void choice_refine(choice *c, unsigned v1, unsigned v2)
{
    c->v[0] = v1;
    c->v[1] = v2;
    c->n = v1 == v2 ? 1 : 2;
}

/* c with the n values of v. */
static void choice_set(choice *c, const unsigned *v, unsigned n)
{
    memcpy(c->v, v, n * sizeof *v);
    c->n = n;
}

/* The best vector of a learn: weights, restart and scope. */
typedef struct best_vec {
    double avg; /* its average coverage over the check seeds; -1: none yet */
    double w[CC_N_FEATURES];
    unsigned restart;
    cc_scope scope;
} best_vec;

/* One round's vectors and figures: n drawn, the kk checked. */
typedef struct round {
    unsigned r, n, k, c;       /* round, vectors drawn, the top kept, checks */
    size_t kk, P, nk;          /* room for the checked, programs, checked     */
    double (*w)[CC_N_FEATURES];
    unsigned *rs;
    cc_scope *sc;
    double *cov, *avg, *cc, *covp, *ccp; /* per program: [vector * P + program] */
    size_t *top;
    job *jobs;
} round;

static void round_free(round *R)
{
    ctg_free(R->w), ctg_free(R->rs), ctg_free(R->sc), ctg_free(R->cov), ctg_free(R->avg);
    ctg_free(R->cc), ctg_free(R->top), ctg_free(R->jobs), ctg_free(R->covp), ctg_free(R->ccp);
}

/* Allocates round r's arrays; false with e set on oom. */
static bool round_alloc(const learn *L, unsigned r, round *R, ctg_err *e)
{
    memset(R, 0, sizeof *R);
    R->r = r, R->n = L->samples, R->c = L->checks, R->P = L->nprog;
    R->k = L->top < R->n ? L->top : R->n;
    R->kk = (size_t)R->k + L->n_start; /* checked: the top k and round 1's given vectors */
    size_t n = R->n, kk = R->kk, P = R->P;
    R->w = ctg_calloc(n, sizeof *R->w);
    R->rs = ctg_calloc(n, sizeof *R->rs);
    R->sc = ctg_calloc(n, sizeof *R->sc);
    R->cov = ctg_calloc(n, sizeof *R->cov), R->avg = ctg_calloc(kk, sizeof *R->avg);
    R->cc = ctg_calloc(kk * R->c, sizeof *R->cc), R->top = ctg_calloc(kk, sizeof *R->top);
    R->covp = ctg_calloc(n * P, sizeof *R->covp), R->ccp = ctg_calloc(kk * R->c * P, sizeof *R->ccp);
    R->jobs = ctg_calloc((n + kk * R->c) * P, sizeof *R->jobs);
    bool ok = R->w && R->rs && R->sc && R->cov && R->avg && R->cc && R->top && R->jobs &&
              R->covp && R->ccp;
    return ok || err_set(e, "learn: out of memory");
}

/* Find: n vectors drawn from the range (round 1 starts from the given
 * ones), each run once on every program. */
static bool round_find(learn *L, cc_range *rng_range, round *R, ctg_err *e)
{
    rng g;
    rng_seed(&g, L->o->search.seed * 1000003u + R->r);
    for (unsigned i = 0; i < R->n; i++) {
        cc_learn_sample(&g, rng_range, R->w[i]);
        R->rs[i] = choice_draw(&L->restarts, &g);
        R->sc[i] = (cc_scope)choice_draw(&L->scopes, &g);
        if (R->r == 1 && i < L->n_start) { /* warm start; the others stay as drawn */
            for (int f = 0; f < CC_N_FEATURES; f++)
                R->w[i][f] = L->start_w[f][i];
            R->rs[i] = L->start_rs[i];
            R->sc[i] = L->start_sc[i];
        }
        /* scope gen never restarts: its vector says restart 0 (drawn all
         * the same, so the draws after it stay as they were) */
        R->rs[i] = cc_scope_restart(R->sc[i], R->rs[i]);
        for (size_t p = 0; p < R->P; p++)
            R->jobs[i * R->P + p] = (job){R->w[i], R->rs[i], R->sc[i], R->r, i, 'F',
                                          L->o->search.seed, &R->covp[i * R->P + p], 0, NULL, 0,
                                          (unsigned)p};
    }
    L->done = 0, L->total = (unsigned)(R->n * R->P);
    if (!run_jobs(L, R->jobs, R->n * R->P, "find", e))
        return false;
    mean_over_programs(R->covp, R->n, R->P, R->cov);
    return true;
}

/* Check: the top k (and in round 1 the given vectors: on one seed a drawn
 * vector often beats them by luck - fsm: 58 against DFS's 55 on seed 1,
 * then 33 and 13 on the next seeds - and the check is what tells) run on
 * c more seeds; their averages into R->avg. */
static bool round_check(learn *L, round *R, ctg_err *e)
{
    R->nk = cc_learn_top(R->cov, R->n, R->k, R->top);
    for (unsigned i = 0; R->r == 1 && i < L->n_start && i < R->n; i++) {
        bool have = false;
        for (size_t t = 0; t < R->nk; t++)
            have |= R->top[t] == i;
        if (!have)
            R->top[R->nk++] = i;
    }
    job *cj = R->jobs + R->n * R->P;
    for (size_t t = 0; t < R->nk; t++)
        for (unsigned s = 0; s < R->c; s++)
            for (size_t p = 0; p < R->P; p++) {
                size_t x = (t * R->c + s) * R->P + p, v = R->top[t];
                cj[x] = (job){R->w[v], R->rs[v], R->sc[v], R->r, (unsigned)v, 'C',
                              L->o->search.seed + 1 + s, &R->ccp[x], 0, NULL, 0, (unsigned)p};
            }
    L->done = 0, L->total = (unsigned)(R->nk * R->c * R->P);
    if (!run_jobs(L, cj, R->nk * R->c * R->P, "check", e))
        return false;
    mean_over_programs(R->ccp, R->nk * R->c, R->P, R->cc);
    for (size_t t = 0; t < R->nk; t++)
        for (unsigned s = 0; s < R->c; s++)
            R->avg[t] += R->cc[t * R->c + s] / R->c;
    return true;
}

/* Refine: the range and the choices narrow around the two best; false when
 * the best did not improve (converged, not an error). */
static bool round_refine(learn *L, cc_range *rng_range, const round *R, best_vec *best)
{
    size_t best2[2], n2 = cc_learn_top(R->avg, R->nk, 2, best2);
    if (n2 == 0)
        return true;
    size_t b1 = R->top[best2[0]], b2 = n2 > 1 ? R->top[best2[1]] : b1;
    cc_learn_refine(rng_range, R->w[b1], R->w[b2]);
    /* a scope gen vector's restart 0 says nothing about restarts: the
     * restarts are refined by the others among the two best */
    if (R->sc[b1] != CC_SCOPE_GEN || R->sc[b2] != CC_SCOPE_GEN)
        choice_refine(&L->restarts, R->sc[b1] != CC_SCOPE_GEN ? R->rs[b1] : R->rs[b2],
                      R->sc[b2] != CC_SCOPE_GEN ? R->rs[b2] : R->rs[b1]);
    choice_refine(&L->scopes, R->sc[b1], R->sc[b2]);
    if (L->tty && !L->o->ui.quiet)
        fputs("\r\033[K", stderr);
    double a = R->avg[best2[0]];
    if (!L->o->ui.quiet)
        fprintf(stderr, "ctestgen: learn: round %u: best average coverage %.2f (before %.2f)\n",
                R->r, a, best->avg);
    fprintf(L->logf, "round %u best %.6g restart %u scope %s\n", R->r, a, R->rs[b1],
            cc_scope_name(R->sc[b1]));
    fflush(L->logf);
    if (cc_learn_converged(a, best->avg, L->as_seed))
        return false;
    best->avg = a;
    memcpy(best->w, R->w[b1], sizeof best->w);
    best->restart = R->rs[b1];
    best->scope = R->sc[b1];
    return true;
}

/* One round of seed 004's algorithm 2: find, check, refine.  False when
 * it converged or failed (e set). */
static bool one_round(learn *L, unsigned r, cc_range *R, best_vec *best, ctg_err *e)
{
    round rd;
    bool ok = round_alloc(L, r, &rd, e) && round_find(L, R, &rd, e) && round_check(L, &rd, e) &&
              round_refine(L, R, &rd, best);
    round_free(&rd);
    return ok;
}

/* The vectors round 1 evaluates before its drawn ones: the given (or
 * built-in) one, then points of the weight space that make the parametric
 * heuristic a fixed order - 0 everywhere on the last path (every score
 * ties and the deepest entry wins: DFS), "the other side is uncovered or
 * one branch from it" (CFDS with two distances), "among the first tenth of
 * the path" (shallow first), 0 everywhere with scope level (the oldest
 * path's shallowest entry: BFS), CFDS's rank alone (feature 41: --search
 * cfds itself, which 30 and 31's two distances are not), 0 everywhere
 * with scope gen (generational search).  A sample of 16 rarely lands near
 * any of them; with them a learn keeps the best fixed order it can express
 * or beats it.  Each restarts and looks at the paths of the order it stands
 * for (the given one as its file says, else param's default and last); a
 * given --search-restart or --search-scope holds for all. */
static void start_vectors(learn *L, const double *given, long given_restart, cc_scope given_scope)
{
    memset(L->start_w, 0, sizeof L->start_w);
    for (int f = 0; f < CC_N_FEATURES; f++)
        L->start_w[f][0] = given[f];
    L->start_rs[0] = given_restart >= 0 ? (unsigned)given_restart : CC_RESTART_PARAM;
    L->start_sc[0] = given_scope != CC_SCOPE_UNSET ? given_scope : CC_SCOPE_LAST;
    /* [1]: all 0, DFS: never restarts (the paper's) */
    L->start_rs[1] = 0;
    L->start_sc[1] = CC_SCOPE_LAST;
    L->start_w[cc_feature_index("opposite_uncovered")][2] = 1.0;
    L->start_w[cc_feature_index("opposite_dist_1")][2] = 0.5;
    L->start_rs[2] = CC_RESTART_CFDS;
    L->start_sc[2] = CC_SCOPE_LAST;
    L->start_w[cc_feature_index("first_in_path")][3] = 1.0;
    L->start_rs[3] = CC_RESTART_PARAM;
    L->start_sc[3] = CC_SCOPE_LAST;
    /* [4]: all 0, BFS */
    L->start_rs[4] = 0;
    L->start_sc[4] = CC_SCOPE_LEVEL;
    /* [5]: CFDS's rank alone, with its restart: --search cfds itself */
    L->start_w[CC_CFDS_RANK][5] = 1.0;
    L->start_rs[5] = CC_RESTART_CFDS;
    L->start_sc[5] = CC_SCOPE_LAST;
    /* [6]: all 0 with scope gen: generational search itself */
    L->start_rs[6] = 0;
    L->start_sc[6] = CC_SCOPE_GEN;
    L->n_start = LEARN_N_START;
    for (unsigned k = 0; k < L->n_start; k++) {
        if (L->paper) /* the CFDS vector becomes all 0 with CREST's restart */
            L->start_w[CC_CFDS_RANK][k] = 0;
        if (!L->restart_learned)
            L->start_rs[k] = L->restarts.v[0];
        if (!L->scope_learned)
            L->start_sc[k] = (cc_scope)L->scopes.v[0];
    }
}

/* Reads the learn options; false with e set on a bad value. */
static bool learn_opts(learn *L, const ctg_options *o, ctg_err *e)
{
    long v[5] = {opt_get_long(o, "samples"), opt_get_long(o, "top"), opt_get_long(o, "checks"),
                 opt_get_long(o, "rounds"), o->exec.jobs};
    static const char *const names[] = {"--samples", "--top", "--checks", "--rounds", "--jobs"};
    for (int i = 0; i < 5; i++)
        if (v[i] < 1 || v[i] > 100000)
            return err_set(e, "%s: %ld is out of range; give 1 .. 100000", names[i], v[i]);
    L->samples = (unsigned)v[0], L->top = (unsigned)v[1], L->checks = (unsigned)v[2];
    L->nprog = opt_get_flag(o, "each") ? (unsigned)o->positional.n : 1;
    L->rounds = (unsigned)v[3], L->jobs = (unsigned)v[4];
    L->as_seed = opt_get_flag(o, "learn-as-seed");
    const char *feat = opt_get_str(o, "features");
    if (strcmp(feat, "all") && strcmp(feat, "paper"))
        return err_set(e, "--features: unknown set '%s'; use paper (the paper's 40) or all", feat);
    L->paper = !strcmp(feat, "paper");
    if (L->as_seed && !opt_given(o, "checks"))
        L->checks = LEARN_SEED_TRIALS;
    if (L->as_seed && !opt_given(o, "rounds"))
        L->rounds = LEARN_SEED_ROUNDS_CAP;
    L->execs = o->search.max_execs ? o->search.max_execs : LEARN_DEFAULT_EXECS;
    /* a weight vector may send the solver after hard queries: an
     * evaluation is cut at --time (default LEARN_EVAL_SECS) seconds */
    L->eval_secs = o->search.time_s > 0 ? o->search.time_s : LEARN_EVAL_SECS;
    /* the restart after a stall and the scope: given, or (auto) learned */
    uint32_t restart;
    const char *ro = opt_get_str(o, "search-restart");
    if (!cc_restart_option(ro, CC_PARAM, &restart, e))
        return false;
    L->restart_learned = !strcmp(ro, "auto");
    if (L->restart_learned)
        choice_set(&L->restarts, learn_restarts, sizeof learn_restarts / sizeof *learn_restarts);
    else
        choice_set(&L->restarts, &restart, 1);
    cc_scope scope;
    if (!cc_scope_option(opt_get_str(o, "search-scope"), &scope, e))
        return false;
    L->scope_learned = scope == CC_SCOPE_UNSET;
    unsigned sv = scope;
    if (L->scope_learned)
        choice_set(&L->scopes, learn_scopes, sizeof learn_scopes / sizeof *learn_scopes);
    else
        choice_set(&L->scopes, &sv, 1);
    const char *start = opt_get_str(o, "weights");
    if (start && !strcmp(start, "none"))
        return true;
    const cc_builtin *b = start ? cc_builtin_find(start) : cc_builtin_default(false);
    if (b) {
        start_vectors(L, b->w, b->restart, b->scope);
        return true;
    }
    double w[CC_N_FEATURES];
    cc_scope file_scope = CC_SCOPE_UNSET;
    long file_restart = -1;
    if (!cc_weights_load(start, w, &file_scope, &file_restart, e))
        return false;
    start_vectors(L, w, file_restart, file_scope);
    return true;
}

/* With --mpi: joins the job; a rank above 0 serves evaluations until rank
 * 0 says stop (*served: true, the command is over for it).  False with e
 * set when this ctestgen has no MPI. */
static bool learn_mpi_start(learn *L, bool *served, ctg_err *e)
{
    *served = false;
    if (!L->o->exec.mpi)
        return true;
#ifdef CTG_HAVE_MPI
    (void)e;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &L->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &L->ranks);
    if (L->rank > 0) { /* an evaluation server in a work directory of its own */
        char prefix[32], *dir = fs_exe_dir();
        snprintf(prefix, sizeof prefix, "ctg-learn-r%d-", L->rank);
        L->exe = dir ? fs_join(dir, "ctestgen") : NULL;
        ctg_free(dir);
        ctg_err te = {{0}};
        if (L->exe && (L->work = fs_mkdtemp(prefix, "an evaluation directory", &te))) {
            mpi_serve(L);
            fs_rm_rf(L->work, NULL);
        }
        ctg_free(L->work);
        ctg_free(L->exe);
        MPI_Finalize();
        *served = true;
        return true;
    }
    L->busy = ctg_calloc((size_t)L->ranks, sizeof *L->busy);
    for (int r = 0; L->busy && r < L->ranks; r++)
        L->busy[r] = -1;
    return true;
#else
    return err_set(e, "--mpi: this ctestgen was built without MPI; install libopenmpi-dev and "
                      "openmpi-bin, rebuild, and start it with mpirun");
#endif
}

/* Rank 0's end of an MPI job: the servers stop. */
static void learn_mpi_end(learn *L)
{
#ifdef CTG_HAVE_MPI
    if (L->ranks > 1) {
        for (int k = 1; k < L->ranks; k++)
            MPI_Send("", 0, MPI_BYTE, k, LTAG_STOP, MPI_COMM_WORLD);
        ctg_free(L->busy);
        MPI_Finalize();
    }
#else
    (void)L;
#endif
}

/* The work directory, its log (read back) and the ctestgen to run. */
static bool learn_open(learn *L, ctg_err *e)
{
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%s.work", L->weights_out);
    L->work = sbuf_take(&b);
    L->log_path = L->work ? fs_join(L->work, "learn.log") : NULL;
    char *dir = fs_exe_dir();
    L->exe = dir ? fs_join(dir, "ctestgen") : NULL;
    ctg_free(dir);
    bool ok = L->work && L->log_path && L->exe ? true : err_set(e, "learn: out of memory");
    ok = ok && fs_mkdir_p(L->work, e) && read_log(L, e);
    if (ok && !(L->logf = fopen(L->log_path, "a")))
        ok = err_sys(e, "%s: cannot write the log", L->log_path);
    return ok;
}

/* The command that reproduces this learn, from the values in effect. */
static void reproduce_line(const learn *L, sbuf *b)
{
    const ctg_options *o = L->o;
    sbuf_printf(b, "reproduce: ctestgen learn%s", L->nprog > 1 ? " --each" : "");
    for (int i = 0; i < o->positional.n; i++)
        sbuf_printf(b, " %s", o->positional.items[i]);
    if (o->build.arch_bits == 32)
        sbuf_printf(b, " --arch 32");
    sbuf_printf(b, " --max-execs %llu --time %g --samples %u --top %u --checks %u --rounds %u "
                   "--seed %llu --features %s --search-scope %s --search-restart %s --weights %s%s",
                (unsigned long long)L->execs, L->eval_secs, L->samples, L->top, L->checks,
                L->rounds, (unsigned long long)o->search.seed, L->paper ? "paper" : "all",
                opt_get_str(o, "search-scope"), opt_get_str(o, "search-restart"),
                opt_get_str(o, "weights") ? opt_get_str(o, "weights") : "learned",
                L->as_seed ? " --learn-as-seed" : "");
}

/* Writes the best vector with its provenance and says where. */
static bool learn_save(learn *L, const best_vec *best, unsigned rounds, ctg_err *e)
{
    const ctg_options *o = L->o;
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "learned by ctestgen learn on");
    for (int i = 0; i < o->positional.n && (L->nprog > 1 || i == 0); i++) {
        const char *base = strrchr(o->positional.items[i], '/');
        sbuf_printf(&b, " %s", base ? base + 1 : o->positional.items[i]);
    }
    sbuf_printf(&b, ": average coverage %.2f %s over %u seeds, %u rounds, %llu executions a run\n# "
                    "features: %s; %.0f s of this command\n# ",
                best->avg, L->nprog > 1 ? "% of branches (--each)" : "branches", L->checks, rounds,
                (unsigned long long)L->execs,
                L->paper ? "the paper's 40 (cfds_rank held at 0)" : "all 41",
                fs_now() - L->t0);
    reproduce_line(L, &b);
    if (!sbuf_ok(&b)) {
        sbuf_release(&b);
        return err_set(e, "learn: out of memory");
    }
    char *note = sbuf_take(&b);
    bool saved = cc_weights_save(L->weights_out, best->w, note, best->scope, best->restart, e);
    if (!saved) {
        ctg_free(note);
        return false;
    }
    if (!o->ui.quiet)
        printf("ctestgen: learn: %.*s\n  weights           %s\n  log               %s\n",
               (int)strcspn(note, "\n"), note, L->weights_out, L->log_path);
    ctg_free(note);
    if (!o->ui.quiet && L->ranks > 1)
        printf("  ranks             %d (%u evaluations on ranks 1..%d)\n", L->ranks,
               L->remote_done, L->ranks - 1);
    return true;
}

/* The rounds until they converge or --rounds; the best into *best, the
 * rounds run into *rounds. */
static bool learn_rounds(learn *L, best_vec *best, unsigned *rounds, ctg_err *e)
{
    cc_range R[CC_N_FEATURES];
    cc_learn_init(R);
    if (L->paper)
        R[CC_CFDS_RANK] = (cc_range){0, 0};
    unsigned r = 1;
    ctg_err re = {{0}};
    while (r <= L->rounds && one_round(L, r, R, best, &re))
        r++;
    *rounds = r > L->rounds ? L->rounds : r;
    if (err_is_set(&re))
        return err_set(e, "%s", re.msg);
    return best->avg >= 0 || err_set(e, "learn: no evaluation finished");
}

int cmd_learn(const ctg_options *o, ctg_err *e)
{
    if (o->positional.n < 1) {
        err_set(e, "learn: no program given; usage: ctestgen learn PROG.c [MORE.c ...] "
                   "[-o weights.txt]");
        return EXIT_USAGE;
    }
    learn L = {.o = o, .tty = isatty(2) != 0, .ranks = 1, .t0 = fs_now()};
    L.weights_out = strcmp(o->out.out_dir, "ctestgen-out") ? o->out.out_dir : "weights.txt";
    bool served;
    if (!learn_opts(&L, o, e))
        return EXIT_USAGE;
    if (!learn_mpi_start(&L, &served, e))
        return EXIT_ERR;
    if (served)
        return EXIT_OK;
    interrupt_install();
    best_vec best = {.avg = -1};
    unsigned rounds = 0;
    bool ok = learn_open(&L, e) && learn_rounds(&L, &best, &rounds, e) &&
              learn_save(&L, &best, rounds, e);
    if (L.logf)
        fclose(L.logf);
    int rc = ok ? EXIT_OK : interrupt_requested() ? INTERRUPT_EXIT : EXIT_ERR;
    if (rc == INTERRUPT_EXIT) {
        e->msg[0] = '\0';
        err_set(e, "learn: interrupted; run the same command again to continue from %s",
                L.log_path);
    }
    ctg_free(L.work), ctg_free(L.log_path), ctg_free(L.exe), ctg_free(L.log);
    learn_mpi_end(&L);
    return rc;
}
