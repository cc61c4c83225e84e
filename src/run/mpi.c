/*
 * mpi.c - `run --mpi`: the --jobs exchange (cli/jobs.c, search/engine_jobs.c)
 * across machines.  Every rank builds the program and runs one worker in a
 * local sync directory holding w0 .. w<N-1>: its own output in wR, and
 * mirrors of the other ranks' tests, which MPI fills.  Rank 0's sync
 * directory is OUT/.jobs; the others' are temporary directories.
 *
 * Messages (all non-blocking sends; a rank receives at each of its
 * worker's imports, every --sync-s, through engine_set_sync_hook):
 *   TESTS  a batch of records (origin rank, kind, file name, bytes): the
 *          tests a rank kept since its last batch.  Ranks send theirs to
 *          rank 0, which writes them into its mirror of the origin and
 *          forwards them, with its own, to every other rank.
 *   FINAL  a rank's last batch: the rest of its tests, its crash files and
 *          its stats.json; rank 0 merges when it has every FINAL.
 *   BYE    rank 0 to the others: merged; stop receiving and end.
 * Every rank sends rank 0, and rank 0 every rank, a batch every --sync-s,
 * empty or not.  A rank rank 0 has not heard of for --sync-s x 5 + 10 s
 * counts as dead, and what it sent is merged without it; a rank that has
 * not heard of rank 0 as long after its FINAL ends without BYE (mpirun must
 * be started with --enable-recovery, or it ends the whole job when a rank
 * dies).
 */
#include "mpi.h"

#ifndef CTG_HAVE_MPI

bool mpi_run(const ctg_options *o, const char *program_file, build_result *br, double t_start,
             engine_summary *s, bool *is_root, ctg_err *e)
{
    (void)o, (void)program_file, (void)br, (void)t_start, (void)s;
    *is_root = true;
    return err_set(e, "--mpi: this ctestgen was built without MPI; install libopenmpi-dev and "
                      "openmpi-bin, rebuild, and start it with mpirun");
}

#else

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../report/stats.h"
#include "jobs.h"

enum { TAG_TESTS = 71, TAG_FINAL, TAG_BYE };
enum { REC_CORPUS, REC_CRASH, REC_STATS };

typedef struct pending {
    MPI_Request req;
    uint8_t *buf;
} pending;

typedef struct mpi_state {
    int rank, size;
    const char *dir;      /* the sync directory                         */
    unsigned next_own;    /* own corpus id not yet sent                 */
    bool *final;          /* rank 0: FINAL received from rank k         */
    int n_final;
    double *heard;        /* rank 0: when rank k's last message came    */
    pending *out;         /* sends not yet complete                     */
    size_t n_out, cap_out;
    bool bye;             /* rank > 0: BYE received                     */
    bool all_alive;       /* rank > 0: BYE said that no rank died       */
    double msgs_in, bytes_in, msgs_out, bytes_out; /* rank 0's traffic  */
} mpi_state;

/* ---- records ------------------------------------------------------------ */

static void put_u32(sbuf *b, uint32_t v) { sbuf_append(b, &v, sizeof v); }

/* Appends one record: origin, kind, name, the file's bytes. */
static void put_record(sbuf *b, int origin, int kind, const char *name, const char *data,
                       size_t len)
{
    put_u32(b, (uint32_t)origin);
    put_u32(b, (uint32_t)kind);
    put_u32(b, (uint32_t)strlen(name));
    sbuf_append(b, name, strlen(name));
    put_u32(b, (uint32_t)len);
    sbuf_append(b, data, len);
}

/* Appends a file of this rank's worker directory as a record. */
static void put_file(mpi_state *M, sbuf *b, int kind, const char *sub, const char *name)
{
    char *p = engine_worker_path(M->dir, M->rank, sub, name), *data = NULL;
    size_t len = 0;
    ctg_err e = {{0}};
    if (p && fs_read(p, &data, &len, &e))
        put_record(b, M->rank, kind, name, data, len);
    ctg_free(data);
    ctg_free(p);
}

/* Writes the records of a message into the mirrors of their origins. */
static void take_records(mpi_state *M, const uint8_t *m, size_t n)
{
    static const char *const sub[] = {"corpus", "crashes", ""};
    size_t i = 0;
    while (i + 12 <= n) {
        uint32_t h[3], len;
        memcpy(h, m + i, sizeof h);
        i += sizeof h;
        if (h[1] > REC_STATS || h[2] > 200 || i + h[2] + 4 > n || (int)h[0] >= M->size)
            return;
        char name[201];
        memcpy(name, m + i, h[2]);
        name[h[2]] = '\0';
        i += h[2];
        memcpy(&len, m + i, 4);
        i += 4;
        if (i + len > n || strchr(name, '/'))
            return;
        char *d = engine_worker_path(M->dir, (int)h[0], sub[h[1]], NULL);
        char *p = engine_worker_path(M->dir, (int)h[0], sub[h[1]], name);
        ctg_err e = {{0}};
        if (d && p && fs_mkdir_p(d, &e))
            fs_write_atomic(p, (const char *)m + i, len, &e);
        ctg_free(p);
        ctg_free(d);
        i += len;
    }
}

/* ---- sending ------------------------------------------------------------- */

/* Sends a copy of data to rank `to` without blocking. */
static void send_to(mpi_state *M, int to, int tag, const void *data, size_t len)
{
    if (ctg_grow((void **)&M->out, &M->cap_out, M->n_out + 1, sizeof *M->out) != 0)
        return;
    uint8_t *copy = ctg_malloc(len ? len : 1);
    if (!copy)
        return;
    memcpy(copy, data, len);
    pending *p = &M->out[M->n_out++];
    p->buf = copy;
    M->msgs_out++, M->bytes_out += (double)len;
    MPI_Isend(copy, (int)len, MPI_BYTE, to, tag, MPI_COMM_WORLD, &p->req);
}

/* Frees the sends that completed. */
static void reap(mpi_state *M)
{
    size_t k = 0;
    for (size_t i = 0; i < M->n_out; i++) {
        int done = 0;
        MPI_Test(&M->out[i].req, &done, MPI_STATUS_IGNORE);
        if (done)
            ctg_free(M->out[i].buf);
        else
            M->out[k++] = M->out[i];
    }
    M->n_out = k;
}

/* The tests this rank's worker kept since the last batch, as records. */
static void own_tests(mpi_state *M, sbuf *b)
{
    for (;;) {
        char name[32];
        snprintf(name, sizeof name, "id-%05u", M->next_own);
        char *p = engine_worker_path(M->dir, M->rank, "corpus", name);
        bool there = p && fs_exists(p);
        ctg_free(p);
        if (!there)
            return;
        put_file(M, b, REC_CORPUS, "corpus", name);
        M->next_own++;
    }
}

/* ---- receiving ----------------------------------------------------------- */

/* Receives every message that has arrived; rank 0 forwards test batches. */
static void receive(mpi_state *M)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return;
        int n = 0;
        MPI_Get_count(&st, MPI_BYTE, &n);
        uint8_t *m = ctg_malloc((size_t)n + 1);
        if (!m)
            return;
        MPI_Recv(m, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M->msgs_in++, M->bytes_in += n;
        if (M->heard)
            M->heard[st.MPI_SOURCE] = fs_now();
        if (st.MPI_TAG == TAG_BYE)
            M->bye = true, M->all_alive = n > 0 && m[0] == 1;
        else if (M->rank == 0 || st.MPI_TAG == TAG_TESTS)
            take_records(M, m, (size_t)n);
        if (M->rank == 0 && st.MPI_TAG == TAG_TESTS && n > 0)
            for (int j = 1; j < M->size; j++)
                if (j != st.MPI_SOURCE && !M->final[j])
                    send_to(M, j, TAG_TESTS, m, (size_t)n);
        if (M->rank == 0 && st.MPI_TAG == TAG_FINAL && !M->final[st.MPI_SOURCE]) {
            M->final[st.MPI_SOURCE] = true;
            M->n_final++;
        }
        ctg_free(m);
    }
}

/* The worker's import hook: send own new tests, take the others'. */
static void pump(void *arg)
{
    mpi_state *M = arg;
    sbuf b = SBUF_INIT;
    own_tests(M, &b);
    /* also empty: the other side hears that this rank lives */
    if (M->rank == 0) {
        for (int j = 1; sbuf_ok(&b) && j < M->size; j++)
            if (!M->final[j])
                send_to(M, j, TAG_TESTS, b.data ? b.data : "", b.len);
    } else if (sbuf_ok(&b))
        send_to(M, 0, TAG_TESTS, b.data ? b.data : "", b.len);
    sbuf_release(&b);
    receive(M);
    reap(M);
}

/* Seconds without a message after which a rank counts as dead: everyone
 * sends every --sync-s while it lives. */
static double patience(const ctg_options *o) { return o->search.sync_s * 5 + 10; }

/* Waits at most `secs` for this rank's sends to complete; whether they did. */
static bool drain_sends(mpi_state *M, double secs)
{
    double until = fs_now() + secs;
    for (reap(M); M->n_out > 0 && fs_now() < until; reap(M))
        usleep(20000);
    return M->n_out == 0;
}

/* Rank > 0 after its worker: the last batch (tests, crashes, stats.json),
 * then draining until rank 0 says BYE (or goes silent).  Whether it ended
 * cleanly (BYE, every send complete): else MPI_Finalize could wait forever. */
static bool finish_rank(const ctg_options *o, mpi_state *M)
{
    sbuf b = SBUF_INIT;
    own_tests(M, &b);
    char *cd = engine_worker_path(M->dir, M->rank, "crashes", NULL), **paths = NULL;
    size_t n = 0;
    ctg_err e = {{0}};
    if (cd && fs_is_dir(cd) && fs_list_files(cd, &paths, &n, &e))
        for (size_t i = 0; i < n; i++) {
            const char *base = strrchr(paths[i], '/') + 1;
            put_file(M, &b, REC_CRASH, "crashes", base);
        }
    for (size_t i = 0; i < n; i++)
        ctg_free(paths[i]);
    ctg_free(paths);
    ctg_free(cd);
    put_file(M, &b, REC_STATS, "", "stats.json");
    send_to(M, 0, TAG_FINAL, b.data ? b.data : "", b.len);
    sbuf_release(&b);
    while (!M->bye && fs_now() - M->heard[0] < patience(o)) {
        receive(M);
        reap(M);
        usleep(20000);
    }
    if (!M->bye && !o->ui.quiet)
        fprintf(stderr, "ctestgen: rank %d: rank 0 went silent; this rank's results are in what "
                        "it sent\n", M->rank);
    /* with a rank dead, MPI_Finalize waits for it forever */
    return drain_sends(M, 10) && M->bye && M->all_alive;
}

/* Rank 0 after its worker: waits for every FINAL (a rank not heard of for
 * --sync-s x 5 + 10 s counts as dead: the others send every --sync-s),
 * then says BYE.  False when a rank was given up. */
static bool gather(const ctg_options *o, mpi_state *M)
{
    for (double beat = 0;; usleep(20000)) {
        if (fs_now() >= beat) { /* the ranks still running hear that rank 0 lives */
            beat = fs_now() + o->search.sync_s;
            for (int j = 1; j < M->size; j++)
                if (!M->final[j])
                    send_to(M, j, TAG_TESTS, "", 0);
        }
        receive(M);
        reap(M);
        bool waiting = false;
        for (int j = 1; j < M->size; j++)
            waiting |= !M->final[j] && fs_now() - M->heard[j] < patience(o);
        if (!waiting)
            break;
    }
    bool all = M->n_final == M->size - 1;
    const char alive = all; /* the others skip MPI_Finalize too when one died */
    for (int j = 1; j < M->size; j++) { /* BYE to all: one only slow must not wait forever */
        if (!M->final[j] && !o->ui.quiet)
            fprintf(stderr, "ctestgen: rank %d went silent without its final results; what it "
                            "sent before is merged\n", j);
        send_to(M, j, TAG_BYE, &alive, 1);
    }
    return all && drain_sends(M, 10);
}

/* This rank's sync directory: OUT/.jobs for rank 0, else a temporary one;
 * NULL with e set. */
static char *sync_dir(const ctg_options *o, int rank, ctg_err *e)
{
    if (rank == 0) {
        char *dir = NULL;
        bool ok = jobs_check_out(o, e) && (dir = fs_join(o->out.out_dir, ".jobs")) &&
                  fs_rm_rf(dir, e) && fs_mkdir_p(dir, e);
        if (!ok) {
            ctg_free(dir);
            return NULL;
        }
        return dir;
    }
    char prefix[32], what[32];
    snprintf(prefix, sizeof prefix, "ctg-mpi-r%d-", rank);
    snprintf(what, sizeof what, "rank %d's directory", rank);
    return fs_mkdtemp(prefix, what, e);
}

/* Rank 0: its traffic into OUT/stats.json (mpi.*), for docs/scale-out.md. */
static void record_traffic(const ctg_options *o, const mpi_state *M, double secs)
{
    char *p = fs_join(o->out.out_dir, "stats.json");
    ctg_err e = {{0}};
    stats_t *st = p ? stats_load(p, &e) : NULL;
    if (st) {
        stats_set(st, "mpi.ranks", M->size);
        stats_set(st, "mpi.seconds", secs);
        stats_set(st, "mpi.root_msgs_in", M->msgs_in);
        stats_set(st, "mpi.root_bytes_in", M->bytes_in);
        stats_set(st, "mpi.root_msgs_out", M->msgs_out);
        stats_set(st, "mpi.root_bytes_out", M->bytes_out);
        stats_write(st, p, &e);
    }
    stats_free(st);
    ctg_free(p);
}

bool mpi_run(const ctg_options *o, const char *program_file, build_result *br, double t_start,
             engine_summary *s, bool *is_root, ctg_err *e)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        MPI_Init(NULL, NULL);
    mpi_state M = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &M.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &M.size);
    *is_root = M.rank == 0;
    char *dir = sync_dir(o, M.rank, e);
    int ok = dir != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    M.dir = dir;
    M.final = ctg_calloc((size_t)M.size, sizeof *M.final);
    M.heard = ctg_calloc((size_t)M.size, sizeof *M.heard);
    for (int j = 0; M.heard && j < M.size; j++)
        M.heard[j] = fs_now();
    ctg_options w;
    char *out = all_ok && M.final && M.heard ? jobs_worker_opts(o, dir, M.rank, M.size, &w)
                                            : NULL;
    bool res = out != NULL, clean = true;
    if (!all_ok && !err_is_set(e))
        err_set(e, "--mpi: another rank could not start (see its message)");
    if (res) {
        engine_set_sync_hook(pump, &M);
        double t0 = fs_now();
        engine_summary ws;
        memset(&ws, 0, sizeof ws);
        ctg_err we = {{0}};
        if (!engine_run(&w, program_file, br, &ws, &we))
            fprintf(stderr, "ctestgen: rank %d: %s\n", M.rank, we.msg);
        engine_summary_release(&ws);
        engine_set_sync_hook(NULL, NULL);
        pump(&M);
        if (M.rank == 0) {
            clean = gather(o, &M);
            double secs = fs_now() - t0;
            res = jobs_merge(o, program_file, br, dir, M.size, t_start, s, e);
            if (res)
                record_traffic(o, &M, secs);
        } else {
            clean = finish_rank(o, &M);
            fs_rm_rf(dir, NULL);
        }
    }
    ctg_free(out);
    ctg_free(dir);
    ctg_free(M.final);
    ctg_free(M.heard);
    /* a send to a rank that died never completes, and MPI_Finalize would
     * wait for it: then the process ends without it (its buffers stay) */
    if (clean) {
        ctg_free(M.out);
        MPI_Finalize();
    }
    return res;
}

#endif
