/*
 * exec_bench.c - executions per second of ctestgen's executor on one
 * binary, independent of the command line: runs exec_run in a loop for a
 * number of seconds on inputs that change every run (8 bytes, xorshift),
 * then prints one line "execs N secs S execs_per_sec X".  Used by
 * bench/throughput.
 *
 *   exec_bench BINARY N_EDGES N_CMP SECONDS [dist]
 *   exec_bench BINARY N_EDGES N_CMP SECONDS --files FILE...
 *
 * With --files (a libFuzzer target): the files' contents, in turn, as
 * batches of up to 64 inputs (exec_run_batch, as the fuzzer runs its
 * mutants) against a known map that knows everything, so no input stops a
 * batch: the cost per run of the program, its instrumentation and the
 * executor on these inputs, without making mutants.  Used by bench/fuzz
 * (its per-run comparison on a common corpus).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/fsutil.h"
#include "base/mem.h"
#include "exec/exec.h"

#define BENCH_BATCH 64

/* The --files mode: returns the exit code. */
static int run_files(exec_t *x, uint32_t cov_len, double secs, char **files, int n_files)
{
    char **data = calloc((size_t)n_files, sizeof *data);
    const uint8_t **in = calloc((size_t)n_files, sizeof *in);
    size_t *len = calloc((size_t)n_files, sizeof *len);
    uint8_t *known = malloc(cov_len);
    if (!data || !in || !len || !known) {
        fprintf(stderr, "exec_bench: out of memory\n");
        return 1;
    }
    memset(known, 0xff, cov_len);
    for (int i = 0; i < n_files; i++) {
        ctg_err e = {{0}};
        if (!fs_read(files[i], &data[i], &len[i], &e)) {
            fprintf(stderr, "exec_bench: %s\n", e.msg);
            return 1;
        }
        in[i] = (const uint8_t *)data[i];
    }
    uint64_t n = 0;
    double t0 = fs_now(), t = t0;
    int at = 0;
    while (t - t0 < secs) {
        uint32_t k = (uint32_t)(n_files - at < BENCH_BATCH ? n_files - at : BENCH_BATCH);
        exec_batch b;
        exec_result r;
        ctg_err e = {{0}};
        if (!exec_run_batch(x, in + at, len + at, k, known, 0, &b, &r,
                            &e)) {
            fprintf(stderr, "exec_bench: %s\n", e.msg);
            return 1;
        }
        n += b.ran;
        at = (at + (int)b.ran) % n_files;
        t = fs_now();
    }
    printf("execs %llu secs %.2f execs_per_sec %.0f\n", (unsigned long long)n, t - t0,
           (double)n / (t - t0));
    for (int i = 0; i < n_files; i++)
        ctg_free(data[i]);
    free(data), free(in), free(len), free(known);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: exec_bench BINARY N_EDGES N_CMP SECONDS [dist]\n");
        return 2;
    }
    exec_config c = {argv[1], (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), 1000, 0, NULL, NULL, 0, NULL, 0, false};
    double secs = atof(argv[4]);
    bool files = argc > 5 && strcmp(argv[5], "--files") == 0;
    if (files && argc == 6) {
        fprintf(stderr, "exec_bench: --files needs at least one FILE\n");
        return 2;
    }
    uint32_t flags = argc > 5 && strcmp(argv[5], "dist") == 0 ? CTG_FL_DIST : 0;
    ctg_err e = {{0}};
    exec_t *x = exec_new(&c, &e);
    if (!x) {
        fprintf(stderr, "exec_bench: %s\n", e.msg);
        return 1;
    }
    if (files) {
        if (!exec_can_batch(x)) {
            fprintf(stderr, "exec_bench: %s: --files needs a libFuzzer target\n", argv[1]);
            exec_free(x);
            return 1;
        }
        int rc = run_files(x, (uint32_t)ctg_cov_len(c.n_edges, c.n_cmp), secs, argv + 6, argc - 6);
        exec_free(x);
        return rc;
    }
    uint64_t s = 0x9e3779b97f4a7c15ull, n = 0;
    uint8_t in[8];
    double t0 = fs_now(), t = t0;
    while (t - t0 < secs) {
        for (int k = 0; k < 64; k++, n++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            memcpy(in, &s, sizeof in);
            exec_result r;
            if (!exec_run(x, in, sizeof in, flags, n, &r, &e)) {
                fprintf(stderr, "exec_bench: %s\n", e.msg);
                exec_free(x);
                return 1;
            }
        }
        t = fs_now();
    }
    printf("execs %llu secs %.2f execs_per_sec %.0f\n", (unsigned long long)n, t - t0,
           (double)n / (t - t0));
    exec_free(x);
    return 0;
}
